"""The bench's output: a markdown report, a figure (Figure + FigureCanvasAgg, the caller's backend kept)
and the JSON of a run."""

from __future__ import annotations

import json
import pathlib

import numpy as np

from .. import registry
from ..files import atomic_write, replaced_on_success


# --- output -----------------------------------------------------------------------------------------------
def _fmt(x: float | None, digits: int = 0) -> str:
    if x is None:
        return "n/a"
    return f"{x:,.{digits}f}"


def _mmm(fig: dict, digits: int = 0) -> str:
    """median (min-max)"""
    return f"{_fmt(fig['median'], digits)} ({_fmt(fig['min'], digits)}-{_fmt(fig['max'], digits)})"


def _x(r: float | None) -> str:
    return "n/a" if r is None else f"{r:,.1f}x"


def _load_line(result: dict) -> str:
    """The machine's load at the start and the end of the run, flagged when it was busy."""
    ld = result.get("load")
    if not ld or ld["before"]["loadavg"] is None:
        return "Load: not recorded"
    span = (
        f"Load average (1 min): {ld['before']['loadavg'][0]:g} at the start, {ld['after']['loadavg'][0]:g} at the end"
    )
    return span + (" -- BUSY MACHINE: figures understate it" if ld["busy"] else " (quiet)")


def format_report(result: dict) -> str:
    """Markdown tables (readable in a terminal too): machine, games, references, headline."""
    m, cfg = result["machine"], result["config"]
    lines = [
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['platform']}; Python {m['python']}, numpy {m['numpy']}, "
        f"numba {m['numba']}, pettingzoo {m['pettingzoo']}, open_spiel {m['open_spiel']}",
        f"Each figure: median (min-max) over {cfg['repeats']} runs of {cfg['seconds']:g} s "
        f"(MCTS: one run = one search of each of {cfg['mcts_positions']} positions, "
        f"{cfg['mcts_simulations']} simulations, rollouts of {cfg['rollout_depth']} decisions + evaluate())"
        + ("; QUICK MODE: figures are not meaningful" if cfg["quick"] else ""),
        _load_line(result),
        "",
    ]
    lines += _throughput(result) + _per_call(result) + _references(result) + _headline(result)
    return "\n".join(lines)


def _game_table(result: dict, heading: list[str], header: str, cells) -> list[str]:
    """``heading``, then a table of ``header``'s columns with one row per game and player count: the game, the
    count and ``cells(figures)``."""
    lines = [*heading, header, "|" + "---|" * (header.count("|") - 1)]
    for g, rows in result["games"].items():
        for n, r in rows.items():
            lines.append(f"| {g} | {n} | " + " | ".join(cells(r)) + " |")
    return lines


def _throughput(result: dict) -> list[str]:
    """Decisions/s of the kernel (1 thread and all), its games/s and the AEC env against PettingZoo's."""
    t = result["config"]["threads"]
    header = (
        f"| game | players | kernel 1 thread | kernel {t} threads | scaling | decisions/game | kernel games/s (1t) "
        "| AEC env() steps/s | AEC vs PettingZoo connect_four env() |"
    )
    return _game_table(
        result,
        ["## Throughput (decisions/s)", ""],
        header,
        lambda r: [
            _mmm(r["kernel_1t"]["decisions_per_s"]),
            _mmm(r["kernel_all"]["decisions_per_s"]),
            _x(r["ratios"]["kernel_all_vs_1t"]),
            _fmt(r["kernel_1t"]["decisions_per_game"]["median"], 1),
            _mmm(r["kernel_1t"]["games_per_s"]),
            _mmm(r["aec"]["steps_per_s"]),
            _x(r["ratios"]["aec_vs_pettingzoo_connect_four_env"]),
        ],
    )


def _per_call(result: dict) -> list[str]:
    """Per-call costs (observe, cloning), MCTS simulations/s and memory."""
    t = result["config"]["threads"]
    header = (
        "| game | players | observe µs | record.copy() µs | byte copy µs | tobytes+frombuffer µs "
        f"| env get+set_state µs | MCTS sims/s (1t) | MCTS sims/s ({t}t) | ms per 1000 sims (1t) | state bytes "
        "| MCTS node bytes |"
    )
    clone = ("record_copy_us", "record_byte_copy_us", "bytes_round_trip_us", "env_get_set_state_us")
    return _game_table(
        result,
        ["", "## Per-call costs, MCTS and memory", ""],
        header,
        lambda r: [
            _mmm(r["observe"]["us_per_call"], 2),
            *(_mmm(r["clone"][key], 2) for key in clone),
            _mmm(r["mcts_1t"]["sims_per_s"]),
            _mmm(r["mcts_all"]["sims_per_s"]),
            _mmm(r["mcts_1t"]["ms_per_1000_sims"], 1),
            f"{r['memory']['state_record_bytes']:,}",
            str(r["memory"]["mcts_node_bytes"]),
        ],
    )


