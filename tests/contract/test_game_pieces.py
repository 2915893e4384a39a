"""Every registered game has all of its pieces: the "add a game" checklist of CONTRIBUTING.md as a test.

A game is one room (``kernels/<game>/``) plus a door (``envs/<game>_v0.py``), a scene, a heuristic, its
tests, its rule decisions and its lines in pyproject.toml. ``missing_pieces`` names what is absent, so a new
game registered in ``tabletop_zoo/registry.py`` fails here until every step of the checklist is done.
"""

from __future__ import annotations

import pathlib
import re
import tomllib

from tabletop_zoo import registry
from tabletop_zoo.envs.base import RENDER_FPS, KernelAECEnv

ROOT = pathlib.Path(__file__).parents[2]


# CONTRIBUTING.md's "Adding a game" checklist: its steps in order, and the step each piece ``missing_pieces``
# checks belongs to (the spec lives outside the repository and the registry is checked below, by importing)
STEPS = ("Spec", "Room", "Registry", "Door", "Scene", "Heuristic", "Tests", "Docs", "Packaging")
STEP_OF_PIECE = {
    "kernel room": "Room",
    "kernel data": "Room",
    "kernel data JSON": "Room",
    "door": "Door",
    "scene": "Scene",
    "heuristic": "Heuristic",
    "tests folder": "Tests",
    "rule tests": "Tests",
    "golden playthroughs": "Tests",
    "rule decisions": "Docs",
    "README games table row": "Docs",
    "pyproject packages entry": "Packaging",
    "pyproject package-data entry": "Packaging",
}

# CONTRIBUTING.md's checklist, step Tests: the tests every room has
TEST_FILES = ("test_rules.py", "test_examples.py", "test_data_matches_spec.py", "test_render.py", "test_layout.py")


def missing_pieces(game_id: str, root: pathlib.Path = ROOT) -> list[str]:
    """Each checklist piece of ``game_id`` absent under ``root`` (files and pyproject lines only)."""
    g = game_id
    files = {
        "kernel room": root / "kernels" / g / "__init__.py",
        "kernel data": root / "kernels" / g / "data",
        "door": root / "envs" / f"{g}_v0.py",
        "scene": root / "envs" / "render" / f"{g}.py",  # the picture: rgb_array and the web app's board
        "heuristic": root / "agents" / "heuristics" / f"{g}.py",
        "tests folder": root / "tests" / g / "__init__.py",
        "rule decisions": root / "docs" / "rules" / f"{g}.md",
    }
    missing = [f"{piece} ({path.relative_to(root)})" for piece, path in files.items() if not path.exists()]
    if files["kernel data"].is_dir() and not list(files["kernel data"].glob("*.json")):
        missing.append(f"kernel data JSON (kernels/{g}/data/*.json)")
    if files["tests folder"].exists():
        missing += [f"rule tests (tests/{g}/{name})" for name in TEST_FILES if not (root / "tests" / g / name).exists()]
    readme = root / "README.md"
    if not readme.exists() or f"| `{g}` |" not in readme.read_text(encoding="utf-8"):
        missing.append(f"README games table row (| ... | `{g}` | ...)")
    if not list((root / "tests" / "contract" / "playthroughs").glob(f"{g}_*.txt")):
        missing.append(f"golden playthroughs (tests/contract/playthroughs/{g}_*.txt)")
    setuptools = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    package = f"tabletop_zoo.kernels.{g}"
    for listed in (package, f"{package}.data"):  # the data folder is a package too (no setuptools warning)
        if listed not in setuptools["packages"]:
            missing.append(f"pyproject packages entry {listed!r}")
    if "*.json" not in setuptools.get("package-data", {}).get(f"{package}.data", []):
        missing.append(f"pyproject package-data entry {package + '.data'!r} = ['*.json', ...]")
    return missing


def test_every_registered_game_has_all_its_pieces(game_id):
    assert missing_pieces(game_id) == []


