"""Every rule ID of every spec (``../shared/rules/<game>.md``) is cited, hyphenated, by a test that checks it.

A citation counts when the ID (``IG-DIV-3``) appears in the docstring or body of a test function in the game's
own test folder (``tests/<game>/``), so one grep finds a rule's code (``# IG-DIV-3``) and its test, and this
file's own examples cite nothing. Underscore spellings in test names
(``test_..._IG_DIV_3``) do not count: they do not grep alongside the code.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import re

from tabletop_zoo import registry

TESTS = pathlib.Path(__file__).parents[1]
RULES = TESTS.parent.parent / "shared" / "rules"
# IG-DIV-3, VR-BORDER-1, FR-RA-VOTE; a suffix is not part of the ID (IG-DIV-3a cites IG-DIV-3)
RULE_ID = re.compile(r"\b(?:IMP|IG|VR|KRM|FR)-[A-Z]{1,6}-(?:\d+|[A-Z]{2,}\b)")


def spec_ids(game_id: str) -> set[str]:
    path = RULES / f"{game_id}.md"
    assert path.is_file(), f"the rules spec {path} is missing: clone the project beside ../shared"
    return set(RULE_ID.findall(path.read_text(encoding="utf-8")))


@functools.cache
def cited_ids(game_id: str) -> frozenset[str]:
    """IDs named inside test functions (docstring, body, comments) under tests/<game>/."""
    found = set()
    for path in (TESTS / game_id).rglob("test_*.py"):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                body = "\n".join(lines[node.lineno - 1 : node.end_lineno])  # whole lines: trailing comments too
                found |= set(RULE_ID.findall(body))
    return frozenset(found)


def uncited(game_id: str) -> list[str]:
    return sorted(
        spec_ids(game_id) - cited_ids(game_id), key=lambda i: (i.rsplit("-", 1)[0], i.rsplit("-", 1)[1].zfill(9))
    )


def test_the_scanner_reads_ids_from_the_specs_and_the_tests():
    assert {"IG-DIV-3", "IG-SETUP-1", "IMP-TAX-1", "KRM-END-3", "FR-GEN-1", "FR-RA-VOTE", "VR-BORDER-1"} <= set().union(
        *(spec_ids(g) for g in registry.GAMES)
    )
    assert "IG-DIV-3" in cited_ids("irish_gauge")  # tests/irish_gauge cite it in a docstring
    assert not any(i.startswith("XX-") for i in cited_ids("irish_gauge"))
    assert not any(i.startswith("IG-") for i in cited_ids("kremlin"))  # a game's folder cites its own rules


def test_every_rule_id_is_cited_by_a_test():
    missing = {g: uncited(g) for g in sorted(registry.GAMES)}
    missing = {g: ids for g, ids in missing.items() if ids}
    counts = ", ".join(f"{g} {len(ids)}" for g, ids in missing.items())
    assert not missing, f"uncited rule IDs ({counts}): {missing}"
