"""Running a tournament: the schedule, one game, the backends, resume.

Every game ``g`` gets its own seed derived from the run seed, and its seats are filled by rotating the
line-up (seat ``i`` plays agent ``lineup[(i + g) % len(lineup)]``), so over any ``len(lineup)``
consecutive games each seat sees each agent equally often. Finished games are appended to
``OUT/games.jsonl`` as they complete (with the action list, for exact replay); ``--resume`` continues a
killed run without losing or repeating a game. At the end the file is rewritten in game order (so the
same seed gives the same file on every backend).
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import pathlib
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

import numpy as np

from .. import registry
from .._ray import start_ray
from ..agents.spec import AgentSpec, check_agent_spec
from ..progress import Progress
from ..standings import final_standings
from .files import (
    GAMES_FILE,
    RUN_FILE,
    TIMES_FILE,
    RunLock,
    atomic_write,
    play_seconds,
    read_games,
    read_text,
    seconds_per_move,
)
from .reaper import Reaper

BACKENDS = ("local", "ray")


# --- the schedule -----------------------------------------------------------------------------------
def game_seed(run_seed: int, game: int) -> int:
    """The seed of game ``game`` of a run: fixed by (run seed, game index), independent of workers."""
    return int(np.random.SeedSequence([run_seed, game]).generate_state(1, np.uint64)[0])


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of a game seeded ``seed``: any value in [0, 2**64)."""
    return (seed + 7919 * seat) % 2**64


def seating(lineup: list, num_players: int, game: int) -> list[int]:
    """Indexes into the line-up for each seat of game ``game`` (rotation: seat i -> (i + game) % L)."""
    return [(i + game) % len(lineup) for i in range(num_players)]


def play_one(
    game_id: str,
    num_players: int,
    specs: list[AgentSpec],
    game: int,
    run_seed: int,
    options: dict,
    thinking: list | None = None,
) -> dict:
    """Play game ``game`` of a run and return its record (runs inside a worker).

    ``ranks`` come from the kernel's returns, then the final score (``tabletop_zoo.standings``). ``thinking``
    (one ``[seconds, moves]`` per seat) receives each seat's time choosing moves, which the record leaves out:
    the record is the same on every machine and backend."""
    from ..play import play_game

    seed = game_seed(run_seed, game)
    seats = seating(specs, num_players, game)
    env = registry.make_env(game_id, num_players=num_players, **options)
    agents = [specs[j].build(game_id, seed=agent_seed(seed, i)) for i, j in enumerate(seats)]
    actions: list[int] = []
    play_game(env, agents, seed=seed, on_decision=lambda e, a, act: actions.append(int(act)), thinking=thinking)
    final = final_standings(env.kernel, env.get_state())
    return {
        "game": game,
        "seed": seed,
        "agents": [specs[j].label for j in seats],
        "scores": final.scores,
        "returns": final.returns,
        "ranks": final.ranks,
        "length": len(actions),
        "actions": actions,
    }


def play_batch(game_id, num_players, specs, games, run_seed, options) -> list[tuple[dict, dict]]:
    """Play games in order; each game's record with what it cost: its seconds, and each seat's seconds choosing
    moves and moves chosen (runs inside a worker)."""
    out = []
    for g in games:
        start, thinking = time.perf_counter(), [[0.0, 0] for _ in range(num_players)]
        rec = play_one(game_id, num_players, specs, g, run_seed, options, thinking)
        cost = {"seconds": round(time.perf_counter() - start, 3)}
        cost["thinking"] = [[round(seconds, 4), moves] for seconds, moves in thinking]
        out.append((rec, cost))
    return out


def warm_cache(game_id: str, num_players: int, specs: list[AgentSpec]) -> None:
    """Compile (or load) once, in the parent, everything the workers run (the env to a game's end, each agent of
    the line-up acting), so workers load machine code instead of each compiling it; a cold cache says so once."""
    from ..precompile import lineup_first_use

    lineup_first_use(game_id, num_players, specs)
    if any(s.name == "az" for s in specs):
        from ..agents.az.inline import warm_up

        warm_up(registry.kernel(game_id), num_players)


