"""Layers flow one way (kernels import nothing above them), no framework module names a game, and the numba cache
key covers what compiled code reads.

The import graph is checked twice: dynamically (a fresh interpreter imports one kernel and must not have loaded
the registry, the envs, the agents, PettingZoo or Gymnasium) and statically (no ``import`` statement under
``kernels/`` names a module above it), so an import hidden in a function body is caught as well.

The rules, precisely:
- *Kernels import nothing above them*: a file under ``kernels/`` imports only the standard library, numpy, numba
  (llvmlite too: numba's code generator) and ``tabletop_zoo.kernels``; a game's room (``kernels/<game>/``) imports only itself and ``kernels/_common``,
  and ``kernels/_common`` imports no room.
- *No framework module names a game*: a per-game module is one in a game's folder (``kernels/<game>/``) or named
  after its game (``envs/<game>_v0.py``, ``agents/heuristics/<game>.py``, ``envs/render/<game>.py``,
  ``tabletop_zoo/serve/boards/<game>.py``, any ``<game>.py``); the registry (``tabletop_zoo/registry.py``) is the
  one list of the games. Every other module of the library is framework: its code holds no string that is a game
  id (a default game, a set of special games, ``game == "kremlin"``) and imports no game's module by name. Prose
  (docstrings, help texts and messages that mention a game as an example) is not code; tests are not library.
"""

from __future__ import annotations

import ast
import importlib
import json
import pathlib
import shutil
import subprocess
import sys

import tabletop_zoo
import tabletop_zoo.envs.render
from tabletop_zoo import _numba_cache, registry
from tabletop_zoo.kernels._common import contract, dispatch

KERNELS = pathlib.Path(tabletop_zoo.kernel("irish_gauge").__file__).parents[1]
ABOVE = ("tabletop_zoo.registry", "tabletop_zoo.envs", "tabletop_zoo.agents", "pettingzoo", "gymnasium")


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_importing_the_kernels_loads_nothing_above_them():
    """One fresh interpreter imports every kernel (if all of them load nothing above, neither does each),
    then asks the registry for a kernel and its player counts, which must not import a door either; then
    imports PettingZoo, which must find our games registered (the post-import hook in tabletop_zoo)."""
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in sorted(registry.KERNELS.values()))
        + f"print(sorted(m for m in sys.modules if m.startswith({ABOVE!r})))\n"
        "import tabletop_zoo\n"
        "k = tabletop_zoo.kernel('kremlin')\n"
        "assert tabletop_zoo.player_counts('kremlin') == range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('tabletop_zoo.envs', 'pettingzoo'))))\n"
        "import pettingzoo\n"
        "print(sorted(i for i in pettingzoo.aec_registry if i.startswith('tabletop_zoo/')))"
    )
    kernels_only, after_registry, in_pettingzoo = _run(code).splitlines()
    assert eval(kernels_only) == []
    assert eval(after_registry) == []
    assert eval(in_pettingzoo) == sorted(f"tabletop_zoo/{g}-v0" for g in registry.GAMES)


def test_pettingzoo_imported_first_gets_our_games_too():
    import pettingzoo

    tabletop_zoo._register_with(pettingzoo)  # what ``import tabletop_zoo`` does when it is loaded
    env = pettingzoo.make("aec", "tabletop_zoo/irish_gauge-v0")
    assert type(env).__module__ == registry.GAMES["irish_gauge"]


def _imported_names(path: pathlib.Path, package: str | None = None) -> list[str]:
    """Absolute module names of every import in a file (relative ones resolved against its package, by default
    the kernel package the file sits in)."""
    package = package or "tabletop_zoo.kernels." + ".".join(path.relative_to(KERNELS).parent.parts)
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.rstrip(".").split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            names += [base] + [f"{base}.{a.name}" for a in node.names]
    return names


def test_no_kernel_file_imports_a_module_above_kernels():
    offenders = []
    for path in sorted(KERNELS.rglob("*.py")):
        for name in _imported_names(path):
            top_level_pkg = name == "tabletop_zoo" or (
                name.startswith("tabletop_zoo.") and not name.startswith("tabletop_zoo.kernels")
            )
            if top_level_pkg or name.split(".")[0] in ("pettingzoo", "gymnasium", "torch"):
                offenders.append(f"{path.relative_to(KERNELS)}: {name}")
    assert offenders == []


