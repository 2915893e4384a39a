"""The strength ladder: a seat-rotated arena run of a standard line-up, reported as a ladder in Markdown.

    tabletop-zoo ladder imperial --players 4 --games 80
    tabletop-zoo ladder all --out benchmarks          # benchmarks/STRENGTH.md, every game

The line-up is random, heuristic, mcts:simulations=100, mcts:simulations=1000 and az (the network shipped for
the game, agents/az/weights) (``--quick``: random, heuristic, mcts:simulations=20, few games), plus any agents
given (trained policies, other searches).

At three players or more the seats rotate over the line-up (``arena.seating``): each game seats neighbours of the
line-up, so two agents meet when fewer than ``players`` places apart, and overlapping windows tie every agent to
every other in the one rating fit. At two players the rotation would seat only neighbours (5 of the 10 pairs of the
standard line-up, each in one seat order), so the ladder is a round robin: one two-agent arena run per pair of
agents (``OUT/<game>/pairs/<i>-<j>/``, seats alternating), every pair as often and in both seat orders, and the
ratings one fit over all their games (``OUT/<game>/summary.json``).
"""

from __future__ import annotations

import datetime
import itertools
import math
import os
import pathlib
import platform
import time
from typing import TYPE_CHECKING

from .. import registry
from . import seats
from .files import GAMES_FILE, RUN_FILE, read_games
from .tournament import run

if TYPE_CHECKING:
    from rich.console import Console

STANDARD = ["random", "heuristic", "mcts:simulations=100", "mcts:simulations=1000", "az"]
QUICK = ["random", "heuristic", "mcts:simulations=20"]
STRENGTH_FILE = "STRENGTH.md"
PAIRS_FOLDER = "pairs"  # a two-player ladder's runs, one per pair of agents
ROUND_ROBIN = "round robin: every two agents, both seat orders"


def lineup(extra: list[str] = (), quick: bool = False) -> list[str]:
    """The standard line-up (``QUICK`` with ``quick``), then the ``extra`` agents it does not hold yet."""
    base = QUICK if quick else STANDARD
    return base + [a for a in extra if a not in base]


def default_games(size: int, quick: bool, players: int | None = None) -> int:
    """Whole rotations: every agent in every seat the same number of times; at two players every ordered pair of
    agents 5 times (``quick``: once), the same 100 games for the standard line-up."""
    if players == 2:
        return size * (size - 1) * (1 if quick else 5)
    return size * (2 if quick else 20)


def pairs(names: list[str]) -> list[tuple[int, int]]:
    """The round robin's pairs at two players: line-up indexes ``(i, j)``, ``i < j``, every two agents once."""
    return list(itertools.combinations(range(len(names)), 2))


def games_per_pair(games: int, size: int) -> int:
    """A two-player ladder's ``games`` split over its pairs: a positive multiple of 2 x pairs, so every pair plays
    as often and each agent of a pair sits first in half its games."""
    n = len(pairs(list(range(size))))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1 or games % (2 * n):
        raise ValueError(
            f"a two-player ladder is a round robin of {n} pairs in both seat orders: games must be a positive "
            f"multiple of {2 * n}, got {games!r}"
        )
    return games // n


def ladder(
    game_id: str,
    players: int | None = None,
    agents: list[str] = (),
    games: int | None = None,
    quick: bool = False,
    out: str | os.PathLike = "ladder_runs",
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    resume: bool = False,
    progress: bool = True,
    options: dict | None = None,
) -> dict:
    """Run one game's ladder into ``OUT/<game>/`` (under the game ``options``, e.g. ``{"ruleset": "published"}``);
    returns the arena summary plus its wall time. At two players it is a round robin (``round_robin``)."""
    gid = registry._canonical(game_id)
    names = lineup(list(agents), quick)
    count = len(names) if players is None else players
    games = games or default_games(len(names), quick, count)
    folder = pathlib.Path(out) / gid
    kwargs = dict(seed=seed, backend=backend, workers=workers, resume=resume, progress=progress, options=options or {})
    start = time.perf_counter()
    if count == 2:
        summary, records = round_robin(gid, names, games, folder, **kwargs)
    else:
        if (folder / PAIRS_FOLDER).exists():
            raise ValueError(f"{folder} holds a two-player ladder (its {PAIRS_FOLDER}/); choose another --out")
        summary, records = rotation(gid, names, players, games, folder, **kwargs)
    summary["wall_seconds"] = time.perf_counter() - start
    summary["seating"] = seats.tables(gid, summary["players"], options or {}, records)
    return summary


