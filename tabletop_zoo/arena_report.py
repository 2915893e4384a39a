"""Tournament summary: openskill ratings (anchored), win rates and mean ranks with 95% intervals,
per agent and per seat; written as a rich table, CSV, JSON and a PNG plot."""

from __future__ import annotations

import csv
import json
import math
import pathlib

import numpy as np

ANCHOR = "random"
Z95 = 1.959964


def _interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and normal-approximation 95% interval (0 width for fewer than 2 values)."""
    a = np.asarray(values, float)
    if a.size == 0:
        return (math.nan, math.nan, math.nan)
    half = Z95 * a.std(ddof=1) / math.sqrt(a.size) if a.size > 1 else 0.0
    return (float(a.mean()), float(a.mean() - half), float(a.mean() + half))


def ratings(records: list[dict], labels: list[str]) -> dict[str, tuple[float, float]]:
    """Plackett-Luce ratings over the games in order; the first ``random`` agent stays fixed (anchor)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating = {label: model.rating(name=label) for label in labels}
    anchor = next((lab for lab in labels if lab.split(":")[0] == ANCHOR), None)
    for rec in records:
        seats = rec["agents"]
        teams = [[model.rating(mu=rating[a].mu, sigma=rating[a].sigma)] for a in seats]
        new = model.rate(teams, ranks=rec["ranks"])
        for label in set(seats):  # the same agent in several seats: average its seats' updates
            mine = [new[i][0] for i, a in enumerate(seats) if a == label]
            rating[label] = model.rating(mu=float(np.mean([r.mu for r in mine])),
                                         sigma=float(np.mean([r.sigma for r in mine])))
        if anchor is not None:
            rating[anchor] = model.rating()
    return {label: (r.mu, r.sigma) for label, r in rating.items()}


def summarize(records: list[dict], labels: list[str], num_players: int) -> dict:
    per_agent, per_seat = {}, {}
    rated = ratings(records, labels)
    for label in labels:
        wins = [r["rewards"][i] for r in records for i, a in enumerate(r["agents"]) if a == label]
        ranks = [r["ranks"][i] for r in records for i, a in enumerate(r["agents"]) if a == label]
        mu, sigma = rated[label]
        per_agent[label] = {"seats_played": len(wins), "win_rate": _interval(wins), "mean_rank": _interval(ranks),
                            "rating_mu": mu, "rating_sigma": sigma, "rating_ordinal": mu - 3 * sigma}
        per_seat[label] = [_interval([r["rewards"][s] for r in records if r["agents"][s] == label])
                           for s in range(num_players)]
    lengths = [r["length"] for r in records]
    return {"games": len(records), "players": num_players, "agents": per_agent, "by_seat": per_seat,
            "mean_length": float(np.mean(lengths)) if lengths else math.nan, "anchor": ANCHOR}


def _fmt(iv: tuple[float, float, float], digits: int = 2) -> str:
    mean, low, high = iv
    return "-" if math.isnan(mean) else f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def write_report(summary: dict, out: pathlib.Path, console: bool = True) -> None:
    out = pathlib.Path(out)
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    with (out / "summary.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["agent", "seats_played", "win_rate", "win_low", "win_high", "mean_rank", "rank_low", "rank_high",
                    "rating_mu", "rating_sigma", "rating_ordinal"]
                   + [f"win_rate_seat_{s}" for s in range(summary["players"])])
        for label, a in summary["agents"].items():
            w.writerow([label, a["seats_played"], *a["win_rate"], *a["mean_rank"], a["rating_mu"], a["rating_sigma"],
                        a["rating_ordinal"]] + [iv[0] for iv in summary["by_seat"][label]])
    _plot(summary, out / "ratings.png")
    if console:
        _print_table(summary)


def _print_table(summary: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{summary['games']} games, {summary['players']} players "
                        f"(ratings: Plackett-Luce, '{summary['anchor']}' fixed at 25)")
    for col in ("agent", "seats", "win rate [95% CI]", "mean rank [95% CI]", "rating mu ± sigma"):
        table.add_column(col)
    for label, a in sorted(summary["agents"].items(), key=lambda kv: -kv[1]["rating_mu"]):
        table.add_row(label, str(a["seats_played"]), _fmt(a["win_rate"]), _fmt(a["mean_rank"]),
                      f"{a['rating_mu']:.1f} ± {a['rating_sigma']:.1f}")
    Console().print(table)


def _plot(summary: dict, path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(summary["agents"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    mus = [summary["agents"][a]["rating_mu"] for a in labels]
    sig = [2 * summary["agents"][a]["rating_sigma"] for a in labels]
    left.errorbar(range(len(labels)), mus, yerr=sig, fmt="o", capsize=4)
    left.set_xticks(range(len(labels)), labels, rotation=20)
    left.set_ylabel("rating mu ± 2 sigma")
    left.set_title("ratings")
    width = 0.8 / max(len(labels), 1)
    for k, a in enumerate(labels):
        rates = [iv[0] for iv in summary["by_seat"][a]]
        right.bar(np.arange(summary["players"]) + k * width, np.nan_to_num(rates), width, label=a)
    right.set_xticks(np.arange(summary["players"]) + 0.4 - width / 2, [f"seat {s}" for s in range(summary["players"])])
    right.set_ylabel("win rate")
    right.set_title("win rate by seat")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