def test_a_kernel_imports_only_numpy_numba_the_standard_library_and_its_own_room():
    offenders = []
    for path in sorted(KERNELS.rglob("*.py")):
        rel = path.relative_to(KERNELS)
        room = rel.parts[0] if len(rel.parts) > 1 else None
        allowed = {"_common"} if room == "_common" else {"_common", room}
        for name in _imported_names(path):
            parts = name.split(".")
            if parts[0] == "tabletop_zoo":
                inside = parts[1:2] == ["kernels"] and (len(parts) < 3 or room is None or parts[2] in allowed)
            else:
                # llvmlite: numba's own code generator (the cache hints of kernels/_common/prefetch.py)
                inside = parts[0] in ("numpy", "numba", "llvmlite") or parts[0] in sys.stdlib_module_names
            if not inside:
                offenders.append(f"kernels/{rel}: {name}")
    assert offenders == []


# --- no framework module names a game ------------------------------------------------------------------------
PACKAGE = KERNELS.parent
# Framework modules that name a game today, as (file, what): the fix is a fact in the registry or the kernel
# contract (a default game), outside this test's change. The list may only shrink: a new entry fails the test,
# and so does a fixed one still listed.
KNOWN_NAMING: set[tuple[str, str]] = set()  # none left: a default game is registry.DEFAULT_GAME


def _per_game(rel: pathlib.PurePath) -> bool:
    return any(part in registry.GAMES for part in rel.parts[:-1]) or rel.stem.removesuffix("_v0") in registry.GAMES


