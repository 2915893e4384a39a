"""What a new user waits for: the first ``make_env`` + ``reset`` + 100 random steps of a game on a cold numba cache.

    python benchmarks/cold_start.py                       # every game
    python benchmarks/cold_start.py irish_gauge kremlin   # the games named
    python benchmarks/cold_start.py --warm irish_gauge    # also a second run on the same (now warm) folder
    python benchmarks/cold_start.py --arena irish_gauge   # `tabletop-zoo arena GAME --games 4` cold (parent + workers)
    python benchmarks/cold_start.py --wheel [--compare]   # as a user meets it: from the wheel, shipped code and all
    python benchmarks/cold_start.py --cpu-cost [GAME ...]  # the shipped code's baseline CPU against the host's
    python benchmarks/cold_start.py --floor [GAME ...]     # what numba charges per function before its body
    python benchmarks/cold_start.py --base REV [--pairs 5] [GAME ...]   # revision REV against this checkout
    python benchmarks/cold_start.py --then mcts|vec [...]  # the first use, then a first search move or make_vec

``--wheel`` builds the wheel of this checkout (after ``tabletop-zoo precompile --ship``: it carries the env path's
machine code), installs it into a fresh virtualenv (the dependencies from this Python's site-packages, the package
itself from the wheel) and times the same first use there; ``--compare`` adds, from the same install, the figure
without the shipped code (``NUMBA_CPU_NAME`` set to the host's CPU: the user's choice wins, numba compiles).
``--cpu-cost`` runs ``vector_profile.py`` (the kernel's playouts and the ``make_vec`` step, ns per decision, the
minimum over its rounds) for one game at a time in processes compiling for the host CPU and for the baseline CPU
the shipped code is built for, alternated, ``--rounds`` processes each: the minimum of each figure and
baseline/host (above 1: the baseline is slower).

``--then mcts`` continues the same process after the first use with one MCTS move (50 simulations) from the
game's position, ``--then vec`` with ``make_vec(GAME, 64)`` + ``reset`` + 100 random steps: what a researcher's next
step costs once the env's path is compiled (the phases say which part is which). It combines with ``--base``.

``--base REV`` alternates cold first uses of revision ``REV`` (its package laid out in a temporary folder, on
``PYTHONPATH``) and of this checkout, ``--pairs`` pairs per game, the order swapped every pair: a run of the same code
moves by about 1 s from one minute to the next on a shared machine, so only such pairs compare. Reported per game:
both sides' medians, each pair's difference, how many pairs this checkout was cheaper in, and the exact two-sided sign
test's p-value of that count.

Each game runs in a fresh subprocess with a fresh ``NUMBA_CACHE_DIR`` (a new temporary folder), one process, as a
new user's first script would. Reported: the subprocess's CPU seconds (user + sys, from ``getrusage(
RUSAGE_CHILDREN)``, which load disturbs less than wall time), its wall seconds, the load average, and where the CPU
went: the CPU of each phase (import, make_env, reset, the first ``last()`` (observe), the first step, the other 99)
and each top-level numba compile (a function called from Python or from a ``@overload``, with everything it
compiled for the first time inside it), from numba's ``numba:compile`` events, and the CPU of Python's cyclic
collector (its passes, timed through ``gc.callbacks``). Results go to stdout as a
Markdown table (``--json`` for the raw figures).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

STEPS = 100
THEN_PHASES = ("first MCTS move", "make_vec", "make_vec reset + 100 steps")  # the phases of --then


def _child(game: str, steps: int, then: str | None = None) -> dict:
    """Runs inside the fresh subprocess: the first use, timed phase by phase and compile by compile."""
    t0 = time.process_time()
    from numba.core import event

    compiles = []  # (depth, name, cpu seconds inclusive)
    stack = []

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append(time.process_time())

        def on_end(self, ev):
            start = stack.pop()
            d = ev.data["dispatcher"]
            name = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
            compiles.append((len(stack), name, time.process_time() - start))

    event.register("numba:compile", Listener())
    collector = [0.0, 0.0]  # CPU seconds in the cyclic collector's passes, and when the current one started

    def on_collection(step, info):
        if step == "start":
            collector[1] = time.process_time()
        else:
            collector[0] += time.process_time() - collector[1]

    gc.callbacks.append(on_collection)

    import numba
    import numpy as np

    import tabletop_zoo

    phases = {"import": time.process_time() - t0}

    def phase(name, fn):
        start = time.process_time()
        value = fn()
        phases[name] = phases.get(name, 0.0) + time.process_time() - start
        return value

    env = phase("make_env", lambda: tabletop_zoo.make_env(game))
    phase("reset", lambda: env.reset(seed=0))
    rng = np.random.default_rng(0)
    games = 1
    for i in range(steps):
        obs, _, term, trunc, _ = phase("first last() (observe)" if i == 0 else "last()", env.last)
        if term or trunc:
            phase("reset", lambda: env.reset(seed=games))
            games += 1
            obs, *_ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        phase("first step" if i == 0 else f"steps 2-{steps}", lambda: env.step(int(legal[rng.integers(legal.size)])))
    if then == "mcts":
        from tabletop_zoo.agents import make_agent

        if not env.agents:  # the last step ended a game
            env.reset(seed=games)
        agent = make_agent("mcts", game, seed=0, simulations=50)
        phase("first MCTS move", lambda: agent.act_for_seat(env.unwrapped.get_state()))
    elif then == "vec":
        vec = phase("make_vec", lambda: tabletop_zoo.make_vec(game, 64, seed=0))
        batch = phase("make_vec reset + 100 steps", vec.reset)
        for _ in range(steps):
            actions = (rng.random(batch.action_mask.shape) * batch.action_mask).argmax(1)
            batch = phase("make_vec reset + 100 steps", lambda: vec.step(actions))
    top = {}
    for depth, name, seconds in compiles:
        if depth == 0:
            top[name] = top.get(name, 0.0) + seconds
    return {
        "cpu_inside": time.process_time() - t0,
        "phases": phases,
        "compiles": len(compiles),
        "collector": collector[0],
        "top_level": sorted(top.items(), key=lambda kv: -kv[1]),
        "games_started": games,
        "package": os.path.dirname(tabletop_zoo.__file__),
        "cpu_name": numba.config.CPU_NAME or "host",
    }


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def _run(cmd: list[str], cache: str, extra_env: dict | None = None) -> tuple[float, float, subprocess.CompletedProcess]:
    """CPU (user + sys of the process and its children) and wall seconds of ``cmd`` with NUMBA_CACHE_DIR=cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, **(extra_env or {})}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    return cpu, wall, proc


