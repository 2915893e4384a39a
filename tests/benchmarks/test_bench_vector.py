"""``tabletop-zoo bench vector --quick``: the pipeline of the make_vec benchmark through the CLI (one game, batch
4, a fraction of a second): the tables and the JSON have every figure, ratio and goal. Never a timing assertion."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from typer.testing import CliRunner

from tabletop_zoo.bench import vector
from tabletop_zoo.cli import app


def _check_figure(fig, where):
    assert set(fig) == {"median", "min", "max", "runs"}, where
    assert 0 < fig["min"] <= fig["median"] <= fig["max"] and fig["runs"] >= 1, where


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory, monkeypatch_module):
    out = tmp_path_factory.mktemp("bench_vector")
    monkeypatch_module.setattr(vector, "pgx_available", lambda: False)  # Pgx's jit would cost seconds
    result = CliRunner().invoke(app, ["bench", "vector", "--quick", "--json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_quick_bench_vector_json_has_every_figure(quick_run):
    data, out = quick_run
    assert json.loads((out / "vector.json").read_text()) == data
    cfg = data["config"]
    assert cfg["quick"] is True and cfg["batches"] == [4] and cfg["threads"][0] == 1
    assert list(data["games"]) == [vector.QUICK_GAME]
    row = data["games"][vector.QUICK_GAME]
    for t in map(str, cfg["threads"]):
        fig = row["vec"]["4"][t]
        for part in ("step", "bare", "loop", "kernel"):
            _check_figure(fig[part]["decisions_per_s"], f"{part} {t}")
        # the kernel's playouts alternate with the steps, one run each a round: the ratio is the rounds' median
        assert len(fig["step_vs_kernel_rounds"]) == cfg["repeats"]
        ratios = data["ratios"][vector.QUICK_GAME]["4"][t]
        assert ratios["step_vs_kernel"] == pytest.approx(float(np.median(fig["step_vs_kernel_rounds"])))
        assert ratios["bare_vs_kernel"] == pytest.approx(float(np.median(fig["bare_vs_kernel_rounds"])))
        assert ratios["step_vs_pgx"] is None  # no Pgx in this run
        assert fig["parallel"] is False  # 4 lanes: too few to share out over threads
    # the goals are read at batch 1,024: not measured in quick mode
    assert data["goals"][vector.QUICK_GAME]["step_vs_kernel"] is None
    for when in ("before", "after"):
        assert len(data["load"][when]["loadavg"]) == 3
    assert data["pgx"] is None


def test_quick_bench_vector_prints_the_tables():
    result = CliRunner().invoke(app, ["bench", "vector", "--quick"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "make_vec: decisions/s with observations and masks" in text and vector.QUICK_GAME in text
    assert "step / kernel" in text and "no obs / kernel" in text and "QUICK MODE" in text and "Load average" in text
    assert "Goals at batch 1,024" in text
    if (os.cpu_count() or 1) > 1:  # the all-cores row: 4 lanes are too few to share out, and the table says so
        assert "(ran on 1)" in text


def test_without_pgx_the_tables_name_its_extra(monkeypatch):
    """The hint prints the extra's brackets (rich would read ``[pgx]`` as a style tag and drop it)."""
    monkeypatch.setattr(vector, "pgx_available", lambda: False)
    result = CliRunner().invoke(app, ["bench", "vector", "--quick"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "pip install 'tabletop-zoo[pgx]'" in result.stdout


def test_ratios_read_pgx_at_the_same_batch_and_threads():
    """add_ratios on a hand-made result: the step figure over Pgx's step figure of the same batch and cores."""

    def fig(x):
        return {"median": x, "min": x, "max": x, "runs": 1}

    result = {
        "games": {
            "g": {
                "players": 2,
                "vec": {
                    "1024": {
                        "1": {
                            "step": {"decisions_per_s": fig(400.0)},
                            "loop": {"decisions_per_s": fig(100.0)},
                            "kernel": {"decisions_per_s": fig(1000.0)},
                            "step_vs_kernel_rounds": [0.3, 0.4, 0.5],
                            "bare_vs_kernel_rounds": [0.9, 0.6, 0.7],
                        }
                    }
                },
            }
        },
        "pgx": {"1": {"cores": 1, "batches": {"1024": {"step": {"steps_per_s": fig(200.0)}}}}},
    }
    vector.add_ratios(result)
    assert result["ratios"]["g"]["1024"]["1"] == {
        "step_vs_kernel": 0.4,
        "bare_vs_kernel": 0.7,
        "loop_vs_kernel": 0.1,
        "step_vs_pgx": 2.0,
    }
    assert result["goals"]["g"] == {
        "step_vs_kernel": 0.4,
        "step_vs_kernel_met": True,
        "step_vs_pgx": 2.0,
        "step_vs_pgx_met": True,
    }