def test_the_registry_maps_each_game_to_its_room_and_door(game_id):
    assert registry.KERNELS[game_id] == f"tabletop_zoo.kernels.{game_id}"
    assert registry.GAMES[game_id] == f"tabletop_zoo.envs.{game_id}_v0"
    door = registry.env_module(game_id)
    assert door.raw_env.kernel is registry.kernel(game_id)
    assert "rgb_array" in door.raw_env.metadata["render_modes"] and callable(door.raw_env.render_rgb)
    # The door's own class (PettingZoo tools and pickle find it there) and env(), from the factory in envs/base.py.
    assert door.raw_env.__module__ == door.__name__ and callable(door.render_ansi)
    assert door.raw_env.metadata["name"] == f"{game_id}_v{door.raw_env.kernel.VERSION}"
    assert type(door.env(num_players=door.raw_env.kernel.DEFAULT_PLAYERS)) is door.raw_env


def test_the_door_factory_derives_metadata_a_door_may_override():
    """A door states only its kernel and text; a game without a picture lists its render modes itself."""

    class text_only(KernelAECEnv):
        kernel = registry.kernel("irish_gauge")
        render_ansi = staticmethod(str)
        metadata = {"render_modes": ["ansi"]}

    assert text_only.metadata == {
        "render_modes": ["ansi", "human"],
        "name": "irish_gauge_v0",
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }


def test_the_heuristic_is_found_by_game_id(game_id):
    from tabletop_zoo.agents import heuristic_class

    assert heuristic_class(game_id).__module__ == f"tabletop_zoo.agents.heuristics.{game_id}"


def test_a_game_without_its_pieces_is_named_piece_by_piece(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.setuptools]\npackages = ["tabletop_zoo"]\n')
    (tmp_path / "tests" / "contract" / "playthroughs").mkdir(parents=True)
    missing = missing_pieces("sixth_game", tmp_path)
    for piece in (
        "kernel room",
        "door",
        "scene",
        "heuristic",
        "tests folder",
        "rule decisions",
        "README games table row",
        "golden playthroughs",
        "pyproject packages entry",
        "pyproject package-data entry",
    ):
        assert any(m.startswith(piece) for m in missing), piece
    (tmp_path / "tests" / "sixth_game").mkdir()
    (tmp_path / "tests" / "sixth_game" / "__init__.py").write_text("")
    missing = missing_pieces("sixth_game", tmp_path)
    assert {m for m in missing if m.startswith("rule tests")} == {
        f"rule tests (tests/sixth_game/{f})" for f in TEST_FILES
    }


def checklist_steps(text: str) -> list[str]:
    """The bold step names of the "Adding a game" section of CONTRIBUTING.md, in order."""
    section = text.split("## Adding a game", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d+\. \*\*(\w+)\.\*\*", section, flags=re.MULTILINE)


def test_the_checklist_in_contributing_is_the_one_this_test_checks(tmp_path):
    """CONTRIBUTING.md lists the steps STEPS names, in order, and every piece checked belongs to one of them."""
    assert checklist_steps((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")) == list(STEPS)
    assert set(STEP_OF_PIECE.values()) <= set(STEPS)
    missing = missing_pieces("sixth_game", _empty_checkout(tmp_path))
    assert missing and all(any(m.startswith(piece) for piece in STEP_OF_PIECE) for m in missing), missing


def _empty_checkout(root: pathlib.Path) -> pathlib.Path:
    """A checkout with a sixth game's empty folders: every piece it lacks is named."""
    (root / "pyproject.toml").write_text('[tool.setuptools]\npackages = ["tabletop_zoo"]\n')
    (root / "tests" / "contract" / "playthroughs").mkdir(parents=True)
    (root / "kernels" / "sixth_game" / "data").mkdir(parents=True)
    (root / "tests" / "sixth_game").mkdir(parents=True)
    (root / "tests" / "sixth_game" / "__init__.py").write_text("")
    return root
