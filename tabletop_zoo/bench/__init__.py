"""``tabletop-zoo bench``: throughput of every game and layer, next to the libraries a user would pick
instead, in one run.

``run(games, Config())`` measures, for every game and player count: kernel random playouts on 1 thread
and on all cores, the PettingZoo AEC random-agent loop, the observation encoder, clone and serialize
round trips, our MCTS (1 thread and all cores) and memory per state record and per MCTS node. In the
same run it measures the reference points that are installed (PettingZoo ``connect_four_v3`` env()
and raw_env() loops; OpenSpiel connect_four random playouts in a Python loop and a C++ loop, OpenSpiel's
Python and C++ MCTS bots) and the headline: OpenSpiel's Python ``MCTSBot`` on our games through
``tabletop_zoo.interop.openspiel`` against our MCTS on the same positions with the same simulation
counts, rollout depth and leaf evaluation.

Every figure is ``{"median", "min", "max", "runs"}`` over repeated runs; compilation and cache loading
happen before the timed region. Timings are reported, never asserted in tests.

Modules: ``measure`` (the machine, its load, the figures of one game), ``references`` (PettingZoo and
OpenSpiel in the same run), ``report`` (markdown, figure, JSON), ``training`` (``tabletop-zoo bench
training``: the self-play trainer against SB3).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from .. import registry
from .measure import (
    TARGET_AEC_VS_PETTINGZOO,
    TARGET_CLONE_US,
    TARGET_KERNEL_DECISIONS_PER_S,
    TARGET_MCTS_VS_OPENSPIEL_PYTHON,
    TARGET_TWO_CORE_SCALING,
    Config,
    busy_warning,
    load,
    machine,
    measure_game,
)
from .references import headline, openspiel_references, pettingzoo_references
from .report import format_report, plot, write

__all__ = [
    "Config",
    "run",
    "add_ratios",
    "format_report",
    "plot",
    "write",
    "load",
    "busy_warning",
    "machine",
    "measure_game",
    "headline",
    "TARGET_MCTS_VS_OPENSPIEL_PYTHON",
]


# --- the whole run --------------------------------------------------------------------------------------
def run(games: list[str], cfg: Config, progress: Callable[[str], None] | None = None) -> dict:
    """Every figure for ``games``, the reference points and the headline, with ratios and targets."""
    say = progress or (lambda _msg: None)
    games = [registry._canonical(g) for g in games]
    result: dict = {"machine": machine(), "config": dataclasses.asdict(cfg), "games": {}, "headline": {}}
    result["load"] = {"before": load()}  # recorded so that a run on a busy machine is visibly one
    say("reference points: PettingZoo connect_four_v3")
    result["references"] = {"pettingzoo": pettingzoo_references(cfg)}
    say("reference points: OpenSpiel connect_four")
    result["references"]["openspiel"] = openspiel_references(cfg)
    for g in games:
        result["games"][g] = {}
        for n in registry.player_counts(g):
            say(f"{g}, {n} players")
            result["games"][g][str(n)] = measure_game(g, n, cfg)
        say(f"{g}: OpenSpiel Python MCTSBot vs ours")
        result["headline"][g] = headline(g, cfg)
    result["load"]["after"] = load()
    result["load"]["busy"] = bool(result["load"]["before"]["busy"] or result["load"]["after"]["busy"])
    add_ratios(result)
    return result


def _median(fig: dict | None, key: str) -> float | None:
    return None if fig is None else fig[key]["median"]


def add_ratios(result: dict) -> None:
    """Ratios to the reference points and target checks, added to every game row."""
    refs = result["references"]
    pz = _median(refs["pettingzoo"]["connect_four_v3_env"], "steps_per_s")
    pz_raw = _median(refs["pettingzoo"]["connect_four_v3_raw_env"], "steps_per_s")
    ops = refs["openspiel"]
    os_cpp = _median(ops.get("random_cpp_loop"), "decisions_per_s")
    os_py = _median(ops.get("random_python_loop"), "decisions_per_s")
    os_mcts_py = _median(ops.get("mcts_python"), "sims_per_s")
    os_mcts_cpp = _median(ops.get("mcts_cpp"), "sims_per_s")

    def ratio(a, b):
        return None if a is None or b is None else a / b

    for g, rows in result["games"].items():
        target = getattr(registry.kernel(g), "DECISIONS_PER_S_TARGET", TARGET_KERNEL_DECISIONS_PER_S)
        for row in rows.values():
            k1, kall = row["kernel_1t"]["decisions_per_s"]["median"], row["kernel_all"]["decisions_per_s"]["median"]
            aec, m1 = row["aec"]["steps_per_s"]["median"], row["mcts_1t"]["sims_per_s"]["median"]
            row["ratios"] = {
                "kernel_all_vs_1t": kall / k1,
                "aec_vs_pettingzoo_connect_four_env": ratio(aec, pz),
                "aec_vs_pettingzoo_connect_four_raw_env": ratio(aec, pz_raw),
                "kernel_1t_vs_openspiel_connect_four_cpp_loop": ratio(k1, os_cpp),
                "kernel_1t_vs_openspiel_connect_four_python_loop": ratio(k1, os_py),
                "mcts_1t_vs_openspiel_python_mcts_connect_four": ratio(m1, os_mcts_py),
                "mcts_1t_vs_openspiel_cpp_mcts_connect_four": ratio(m1, os_mcts_cpp),
            }
            aec_ratio = row["ratios"]["aec_vs_pettingzoo_connect_four_env"]
            row["targets_met"] = {
                "kernel_decisions_per_s": k1 >= target,
                "multi_core_scaling": None
                if row["kernel_all"]["threads"] < 2
                else kall / k1 >= TARGET_TWO_CORE_SCALING,
                "aec_vs_pettingzoo": None if aec_ratio is None else aec_ratio >= TARGET_AEC_VS_PETTINGZOO,
                "clone_record_copy_us": row["clone"]["record_copy_us"]["median"] <= TARGET_CLONE_US,
                "clone_record_byte_copy_us": row["clone"]["record_byte_copy_us"]["median"] <= TARGET_CLONE_US,
            }
    for h in result["headline"].values():
        if h is not None:
            h["target_met"] = h["ratio"] >= TARGET_MCTS_VS_OPENSPIEL_PYTHON
