"""Tournament summary: whole-run Plackett-Luce ratings with bootstrap intervals, win shares (Wilson) and mean
ranks (bootstrap) per agent and per seat, and a head-to-head table; written as rich tables, CSV, JSON and a
PNG (built on ``Figure`` + ``FigureCanvasAgg``: the caller's matplotlib backend is never touched)."""

from __future__ import annotations

import csv
import io
import json
import math
import pathlib
from typing import TYPE_CHECKING

import numpy as np

from ..standings import win_shares
from .files import atomic_write
from .ratings import PRIOR_ELO, fit_ratings
from .stats import bootstrap_mean, head_to_head, wilson

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


def summarize(records: list[dict], labels: list[str], num_players: int, bootstrap: int = 200) -> dict:
    """Everything the report shows, from the games' ranks. ``win_rate``, ``mean_rank``, ``rating`` and each
    ``by_seat`` entry are ``[value, low, high]`` (95%)."""
    rated = fit_ratings(records, labels, bootstrap=bootstrap)
    shares = [win_shares(r["ranks"]) for r in records]
    per_agent, per_seat = {}, {}
    for label in labels:
        mine = [(g, i) for g, r in enumerate(records) for i, a in enumerate(r["agents"]) if a == label]
        won = sum(shares[g][i] for g, i in mine)
        ranks = [records[g]["ranks"][i] for g, i in mine]
        per_agent[label] = {
            "seats_played": len(mine),
            "win_rate": list(wilson(won, len(mine))),
            "mean_rank": list(bootstrap_mean(ranks, 1, num_players)),
            "rating": list(rated[label]),
        }
        per_seat[label] = []
        for s in range(num_players):
            at = [g for g, r in enumerate(records) if r["agents"][s] == label]
            per_seat[label].append(list(wilson(sum(shares[g][s] for g in at), len(at))) + [len(at)])
    lengths = [r["length"] for r in records]
    return {
        "games": len(records),
        "players": num_players,
        "agents": per_agent,
        "by_seat": per_seat,
        "head_to_head": head_to_head(records, labels),
        "anchor": rated["_anchor"],
        "rating_scale": f"Plackett-Luce, Elo scale, anchor 0, prior sd {PRIOR_ELO:.0f}",
        "equal_share": 1.0 / num_players,
        "mean_length": float(np.mean(lengths)) if lengths else math.nan,
    }


def _fmt(iv, digits: int = 2) -> str:
    """``0.43 [0.27,0.61]``: no space inside the interval, so a narrow table wraps before it, never inside."""
    mean, low, high = iv[:3]
    if mean is None or math.isnan(mean):
        return "-"
    return f"{mean:.{digits}f} [{low:.{digits}f},{high:.{digits}f}]"


def write_report(summary: dict, out: pathlib.Path, console: bool = True) -> None:
    """Write ``summary.json``, ``summary.csv``, ``head_to_head.csv`` and ``ratings.png`` into ``out``; with
    ``console``, print the agents table and (two agents or more) the head-to-head table."""
    out = pathlib.Path(out)
    atomic_write(out / "summary.json", json.dumps(summary, indent=1))
    atomic_write(out / "summary.csv", _agents_csv(summary))
    atomic_write(out / "head_to_head.csv", _pairs_csv(summary))
    atomic_write(out / "ratings.png", plot(summary))
    if console:
        print_tables(summary)


def print_tables(summary: dict, console: Console | None = None, by_seat: bool = False) -> None:
    """Print the agents table, the head-to-head table (two agents or more) and, with ``by_seat``, the win shares
    by seat, on ``console`` (default: a new one on stdout); every agent's name stays whole at any width."""
    if console is None:
        from rich.console import Console

        console = Console()
    console.print(agents_table(summary))
    if len(summary["agents"]) > 1:
        console.print(pairs_table(summary))
    if by_seat:
        console.print(seats_table(summary))


def _agents_csv(summary: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(
        [
            "agent",
            "seats_played",
            "win_rate",
            "win_low",
            "win_high",
            "mean_rank",
            "rank_low",
            "rank_high",
            "rating",
            "rating_low",
            "rating_high",
            "seconds_per_move",
        ]
        + [f"win_rate_seat_{s}" for s in range(summary["players"])]
    )
    for label, a in summary["agents"].items():
        per_move = a.get("seconds_per_move")
        w.writerow(
            [label, a["seats_played"], *a["win_rate"], *a["mean_rank"], *a["rating"]]
            + ["" if per_move is None else f"{per_move:.6f}"]
            + [iv[0] for iv in summary["by_seat"][label]]
        )
    return buf.getvalue()


def _pairs_csv(summary: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["agent", "opponent", "ahead_share", "low", "high", "pairs"])
    for a, row in summary["head_to_head"].items():
        for b, cell in row.items():
            w.writerow([a, b, *cell["share"], cell["n"]])
    return buf.getvalue()


def _ranked(summary: dict) -> list[str]:
    return sorted(summary["agents"], key=lambda lab: -summary["agents"][lab]["rating"][0])


def _table(title: str) -> Table:
    """A compact rich table (a header rule, one space between columns): the room goes to the agents' names."""
    from rich import box
    from rich.table import Table

    return Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, padding=0)


