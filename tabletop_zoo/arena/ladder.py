"""The strength ladder: a seat-rotated arena run of a standard line-up, reported as a ladder in Markdown.

    tabletop-zoo ladder imperial --players 4 --games 80
    tabletop-zoo ladder all --out benchmarks          # benchmarks/STRENGTH.md, every game

The line-up is random, heuristic, mcts:simulations=100, mcts:simulations=1000 and az (the network shipped for
the game, agents/az/weights) (``--quick``: random, heuristic, mcts:simulations=20, few games), plus any agents
given (trained policies, other searches).
"""

from __future__ import annotations

import datetime
import math
import os
import pathlib
import platform
import time
from typing import TYPE_CHECKING

from .. import registry
from . import seats
from .files import GAMES_FILE, read_games
from .tournament import run

if TYPE_CHECKING:
    from rich.console import Console

STANDARD = ["random", "heuristic", "mcts:simulations=100", "mcts:simulations=1000", "az"]
QUICK = ["random", "heuristic", "mcts:simulations=20"]
STRENGTH_FILE = "STRENGTH.md"


def lineup(extra: list[str] = (), quick: bool = False) -> list[str]:
    """The standard line-up (``QUICK`` with ``quick``), then the ``extra`` agents it does not hold yet."""
    base = QUICK if quick else STANDARD
    return base + [a for a in extra if a not in base]


def default_games(size: int, quick: bool) -> int:
    """Whole rotations: every agent in every seat the same number of times."""
    return size * (2 if quick else 20)


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
    returns the arena summary plus its wall time."""
    gid = registry._canonical(game_id)
    names = lineup(list(agents), quick)
    games = games or default_games(len(names), quick)
    start = time.perf_counter()
    summary = run(
        gid,
        names,
        num_players=players,
        games=games,
        seed=seed,
        out=pathlib.Path(out) / gid,
        backend=backend,
        workers=workers,
        resume=resume,
        progress=progress,
        console=False,
        **(options or {}),
    )
    summary["wall_seconds"] = time.perf_counter() - start
    done = read_games(pathlib.Path(out) / gid / GAMES_FILE, summary["players"])
    records = [done[g] for g in sorted(done) if g < games]
    summary["seating"] = seats.tables(gid, summary["players"], options or {}, records)
    return summary


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
        f"{summary['games']} games (seats rotated), seed {cfg['seed']}, mean length {summary['mean_length']:.0f} "
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
        "Each game is a seat-rotated arena run (`tabletop_zoo.arena`): a seat's rank comes from the kernel's "
        "returns, then the final score; ratings are one Plackett-Luce fit over all games with bootstrap "
        "intervals; win shares carry Wilson intervals. The command above writes every game's seed and actions "
        "into its run folder (`OUT/ladder/<game>/games.jsonl`; regenerated, not versioned), so each result can be "
        "replayed.",
        "",
    ]
    atomic_write(path, "\n".join(head) + "\n" + "\n".join(markdown(g, s) for g, s in sections))
