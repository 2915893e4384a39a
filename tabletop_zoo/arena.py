"""Self-play tournaments: seat-rotated games, multi-player ratings, resumable results, local or Ray.

    tabletop-zoo arena irish_gauge --agents mcts,heuristic,random --players 3 --games 30 --out arena_out

Every game ``g`` gets its own seed derived from the run seed, and its seats are filled by rotating the
line-up (seat ``i`` plays agent ``lineup[(i + g) % len(lineup)]``), so over any ``len(lineup)``
consecutive games each seat sees each agent equally often. Finished games are appended to
``OUT/games.jsonl`` as they complete (with the action list, for exact replay); ``--resume`` continues a
killed run without losing or repeating a game. At the end the file is rewritten in game order (so the
same seed gives the same file on every backend) and ratings are computed in game order with openskill's
Plackett-Luce model, the first ``random`` agent of the line-up pinned as a fixed anchor.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pathlib
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import numpy as np

from . import registry

GAMES_FILE = "games.jsonl"
RUN_FILE = "run.json"


# --- agent specs ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AgentSpec:
    """``name[:key=value,...]``, e.g. ``mcts:simulations=500,rollout_depth=10``."""

    name: str
    params: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))


def _value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def parse_agent_spec(text: str, game_id: str) -> AgentSpec:
    """Parse and validate a spec string; unknown agents or parameters raise ValueError saying what is allowed."""
    from .agents import AGENTS, agent_parameters

    name, _, rest = text.strip().partition(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; available agents: {', '.join(sorted(AGENTS))}")
    params = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, val = item.partition("=")
        if not eq:
            raise ValueError(f"agent parameter {item!r} must look like key=value (in {text!r})")
        params[key.strip()] = _value(val.strip())
    allowed = agent_parameters(name, game_id)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for agent {name!r}; allowed: {', '.join(allowed) or 'none'}")
    return AgentSpec(name, params)


# --- the schedule -----------------------------------------------------------------------------------
def game_seed(run_seed: int, game: int) -> int:
    """The seed of game ``game`` of a run: fixed by (run seed, game index), independent of workers."""
    return int(np.random.SeedSequence([run_seed, game]).generate_state(1, np.uint64)[0])


def seating(lineup: list[str], num_players: int, game: int) -> list[int]:
    """Indexes into the line-up for each seat of game ``game`` (rotation: seat i -> (i + game) % L)."""
    return [(i + game) % len(lineup) for i in range(num_players)]


def play_one(game_id: str, num_players: int, specs: list[AgentSpec], game: int, run_seed: int,
             options: dict) -> dict:
    """Play game ``game`` of a run and return its record (runs inside a worker)."""
    from .agents import make_agent
    from .play import play_game

    seed = game_seed(run_seed, game)
    seats = seating(specs, num_players, game)
    env = registry.make_env(game_id, num_players=num_players, **options)
    agents = [make_agent(specs[j].name, game_id, seed=(seed + 7919 * i) % 2**63, **specs[j].params)
              for i, j in enumerate(seats)]
    actions: list[int] = []
    result = play_game(env, agents, seed=seed, on_decision=lambda e, a, act: actions.append(int(act)))
    names = env.possible_agents
    scores = [result[a]["score"] for a in names]
    rewards = [result[a]["reward"] for a in names]
    order = sorted(set(scores), reverse=True)
    return {"game": game, "seed": seed, "agents": [specs[j].label for j in seats], "scores": scores,
            "rewards": rewards, "ranks": [order.index(s) + 1 for s in scores], "length": len(actions),
            "actions": actions}


def play_batch(game_id, num_players, specs, games, run_seed, options):
    return [play_one(game_id, num_players, specs, g, run_seed, options) for g in games]


# --- results file -----------------------------------------------------------------------------------
def read_games(path: pathlib.Path) -> dict[int, dict]:
    """Finished games by index; a torn last line (a run killed mid-write) is dropped from the file."""
    done: dict[int, dict] = {}
    if not path.exists():
        return done
    good = []
    for line in path.read_text().splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if rec["game"] not in done:
            done[rec["game"]] = rec
            good.append(line)
    path.write_text("".join(g + "\n" for g in good))
    return done


def _warm_cache(game_id: str, num_players: int, specs: list[AgentSpec]) -> None:
    """Compile (or load) numba code once in the parent so workers never race to write the cache."""
    kernel = registry.kernel(game_id)
    kernel.playouts(num_players, 1, 0)
    if any(s.name == "mcts" for s in specs):
        from .agents.mcts import search_root

        search_root(kernel.new_state(num_players, 0), 2, 2, 1.0, 0)


# --- running ----------------------------------------------------------------------------------------
def run(game_id: str, agents: list[str], num_players: int | None = None, games: int = 30, seed: int = 0,
        out: str | os.PathLike = "arena_out", backend: str = "local", workers: int | None = None,
        resume: bool = False, address: str | None = None, batch_size: int | None = None,
        progress: bool = True, **options) -> dict:
    """Run (or resume) a tournament; returns the summary (also written to OUT)."""
    game_id = registry._canonical(game_id)
    kernel = registry.kernel(game_id)
    num_players = kernel.check_num_players(num_players or max(kernel.MIN_PLAYERS, min(len(agents), kernel.MAX_PLAYERS)))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be an int >= 1, got {games!r}")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    kernel.check_seed(seed)
    kernel.resolve_options(**options)
    if not agents:
        raise ValueError("the line-up is empty: give at least one agent, e.g. --agents heuristic,random")
    specs = [parse_agent_spec(a, game_id) for a in agents]
    out = pathlib.Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write_test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise ValueError(f"cannot write results to {out}: {e.strerror or e}") from None
    config = {"game": game_id, "players": num_players, "agents": [s.label for s in specs], "games": games,
              "seed": seed, "options": options}
    games_path = out / GAMES_FILE
    if (out / RUN_FILE).exists():
        previous = json.loads((out / RUN_FILE).read_text())
        if not resume:
            raise ValueError(f"{out} already holds a run; pass --resume to continue it or choose another --out")
        if {k: v for k, v in previous.items() if k != "games"} != {k: v for k, v in config.items() if k != "games"}:
            raise ValueError(f"--resume needs the same game, players, agents, seed and options as the run in {out}: "
                             f"{previous}")
    (out / RUN_FILE).write_text(json.dumps(config, indent=1))
    done = read_games(games_path)
    todo = [g for g in range(games) if g not in done]
    if todo:
        _warm_cache(game_id, num_players, specs)
        _play(game_id, num_players, specs, todo, seed, options, games_path, backend, workers, address,
              batch_size, progress, done)
    records = [done[g] for g in sorted(done) if g < games]
    games_path.write_text("".join(json.dumps(r) + "\n" for r in sorted(done.values(), key=lambda r: r["game"])))
    from .arena_report import summarize, write_report

    summary = summarize(records, [s.label for s in specs], num_players)
    summary["config"] = config
    write_report(summary, out)
    return summary


def _play(game_id, num_players, specs, todo, seed, options, games_path, backend, workers, address, batch_size,
          progress, done) -> None:
    workers = max(1, workers or os.cpu_count() or 1)
    size = batch_size or max(1, min(10, len(todo) // (4 * workers) or 1))
    batches = [todo[i:i + size] for i in range(0, len(todo), size)]
    bar = _progress(len(todo), progress)
    with games_path.open("a") as sink:
        def record(batch_result):
            for rec in batch_result:
                sink.write(json.dumps(rec) + "\n")
                done[rec["game"]] = rec
            sink.flush()
            os.fsync(sink.fileno())  # a finished game survives a kill
            bar.advance(len(batch_result))

        try:
            if backend == "ray":
                _run_ray(game_id, num_players, specs, batches, seed, options, workers, address, record)
            else:
                _run_local(game_id, num_players, specs, batches, seed, options, workers, record)
        finally:
            bar.stop()


def _run_local(game_id, num_players, specs, batches, seed, options, workers, record) -> None:
    pending = list(batches)
    for attempt in range(3):  # a worker that dies costs its unfinished batch, which is retried
        if not pending:
            return
        failed = []
        try:
            # spawn, not fork: forking after torch or numba threads have started can deadlock a worker
            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
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
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'tabletop-zoo[distributed]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
                 ignore_reinit_error=True, log_to_driver=False)
    try:
        remote = ray.remote(max_retries=3)(play_batch)
        refs = [remote.remote(game_id, num_players, specs, b, seed, options) for b in batches]
        while refs:
            ready, refs = ray.wait(refs, num_returns=1)
            record(ray.get(ready[0]))
    finally:
        if started:
            ray.shutdown()


class _NoBar:
    def advance(self, n):
        pass

    def stop(self):
        pass


def _progress(total: int, enabled: bool):
    """A rich progress bar: games done, games/s and time left."""
    if not enabled:
        return _NoBar()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.text import Text

    class GamesPerSecond(ProgressColumn):
        def render(self, task):
            return Text(f"{task.speed or 0:.1f} games/s")

    progress = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), GamesPerSecond(),
                        TextColumn("ETA"), TimeRemainingColumn())
    task = progress.add_task("arena", total=total)
    progress.start()

    class Bar:
        def advance(self, n):
            progress.update(task, advance=n)

        def stop(self):
            progress.stop()

    return Bar()
