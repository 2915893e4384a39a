"""The reference pool's ladders: every game at every supported player count, resumable, then published.

    nohup nice -n 10 python benchmarks/ladder/reference_pool.py run > benchmarks/ladder/run.log 2>&1 &
    python benchmarks/ladder/reference_pool.py publish

``run`` plays the ladder (``tabletop_zoo.arena.ladder``: the pool random, heuristic, mcts:simulations=100,
mcts:simulations=1000 and az, seats rotated, one worker) of every game at every player count into
``benchmarks/ladder/<n>p/<game>/``, in passes of growing size (``--rotations 2,4,8,20``: every (game, count)
gets 10 games, then 20, 40, 100), so an interrupted run has measured every count at the last finished pass. Run it
again (same arguments) to resume: finished games are kept, a pass only plays what it lacks.

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
from tabletop_zoo.arena import evaluate, seats
from tabletop_zoo.arena.files import GAMES_FILE, RUN_FILE, TIMES_FILE, atomic_write, play_seconds
from tabletop_zoo.arena.ladder import STANDARD, environment, ladder, markdown
from tabletop_zoo.arena.report import summarize

ROOT = pathlib.Path(__file__).resolve().parent  # benchmarks/ladder
REPO = ROOT.parent.parent
POOL_PATH = REPO / "tabletop_zoo" / "arena" / evaluate.POOL_FILE
STRENGTH_PATH = REPO / "benchmarks" / "STRENGTH.md"
SEED = 48  # the pool ladder's run seed (the number), chosen before any game was played
COMMAND = "python benchmarks/ladder/reference_pool.py run"


def folder(num_players: int) -> pathlib.Path:
    """Where the ladders at ``num_players`` live: ``<n>p/<game>/`` under this folder."""
    return ROOT / f"{num_players}p"


def run(rotations: list[int]) -> None:
    """Every pass, every game, every count: the ladder to ``5 * rotations`` games (resumed)."""
    for r in rotations:
        for gid in sorted(registry.GAMES):
            for n in registry.player_counts(gid):
                start = time.perf_counter()
                games = len(STANDARD) * r
                summary = ladder(
                    gid, players=n, games=games, out=folder(n), seed=SEED, workers=1, resume=True, progress=False
                )
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


def finished(path: pathlib.Path) -> dict[int, dict]:
    """The finished games of a ladder that may be running: read only (the arena's reader repairs a torn last line
    by rewriting the file, which a running ladder must not see); the last piece is empty or a line being written."""
    lines = path.read_text().split("\n") if path.exists() else [""]
    return {rec["game"]: rec for rec in map(json.loads, lines[:-1])}


def measured(gid: str, n: int) -> dict | None:
    """The ladder of ``gid`` at ``n`` players as far as it was played, in whole rotations (every member in every
    seat equally often): its summary with the seat-order and kingmaking tables; None before a rotation."""
    run_dir = folder(n) / gid
    if not (run_dir / RUN_FILE).exists():
        return None
    config = json.loads((run_dir / RUN_FILE).read_text())
    done = finished(run_dir / GAMES_FILE)
    games = len(STANDARD) * (len(done) // len(STANDARD))
    records = [done[g] for g in range(games) if g in done]
    if len(records) < games or games == 0:  # a gap: a game not yet played inside the rotations
        return None
    summary = summarize(records, config["agents"], n)
    summary["config"] = config | {"games": games}
    summary["play_seconds"] = play_seconds(run_dir / TIMES_FILE, range(games))
    summary["seating"] = seats.tables(gid, n, config["options"], records)
    atomic_write(run_dir / "published.json", dump(summary))
    return summary


def publish() -> None:
    """The pool file and STRENGTH.md from every ladder measured so far."""
    entries, sections = {}, []
    for gid in sorted(registry.GAMES):
        for n in registry.player_counts(gid):
            summary = measured(gid, n)
            if summary is not None:
                entries.setdefault(gid, {})[str(n)] = evaluate.pool_entry_of(
                    summary, STANDARD, same_games(gid, n, summary)
                )
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
    """The ladder command that plays exactly the published games of ``gid`` at ``n`` players again."""
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