def rotation(
    gid: str, names: list[str], players: int | None, games: int, folder: pathlib.Path, **kwargs
) -> tuple[dict, list[dict]]:
    """One seat-rotated arena run of the whole line-up in ``folder``: (its summary, its games' records)."""
    options = kwargs.pop("options")
    summary = run(gid, names, num_players=players, games=games, out=folder, console=False, **kwargs, **options)
    done = read_games(folder / GAMES_FILE, summary["players"])
    return summary, [done[g] for g in sorted(done) if g < games]


def round_robin(gid: str, names: list[str], games: int, folder: pathlib.Path, **kwargs) -> tuple[dict, list[dict]]:
    """A two-player ladder: one arena run per pair of agents (``folder/pairs/<i>-<j>/``, ``games`` split evenly,
    seats alternating), rated together by one fit over every pair's games written to ``folder``; returns (that
    summary, the games' records). Every agent is checked before the first game."""
    from ..agents.spec import check_agent_spec
    from .report import summarize, write_report

    per_pair = games_per_pair(games, len(names))
    if (folder / RUN_FILE).exists():
        raise ValueError(f"{folder} holds a ladder of more than two players; choose another --out")
    for name in names:
        check_agent_spec(name, gid)
    options = kwargs.pop("options")
    records, play = [], 0.0
    for i, j in pairs(names):
        sub = folder / PAIRS_FOLDER / f"{i}-{j}"
        pair = [names[i], names[j]]
        summary = run(gid, pair, num_players=2, games=per_pair, out=sub, console=False, **kwargs, **options)
        done = read_games(sub / GAMES_FILE, 2)
        records += [done[g] for g in sorted(done) if g < per_pair]
        play += summary.get("play_seconds", 0.0)
    summary = summarize(records, names, 2)
    summary["config"] = {"game": gid, "players": 2, "agents": names, "games": games, "seed": kwargs["seed"]}
    summary["config"] |= {"options": options, "schedule": ROUND_ROBIN}
    summary["play_seconds"] = play
    write_report(summary, folder, console=False)
    return summary, records


def _iv(v, digits=2) -> str:
    mean, low, high = v[:3]
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "-"
    return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _options(cfg: dict) -> str:
    """The game options a ladder was played under, as a sentence (none: the game's defaults, said by nothing)."""
    given = cfg.get("options") or {}
    return " Game options: " + ", ".join(f"`{k}={v}`" for k, v in given.items()) + "." if given else ""


def _heading(game_id: str, summary: dict) -> list[str]:
    """The title and the paragraph that open one game's ladder (Markdown lines)."""
    cfg = summary["config"]
    wall = (
        f", {summary['wall_seconds']:.0f} s of wall clock in the last invocation" if "wall_seconds" in summary else ""
    )
    return [
        f"## {game_id}, {summary['players']} players",
        "",
        f"{summary['games']} games ({cfg.get('schedule', 'seats rotated')}), seed {cfg['seed']}, mean length "
        f"{summary['mean_length']:.0f} "
        f"decisions; {summary.get('play_seconds', math.nan):.0f} s of play (summed over the games, across resumes and "
        f"workers){wall}. Ratings: {summary['rating_scale']} "
        f"= `{summary['anchor']}`; equal share {summary['equal_share']:.2f}; 95% intervals.{_options(cfg)}",
    ]