def _games_named(path: pathlib.Path) -> set[str]:
    """The game ids a module's code names: string constants equal to one (docstrings aside) and imports of a
    game's module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    named = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in registry.GAMES and id(node) not in docstrings:
            named.add(node.value)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
            named |= {part for m in modules for part in m.split(".") if part in registry.GAMES}
    return named


def test_no_framework_module_names_a_game():
    found = set()
    for folder in ("tabletop_zoo", "kernels", "agents", "envs"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            rel = path.relative_to(PACKAGE)
            if not _per_game(rel) and rel.as_posix() != "tabletop_zoo/registry.py":
                found |= {(rel.as_posix(), game) for game in _games_named(path)}
    assert sorted(found - KNOWN_NAMING) == [], "framework modules that name a game (read it from the registry)"
    assert sorted(KNOWN_NAMING - found) == [], "no longer names the game: drop it from KNOWN_NAMING"


def test_the_game_scan_sees_code_not_prose(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        '''"""Docs may say make_env("kremlin")."""
from tabletop_zoo.kernels import imperial
SPECIAL = {"kremlin"}
HELP = "a game id, e.g. irish_gauge"
'''
    )
    assert _games_named(sample) == {"imperial", "kremlin"}
    assert _per_game(pathlib.PurePath("envs/render/kremlin.py")) and _per_game(pathlib.PurePath("envs/kremlin_v0.py"))
    assert _per_game(pathlib.PurePath("kernels/kremlin/rules.py")) and not _per_game(pathlib.PurePath("envs/base.py"))


def test_no_picture_imports_a_door():
    """Inside ``envs`` the layers flow one way too: a door loads its picture (``envs/render/<game>.py``) on first
    use, and a picture reads the labels it shares with the text table from the kernel room
    (``kernels/<game>/names.py``), never from the door."""
    render = pathlib.Path(tabletop_zoo.envs.render.__file__).parent
    offenders = [
        f"render/{path.name}: {name}"
        for path in sorted(render.glob("*.py"))
        for name in _imported_names(path, "tabletop_zoo.envs.render")
        if name.startswith("tabletop_zoo.envs.") and not name.startswith("tabletop_zoo.envs.render")
    ]
    assert offenders == []


def test_the_static_scan_resolves_relative_imports():
    """The scan above would miss ``from ... import registry``; pin how it reads such a line."""
    sample = KERNELS / "_common" / "dispatch.py"
    assert "tabletop_zoo.kernels._common.masks.sample_legal" in _imported_names(sample)


def test_kernels_register_their_record_dtype_themselves(game_id):
    k = registry.kernel(game_id)
    assert dispatch.kernel_for(k.STATE) is k


def test_every_kernel_states_default_players_and_utility():
    for game_id in registry.KERNELS:
        k = registry.kernel(game_id)
        assert contract.contract_problems(k) == [], game_id
        assert k.MIN_PLAYERS <= k.DEFAULT_PLAYERS <= k.MAX_PLAYERS
        assert k.UTILITY in contract.UTILITIES


def test_utility_follows_the_reward_option():
    imperial = registry.kernel("imperial")
    assert imperial.utility(imperial.resolve_options(reward="score_margin")) == "zero_sum"
    assert imperial.utility(imperial.resolve_options(reward="win_share")) == "constant_sum"
    kremlin = registry.kernel("kremlin")
    assert kremlin.utility(kremlin.resolve_options()) == "general_sum"  # KRM-END-3 truncation pays 0
    assert kremlin.utility(kremlin.resolve_options(turn_limit_ranking=True)) == "constant_sum"


def test_contract_checker_rejects_a_default_outside_the_player_range():
    class Fake:
        MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS, UTILITY = 3, 5, 6, "sometimes"

    problems = contract._default_problems(Fake)
    assert any("DEFAULT_PLAYERS=6" in p for p in problems) and any("UTILITY='sometimes'" in p for p in problems)


# --- numba cache key -------------------------------------------------------------------------------
def test_cache_digest_changes_when_a_data_json_changes(tmp_path):
    src = KERNELS / "imperial" / "data"
    copy = tmp_path / "kernels" / "imperial" / "data"
    shutil.copytree(src, copy)
    shutil.copy(KERNELS / "imperial" / "tables.py", copy.parent / "tables.py")
    before = _numba_cache.digest_files([tmp_path / "kernels"])
    assert _numba_cache.digest_files([tmp_path / "kernels"]) == before  # deterministic
    tables = copy / "tables.json"
    data = json.loads(tables.read_text())
    data["_edited_by_test"] = 1  # any change to a value the compiled code may read
    tables.write_text(json.dumps(data))
    after_json = _numba_cache.digest_files([tmp_path / "kernels"])
    assert after_json != before
    (copy.parent / "tables.py").write_text((copy.parent / "tables.py").read_text() + "\n# edited\n")
    after_py = _numba_cache.digest_files([tmp_path / "kernels"])
    assert after_py not in (before, after_json)
    (copy.parent / "README.md").write_text("prose is not read by compiled code")
    (copy.parent / "__pycache__").mkdir()
    (copy.parent / "__pycache__" / "x.json").write_text("{}")
    assert _numba_cache.digest_files([tmp_path / "kernels"]) == after_py


def test_the_cache_folder_is_keyed_by_the_digest_of_the_installed_tree():
    assert tabletop_zoo.NUMBA_CACHE_DIR.endswith(f"tabletop_zoo-{_numba_cache.source_digest()}")
    roots = _numba_cache.package_roots()
    assert KERNELS in roots and any(list(r.rglob("*.json")) for r in roots)


def test_every_file_with_numba_code_is_inside_the_digest():
    package = pathlib.Path(tabletop_zoo.__file__).parents[1]
    roots = [r.resolve() for r in _numba_cache.package_roots()]
    outside = []
    for folder in ("tabletop_zoo", "kernels", "agents", "envs"):
        for path in (package / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            inside = path.resolve() in _numba_cache.FILES or any(path.resolve().is_relative_to(r) for r in roots)
            if ("@njit" in text or "@numba.njit" in text or "@overload" in text) and not inside:
                outside.append(str(path.relative_to(package)))
    assert outside == []


# What the agents and the envs may import of the package root: the registry (game id -> kernel and door), the
# first-use and file helpers they share, nothing that uses them (training, tournaments, the CLI, the web app, ...)
BELOW_AGENTS_AND_ENVS = ("registry", "files", "progress", "_numba_cache")


def _package_of(path: pathlib.Path, root: pathlib.Path, package: str) -> str:
    return ".".join([package, *path.relative_to(root).parent.parts])


def test_no_agent_or_env_imports_the_floors_above_them():
    """Layers flow one way above the kernels too: an agent never imports a trainer (a file format it plays lives
    beside it: agents/policy_network.py, agents/az/network.py), and neither agents nor envs import the arena, the
    CLI, the web app, the benchmarks or the precompiler, which all import them."""
    offenders = []
    for package in ("tabletop_zoo.agents", "tabletop_zoo.envs"):
        root = pathlib.Path(importlib.import_module(package).__file__).parent
        for path in sorted(root.rglob("*.py")):
            for name in _imported_names(path, _package_of(path, root, package)):
                parts = name.split(".")
                if parts[0] == "tabletop_zoo" and len(parts) > 1 and parts[1] not in ("agents", "envs", "kernels"):
                    if parts[1] not in BELOW_AGENTS_AND_ENVS:
                        offenders.append(f"{package}/{path.relative_to(root)}: {name}")
    assert offenders == []


def test_the_layer_scan_sees_an_agent_importing_a_trainer(tmp_path):
    sample = tmp_path / "agent.py"
    sample.write_text("def f():\n    from ..training.run import prepare_out\n")
    assert "tabletop_zoo.training.run.prepare_out" in _imported_names(sample, "tabletop_zoo.agents")