def measure(
    game: str,
    steps: int = STEPS,
    warm: bool = False,
    python: str = sys.executable,
    extra_env: dict | None = None,
    then: str | None = None,
) -> dict:
    """One cold first use of ``game`` in a fresh process and cache folder (and a warm one after, if asked), run by
    ``python`` with ``extra_env``; ``then``: what the process does next (``--then``)."""
    cache = tempfile.mkdtemp(prefix="cold_start_")
    try:
        row = {"game": game, "load_before": load()}
        cmd = [python, os.path.abspath(__file__), "--child", game, "--steps", str(steps)]
        cmd += ["--then", then] if then else []
        cpu, wall, proc = _run(cmd, cache, extra_env)
        row.update(cpu=cpu, wall=wall, load_after=load(), **json.loads(proc.stdout.splitlines()[-1]))
        row["first_use_lines"] = sum("tabletop-zoo precompile" in line for line in proc.stderr.splitlines())
        if warm:
            cpu, wall, proc = _run(cmd, cache, extra_env)
            row.update(warm_cpu=cpu, warm_wall=wall)
        return row
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def install_wheel(into: str) -> tuple[str, dict]:
    """Build this checkout's wheel and install it into a fresh virtualenv under ``into`` (dependencies from this
    Python's site-packages); returns its Python and the wheel's size with and without the shipped machine code."""
    import zipfile

    from tabletop_zoo import _numba_cache

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    dist, venv = os.path.join(into, "dist"), os.path.join(into, "venv")
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", dist, root]
    subprocess.run(pip, check=True, capture_output=True)
    wheel = os.path.join(dist, next(f for f in os.listdir(dist) if f.endswith(".whl")))
    with zipfile.ZipFile(wheel) as z:
        entries = [i for i in z.infolist() if i.filename.startswith("tabletop_zoo/compiled/")]
    digests = {i.filename.split("/")[2] for i in entries}
    if digests != {_numba_cache.source_digest()}:
        raise SystemExit(f"the wheel carries shipped code for {sorted(digests)}: delete {root}/build (stale) and rerun")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
    python = os.path.join(venv, "bin", "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", wheel], check=True, capture_output=True)
    shipped = sum(i.compress_size for i in entries)
    return python, {"wheel_bytes": os.path.getsize(wheel), "shipped_bytes": shipped}