# --- checking a run's arguments, before anything is written ------------------------------------------
def _check_args(game_id, agents, num_players, games, seed, backend, workers, options):
    game_id = registry._canonical(game_id)
    kernel = registry.kernel(game_id)
    if not agents:
        raise ValueError("the line-up is empty: give at least one agent, e.g. --agents heuristic,random")
    if num_players is None:
        num_players = max(kernel.MIN_PLAYERS, min(len(agents), kernel.MAX_PLAYERS))
    num_players = kernel.check_num_players(num_players)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be an int >= 1 (or None for one per core), got {workers!r}")
    kernel.check_seed(seed)
    kernel.resolve_options(**options)
    specs = [check_agent_spec(a, game_id) for a in agents]  # builds each agent once: bad values fail here
    return game_id, num_players, specs


def _open_out(out) -> pathlib.Path:
    out = pathlib.Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / f".write_test.{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise ValueError(f"cannot write results to {out}: {e.strerror or e}") from None
    return out


def _check_resume(out: pathlib.Path, config: dict, resume: bool) -> None:
    run_file = out / RUN_FILE
    if not run_file.exists():
        if (out / GAMES_FILE).exists():
            raise ValueError(
                f"{out / GAMES_FILE} exists without {RUN_FILE}: not an arena run folder; choose another --out"
            )
        return
    if not resume:
        raise ValueError(f"{out} already holds a run; pass --resume to continue it or choose another --out")
    try:
        previous = json.loads(read_text(run_file))
    except json.JSONDecodeError as e:
        raise ValueError(f"{run_file}, line {e.lineno}: not valid JSON ({e.msg})") from None
    if not isinstance(previous, dict):
        raise ValueError(f"{run_file}: must hold a JSON object, got {type(previous).__name__}")
    same = {k: v for k, v in previous.items() if k != "games"} == {k: v for k, v in config.items() if k != "games"}
    if not same:
        raise ValueError(
            f"--resume needs the same game, players, agents, seed and options as the run in {out}: {previous}"
        )


# --- running ----------------------------------------------------------------------------------------
def run(
    game_id: str,
    agents: list[str],
    num_players: int | None = None,
    games: int = 30,
    seed: int = 0,
    out: str | os.PathLike = "arena_out",
    backend: str = "local",
    workers: int | None = None,
    resume: bool = False,
    address: str | None = None,
    batch_size: int | None = None,
    progress: bool = True,
    console: bool | None = None,
    **options,
) -> dict:
    """Run (or resume) a tournament; returns the summary (also written to OUT).

    Every argument, agent spec and parameter value is checked before anything is written; a second run
    into the same folder is refused while the first is running; workers die with this process."""
    game_id, num_players, specs = _check_args(game_id, agents, num_players, games, seed, backend, workers, options)
    config = {
        "game": game_id,
        "players": num_players,
        "agents": [s.label for s in specs],
        "games": games,
        "seed": seed,
        "options": options,
    }
    out = _open_out(out)
    with RunLock(out):
        _check_resume(out, config, resume)
        games_path = out / GAMES_FILE
        lineup = config["agents"]
        done = read_games(games_path, num_players, lambda g: [lineup[j] for j in seating(lineup, num_players, g)])
        atomic_write(out / RUN_FILE, json.dumps(config, indent=1))
        todo = [g for g in range(games) if g not in done]
        if todo:
            warm_cache(game_id, num_players, specs)
            _play(
                game_id,
                num_players,
                specs,
                todo,
                seed,
                options,
                games_path,
                backend,
                workers,
                address,
                batch_size,
                progress,
                done,
            )
        records = [done[g] for g in sorted(done) if g < games]
        try:
            summary = _finish(records, done, config, out, progress if console is None else console)
        except OSError as e:
            raise ValueError(
                f"cannot write the results to {out}: {e.strerror or e}; the {len(done)} finished games are kept in "
                f"{games_path}: make the folder writable and rerun with --resume to write the summary"
            ) from None
    return summary


