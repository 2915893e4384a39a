"""Machine code built at release time loads where a user installs it (``tabletop_zoo/_numba_cache.py``): numba's
cache of our functions survives the tree being moved, the baseline CPU is chosen only when the shipped code fits,
the user's cache folder is seeded atomically, and only the package's own folder is ever seeded from."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import numba
import pytest

from tabletop_zoo import _numba_cache as c

MODULE = textwrap.dedent(
    """
    from numba import njit

    @njit(cache=True)
    def triple(x):
        return 3 * x
    """
)
# Imports a module file under a given name, calls its cached function and reports numba's cache hits and misses.
CHILD = textwrap.dedent(
    """
    import importlib.util, json, sys
    import tabletop_zoo  # numba's cache folder and our locator
    path, name = sys.argv[1:]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    assert module.triple(2) == 6
    f = module.triple
    print(json.dumps({"hits": sum(f._cache_hits.values()), "misses": sum(f._cache_misses.values())}))
    """
)


def _call(module: pathlib.Path, name: str, cache: pathlib.Path) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(module), name], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def _moved(tmp_path: pathlib.Path, name: str) -> tuple[dict, dict]:
    """Compile ``triple`` from a module in tree A, copy the tree (new modification times) and the cache, and call it
    from the copy: numba's cache counts of both runs."""
    a, b = tmp_path / "a" / "pkg", tmp_path / "b" / "elsewhere" / "pkg"
    a.mkdir(parents=True)
    (a / "relocated.py").write_text(MODULE)
    built = _call(a / "relocated.py", name, tmp_path / "cache_a")
    shutil.copytree(a, b, copy_function=shutil.copy)  # not copy2: the copy has new modification times
    os.utime(b / "relocated.py", (1, 1))
    shutil.copytree(tmp_path / "cache_a", tmp_path / "cache_b")
    return built, _call(b / "relocated.py", name, tmp_path / "cache_b")


def test_our_cached_function_loads_from_a_moved_tree_without_compiling(tmp_path):
    built, moved = _moved(tmp_path, f"{c.PACKAGE}._relocated_for_test")
    assert built == {"hits": 0, "misses": 1}
    assert moved == {"hits": 1, "misses": 0}


def test_numba_s_own_locator_would_compile_again_in_the_moved_tree(tmp_path):
    """The control: a module outside our package keeps numba's locator, keyed by the file's absolute folder."""
    built, moved = _moved(tmp_path, "relocated_elsewhere")
    assert built == moved == {"hits": 0, "misses": 1}


def test_the_locator_serves_only_our_own_modules():
    from tabletop_zoo.kernels._common import masks

    assert c.PackageCacheLocator in c._CacheImpl._locator_classes
    assert c.package_of(masks.sample_legal.py_func) == "tabletop_zoo.kernels._common"
    assert c.package_of(shutil.copy) is None  # not ours
    namespace = {"__name__": "tabletop_zoo.kernels._common.masks"}
    exec(compile("def stranger(): pass", "/somewhere/else.py", "exec"), namespace)
    assert c.package_of(namespace["stranger"]) is None  # claims our module but was defined in another file


# --- which CPU numba compiles for -------------------------------------------------------------------------------


@pytest.fixture
def cpu(monkeypatch, tmp_path):
    """numba's CPU settings restored after the test, its code generator taken as not built yet, and a shipped
    folder (without a manifest) to fill."""
    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    monkeypatch.setattr(numba.config, "CPU_FEATURES", None)
    monkeypatch.setattr(c, "codegen_built", lambda: False)
    monkeypatch.setattr(c, "host_has_baseline", lambda: True)
    shipped = tmp_path / "compiled" / "0123456789abcdef"
    shipped.mkdir(parents=True)
    return shipped


def test_the_baseline_cpu_is_chosen_when_the_shipped_code_fits(cpu):
    (cpu / c.MANIFEST).write_text(json.dumps(c.build_manifest()))
    assert c.use_baseline_cpu(cpu)
    assert (numba.config.CPU_NAME, numba.config.CPU_FEATURES) == (c.BASELINE_CPU, "")


@pytest.mark.parametrize("field", ["numba", "python", "triple", "cpu"])
def test_no_baseline_cpu_for_code_built_by_or_for_anything_else(cpu, field):
    (cpu / c.MANIFEST).write_text(json.dumps({**c.build_manifest(), field: "other"}))
    assert not c.use_baseline_cpu(cpu)
    assert numba.config.CPU_NAME is None