def measure_wheel(games: list[str], steps: int, compare: bool) -> tuple[list[dict], dict]:
    """The first use of each game from an installed wheel (and, with ``compare``, without its shipped code)."""
    from tabletop_zoo import _numba_cache

    if not (_numba_cache.SHIPPED / _numba_cache.source_digest()).is_dir():
        raise SystemExit("no shipped machine code for these sources: run `tabletop-zoo precompile --ship` first")
    into = tempfile.mkdtemp(prefix="cold_wheel_")
    try:
        python, sizes = install_wheel(into)
        rows = []
        for game in games:
            row = measure(game, steps, python=python)
            if compare:
                import llvmlite.binding as ll

                host = measure(game, steps, python=python, extra_env={"NUMBA_CPU_NAME": ll.get_host_cpu_name()})
                row["without"] = {k: host[k] for k in ("cpu", "wall", "compiles", "load_before", "load_after")}
            print(f"{game}: {row['cpu']:.1f} s CPU from the wheel ({row['package']})", file=sys.stderr)
            rows.append(row)
        return rows, sizes
    finally:
        shutil.rmtree(into, ignore_errors=True)


def wheel_table(rows: list[dict], sizes: dict) -> str:
    lines = [
        "| game | from the wheel: CPU s | compiles | CPU for | load before/after | without shipped code: CPU s "
        "| compiles | load before/after |",
        "|---|---:|---:|---|---|---:|---:|---|",
    ]
    for r in rows:
        w = r.get("without")
        rest = f"{w['cpu']:.1f} | {w['compiles']} | {w['load_before']} / {w['load_after']}" if w else " | | "
        lines.append(
            f"| {r['game']} | {r['cpu']:.1f} | {r['compiles']} | {r['cpu_name']} | "
            f"{r['load_before']} / {r['load_after']} | {rest} |"
        )
    lines.append(
        f"\nwheel {sizes['wheel_bytes'] / 1e6:.1f} MB, of which shipped machine code {sizes['shipped_bytes'] / 1e6:.1f} MB"
    )
    return "\n".join(lines)


PROFILE_FIGURES = ("step", "observe", "observe hot", "mask", "playout")


def _profile(game: str, cpu_env: dict, rounds: int) -> dict:
    """One ``vector_profile.py`` process for ``game`` compiling for the CPU of ``cpu_env``: ns per decision."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")}
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vector_profile.py")
    cmd = [sys.executable, script, "--games", game, "--rounds", str(rounds)]
    out = subprocess.run(cmd, env={**env, **cpu_env}, capture_output=True, text=True, check=True).stdout
    row = next(line for line in out.splitlines() if line.startswith(f"| {game} |"))
    cells = [float(x.replace(",", "")) for x in row.strip("| ").split(" | ")[1:]]
    return dict(zip(PROFILE_FIGURES, cells, strict=False))


def measure_cpu_cost(games: list[str], rounds: int, profile_rounds: int = 40) -> list[dict]:
    """The make_vec step and the kernel's playouts compiled for the baseline CPU against the host CPU."""
    import llvmlite.binding as ll

    from tabletop_zoo import _numba_cache

    cpus = {
        "host": {"NUMBA_CPU_NAME": ll.get_host_cpu_name()},
        "baseline": {"NUMBA_CPU_NAME": _numba_cache.BASELINE_CPU, "NUMBA_CPU_FEATURES": ""},
    }
    rows = []
    for game in games:
        row = {"game": game, "load_before": load(), "host": {}, "baseline": {}}
        for r in range(rounds):
            for cpu in ("host", "baseline") if r % 2 == 0 else ("baseline", "host"):
                for figure, ns in _profile(game, cpus[cpu], profile_rounds).items():
                    row[cpu][figure] = min(row[cpu].get(figure, float("inf")), ns)
        row["load_after"] = load()
        rows.append(row)
        print(f"{game}: {json.dumps(row)}", file=sys.stderr)
    return rows


def cost_table(rows: list[dict]) -> str:
    lines = [
        "| game | figure | host ns/decision | baseline ns/decision | baseline/host | load before/after |",
        "|---|---|---:|---:|---:|---|",
    ]
    for r in rows:
        for figure in PROFILE_FIGURES:
            h, b = r["host"][figure], r["baseline"][figure]
            lines.append(
                f"| {r['game']} | {figure} | {h:,.1f} | {b:,.1f} | {b / h:.3f} | {r['load_before']} / {r['load_after']} |"
            )
    return "\n".join(lines)


