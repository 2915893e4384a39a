"""The reference pool's ladders: every game at every supported player count, resumable, then published.

    nohup nice -n 10 python benchmarks/ladder/reference_pool.py run > benchmarks/ladder/run.log 2>&1 &
    python benchmarks/ladder/reference_pool.py publish

``run`` plays the ladder (the pool random, heuristic, mcts:simulations=100, mcts:simulations=1000 and az, one
worker, as ``tabletop_zoo.arena.ladder`` plays it) of every game at every player count into
``benchmarks/ladder/<n>p/<game>/``: seats rotated over the line-up at three players or more, and at two players a
round robin (``<game>/pairs/<i>-<j>/``: every two members, both seat orders), in passes of growing size
(``--rotations 2,4,8,20``: every (game, count) gets 5 x rotations games, that is 10, 20, 40, then 100; at two
players 10 x rotations, that is rotations games per pair), so an interrupted run has measured every count at the last
finished pass. Run it again (same arguments) to resume: finished games are kept, a pass only plays what it lacks.

``publish`` reads the run folders and writes what they hold: the pool file
(``tabletop_zoo/arena/reference_pool.json``: the pool's ratings per game and count, its version) and
``benchmarks/STRENGTH.md`` (the reference table, seat order and kingmaking per game and count). A (game, count)
with no finished run is left out of both, so ``evaluate`` refuses it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import re
import time

from tabletop_zoo import registry
from tabletop_zoo.arena import evaluate, seats, tournament
from tabletop_zoo.arena.files import GAMES_FILE, RUN_FILE, TIMES_FILE, atomic_write, play_seconds
from tabletop_zoo.arena.ladder import PAIRS_FOLDER, ROUND_ROBIN, STANDARD, environment, markdown, pairs, round_robin
from tabletop_zoo.arena.report import summarize

ROOT = pathlib.Path(__file__).resolve().parent  # benchmarks/ladder
REPO = ROOT.parent.parent
POOL_PATH = REPO / "tabletop_zoo" / "arena" / evaluate.POOL_FILE
STRENGTH_PATH = REPO / "benchmarks" / "STRENGTH.md"
SEED = 48  # the pool ladder's run seed (the number), chosen before any game was played
COMMAND = "python benchmarks/ladder/reference_pool.py run"
WEIGHTS_FILE = ROOT / "az_weights.json"  # {game: SHA-256 of the az network the game's ladders are played with}


def folder(num_players: int) -> pathlib.Path:
    """Where the ladders at ``num_players`` live: ``<n>p/<game>/`` under this folder."""
    return ROOT / f"{num_players}p"


def pass_games(num_players: int, rotations: int) -> int:
    """A pass's games: whole rotations of the line-up, or at two players ``rotations`` games per pair of the round
    robin (an even number, so each member of a pair sits first in half of them)."""
    return len(STANDARD) * rotations if num_players > 2 else len(pairs(STANDARD)) * rotations


def played_weights(gid: str) -> str:
    """The SHA-256 of the az network ``gid``'s ladders are played with: recorded when the first is started; a
    shipped network that differs since then stops the run (its games would mix two networks)."""
    recorded = json.loads(WEIGHTS_FILE.read_text()) if WEIGHTS_FILE.exists() else {}
    shipped = evaluate.weights_digest(gid)
    if recorded.setdefault(gid, shipped) != shipped:
        raise SystemExit(
            f"the az network shipped for {gid} changed since its ladders began ({WEIGHTS_FILE}): move "
            f"benchmarks/ladder/*/{gid}/ away and drop {gid} from {WEIGHTS_FILE.name} to measure the new one"
        )
    atomic_write(WEIGHTS_FILE, json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    return shipped


def run(rotations: list[int]) -> None:
    """Every pass, every game, every count (and order): the ladder to ``5 * rotations`` games (resumed)."""
    for r in rotations:
        for gid in sorted(registry.GAMES):
            played_weights(gid)
            for n in registry.player_counts(gid):
                start = time.perf_counter()
                out, games = folder(n) / gid, pass_games(n, r)
                if played(out) >= games:  # an earlier, larger pass: resuming it smaller would rewrite its run.json
                    continue
                kwargs = {"seed": SEED, "workers": 1, "resume": True, "progress": False}
                if n == 2:
                    summary, _ = round_robin(gid, STANDARD, games, out, backend="local", options={}, **kwargs)
                else:
                    summary = tournament.run(gid, STANDARD, n, games, out=out, console=False, **kwargs)
                per_game = summary["play_seconds"] / max(summary["games"], 1)
                print(
                    f"{gid} {n}p: {summary['games']} games, {per_game:.2f} s of play per game, "
                    f"{time.perf_counter() - start:.0f} s this pass",
                    flush=True,
                )


def dump(obj) -> str:
    """JSON with every list of numbers on one line (an interval, a seat's figures), for short readable diffs."""
    text = json.dumps(obj, indent=1)
    return re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"


def played(out: pathlib.Path) -> int:
    """The finished games of a ladder folder (at two players, summed over its round robin's pairs)."""
    return sum(len(finished(p)) for p in [out / GAMES_FILE, *out.glob(f"{PAIRS_FOLDER}/*/{GAMES_FILE}")])


def finished(path: pathlib.Path) -> dict[int, dict]:
    """The finished games of a ladder that may be running: read only (the arena's reader repairs a torn last line
    by rewriting the file, which a running ladder must not see); the last piece is empty or a line being written."""
    lines = path.read_text().split("\n") if path.exists() else [""]
    return {rec["game"]: rec for rec in map(json.loads, lines[:-1])}


def whole_runs(run_folder: pathlib.Path, step: int) -> tuple[dict, int]:
    """An arena run's finished games and how many of them, from game 0 without a gap, fill whole steps of
    ``step`` games (a rotation of the line-up; at two players a pair's two seat orders)."""
    done = finished(run_folder / GAMES_FILE)
    whole = len(done) // step * step
    while whole and any(g not in done for g in range(whole)):
        whole -= step
    return done, whole


def runs_of(gid: str, n: int) -> list[pathlib.Path]:
    """The arena run folders of ``gid``'s ladder at ``n`` players: one, or at two players one per pair."""
    out = folder(n) / gid
    return [out / PAIRS_FOLDER / f"{i}-{j}" for i, j in pairs(STANDARD)] if n == 2 else [out]


def measured(gid: str, n: int) -> dict | None:
    """The ladder of ``gid`` at ``n`` players as far as it was played: whole rotations (every member in every seat
    equally often), or at two players the same whole number of games in both seat orders for every pair; its
    summary with the seat-order and kingmaking tables; None before the first."""
    runs = [(run, *whole_runs(run, len(STANDARD) if n > 2 else 2)) for run in runs_of(gid, n)]
    whole = min(w for _, _, w in runs)
    if whole == 0:
        return None
    records, seconds = [], 0.0
    for run_folder, done, _ in runs:
        records += [done[g] for g in range(whole)]
        seconds += play_seconds(run_folder / TIMES_FILE, range(whole))
    config = json.loads((runs[0][0] / RUN_FILE).read_text())
    if n == 2:
        config = {"game": gid, "players": 2, "agents": STANDARD, "seed": SEED, "options": config["options"]}
        config["schedule"] = ROUND_ROBIN
    summary = summarize(records, STANDARD, n)
    summary["config"] = config | {"games": len(records)}
    summary["play_seconds"] = seconds
    summary["seating"] = seats.tables(gid, n, config["options"], records)
    atomic_write(folder(n) / gid / "published.json", dump(summary))
    return summary


def publish() -> None:
    """The pool file and STRENGTH.md from every ladder measured so far."""
    entries, sections = {}, []
    for gid in sorted(registry.GAMES):
        for n in registry.player_counts(gid):
            summary = measured(gid, n)
            if summary is not None:
                weights = json.loads(WEIGHTS_FILE.read_text())[gid]  # what the games were played with
                entry = evaluate.pool_entry_of(summary, STANDARD, same_games(gid, n, summary), weights)
                entries.setdefault(gid, {})[str(n)] = entry
                sections.append((gid, n, summary))
    pool = evaluate.build_pool(entries)
    atomic_write(POOL_PATH, dump(pool))
    atomic_write(STRENGTH_PATH, strength(pool, sections))
    print(f"pool {pool['version']}: {len(sections)} (game, count) measured; wrote {POOL_PATH} and {STRENGTH_PATH}")


def strength(pool: dict, sections: list) -> str:
    """STRENGTH.md: how it was made, the reference table, then every game at every count."""
    env = environment()
    play = sum(s["play_seconds"] for _, _, s in sections) / 3600
    head = [
        "# Strength ladder and reference pool",
        "",
        f"Produced by `{COMMAND}` (resumable; see the script) and `python benchmarks/ladder/reference_pool.py "
        f"publish` on {datetime.date.today().isoformat()}: {play:.1f} h of play in all (tabletop-zoo "
        f"{env['tabletop_zoo']}, Python {env['python']}, numpy {env['numpy']}, numba {env['numba']}; {env['machine']}, "
        f"shared with other jobs). Reference pool version **{pool['version']}** "
        "(`tabletop_zoo/arena/reference_pool.json`, what `tabletop-zoo evaluate` rates against).",
        "",
        f"Every game at every player count is a seat-rotated ladder of the pool (`{', '.join(STANDARD)}`; az at its "
        f"default budget with the shipped network), run seed {SEED}, one worker. Ratings: Plackett-Luce, Elo scale, "
        "`random` = 0 at each (game, count), 95% bootstrap intervals; win shares with Wilson intervals. Each run "
        "folder (`benchmarks/ladder/<n>p/<game>/`) keeps `run.json` and `published.json`; its games "
        "(`games.jsonl`, seeds and actions) are regenerated by the command, not versioned.",
        "",
        "## Reference table",
        "",
        "| game | players | games | "
        + " | ".join(f"`{a}`" for a in STANDARD)
        + " | seat 0's win share | kingmade | s/game |",
        "|---" * (len(STANDARD) + 6) + "|",
    ]
    for gid, n, s in sections:
        ratings = " | ".join(_iv(s["agents"][a]["rating"]) for a in STANDARD)
        first, king = s["seating"]["seat_order"]["win_share"][0], s["seating"]["kingmaking"]
        kingmade = "-" if king is None else _iv(king["kingmade"], 2)
        cost = s["play_seconds"] / s["games"]
        head.append(f"| {gid} | {n} | {s['games']} | {ratings} | {_iv(first, 2)} | {kingmade} | {cost:.1f} |")
    missing = [f"{g} {n}p" for g in sorted(registry.GAMES) for n in registry.player_counts(g)]
    missing = [m for m in missing if m not in {f"{g} {n}p" for g, n, _ in sections}]
    head += ["", f"Not measured yet: {', '.join(missing)}." if missing else "Every game at every count is measured."]
    head += [
        "",
        "Kingmade: the share of games won on score whose decisive decision (the last that put the winner ahead of "
        "the runner-up for good) was made by a seat that finished third or worse; s/game: seconds of play per game "
        "(one core, on a machine shared with other jobs). The definitions are on the tournaments page of the docs.",
    ]
    body = [f"{markdown(gid, s)}\nThe same games: `{same_games(gid, n, s)}`.\n" for gid, n, s in sections]
    return "\n".join(head) + "\n\n" + "\n".join(body)


def same_games(gid: str, n: int, summary: dict) -> str:
    """The command that plays exactly the published games of ``gid`` at ``n`` players again."""
    return f"tabletop-zoo ladder {gid} --players {n} --games {summary['games']} --seed {SEED} --workers 1"


def _iv(v, digits: int = 0) -> str:
    return f"{v[0]:.{digits}f} [{v[1]:.{digits}f}, {v[2]:.{digits}f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["run", "publish"])
    parser.add_argument("--rotations", default="2,4,8,20", help="passes, in rotations of the pool (5 games each)")
    args = parser.parse_args()
    if args.command == "run":
        run([int(r) for r in args.rotations.split(",")])
    else:
        publish()


if __name__ == "__main__":
    main()