def test_no_baseline_cpu_without_shipped_code_or_on_an_older_cpu(cpu, monkeypatch):
    assert not c.use_baseline_cpu(cpu)  # no manifest: nothing shipped for these sources
    (cpu / c.MANIFEST).write_text("{not json")
    assert not c.use_baseline_cpu(cpu)
    (cpu / c.MANIFEST).write_text(json.dumps(c.build_manifest()))
    monkeypatch.setattr(c, "host_has_baseline", lambda: False)
    assert not c.use_baseline_cpu(cpu)
    assert numba.config.CPU_NAME is None


def test_the_host_needs_every_baseline_feature(monkeypatch):
    import llvmlite.binding as ll

    everything = dict.fromkeys(c.BASELINE_FEATURES, True)
    monkeypatch.setattr(ll, "get_host_cpu_features", lambda: everything)
    assert c.host_has_baseline()
    monkeypatch.setattr(ll, "get_host_cpu_features", lambda: {**everything, "avx2": False})  # a 2013 CPU
    assert not c.host_has_baseline()


def test_the_user_s_cpu_wins(cpu, monkeypatch):
    (cpu / c.MANIFEST).write_text(json.dumps(c.build_manifest()))
    monkeypatch.setattr(numba.config, "CPU_NAME", "znver3")  # NUMBA_CPU_NAME
    assert not c.use_baseline_cpu(cpu)
    assert (numba.config.CPU_NAME, numba.config.CPU_FEATURES) == ("znver3", None)
    monkeypatch.setattr(numba.config, "CPU_NAME", None)
    monkeypatch.setattr(numba.config, "CPU_FEATURES", "+avx2")  # NUMBA_CPU_FEATURES alone
    assert not c.use_baseline_cpu(cpu)


def test_no_baseline_cpu_once_numba_built_its_code_generator(cpu, monkeypatch):
    (cpu / c.MANIFEST).write_text(json.dumps(c.build_manifest()))
    monkeypatch.setattr(c, "codegen_built", lambda: True)
    assert not c.use_baseline_cpu(cpu)


# --- seeding the user's cache folder -------------------------------------------------------------------------------


def _shipped(tmp_path: pathlib.Path) -> pathlib.Path:
    shipped = tmp_path / "shipped"
    (shipped / "tabletop_zoo.kernels.irish_gauge").mkdir(parents=True)
    (shipped / "tabletop_zoo.kernels.irish_gauge" / "rules.step-10.py311.nbi").write_bytes(b"index")
    (shipped / "compiled").mkdir()
    (shipped / "compiled" / "irish_gauge.env").write_text("marker")
    return shipped


def _files(root: pathlib.Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_an_empty_cache_folder_starts_as_a_copy_of_the_shipped_code(tmp_path):
    shipped, folder = _shipped(tmp_path), tmp_path / "user" / "tabletop_zoo-0123456789abcdef"
    assert c.seed_cache(shipped, folder)
    assert _files(folder) == _files(shipped)  # the first-use markers too: nothing announces a compile
    assert sorted(p.name for p in folder.parent.iterdir()) == [folder.name]  # no temporary folder left


def test_an_existing_cache_folder_is_left_alone(tmp_path):
    shipped, folder = _shipped(tmp_path), tmp_path / "user" / "tabletop_zoo-0123456789abcdef"
    folder.mkdir(parents=True)
    (folder / "mine").write_text("the user's own")
    assert not c.seed_cache(shipped, folder)
    assert _files(folder) == {"mine": b"the user's own"}


def test_a_process_seeding_second_leaves_the_first_copy_whole(tmp_path, monkeypatch):
    shipped, folder = _shipped(tmp_path), tmp_path / "user" / "tabletop_zoo-0123456789abcdef"
    rename = os.rename

    def another_process_first(source, target):
        shutil.copytree(shipped, target)  # the other process's rename lands between our check and ours
        rename(source, target)

    monkeypatch.setattr(c.os, "rename", another_process_first)
    assert not c.seed_cache(shipped, folder)
    assert _files(folder) == _files(shipped)
    assert sorted(p.name for p in folder.parent.iterdir()) == [folder.name]


def test_an_unwritable_cache_folder_is_left_to_numba(tmp_path):
    shipped, blocked = _shipped(tmp_path), tmp_path / "a_file"
    blocked.write_text("not a folder")
    assert not c.seed_cache(shipped, blocked / "tabletop_zoo-0123456789abcdef")


def test_the_shipped_code_is_only_ever_the_package_s_own_folder(monkeypatch, tmp_path):
    """No option, environment variable or flag names the folder numba's pickles are seeded from: the package's
    own ``compiled/<digest>``, beside its .py files. The environment names only the user's own cache folder."""
    assert c.SHIPPED == pathlib.Path(c.__file__).resolve().parent / "compiled"
    seen = []
    monkeypatch.setattr(c, "use_baseline_cpu", lambda shipped: seen.append(shipped) or True)
    monkeypatch.setattr(c, "seed_cache", lambda shipped, folder: seen.append(shipped))
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    for name in ("TABLETOP_ZOO_SHIPPED", "TABLETOP_ZOO_COMPILED", "NUMBA_CACHE_LOCATOR_CLASSES"):
        monkeypatch.setenv(name, str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "user"))
    folder = c.configure()
    assert seen == [c.SHIPPED / c.source_digest()] * 2
    assert folder == str(tmp_path / "user" / f"tabletop_zoo-{c.source_digest()}")