def _name_column(table: Table, header: str, names: list[str]) -> None:
    """A column that keeps every agent's name whole (never folded or cut): other columns wrap first, so at 80
    columns a name such as ``mcts:simulations=1000,seconds=0.5`` stays on one line."""
    table.add_column(header, no_wrap=True, min_width=max(map(len, names), default=0))


def agents_table(summary: dict) -> Table:
    """Agents by rating, each name whole on one line; a value's 95% interval goes under it, whole, when the
    console is narrow."""
    table = _table(
        f"{summary['games']} games, {summary['players']} players; 95% intervals in brackets; ratings: "
        f"{summary['rating_scale']} = '{summary['anchor']}'; equal share {summary['equal_share']:.2f}"
    )
    order = _ranked(summary)
    _name_column(table, "agent", order)
    table.add_column("seats", justify="right")
    for col in ("win share", "mean rank", "rating"):
        table.add_column(col)
    for label in order:
        a = summary["agents"][label]
        table.add_row(label, str(a["seats_played"]), _fmt(a["win_rate"]), _fmt(a["mean_rank"]), _fmt(a["rating"], 0))
    return table


def pairs_table(summary: dict) -> Table:
    """How often the row agent finished ahead of the column agent (ties half), with the number of pairs; rows are
    numbered by rating and the columns named by those numbers, so every name is written once, whole."""
    order = _ranked(summary)
    table = _table("head to head: share of games the row agent finished ahead of agent #k (ties half)")
    table.add_column("#", justify="right", no_wrap=True)
    _name_column(table, "agent", order)
    for k in range(1, len(order) + 1):
        table.add_column(f"vs #{k}")
    for i, a in enumerate(order, 1):
        cells = []
        for b in order:
            cell = summary["head_to_head"][a].get(b)
            cells.append("-" if cell is None or cell["n"] == 0 else f"{cell['share'][0]:.2f} (n={cell['n']})")
        table.add_row(str(i), a, *cells)
    return table


def seats_table(summary: dict) -> Table:
    """Each agent's win share in each seat, with the games it played there."""
    table = _table("win share by seat (games in the seat)")
    order = _ranked(summary)
    _name_column(table, "agent", order)
    for s in range(summary["players"]):
        table.add_column(f"seat {s}")
    for a in order:
        table.add_row(a, *(f"{v[0]:.2f} (n={v[3]})" if v[3] else "-" for v in summary["by_seat"][a]))
    return table


def plot(summary: dict) -> bytes:
    """PNG: ratings with 95% bootstrap intervals (agents on the y axis) and win share by seat with Wilson
    intervals against the equal share."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    order = _ranked(summary)[::-1]  # best at the top
    n_seats = summary["players"]
    fig = Figure(figsize=(12, 1.6 + 0.45 * max(len(order), 3)), layout="constrained")
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.3])
    ratings = np.array([summary["agents"][a]["rating"] for a in order], np.float64)
    finite = np.isfinite(ratings).all(axis=1)
    y = np.arange(len(order))
    # A percentile-bootstrap interval need not contain the point estimate (skewed resamples): clip at 0.
    err = np.clip(np.vstack([ratings[:, 0] - ratings[:, 1], ratings[:, 2] - ratings[:, 0]]), 0, None)
    left.errorbar(ratings[finite, 0], y[finite], xerr=err[:, finite], fmt="o", capsize=4, color="tab:blue")
    left.axvline(0, color="grey", lw=0.8, ls="--")
    left.set_yticks(y, order)
    left.set_xlabel(f"rating (Elo scale, '{summary['anchor']}' = 0), 95% bootstrap CI")
    left.set_title(f"ratings over {summary['games']} games")
    width = 0.8 / max(len(order), 1)
    for k, a in enumerate(order[::-1]):
        seats = np.array([iv[:3] for iv in summary["by_seat"][a]], np.float64)
        rates = np.nan_to_num(seats[:, 0])
        yerr = np.vstack([rates - np.nan_to_num(seats[:, 1]), np.nan_to_num(seats[:, 2]) - rates])
        right.bar(np.arange(n_seats) + k * width, rates, width, yerr=np.clip(yerr, 0, None), capsize=2, label=a)
    right.axhline(summary["equal_share"], color="grey", lw=0.8, ls="--", label="equal share")
    right.set_xticks(np.arange(n_seats) + 0.4 - width / 2, [f"seat {s}" for s in range(n_seats)])
    right.set_ylim(0, 1)
    right.set_ylabel("win share, 95% Wilson CI")
    right.set_title("win share by seat")
    right.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()
