"""Rating a newcomer against the frozen reference pool: one rating on a scale that does not move.

    tabletop-zoo evaluate mcts:simulations=200 irish_gauge --players 4 --games 100

The reference pool is the ladder's line-up (random, heuristic, mcts:simulations=100, mcts:simulations=1000, az
with the shipped network). Its ratings were measured once per game and player count by the pool's ladder
(``benchmarks/ladder/reference_pool.py``, the Plackett-Luce fit of ``ratings.py``, ``random`` = 0) and are
published in ``reference_pool.json`` with a version: the first number names the line-up, the rest is a digest of
the published entries, so any re-measurement (new az weights, more games) gives a new version. Every result
file records the version it was rated against.

The protocol: every game seats the newcomer and ``players - 1`` pool members. Games come in blocks of
``players``; within a block the line-up (newcomer first) rotates one seat per game, so the newcomer sits every
seat once, and block ``b`` takes the pool members ``b, b+1, ...`` (cyclically), so over ``len(pool)`` blocks
every member meets the newcomer equally often. Only the newcomer's rating is fitted (the pool's held at their
published values): the maximum a posteriori of the same Plackett-Luce likelihood, with ``ratings.py``'s weak
prior centred on the pool's mean rating, and a 95% percentile-bootstrap interval over games. The interval is
conditional on the published ratings (that is what makes two evaluations comparable). Its half-width shrinks
as one over the square root of the games, which gives the games needed for a wanted half-width.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import math
import os
import pathlib
from dataclasses import dataclass
from importlib import resources

import numpy as np
from scipy.optimize import brentq

from .. import registry
from ..agents import AGENTS, Agent
from ..agents.spec import AgentSpec, check_agent_spec
from ..standings import win_shares
from .files import GAMES_FILE, RUN_FILE, TIMES_FILE, RunLock, atomic_write, read_games, read_text, seconds_per_move
from .ratings import ELO, PRIOR_ELO, _Design
from .stats import bootstrap_mean, wilson
from .tournament import play_batch

POOL_FILE = "reference_pool.json"
POOL_FORMAT = "tabletop-zoo reference pool"
POOL_SERIES = 1  # bump when the pool's line-up changes (the digest part of the version follows the ratings)
RESULT_FILE = "result.json"
NEWCOMER = "new:"  # the newcomer's label in the records: its spec's label after this prefix
TARGET_HALF_WIDTH = 50.0  # Elo-equivalent half-width the report plans for
MIN_GAMES = 100  # the default: whole cycles (len(pool) blocks of `players` games), at least this many


# --- the pool file ----------------------------------------------------------------------------------
def pool_version(games: dict) -> str:
    """``<series>.<digest>``: the line-up's series and the first 10 hex digits of the published entries'
    SHA-256 (canonical JSON), so two pools with the same version hold the same ratings."""
    text = json.dumps(games, sort_keys=True, separators=(",", ":"))
    return f"{POOL_SERIES}.{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def load_pool(path: str | os.PathLike | None = None) -> dict:
    """The published pool (the package's ``reference_pool.json`` unless ``path``); its version is checked
    against its entries, so a hand-edited rating is refused."""
    text = (resources.files(__package__) / POOL_FILE).read_text() if path is None else read_text(pathlib.Path(path))
    pool = json.loads(text)
    if pool.get("format") != POOL_FORMAT:
        raise ValueError(f"{path or POOL_FILE} is not a reference pool file (format {pool.get('format')!r})")
    if pool["version"] != pool_version(pool["games"]):
        raise ValueError(f"{path or POOL_FILE}: version {pool['version']} does not match its entries (edited by hand?)")
    return pool


def build_pool(games: dict) -> dict:
    """The pool file's content for the published entries ``{game: {str(players): entry}}`` (an entry: the
    ladder's ``ratings`` per member, with how they were measured), its version computed from them."""
    return {"format": POOL_FORMAT, "version": pool_version(games), "games": games}


def pool_entry_of(summary: dict, members: list[str], command: str, az_weights_sha256: str | None = None) -> dict:
    """A pool entry from a finished ladder's summary: each member's ``[rating, low, high]`` (line-up order) and
    how it was measured (games, seed, options, the command, and the SHA-256 of the az network its games were
    played with, which a line-up with ``az`` must give)."""
    cfg = summary["config"]
    missing = [m for m in members if m not in summary["agents"]]
    if missing:
        raise ValueError(f"the ladder of {cfg['game']} at {cfg['players']} players lacks pool members {missing}")
    if ("az" in members) != (az_weights_sha256 is not None):
        raise ValueError("give the az network's SHA-256 exactly when the pool has az")
    entry = {"games": summary["games"], "seed": cfg["seed"], "options": cfg["options"], "command": command}
    if az_weights_sha256 is not None:
        entry["az_weights_sha256"] = az_weights_sha256
    entry["ratings"] = {m: [round(x, 1) for x in summary["agents"][m]["rating"]] for m in members}
    return entry


def weights_digest(game_id: str) -> str:
    """SHA-256 of the az network shipped for ``game_id`` (what the pool's az was measured with)."""
    from ..agents.az.agent import shipped_network

    return hashlib.sha256(pathlib.Path(shipped_network(game_id)).read_bytes()).hexdigest()


def pool_entry(pool: dict, game_id: str, num_players: int, options: dict) -> dict:
    """The published ratings of ``game_id`` at ``num_players`` (``{label: [rating, low, high]}`` and how they were
    measured); refuses, in one line, a (game, count) or options with no published pool, or changed az weights."""
    counts = pool["games"].get(game_id, {})
    entry = counts.get(str(num_players))
    if entry is None:
        have = ", ".join(sorted(counts, key=int)) or "none"
        raise ValueError(
            f"no published reference pool for {game_id} at {num_players} players (pool {pool['version']} has "
            f"player counts: {have}); benchmarks/ladder/reference_pool.py measures it"
        )
    if options != entry["options"]:
        raise ValueError(
            f"the reference pool for {game_id} was measured under options {entry['options'] or 'the defaults'}, "
            f"not {options}: a rating under other rules would not be on its scale"
        )
    if "az" in entry["ratings"] and entry["az_weights_sha256"] != weights_digest(game_id):
        raise ValueError(
            f"the az network shipped for {game_id} is not the one pool {pool['version']} was measured with: "
            "re-measure the pool (benchmarks/ladder/reference_pool.py) to rate against it"
        )
    return entry


# --- the newcomer -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClassAgentSpec:
    """An agent given as ``module:Class``: a class whose instances have ``act(observation, action_mask) -> int``.
    Its constructor gets ``seed=`` and ``game_id=`` when it takes them."""

    module: str
    cls: str

    @property
    def label(self) -> str:
        """``module:Class``, as the user wrote it."""
        return f"{self.module}:{self.cls}"

    def load(self) -> type:
        """The class; ValueError in one line when the module cannot be imported or holds no such class."""
        try:
            module = importlib.import_module(self.module)
        except Exception as e:  # the user's own module: any error while importing it is theirs to see, in one line
            raise ValueError(f"cannot import module {self.module!r} for agent {self.label!r}: {e}") from None
        cls = getattr(module, self.cls, None)
        if not inspect.isclass(cls):
            raise ValueError(f"module {self.module!r} has no class {self.cls!r} (agent {self.label!r})")
        if not callable(getattr(cls, "act", None)):
            raise ValueError(f"{self.label} is not an agent: it has no act(observation, action_mask) -> int method")
        return cls

    def build(self, game_id: str, seed: int | None = None) -> Agent:
        """A fresh instance for ``game_id``."""
        cls = self.load()
        takes = inspect.signature(cls).parameters
        given = {k: v for k, v in (("seed", seed), ("game_id", game_id)) if k in takes}
        try:
            return cls(**given)
        except Exception as e:  # the user's constructor: its failure is one line naming the class
            raise ValueError(f"{self.label}({', '.join(given)}) failed: {type(e).__name__}: {e}") from None


@dataclass(frozen=True)
class Newcomer:
    """The agent being rated, seated under its own label (``new:`` + its spec's), so a newcomer identical to a
    pool member is still told apart from it."""

    spec: AgentSpec | ClassAgentSpec

    @property
    def label(self) -> str:
        """``new:`` and the spec's label: how the records name the newcomer's seat."""
        return NEWCOMER + self.spec.label

    def build(self, game_id: str, seed: int | None = None) -> Agent:
        """A fresh instance of the newcomer for ``game_id``."""
        return self.spec.build(game_id, seed=seed)


def newcomer_spec(text: str, game_id: str) -> AgentSpec | ClassAgentSpec:
    """An agent spec (``mcts:simulations=200``, ``policy:path=FILE``) or a class path ``module:Class``; built once
    here, so a bad one is refused before any game."""
    head, colon, tail = text.strip().partition(":")
    if colon and tail.isidentifier() and head not in AGENTS:
        spec = ClassAgentSpec(head, tail)
        spec.build(game_id, seed=0)
        return spec
    return check_agent_spec(text, game_id)


# --- the schedule -----------------------------------------------------------------------------------
def lineup(pool_agents: list[str], num_players: int, game: int) -> list[str]:
    """The line-up of game ``game`` (newcomer first, then the pool members of its block); seats rotate over it
    as in the arena (seat ``i`` plays ``lineup[(i + game) % players]``)."""
    block = game // num_players
    return [NEWCOMER] + [pool_agents[(block + k) % len(pool_agents)] for k in range(num_players - 1)]


def default_games(pool_size: int, num_players: int) -> int:
    """Whole cycles (``pool_size`` blocks of ``num_players`` games), at least MIN_GAMES."""
    cycle = pool_size * num_players
    return cycle * math.ceil(MIN_GAMES / cycle)


# --- the fit ----------------------------------------------------------------------------------------
def _solve(design: _Design, weight: np.ndarray, fixed: np.ndarray) -> float:
    """The newcomer's theta (last agent of the design) maximising the weighted log-posterior with the others
    fixed. The posterior is concave in it, so its derivative falls once through zero: found by bracketing."""
    lam, centre = (ELO / PRIOR_ELO) ** 2, fixed.mean()
    theta = np.append(fixed, centre)

    def slope(t: float) -> float:
        theta[-1] = t
        return design.terms(theta, weight)[1][-1] - lam * (t - centre)

    span = 40.0  # natural units (about 7000 Elo) either side: the prior's slope alone exceeds any game's there
    return brentq(slope, centre - span, centre + span, xtol=1e-9)


def fit_newcomer(
    records: list[dict], newcomer: str, ratings: dict, bootstrap: int = 200, seed: int = 0
) -> tuple[float, float, float]:
    """(rating, low, high) of ``newcomer`` on the pool's scale (Elo, 95% percentile bootstrap over games), the
    pool's ratings (``{label: rating}``) held fixed."""
    labels = list(ratings) + [newcomer]
    design = _Design(records, labels)
    fixed = np.array([ratings[lab] for lab in ratings], np.float64) / ELO
    ones = np.ones(len(records))
    theta = _solve(design, ones, fixed)
    rng = np.random.default_rng(seed)
    draws = [
        _solve(design, rng.multinomial(len(records), ones / len(records)).astype(np.float64), fixed)
        for _ in range(bootstrap)
    ]
    low, high = np.percentile(draws, [2.5, 97.5]) if bootstrap else (theta, theta)
    return (float(theta * ELO), float(low * ELO), float(high * ELO))


def games_needed(games: int, interval: tuple[float, float, float], half_width: float, block: int) -> int:
    """Games for a 95% interval of ``half_width`` Elo, from this run's (half-widths shrink as 1/sqrt(games)),
    rounded up to whole blocks."""
    half = (interval[2] - interval[1]) / 2
    return block * max(1, math.ceil(games * (half / half_width) ** 2 / block))


# --- running ----------------------------------------------------------------------------------------
def _check_games(games: int | None, pool_size: int, num_players: int) -> int:
    if games is None:
        return default_games(pool_size, num_players)
    if isinstance(games, bool) or not isinstance(games, int) or games < num_players or games % num_players:
        raise ValueError(
            f"games must be a positive multiple of the players ({num_players}), so the newcomer sits every seat "
            f"equally often; got {games!r} (default {default_games(pool_size, num_players)}: whole cycles)"
        )
    return games


def _open(out: pathlib.Path) -> pathlib.Path:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot write results to {out}: {e.strerror or e}") from None
    return out


def _check_resume(out: pathlib.Path, config: dict, resume: bool) -> None:
    """An existing run in ``out`` is continued only with ``resume`` and the same configuration (games aside)."""
    run_file = out / RUN_FILE
    if not (run_file.exists() or (out / GAMES_FILE).exists()):
        return
    if not resume:
        raise ValueError(f"{out} already holds a run; pass resume (--resume) to continue it or choose another out")
    previous = json.loads(read_text(run_file)) if run_file.exists() else {}
    if {k: v for k, v in previous.items() if k != "games"} != {k: v for k, v in config.items() if k != "games"}:
        raise ValueError(f"resume needs the same agent, game, players, seed, options and pool as the run in {out}")


def evaluate(
    agent: str,
    game_id: str,
    num_players: int = 4,
    games: int | None = None,
    seed: int = 0,
    out: str | os.PathLike = "evaluate_out",
    options: dict | None = None,
    resume: bool = False,
    pool: dict | None = None,
) -> dict:
    """Rate ``agent`` (a spec or ``module:Class``) in ``game_id`` at ``num_players`` against the reference pool
    (the published one unless ``pool``); plays into ``OUT/games.jsonl`` (resumable) and returns the result, also
    written to ``OUT/result.json``. Everything is checked before the first game."""
    game_id, options = registry._canonical(game_id), dict(options or {})
    kernel = registry.kernel(game_id)
    num_players = kernel.check_num_players(num_players)
    kernel.check_seed(seed)
    kernel.resolve_options(**options)
    pool = load_pool() if pool is None else pool
    entry = pool_entry(pool, game_id, num_players, options)
    members = list(entry["ratings"])
    games = _check_games(games, len(members), num_players)
    new = Newcomer(newcomer_spec(agent, game_id))
    config = {"agent": new.spec.label, "game": game_id, "players": num_players, "games": games, "seed": seed}
    config |= {"options": options, "pool_version": pool["version"]}
    out = _open(pathlib.Path(out))
    with RunLock(out):
        _check_resume(out, config, resume)
        atomic_write(out / RUN_FILE, json.dumps(config, indent=1))
        done = _play(game_id, num_players, new, members, games, seed, options, out, pool["version"])
        records = [done[g] for g in sorted(done) if g < games]
        result = _result(records, config, new, entry, out)
        atomic_write(out / RESULT_FILE, json.dumps(result, indent=1))
    return result


def _play(game_id, num_players, new, members, games, seed, options, out, version) -> dict[int, dict]:
    """Play the games not yet in ``OUT/games.jsonl``, one by one, each appended (and synced) as it ends, with the
    pool's version."""
    specs = {lab: check_agent_spec(lab, game_id) for lab in members} | {NEWCOMER: new}
    labels = {lab: specs[lab].label for lab in specs}

    def seated(g):
        order = lineup(members, num_players, g)
        return [labels[order[(i + g) % num_players]] for i in range(num_players)]

    done = read_games(out / GAMES_FILE, num_players, seated)
    with (out / GAMES_FILE).open("a") as sink, (out / TIMES_FILE).open("a") as times:
        for g in (g for g in range(games) if g not in done):
            block = [specs[lab] for lab in lineup(members, num_players, g)]
            ((rec, cost),) = play_batch(game_id, num_players, block, [g], seed, options)
            rec["pool_version"] = version
            sink.write(json.dumps(rec) + "\n")
            times.write(json.dumps({"game": g, **cost}) + "\n")
            for f in (sink, times):
                f.flush()
                os.fsync(f.fileno())  # a finished game survives a kill
            done[g] = rec
    return done


def _result(records: list[dict], config: dict, new: Newcomer, entry: dict, out: pathlib.Path) -> dict:
    """The newcomer's rating and interval, the games its interval needs, its win share and mean rank."""
    ratings = {lab: v[0] for lab, v in entry["ratings"].items()}
    rating = fit_newcomer(records, new.label, ratings)
    n = config["players"]
    seats = [(r, i) for r in records for i, a in enumerate(r["agents"]) if a == new.label]
    won = sum(win_shares(r["ranks"])[i] for r, i in seats)
    block = len(ratings) * n  # whole cycles
    return {
        **config,
        "games": len(records),
        "rating": list(rating),
        "rating_scale": f"the pool's: Plackett-Luce, Elo scale, random = 0 (pool {config['pool_version']})",
        "half_width": (rating[2] - rating[1]) / 2,
        "games_for_half_width": {
            str(int(TARGET_HALF_WIDTH)): games_needed(len(records), rating, TARGET_HALF_WIDTH, block)
        },
        "win_rate": list(wilson(won, len(seats))),
        "equal_share": 1.0 / n,
        "mean_rank": list(bootstrap_mean([r["ranks"][i] for r, i in seats], 1, n)),
        "seconds_per_move": seconds_per_move(out / TIMES_FILE, records).get(new.label),
        "pool": entry["ratings"],
        "pool_ladder": {k: v for k, v in entry.items() if k != "ratings"},
    }
