"""``tabletop-zoo bench vector``: decisions/s of ``make_vec`` (observations and masks) beside the kernel's own
playouts and Pgx's connect four, in one run.

For every game (at its default player count), batch size (1, 64, 1,024, 4,096) and thread setting (one
thread and all cores, ``make_vec(threads=...)``; a batch of fewer lanes a thread than ``LANES_PER_THREAD`` steps on
one thread whatever ``threads`` says, and the report marks it):

- ``step``: decisions/s of ``vec.step`` alone (one decision per lane per step: ``skip_forced`` off). The
  actions are chosen outside the timed region by a small numba loop (a uniformly random legal action per lane,
  from the masks ``step`` returned), so only the step, its observations, masks and autoresets are timed;
- ``bare``: ``step`` of the same batch made with ``observations=False`` (masks, seats, rewards and autoresets,
  no observation): what the rules and masks cost through the batch;
- ``loop``: decisions/s of the whole loop when the caller draws the random legal actions in numpy
  (``(rng.random(mask.shape) * mask).argmax(1)``, B x NUM_ACTIONS random numbers per step): what a Python
  caller with no policy pays;
- ``kernel``: the kernel's ``playouts`` (random games inside numba, no observation) on as many threads, timed
  in alternation with ``step``, ``bare`` and ``loop`` (one run of each per round, so a shared machine's load
  moves them alike): ``step / kernel`` is the median of the rounds' ratios; at batch 1,024 on one thread it is the
  issue's goal (>= 0.3x, reported, not asserted);
- ``pgx``: Pgx's ``connect_four`` (``jax.jit(jax.vmap(auto_reset(env.step, env.init)))`` on the CPU), when
  ``pgx`` and ``jax`` are installed (the ``pgx`` extra), in a subprocess pinned to one core (``sched_setaffinity``,
  before jax starts) and in one with every core: ``step`` (actions drawn by a jitted categorical outside the
  timed region) and ``loop`` (the choice and the step in one jitted call). ``step / pgx`` (our game's
  decisions/s against Pgx's connect four steps/s, one step = one decision per lane) is the second goal (> 1x).

Every figure is ``{"median", "min", "max", "runs"}`` over ``repeats`` timed runs of ``seconds``; compilation
happens before the timed region. The machine's load (``os.getloadavg()``) is recorded at the start and the end.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time

import numpy as np

from .. import registry
from .measure import _playout_batch, _repeat, _stat, _version, kernel_playouts, load, machine

BATCHES = (1, 64, 1024, 4096)
GOAL_BATCH = 1024
GOAL_VS_KERNEL = 0.3  # step decisions/s / kernel playout decisions/s, batch 1,024, one thread
GOAL_VS_PGX = 1.0  # step decisions/s / Pgx connect four steps/s, same batch size, one thread
QUICK_GAME = registry.DEFAULT_GAME


def _picker():
    """A numba loop drawing a uniformly random legal action per lane (compiled here: the bench is no cached
    numba folder)."""
    from numba import njit

    from ..kernels._common.masks import sample_legal

    @njit(nogil=True)
    def pick(masks, rng, out):
        for i in range(masks.shape[0]):
            out[i] = sample_legal(masks[i], rng)

    return pick


def vec_figures(game: str, num_players: int, batch: int, threads: int, seconds: float, repeats: int, pick) -> dict:
    """``step`` and ``loop`` decisions/s of ``make_vec(game, batch, threads=threads)`` and the kernel's playouts
    on as many threads, one run of each per round (see the module docstring)."""
    import tabletop_zoo

    games = _playout_batch(registry.kernel(game), num_players, 0, seconds)

    vec = tabletop_zoo.make_vec(game, batch, num_players, seed=0, threads=threads)
    bare = tabletop_zoo.make_vec(game, batch, num_players, seed=0, threads=threads, observations=False)
    rng_state = np.array([12345], np.uint64)
    actions = np.zeros(batch, np.int64)
    np_rng = np.random.default_rng(0)
    outs = {vec: vec.reset(), bare: bare.reset()}
    for v in outs:
        for _ in range(3):  # compile the picker / load the caches outside the timed region
            pick(outs[v].action_mask, rng_state, actions)
            outs[v] = v.step(actions)

    def step_only(v) -> dict:
        out = outs[v]
        steps, spent = 0, 0.0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end or steps == 0:
            pick(out.action_mask, rng_state, actions)
            t0 = time.perf_counter()
            out = v.step(actions)
            spent += time.perf_counter() - t0
            steps += 1
        outs[v] = out
        return {"decisions_per_s": steps * batch / spent, "steps_per_s": steps / spent}

    def numpy_loop() -> dict:
        out = outs[vec]
        steps = 0
        t0 = time.perf_counter()
        end = t0 + seconds
        while time.perf_counter() < end or steps == 0:
            mask = out.action_mask
            out = vec.step((np_rng.random(mask.shape) * mask).argmax(1))
            steps += 1
        elapsed = time.perf_counter() - t0
        outs[vec] = out
        return {"decisions_per_s": steps * batch / elapsed}

    def one_round() -> dict:
        kernel = kernel_playouts(game, num_players, seconds, threads, games)["decisions_per_s"]
        step = step_only(vec)["decisions_per_s"]
        without = step_only(bare)["decisions_per_s"]
        return {
            "kernel": kernel,
            "step": step,
            "bare": without,
            "loop": numpy_loop()["decisions_per_s"],
            "step_vs_kernel": step / kernel,
            "bare_vs_kernel": without / kernel,
        }

    rounds = [one_round() for _ in range(repeats)]
    figures = {key: {"decisions_per_s": _stat([r[key] for r in rounds])} for key in ("step", "bare", "loop", "kernel")}
    figures["parallel"] = vec.parallel  # False: the batch stepped on one thread (too few lanes a thread)
    figures["step_vs_kernel_rounds"] = [r["step_vs_kernel"] for r in rounds]
    figures["bare_vs_kernel_rounds"] = [r["bare_vs_kernel"] for r in rounds]
    return figures


# --- Pgx, in a subprocess (jax's threads and import stay out of ours) --------------------------------
def pgx_available() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("pgx", "jax"))


def pgx_connect_four(batches: list[int], seconds: float, repeats: int, one_core: bool) -> dict:
    """Pgx's connect four on the CPU: ``step`` and ``loop`` steps/s at each batch size (run in its own process:
    ``one_core`` pins it to one core before jax starts)."""
    if one_core and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    def choose(key, mask):
        return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)

    choose_jit = jax.jit(choose)

    def both(state, key):
        k1, k2 = jax.random.split(key)
        action = choose(k1, state.legal_action_mask)
        return step(state, action, jax.random.split(k2, state.legal_action_mask.shape[0]))

    loop_jit = jax.jit(both)
    result = {}
    for b in batches:
        key = jax.random.PRNGKey(0)
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, b))
        for _ in range(3):  # compile outside the timed region
            key, k1, k2 = jax.random.split(key, 3)
            state = step(state, choose_jit(k1, state.legal_action_mask), jax.random.split(k2, b))
            state = loop_jit(state, k1)
        state.legal_action_mask.block_until_ready()

        def step_only() -> dict:
            nonlocal state, key
            steps, spent = 0, 0.0
            end = time.perf_counter() + seconds
            while time.perf_counter() < end or steps == 0:
                key, k1, k2 = jax.random.split(key, 3)
                action = choose_jit(k1, state.legal_action_mask)
                keys = jax.random.split(k2, b)
                action.block_until_ready()
                keys.block_until_ready()
                t0 = time.perf_counter()
                state = step(state, action, keys)
                state.observation.block_until_ready()
                spent += time.perf_counter() - t0
                steps += 1
            return {"steps_per_s": steps * b / spent}

        def fused_loop() -> dict:
            nonlocal state, key
            steps = 0
            t0 = time.perf_counter()
            end = t0 + seconds
            while time.perf_counter() < end or steps == 0:
                key, k1 = jax.random.split(key)
                state = loop_jit(state, k1)
                state.observation.block_until_ready()
                steps += 1
            return {"steps_per_s": steps * b / (time.perf_counter() - t0)}

        result[str(b)] = {"step": _repeat(step_only, repeats), "loop": _repeat(fused_loop, repeats)}
    return {
        "version": pgx.__version__,
        "jax": jax.__version__,
        "cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "batches": result,
    }


def pgx_run(batches: list[int], seconds: float, repeats: int, one_core: bool) -> dict | None:
    """``pgx_connect_four`` in a fresh interpreter; None when pgx or jax is missing (or the run fails: the
    error is kept in the result)."""
    if not pgx_available():
        return None
    code = (
        "import json, sys; from tabletop_zoo.bench.vector import pgx_connect_four as f; "
        "print(json.dumps(f(*json.loads(sys.argv[1]))))"
    )
    args = json.dumps([list(batches), seconds, repeats, one_core])
    env = dict(os.environ, JAX_PLATFORMS="cpu", TF_CPP_MIN_LOG_LEVEL="3")
    done = subprocess.run([sys.executable, "-c", code, args], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the run -------------------------------------------------------------------------------------------
def run(
    games: list[str] | None = None,
    batches: tuple[int, ...] = BATCHES,
    seconds: float = 1.0,
    repeats: int = 3,
    threads: int | None = None,
    pgx: bool = True,
    quick: bool = False,
    progress=None,
) -> dict:
    """Every figure (see the module docstring). ``quick``: one game, batch 4, tiny runs (the pipeline only)."""
    say = progress or (lambda _msg: None)
    if quick:
        games, batches, seconds, repeats = [QUICK_GAME], (4,), 0.01, 1
    games = [registry._canonical(g) for g in (games or sorted(registry.GAMES))]
    all_cores = threads or os.cpu_count() or 1
    settings = sorted({1, all_cores})
    result: dict = {
        "machine": dict(machine(), pgx=_version("pgx"), jax=_version("jax")),
        "config": {
            "batches": list(batches),
            "threads": settings,
            "seconds": seconds,
            "repeats": repeats,
            "quick": quick,
            "actions": "step: a numba loop draws a random legal action per lane outside the timed region; "
            "loop: numpy draws them in the timed loop ((rng.random(mask.shape) * mask).argmax(1))",
        },
        "load": {"before": load()},
        "games": {},
    }
    pick = _picker()
    for g in games:
        n = registry.kernel(g).DEFAULT_PLAYERS
        row: dict = {"players": n, "vec": {}}
        for b in batches:
            row["vec"][str(b)] = {}
            for t in settings:
                say(f"{g}: make_vec batch {b} and kernel playouts, {t} thread(s)")
                row["vec"][str(b)][str(t)] = vec_figures(g, n, b, t, seconds, repeats, pick)
        result["games"][g] = row
    result["pgx"] = None
    if pgx and pgx_available():
        result["pgx"] = {}
        for t in settings:
            say(f"Pgx connect_four, {'one core' if t == 1 else 'every core'}")
            result["pgx"][str(t)] = pgx_run(list(batches), seconds, repeats, one_core=t == 1)
    result["load"]["after"] = load()
    add_ratios(result)
    return result


def _pgx_steps(result: dict, batch: str, threads: str) -> float | None:
    pg = (result.get("pgx") or {}).get(threads)
    if not pg or "batches" not in pg or batch not in pg["batches"]:
        return None
    return pg["batches"][batch]["step"]["steps_per_s"]["median"]


def add_ratios(result: dict) -> None:
    """``ratios[game][batch][threads]``: step / kernel playouts and step / Pgx connect four (same threads), and
    the goals at batch 1,024 on one thread (reported, never asserted)."""
    result["ratios"], result["goals"] = {}, {}
    for g, row in result["games"].items():
        result["ratios"][g] = {}
        for b, by_threads in row["vec"].items():
            result["ratios"][g][b] = {}
            for t, fig in by_threads.items():
                step = fig["step"]["decisions_per_s"]["median"]
                kernel = fig["kernel"]["decisions_per_s"]["median"]
                pgx = _pgx_steps(result, b, t)
                result["ratios"][g][b][t] = {
                    "step_vs_kernel": float(np.median(fig["step_vs_kernel_rounds"])),
                    "bare_vs_kernel": float(np.median(fig["bare_vs_kernel_rounds"])),
                    "loop_vs_kernel": fig["loop"]["decisions_per_s"]["median"] / kernel,
                    "step_vs_pgx": None if pgx is None else step / pgx,
                }
        goal = result["ratios"][g].get(str(GOAL_BATCH), {}).get("1")
        result["goals"][g] = {
            "step_vs_kernel": None if goal is None else goal["step_vs_kernel"],
            "step_vs_kernel_met": None if goal is None else goal["step_vs_kernel"] >= GOAL_VS_KERNEL,
            "step_vs_pgx": None if goal is None else goal["step_vs_pgx"],
            "step_vs_pgx_met": None
            if goal is None or goal["step_vs_pgx"] is None
            else goal["step_vs_pgx"] > GOAL_VS_PGX,
        }


def _n(x: float | None) -> str:
    return "n/a" if x is None else f"{x:,.0f}"


def _x(r: float | None) -> str:
    return "n/a" if r is None else f"{r:.2f}x"


def format_report(result: dict, width: int = 200) -> str:
    """The tables (rich, rendered to text) and the load line."""
    from rich.console import Console
    from rich.table import Table

    cfg, m, ld = result["config"], result["machine"], result["load"]
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=False, color_system=None)
    console.print(
        f"Machine: {m['cpu']}, {m['cores']} cores; numba {m['numba']}, pgx {m['pgx']}, jax {m['jax']}. "
        f"Load average (1, 5, 15 min): {ld['before']['loadavg']} at the start, {ld['after']['loadavg']} at the end."
        + (" QUICK MODE: figures are not meaningful." if cfg["quick"] else "")
    )
    console.print(
        f"Each figure: the median of {cfg['repeats']} runs of {cfg['seconds']:g} s; decisions/s = lanes x steps/s. "
        "step: vec.step alone (actions drawn in numba outside the timed region); no obs: the same with "
        "observations=False; loop: with the caller's numpy choice of random legal actions. kernel: the kernel's "
        "playouts on as many threads, timed in alternation with the others (a run of each per round); "
        "x / kernel: the median of the rounds' ratios."
    )
    table = Table(title="make_vec: decisions/s with observations and masks")
    for col in ("game", "players", "batch", "threads", "step", "loop (numpy choice)", "kernel playouts",
                "step / kernel", "no obs", "no obs / kernel", "Pgx connect_four step", "step / Pgx"):  # fmt: skip
        table.add_column(col, justify="left" if col == "game" else "right")
    for g, row in result["games"].items():
        for b, by_threads in row["vec"].items():
            for t, fig in by_threads.items():
                r = result["ratios"][g][b][t]
                table.add_row(
                    g,
                    str(row["players"]),
                    f"{int(b):,}",
                    t if t == "1" or fig.get("parallel", True) else f"{t} (ran on 1)",  # older results: no flag
                    _n(fig["step"]["decisions_per_s"]["median"]),
                    _n(fig["loop"]["decisions_per_s"]["median"]),
                    _n(fig["kernel"]["decisions_per_s"]["median"]),
                    _x(r["step_vs_kernel"]),
                    _n(fig["bare"]["decisions_per_s"]["median"]),
                    _x(r["bare_vs_kernel"]),
                    _n(_pgx_steps(result, b, t)),
                    _x(r["step_vs_pgx"]),
                )
    console.print(table)
    if result.get("pgx"):
        pg = Table(title="Pgx connect_four (jax on the CPU), steps/s")
        for col in ("cores", "batch", "step", "loop (choice + step, one jit)"):
            pg.add_column(col, justify="right")
        for t, figs in result["pgx"].items():
            if "batches" not in figs:
                pg.add_row(t, "", f"failed: {figs.get('error')}", "")
                continue
            for b, f in figs["batches"].items():
                pg.add_row(str(figs["cores"]), f"{int(b):,}", _n(f["step"]["steps_per_s"]["median"]),
                           _n(f["loop"]["steps_per_s"]["median"]))  # fmt: skip
        console.print(pg)
    else:
        console.print("Pgx: not installed (pip install 'tabletop-zoo[pgx]')", markup=False)  # [pgx] is no style
    goals = Table(title=f"Goals at batch {GOAL_BATCH:,}, one thread (reported, not asserted)")
    for col in ("game", f"step / kernel (goal >= {GOAL_VS_KERNEL}x)", "met", "step / Pgx (goal > 1x)", "met"):
        goals.add_column(col)
    for g, h in result["goals"].items():
        goals.add_row(g, _x(h["step_vs_kernel"]), str(h["step_vs_kernel_met"]), _x(h["step_vs_pgx"]),
                      str(h["step_vs_pgx_met"]))  # fmt: skip
    console.print(goals)
    return buf.getvalue()
