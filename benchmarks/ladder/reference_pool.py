"""The reference pool's ladders: every game at every supported player count, resumable, then published.

    nohup nice -n 10 python benchmarks/ladder/reference_pool.py run > benchmarks/ladder/run.log 2>&1 &
    python benchmarks/ladder/reference_pool.py publish

``run`` plays the ladder (the pool random, heuristic, mcts:simulations=100, mcts:simulations=1000 and az, seats
rotated as in ``tabletop_zoo.arena.ladder``, one worker) of every game at every player count into
``benchmarks/ladder/<n>p/<game>/``, and at two players also the line-up in steps of two into
``2p-skip/<game>/`` (the rotation seats only neighbours of a line-up together), in passes of growing size
(``--rotations 2,4,8,20``: every (game, count) gets 10 games, then 20, 40, 100), so an interrupted run has measured
every count at the last finished pass. Run it again (same arguments) to resume: finished games are kept, a pass
only plays what it lacks.

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
from tabletop_zoo.arena.ladder import STANDARD, environment, markdown
from tabletop_zoo.arena.report import summarize

ROOT = pathlib.Path(__file__).resolve().parent  # benchmarks/ladder
REPO = ROOT.parent.parent
POOL_PATH = REPO / "tabletop_zoo" / "arena" / evaluate.POOL_FILE
STRENGTH_PATH = REPO / "benchmarks" / "STRENGTH.md"
SEED = 48  # the pool ladder's run seed (the number), chosen before any game was played
COMMAND = "python benchmarks/ladder/reference_pool.py run"
# At two players the arena's rotation seats neighbours of the line-up only (5 of the 10 pairs): a second ladder in
# steps of two (random, mcts:100, az, heuristic, mcts:1000) seats the other 5, so every two members meet.
SKIP = STANDARD[::2] + STANDARD[1::2]
WEIGHTS_FILE = ROOT / "az_weights.json"  # {game: SHA-256 of the az network the game's ladders are played with}


def folder(num_players: int, order: list[str] = STANDARD) -> pathlib.Path:
    """Where the ladders at ``num_players`` live: ``<n>p/<game>/`` under this folder (``2p-skip/`` for SKIP)."""
    return ROOT / (f"{num_players}p" if order == STANDARD else f"{num_players}p-skip")


def orders(num_players: int) -> list[list[str]]:
    """The line-up orders played at ``num_players``: STANDARD, and at two players SKIP too."""
    return [STANDARD, SKIP] if num_players == 2 else [STANDARD]


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
                for order in orders(n):
                    start = time.perf_counter()
                    out = folder(n, order) / gid
                    kwargs = {"workers": 1, "resume": True, "progress": False, "console": False}
                    summary = tournament.run(gid, order, n, len(order) * r, SEED, out, **kwargs)
                    per_game = summary["play_seconds"] / max(summary["games"], 1)
                    print(
                        f"{gid} {n}p {folder(n, order).name}: {summary['games']} games, {per_game:.2f} s of play per "
                        f"game, {time.perf_counter() - start:.0f} s this pass",
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


def rotations_done(gid: str, n: int, order: list[str]) -> tuple[dict, int]:
    """A ladder folder's finished games and how many whole rotations they fill (from game 0, without a gap)."""
    done = finished(folder(n, order) / gid / GAMES_FILE)
    whole = len(done) // len(order)
    while whole and any(g not in done for g in range(whole * len(order))):
        whole -= 1
    return done, whole


def measured(gid: str, n: int) -> dict | None:
    """The ladder of ``gid`` at ``n`` players (both orders at two players) as far as it was played, in whole
    rotations (every member in every seat equally often, the same number in each order): its summary with the
    seat-order and kingmaking tables; None before a rotation."""
    runs = [(order, *rotations_done(gid, n, order)) for order in orders(n)]
    whole = min(w for _, _, w in runs)
    if whole == 0:
        return None
    records, seconds = [], 0.0
    for order, done, _ in runs:
        records += [done[g] for g in range(whole * len(order))]
        seconds += play_seconds(folder(n, order) / gid / TIMES_FILE, range(whole * len(order)))
    config = json.loads((folder(n) / gid / RUN_FILE).read_text())
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
    """The commands that play exactly the published games of ``gid`` at ``n`` players again."""
    games = summary["games"] // len(orders(n))
    ladder_cmd = f"tabletop-zoo ladder {gid} --players {n} --games {games} --seed {SEED} --workers 1"
    if n != 2:
        return ladder_cmd
    arena_cmd = f"tabletop-zoo arena {gid} --agents '{';'.join(SKIP)}' --players 2 --games {games} --seed {SEED}"
    return f"{ladder_cmd}` and `{arena_cmd} --workers 1"


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