# --- end to end --------------------------------------------------------------------------------------------------

FIRST_USE = textwrap.dedent(
    """
    import json
    import numpy as np
    from numba.core import event
    import tabletop_zoo

    compiles = []

    class Count(event.Listener):
        def on_start(self, ev):
            compiles.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", Count())
    env = tabletop_zoo.make_env("irish_gauge")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(100):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    print(json.dumps({"compiles": compiles}))
    """
)


@pytest.mark.slow
def test_shipped_code_is_a_first_use_without_compiling(tmp_path, monkeypatch):
    """``ship`` builds a game's env path for the baseline CPU; a fresh process on a cache seeded from it (the
    baseline CPU as configure() would choose it) compiles nothing and announces nothing."""
    from tabletop_zoo import precompile

    monkeypatch.setattr(c, "SHIPPED", tmp_path / "compiled")
    shipped = precompile.ship(["irish_gauge"])
    assert shipped == tmp_path / "compiled" / c.source_digest()
    assert json.loads((shipped / c.MANIFEST).read_text()) == c.build_manifest()
    assert (shipped / "compiled" / "irish_gauge.env").is_file() and not list(shipped.rglob("*.lock"))
    user = tmp_path / "user"
    assert c.seed_cache(shipped, user / f"tabletop_zoo-{shipped.name}")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(user), "NUMBA_CPU_NAME": c.BASELINE_CPU, "NUMBA_CPU_FEATURES": ""}
    proc = subprocess.run([sys.executable, "-c", FIRST_USE], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1]) == {"compiles": []}
    assert "compiling" not in proc.stderr


def test_cli_precompile_ship_reports_each_game_and_the_size(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from tabletop_zoo import precompile
    from tabletop_zoo.cli import app

    folder = tmp_path / "compiled" / "0123456789abcdef"
    folder.mkdir(parents=True)
    (folder / "code.nbc").write_bytes(bytes(2_000_000))
    calls = []

    def ship(games, jobs, report):
        calls.append((games, jobs))
        report("irish_gauge", 12.0)
        return folder

    monkeypatch.setattr(precompile, "ship", ship)
    result = CliRunner().invoke(app, ["precompile", "irish_gauge", "--ship", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert calls == [(["irish_gauge"], 1)]
    assert "irish_gauge: 12 s CPU" in result.output and f"in {folder} (2.0 MB)" in result.output


def test_ship_keeps_only_the_machine_code_a_first_use_loads(tmp_path):
    from tabletop_zoo.precompile import _keep_only

    files = {
        "pkg/rules.step-10.py311.nbi": "index of step",
        "pkg/rules.step-10.py311.1.nbc": "step, a signature no first use loads",
        "pkg/rules.step-10.py311.2.nbc": "step as the env calls it",
        "pkg/rules.helper-50.py311.nbi": "index of a callee compiled into step",
        "pkg/rules.helper-50.py311.1.nbc": "helper",
        "pkg/rules.helper-50.py311.nbi.lock": "",
        "compiled/irish_gauge.env": "marker",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    _keep_only(tmp_path, {"pkg/rules.step-10.py311.2.nbc"})
    left = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()}
    assert left == {"pkg/rules.step-10.py311.nbi", "pkg/rules.step-10.py311.2.nbc", "compiled/irish_gauge.env"}
