"""The game pages of the docs site hold every rule ID the code and the tests cite, and tables equal to the kernels'.

``docs/games/<game>.md`` is written by hand except its observation and action tables, which
``scripts/gen_game_tables.py`` writes from the kernel's layouts: regenerating a page here must change nothing.
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
import subprocess

import pytest

from tabletop_zoo import registry

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "games"
SPECS = ROOT.parent / "shared" / "rules"
# the pattern tests/contract/test_rule_citations.py reads: IG-DIV-3, VR-BORDER-1, FR-RA-VOTE
RULE_ID = re.compile(r"\b(?:IMP|IG|VR|KRM|FR)-[A-Z]{1,6}-(?:\d+|[A-Z]{2,}\b)")
GAME_OF_PREFIX = {
    "IG": "irish_gauge",
    "IMP": "imperial",
    "VR": "veld_railroads",
    "KRM": "kremlin",
    "FR": "french_revolution_1789",
}
GAMES = sorted(registry.GAMES)


def generator():
    spec = importlib.util.spec_from_file_location("gen_game_tables", ROOT / "scripts" / "gen_game_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cited_ids() -> dict[str, set[str]]:
    """Rule IDs named anywhere in the tracked Python sources and tests, by game."""
    files = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    found: dict[str, set[str]] = {g: set() for g in GAMES}
    for name in files:
        path = ROOT / name
        if path.is_file():
            for rule in RULE_ID.findall(path.read_text(encoding="utf-8", errors="replace")):
                found[GAME_OF_PREFIX[rule.split("-")[0]]].add(rule)
    return found


def page_ids(game: str) -> set[str]:
    return set(RULE_ID.findall((PAGES / f"{game}.md").read_text(encoding="utf-8")))


def test_every_game_has_a_page_with_both_generated_tables_and_a_small_picture():
    assert sorted(p.stem for p in PAGES.glob("*.md") if p.stem != "index") == GAMES
    for game in GAMES:
        text = (PAGES / f"{game}.md").read_text(encoding="utf-8")
        for table in ("observation", "action"):
            assert f"<!-- generated: {table} -->" in text, f"{game}.md lacks its generated {table} table"
        picture = ROOT / "docs" / "assets" / "games" / f"{game}.png"
        assert f"../assets/games/{game}.png" in text and picture.is_file()
        assert picture.stat().st_size < 150_000, f"{picture} is {picture.stat().st_size} bytes: keep it under 150 kB"
        assert f"../rules/{game}.md" in text, f"{game}.md should link the project's decisions page"


def test_the_scanner_reads_rule_ids_from_the_code_and_the_pages():
    cited = cited_ids()
    assert "IG-DIV-3" in cited["irish_gauge"] and "KRM-END-3" in cited["kremlin"]
    assert not any(i.startswith("IG-") for i in cited["kremlin"])
    assert "IG-DIV-3" in page_ids("irish_gauge")


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_the_code_or_the_tests_cite_is_on_its_game_page(game):
    missing = sorted(cited_ids()[game] - page_ids(game))
    assert not missing, f"docs/games/{game}.md does not mention these rule IDs that code or tests cite: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_of_the_spec_is_on_its_game_page(game):
    spec = SPECS / f"{game}.md"
    if not spec.is_file():
        pytest.skip(f"the rules spec {spec} is not beside this checkout")
    missing = sorted(set(RULE_ID.findall(spec.read_text(encoding="utf-8"))) - page_ids(game))
    assert not missing, f"docs/games/{game}.md lacks these rule IDs of its spec: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_the_generated_tables_equal_the_kernels(game):
    page = PAGES / f"{game}.md"
    text = page.read_text(encoding="utf-8")
    assert generator().regenerate(text, game) == text, (
        f"{page.relative_to(ROOT)}: its observation or action table differs from the kernel's layout; "
        "run python scripts/gen_game_tables.py"
    )


def test_a_changed_layout_changes_the_table():
    """The comparison has teeth: a table is rebuilt from the layout, not copied from the page."""
    gen = generator()
    text = (PAGES / "irish_gauge.md").read_text(encoding="utf-8")
    broken = text.replace("| `cash_by_seat` | 21 |", "| `cash_by_seat` | 22 |")
    assert broken != text and gen.regenerate(broken, "irish_gauge") == text