def _references(result: dict) -> list[str]:
    """The reference points measured in the same run (PettingZoo, OpenSpiel)."""
    lines = ["", "## Reference points (same run)", "", "| reference | figure |", "|---|---|"]
    pz, ops = result["references"]["pettingzoo"], result["references"]["openspiel"]
    for name, fig in pz.items():
        lines.append(
            f"| PettingZoo {name.replace('_env', ' env()').replace('_raw env()', ' raw_env()')} loop "
            f"| {'not installed' if fig is None else _mmm(fig['steps_per_s']) + ' steps/s'} |"
        )
    labels = {
        "random_python_loop": ("OpenSpiel connect_four random playouts, Python loop", "decisions_per_s", "decisions/s"),
        "random_cpp_loop": (
            "OpenSpiel connect_four random playouts, C++ loop (evaluate_bots)",
            "decisions_per_s",
            "decisions/s",
        ),
        "mcts_python": ("OpenSpiel Python MCTSBot on connect_four", "sims_per_s", "sims/s"),
        "mcts_cpp": ("OpenSpiel C++ MCTSBot on connect_four", "sims_per_s", "sims/s"),
    }
    for key, (label, field, unit) in labels.items():
        fig = ops.get(key)
        lines.append(f"| {label} | {'not installed' if fig is None else _mmm(fig[field]) + ' ' + unit} |")
    return lines


def _headline(result: dict) -> list[str]:
    """OpenSpiel's Python MCTSBot on our games against our MCTS."""
    lines = [
        "",
        "## Headline: OpenSpiel's Python MCTSBot on our games vs our MCTS",
        "",
        "Same positions, same simulations, rollouts of the same depth scored by the kernel's evaluate(), "
        "one thread each (target: ours >= 20x).",
        "",
        "| game | players | simulations | positions | OpenSpiel MCTSBot sims/s | ours sims/s | ours / OpenSpiel |",
        "|---|---|---|---|---|---|---|",
    ]
    for g, h in result["headline"].items():
        if h is None:
            lines.append(f"| {g} | | | | OpenSpiel not installed | | |")
        else:
            lines.append(
                f"| {g} | {h['players']} | {h['simulations']} | {h['positions']} | "
                f"{_mmm(h['openspiel_python_sims_per_s'])} | {_mmm(h['ours_sims_per_s'])} | {_x(h['ratio'])} |"
            )
    return lines


def plot(result: dict, path: pathlib.Path) -> None:
    """Bar chart (log scale) of decisions/s per game and layer at the game's default player count."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure  # not pyplot: the caller's backend and figures stay as they are

    games = list(result["games"])
    layers = [
        ("kernel 1 thread", lambda r: r["kernel_1t"]["decisions_per_s"]),
        (f"kernel {result['config']['threads']} threads", lambda r: r["kernel_all"]["decisions_per_s"]),
        ("AEC env() loop", lambda r: r["aec"]["steps_per_s"]),
    ]
    fig = Figure(figsize=(2 + 1.8 * len(games), 5))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    width = 0.8 / len(layers)
    x = np.arange(len(games))
    labels = []
    for i, (name, pick) in enumerate(layers):
        med, lo, hi = [], [], []
        for g in games:
            rows = result["games"][g]
            n = str(registry.kernel(g).DEFAULT_PLAYERS)
            fig_ = pick(rows[n] if n in rows else next(iter(rows.values())))
            med.append(fig_["median"])
            lo.append(fig_["median"] - fig_["min"])
            hi.append(fig_["max"] - fig_["median"])
        ax.bar(x + (i - 1) * width, med, width, yerr=[lo, hi], label=name, capsize=2)
    for g in games:
        n = str(registry.kernel(g).DEFAULT_PLAYERS)
        labels.append(f"{g}\n({n if n in result['games'][g] else next(iter(result['games'][g]))} players)")
    refs = result["references"]
    pz = refs["pettingzoo"].get("connect_four_v3_env")
    if pz:
        ax.axhline(pz["steps_per_s"]["median"], color="grey", ls="--", lw=1, label="PettingZoo connect_four_v3 env()")
    cpp = refs["openspiel"].get("random_cpp_loop")
    if cpp:
        ax.axhline(
            cpp["decisions_per_s"]["median"], color="black", ls=":", lw=1, label="OpenSpiel connect_four, C++ loop"
        )
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("decisions per second (median; bars: min-max)")
    ax.set_title(f"Random playouts, {result['machine']['cpu']}, {result['machine']['cores']} cores", fontsize=9)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=3)  # below: bars stay visible
    fig.tight_layout()
    with replaced_on_success(path) as tmp:
        fig.savefig(tmp, dpi=120)


def write(result: dict, out: pathlib.Path) -> list[pathlib.Path]:
    """results.json and results.png (decisions/s per game and layer) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "results.json", out / "results.png"]
    atomic_write(paths[0], json.dumps(result, indent=1) + "\n")
    plot(result, paths[1])
    return paths