def _arena_child(game: str, games: int, out: str) -> dict:
    """Runs inside the fresh subprocess: the arena command, then this process's CPU and its workers'."""
    from tabletop_zoo.cli import app

    try:
        app(["arena", game, "--games", str(games), "--out", out], standalone_mode=False)
    except SystemExit as e:
        if e.code:
            raise
    me, workers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return {"parent_cpu": me.ru_utime + me.ru_stime, "workers_cpu": workers.ru_utime + workers.ru_stime}


def measure_arena(game: str, games: int = 4, warm: bool = True) -> dict:
    """``tabletop-zoo arena GAME --games N`` on a fresh cache: CPU of the parent and of its workers (and, on the
    same cache after, a warm rerun: what playing the games costs without compiling)."""
    cache = tempfile.mkdtemp(prefix="cold_start_")
    out = tempfile.mkdtemp(prefix="cold_arena_")
    try:
        row = {"game": game, "games": games, "load_before": load()}
        for run in ("cold", "warm") if warm else ("cold",):
            cmd = [sys.executable, __file__, "--arena-child", game, "--games", str(games), "--out", f"{out}/{run}"]
            cpu, wall, proc = _run(cmd, cache)
            row[run] = {"cpu": cpu, "wall": wall, **json.loads(proc.stdout.splitlines()[-1])}
            row[run]["first_use_lines"] = sum("compiling" in line for line in proc.stderr.splitlines())
        row["load_after"] = load()
        return row
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


def arena_line(r: dict) -> str:
    runs = []
    for run in ("cold", "warm"):
        if run in r:
            x = r[run]
            runs.append(
                f"{run}: {x['cpu']:.1f} s CPU (parent {x['parent_cpu']:.1f}, workers {x['workers_cpu']:.1f}), "
                f"{x['wall']:.1f} s wall, {x['first_use_lines']} first-use line(s)"
            )
    return (
        f"{r['game']} arena --games {r['games']}: " + "; ".join(runs) + f"; load {r['load_before']} / {r['load_after']}"
    )


def _trivial(i: int):
    """A new one-line function of a game record each call (a closure: numba compiles each one afresh)."""
    from numba import njit

    @njit
    def read_phase(s, out):
        out[0] = s[0].phase + i

    return read_phase


def per_function_floor(game: str, count: int = 20) -> float:
    """CPU ms numba spends compiling a one-line function that takes ``game``'s record, the mean over ``count`` of
    them compiled in this process without a cache: what each of a first use's compiled functions costs before its
    body (a first use compiles 60-149 of them)."""
    import numpy as np

    from tabletop_zoo import registry

    state, out = np.zeros(1, registry.kernel(game).STATE), np.zeros(1, np.float32)
    functions = [_trivial(i) for i in range(count + 1)]
    functions[0](state, out)  # numba's own first-compile costs, once per process
    start = time.process_time()
    for fn in functions[1:]:
        fn(state, out)
    return (time.process_time() - start) / count * 1000