def print_summary(game_id: str, summary: dict, console: Console | None = None) -> None:
    """One game's ladder on the console (default: a new one on stdout): its heading, then the arena report's
    tables, which keep every agent's name whole (a Markdown table on the console cuts long names)."""
    from rich.console import Console
    from rich.markdown import Markdown

    from .report import print_tables

    console = Console() if console is None else console
    console.print(Markdown("\n".join(_heading(game_id, summary))))
    print_tables(summary, console, by_seat=True)


def markdown(game_id: str, summary: dict) -> str:
    """One game's ladder: ratings, win shares and mean ranks; the head-to-head table; shares by seat."""
    order = sorted(summary["agents"], key=lambda a: -summary["agents"][a]["rating"][0])
    lines = _heading(game_id, summary) + [
        "",
        "| # | agent | rating | win share | mean rank | seats |",
        "|---|---|---|---|---|---|",
    ]
    for i, a in enumerate(order, 1):
        s = summary["agents"][a]
        lines.append(
            f"| {i} | `{a}` | {_iv(s['rating'], 0)} | {_iv(s['win_rate'])} | {_iv(s['mean_rank'])} | "
            f"{s['seats_played']} |"
        )
    lines += [
        "",
        "Head to head (share of games the row agent finished ahead of the column agent; ties half):",
        "",
        "| | " + " | ".join(f"`{b}`" for b in order) + " |",
        "|---" * (len(order) + 1) + "|",
    ]
    for a in order:
        cells = []
        for b in order:
            c = summary["head_to_head"][a].get(b)
            cells.append("" if c is None else f"{c['share'][0]:.2f} (n={c['n']})")
        lines.append(f"| `{a}` | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Win share by seat:",
        "",
        "| agent | " + " | ".join(f"seat {s}" for s in range(summary["players"])) + " |",
        "|---" * (summary["players"] + 1) + "|",
    ]
    for a in order:
        lines.append(
            f"| `{a}` | " + " | ".join(f"{v[0]:.2f} (n={v[3]})" if v[3] else "-" for v in summary["by_seat"][a]) + " |"
        )
    if "seating" in summary:  # seat order and kingmaking (seats.py)
        lines += ["", seats.markdown(summary["seating"]).rstrip("\n")]
    return "\n".join(lines) + "\n"


def environment() -> dict:
    """What a ladder's numbers depend on besides its command: the package, Python, numpy and numba versions, the
    machine and its cores, and the load before the run."""
    import numba
    import numpy

    from .. import __version__

    load = os.getloadavg()
    return {
        "tabletop_zoo": __version__,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "load_before": [round(x, 2) for x in load],
    }


def write_strength(sections: list[tuple[str, dict]], path: pathlib.Path, command: str, env: dict, wall: float) -> None:
    """The Markdown file: how it was made, then one ladder per game."""
    from .files import atomic_write

    load_after = [round(x, 2) for x in os.getloadavg()]
    play = sum(summary.get("play_seconds", 0.0) for _, summary in sections)
    head = [
        "# Strength ladder",
        "",
        f"Produced by `{command}` on {datetime.date.today().isoformat()}: {play / 60:.1f} min of play in all "
        f"(each game's own time, summed; {wall / 60:.1f} min of wall clock in the last invocation) "
        f"(tabletop-zoo {env['tabletop_zoo']}, Python {env['python']}, numpy {env['numpy']}, numba "
        f"{env['numba']}; {env['machine']}; load average {env['load_before']} before, {load_after} after).",
        "",
        "Each game is a seat-rotated arena run (`tabletop_zoo.arena`; at two players a round robin: one run per "
        "pair of agents, both seat orders): a seat's rank comes from the kernel's "
        "returns, then the final score; ratings are one Plackett-Luce fit over all games with bootstrap "
        "intervals; win shares carry Wilson intervals. The command above writes every game's seed and actions "
        "into its run folder (`OUT/ladder/<game>/games.jsonl`, at two players `OUT/ladder/<game>/pairs/<i>-<j>/`; "
        "regenerated, not versioned), so each result can be "
        "replayed.",
        "",
    ]
    atomic_write(path, "\n".join(head) + "\n" + "\n".join(markdown(g, s) for g, s in sections))
