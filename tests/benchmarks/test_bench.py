"""``tabletop-zoo bench --quick`` runs the whole benchmark pipeline and writes complete, valid results.
Figures are checked for presence and sanity (positive, min <= median <= max), never for speed."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from tabletop_zoo import registry
from tabletop_zoo.bench import Config, format_report
from tabletop_zoo.bench.measure import _stat
from tabletop_zoo.cli import app

ROW_FIGURES = {
    "kernel_1t": ["decisions_per_s", "games_per_s", "decisions_per_game"],
    "kernel_all": ["decisions_per_s", "games_per_s", "decisions_per_game"],
    "aec": ["steps_per_s", "games_per_s"],
    "observe": ["us_per_call"],
    "clone": ["record_copy_us", "record_byte_copy_us", "bytes_round_trip_us", "env_get_set_state_us"],
    "mcts_1t": ["sims_per_s", "ms_per_1000_sims"],
    "mcts_all": ["sims_per_s", "ms_per_1000_sims"],
}


def _check_figure(fig, where):
    assert set(fig) == {"median", "min", "max", "runs"}, where
    assert 0 < fig["min"] <= fig["median"] <= fig["max"] and fig["runs"] >= 1, where


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    result = CliRunner().invoke(app, ["bench", "all", "--quick", "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out


def test_quick_bench_covers_every_game_player_count_and_figure(quick_run):
    data, _ = quick_run
    assert data["config"]["quick"] is True
    assert {"platform", "cpu", "cores", "python", "numpy", "numba"} <= set(data["machine"])
    assert set(data["games"]) == set(registry.GAMES)
    for game, rows in data["games"].items():
        assert list(rows) == [str(n) for n in registry.player_counts(game)]
        k = registry.kernel(game)
        for n, row in rows.items():
            for section, names in ROW_FIGURES.items():
                for name in names:
                    _check_figure(row[section][name], f"{game} {n}p {section}.{name}")
            assert row["memory"]["state_record_bytes"] == k.STATE.itemsize
            assert row["memory"]["mcts_node_bytes"] == 24 + 8 * k.MAX_PLAYERS
            assert row["ratios"]["kernel_all_vs_1t"] > 0
            assert set(row["targets_met"]) >= {
                "kernel_decisions_per_s",
                "aec_vs_pettingzoo",
                "clone_record_byte_copy_us",
            }


def test_quick_bench_references_and_headline(quick_run):
    data, _ = quick_run
    pz = data["references"]["pettingzoo"]
    _check_figure(pz["connect_four_v3_env"]["steps_per_s"], "pettingzoo env")  # pygame is in the test extra
    _check_figure(pz["connect_four_v3_raw_env"]["steps_per_s"], "pettingzoo raw_env")
    ops = data["references"]["openspiel"]
    for key, field in (
        ("random_python_loop", "decisions_per_s"),
        ("random_cpp_loop", "decisions_per_s"),
        ("mcts_python", "sims_per_s"),
        ("mcts_cpp", "sims_per_s"),
    ):
        _check_figure(ops[key][field], f"openspiel {key}")
    for game in registry.GAMES:
        h = data["headline"][game]
        _check_figure(h["openspiel_python_sims_per_s"], f"{game} headline openspiel")
        _check_figure(h["ours_sims_per_s"], f"{game} headline ours")
        assert h["ratio"] == pytest.approx(h["ours_sims_per_s"]["median"] / h["openspiel_python_sims_per_s"]["median"])
        assert h["simulations"] == Config.quick_mode().headline_simulations


def test_quick_bench_writes_json_and_plot(quick_run):
    data, out = quick_run
    assert json.loads((out / "results.json").read_text()) == data
    tables = format_report(data)
    assert "QUICK MODE" in tables and all(f"| {g} |" in tables for g in registry.GAMES)
    assert (out / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_stat_is_median_min_max():
    assert _stat([3.0, 1.0, 2.0, 10.0]) == {"median": 2.5, "min": 1.0, "max": 10.0, "runs": 4}


def test_bad_bench_options_are_rejected():
    result = CliRunner().invoke(app, ["bench", "irish_gauge", "--repeats", "0"])
    assert result.exit_code != 0 and "--repeats" in result.output
    result = CliRunner().invoke(app, ["bench", "chess"])
    assert result.exit_code != 0 and "unknown game" in result.output


def test_writing_the_plot_keeps_the_callers_matplotlib_backend(quick_run, tmp_path):
    import matplotlib

    from tabletop_zoo import bench as benchmark

    before = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        benchmark.write(quick_run[0], tmp_path)
        assert matplotlib.get_backend() == "svg"
        assert (tmp_path / "results.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        matplotlib.use(before)


def test_quick_bench_records_the_machine_load(quick_run):
    """A run on a busy machine must be visibly one: load average and cores at the start and the end."""
    data, _ = quick_run
    load = data["load"]
    for when in ("before", "after"):
        state = load[when]
        assert state["cpu_count"] >= 1 and len(state["loadavg"]) == 3 and all(x >= 0 for x in state["loadavg"])
        assert state["busy"] == (state["loadavg"][0] >= 0.5 * state["cpu_count"])
    assert load["busy"] == (load["before"]["busy"] or load["after"]["busy"])
    assert "Load average (1 min):" in format_report(data)


def test_busy_machine_warning():
    from tabletop_zoo.bench import busy_warning

    quiet = {"loadavg": [0.3, 0.2, 0.1], "cpu_count": 2, "busy": False}
    busy = {"loadavg": [5.5, 4.0, 3.0], "cpu_count": 2, "busy": True}
    assert busy_warning(quiet, "at the start") is None
    assert busy_warning(busy, "at the end") == (
        "warning: the machine is busy at the end: load average 5.5 (1 min) on 2 cores (busy from 0.5 per core); "
        "other work competes for the cores, so these figures understate the machine"
    )


def test_bench_training_quick_reports_every_figure():
    """``tabletop-zoo bench training --quick``: every figure measured in the one run, positive, and the ratios
    are the quotients of the figures they name (the pipeline, not the speeds: quick figures mean nothing)."""
    from tabletop_zoo.bench import training

    r = training.run(quick=True, threads=1)
    fps = ("selfplay_fps", "sb3_fps", "sb3_trivial_fps", "sb3_equal_fps", "bound_fps")
    assert all(r[k] > 0 for k in fps)
    assert r["ratio"] == r["selfplay_fps"] / r["sb3_fps"]
    assert r["env_share"] == r["sb3_fps"] / r["sb3_trivial_fps"]
    # the trainer and the bound are measured in alternating rounds, each figure the median of its rounds
    for key in ("selfplay_fps", "bound_fps"):
        assert r[key] == float(np.median(r[key + "_rounds"])) and len(r[key + "_rounds"]) >= 1
    assert r["bound_share"] == r["selfplay_fps"] / r["bound_fps"]
    report = training.format_report(r)
    assert "no game" in report and "goal >= 10" in report