def table(rows: list[dict]) -> str:
    lines = [
        "| game | CPU s | wall s | compiles | collector | reset | first last() | first step | import + make_env "
        "| load before/after |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        p = r["phases"]
        lines.append(
            f"| {r['game']} | {r['cpu']:.1f} | {r['wall']:.1f} | {r['compiles']} | {r.get('collector', 0):.2f} | "
            f"{p.get('reset', 0):.1f} | "
            f"{p.get('first last() (observe)', 0):.1f} | {p.get('first step', 0):.1f} | "
            f"{p['import'] + p['make_env']:.1f} | {r['load_before']} / {r['load_after']} |"
        )
    lines.append("")
    for r in rows:
        top = ", ".join(f"`{name.rpartition('.')[2]}` {s:.1f}" for name, s in r["top_level"] if s >= 0.05)
        warm = f"; warm rerun {r['warm_cpu']:.1f} s CPU" if "warm_cpu" in r else ""
        then = "".join(f"; {name} {r['phases'][name]:.1f} s" for name in THEN_PHASES if name in r["phases"])
        lines.append(f"- {r['game']}: top-level compiles (CPU s, callees included): {top}{warm}{then}")
    return "\n".join(lines)


def measure_pairs(games: list[str], base: str, pairs: int, steps: int = STEPS, then: str | None = None) -> list[dict]:
    """``pairs`` alternated cold first uses per game of revision ``base`` and of this checkout (see the docstring)."""
    from pathlib import Path

    from mcts_speed import base_tree

    folder = tempfile.mkdtemp(prefix="cold_start_base_")
    try:
        sides = {"base": {"PYTHONPATH": str(base_tree(base, Path(folder)))}, "new": {}}
        for extra in sides.values():  # Python's bytecode of each side's package, once, outside the timed runs
            subprocess.run([sys.executable, "-c", "import tabletop_zoo"], env={**os.environ, **extra}, check=True)
        rows = []
        for game in games:
            cpu = {"base": [], "new": []}
            for i in range(pairs):
                for side in ("base", "new") if i % 2 == 0 else ("new", "base"):
                    cpu[side].append(measure(game, steps, extra_env=sides[side], then=then)["cpu"])
                    print(f"{game} {side}: {cpu[side][-1]:.1f} s CPU (load {load()})", file=sys.stderr)
            rows.append({"game": game, "revision": base, **cpu})
        return rows
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def pairs_table(rows: list[dict]) -> str:
    from statistics import median

    from scipy.stats import binomtest

    lines = [
        f"| game | {rows[0]['revision']}: median CPU s | this checkout: median CPU s | this - base, each pair "
        "| pairs cheaper | sign test p |",
        "|---|---:|---:|---|---:|---:|",
    ]
    for r in rows:
        differences = [n - b for b, n in zip(r["base"], r["new"])]
        cheaper = sum(d < 0 for d in differences)
        p = binomtest(cheaper, len(differences), 0.5).pvalue
        each = " / ".join(f"{d:+.2f}" for d in differences)
        lines.append(
            f"| {r['game']} | {median(r['base']):.2f} | {median(r['new']):.2f} | {each} | {cheaper} of "
            f"{len(differences)} | {p:.3f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--warm", action="store_true", help="also time a second (warm) run on the same cache")
    parser.add_argument("--arena", action="store_true", help="time `tabletop-zoo arena GAME --games 4` instead")
    parser.add_argument("--wheel", action="store_true", help="time the first use from this checkout's wheel")
    parser.add_argument("--compare", action="store_true", help="with --wheel: also without the shipped code")
    parser.add_argument("--cpu-cost", action="store_true", help="the baseline CPU's speed against the host's")
    parser.add_argument("--rounds", type=int, default=4, help="processes per CPU and game of --cpu-cost")
    parser.add_argument("--floor", action="store_true", help="CPU ms per compiled one-line function of each record")
    parser.add_argument("--base", help="alternate cold first uses of this revision and of this checkout")
    parser.add_argument("--pairs", type=int, default=5, help="alternated pairs per game of --base")
    parser.add_argument("--then", choices=("mcts", "vec"), help="then a first MCTS move, or make_vec + 100 steps")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    parser.add_argument("--games", dest="arena_games", type=int, default=4, help="games of the --arena run")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--arena-child", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.child, args.steps, args.then)))
        return
    if args.arena_child:
        print(json.dumps(_arena_child(args.arena_child, args.arena_games, args.out)))
        return
    if not args.games:
        from tabletop_zoo import registry

        args.games = sorted(registry.GAMES)
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores", file=sys.stderr)
    if args.floor:
        for game in args.games:
            print(f"{game}: {per_function_floor(game):.0f} ms CPU per one-line function of its record (load {load()})")
        return
    if args.cpu_cost:
        rows = measure_cpu_cost(args.games, args.rounds)
        print(json.dumps(rows, indent=1) if args.json else cost_table(rows))
        return
    if args.wheel:
        rows, sizes = measure_wheel(args.games, args.steps, args.compare)
        print(json.dumps({"rows": rows, **sizes}, indent=1) if args.json else wheel_table(rows, sizes))
        return
    if args.base:
        rows = measure_pairs(args.games, args.base, args.pairs, args.steps, args.then)
        print(json.dumps(rows, indent=1) if args.json else pairs_table(rows))
        return
    if args.arena:
        for game in args.games:
            r = measure_arena(game, args.arena_games)
            print(json.dumps(r) if args.json else arena_line(r))
        return
    rows = []
    for game in args.games:
        rows.append(measure(game, args.steps, args.warm, then=args.then))
        print(json.dumps(rows[-1]) if args.json else f"{game}: {rows[-1]['cpu']:.1f} s CPU", file=sys.stderr)
    print(json.dumps(rows, indent=1) if args.json else table(rows))


if __name__ == "__main__":
    main()