def _finish(records: list[dict], done: dict, config: dict, out: pathlib.Path, console: bool) -> dict:
    """The final files: ``games.jsonl`` rewritten in game order, then the summary, tables and plot."""
    from .report import summarize, write_report

    atomic_write(out / GAMES_FILE, "".join(json.dumps(done[g]) + "\n" for g in sorted(done)))
    summary = summarize(records, config["agents"], config["players"])
    summary["config"] = config
    summary["play_seconds"] = play_seconds(out / TIMES_FILE, range(config["games"]))
    for label, per_move in seconds_per_move(out / TIMES_FILE, records).items():
        summary["agents"][label]["seconds_per_move"] = per_move
    write_report(summary, out, console=console)
    return summary


def _play(
    game_id, num_players, specs, todo, seed, options, games_path, backend, workers, address, batch_size, progress, done
) -> None:
    workers = workers or os.cpu_count() or 1
    size = batch_size or max(1, min(10, len(todo) // (4 * workers) or 1))
    batches = [todo[i : i + size] for i in range(0, len(todo), size)]
    bar = Progress("games", len(todo), "games", enabled=progress)  # the rate over the run, not a burst
    # One worker plays in this process; more need the reaper, so they never outlive a killed arena.
    guard = Reaper() if workers > 1 or backend == "ray" else contextlib.nullcontext()
    with games_path.open("a") as sink, (games_path.parent / TIMES_FILE).open("a") as times, guard:

        def record(batch_result):
            for rec, cost in batch_result:
                sink.write(json.dumps(rec) + "\n")
                times.write(json.dumps({"game": rec["game"], **cost}) + "\n")
                done[rec["game"]] = rec
            for f in (sink, times):
                f.flush()
                os.fsync(f.fileno())  # a finished game survives a kill
            bar.advance(len(batch_result))

        try:
            if backend == "ray":
                _run_ray(game_id, num_players, specs, batches, seed, options, workers, address, record)
            else:
                _run_local(game_id, num_players, specs, batches, seed, options, workers, record)
        finally:
            bar.stop()


def exit_with_parent(parent: int) -> None:
    """Worker initializer: a thread that ends this worker when its parent (the arena, or an imitation run's chunk
    collection) is gone."""

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _run_local(game_id, num_players, specs, batches, seed, options, workers, record) -> None:
    if workers == 1:  # one worker: play here, in order (no process to start, nothing to orphan)
        for b in batches:
            record(play_batch(game_id, num_players, specs, b, seed, options))
        return
    pending = list(batches)
    for attempt in range(3):  # a worker that dies costs its unfinished batch, which is retried
        if not pending:
            return
        failed = []
        try:
            # spawn, not fork: forking after torch or numba threads have started can deadlock a worker
            with ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            ) as pool:
                futures = {pool.submit(play_batch, game_id, num_players, specs, b, seed, options): b for b in pending}
                for fut in as_completed(futures):
                    try:
                        record(fut.result())
                    except BrokenProcessPool:
                        failed.append(futures[fut])
        except BrokenProcessPool:
            pass
        pending = failed
    if pending:
        raise RuntimeError(f"batches {pending} failed three times; finished games are kept, rerun with --resume")


def _run_ray(game_id, num_players, specs, batches, seed, options, workers, address, record) -> None:
    ray, started = start_ray(address, workers)
    try:
        remote = ray.remote(max_retries=3)(play_batch)
        refs = [remote.remote(game_id, num_players, specs, b, seed, options) for b in batches]
        while refs:
            ready, refs = ray.wait(refs, num_returns=1)
            record(ray.get(ready[0]))
    finally:
        if started:
            ray.shutdown()
