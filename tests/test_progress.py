"""Progress that tells the truth (#49): the rate over the run, not a burst; plain lines when the output is not a
terminal; result tables that keep agent names whole at 80 columns. A fake clock, so no timing is asserted."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from tabletop_zoo.arena import ladder
from tabletop_zoo.arena.report import agents_table, pairs_table, seats_table, summarize
from tabletop_zoo.progress import Progress, format_rate, format_seconds

LONG = "mcts:simulations=1000,seconds=0.5"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def plain(clock: Clock, **kwargs) -> tuple[Progress, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    return Progress("games", 400, "games", console=console, clock=clock, **kwargs), out


def test_the_rate_is_over_the_run_not_the_last_burst():
    """The arena's case: 10 games finish together after 66 s; rich's speed showed the burst, we show 0.15/s."""
    clock = Clock()
    progress, _ = plain(clock)
    clock.now += 66.0
    progress.advance(10)
    assert progress.rate == pytest.approx(10 / 66)
    assert progress.eta() == pytest.approx(390 / (10 / 66))
    assert "0.152 games/s" in progress.line() and "ETA 0:42:54" in progress.line()


def test_a_resumed_run_counts_only_its_own_items():
    clock = Clock()
    progress, _ = plain(clock, done=100)
    clock.now += 10.0
    progress.update(120)
    assert progress.rate == pytest.approx(2.0) and progress.eta() == pytest.approx(140.0)
    assert progress.line().startswith("games 120/400 (30%)")


def test_plain_lines_every_tenth_or_interval_and_a_last_one():
    clock = Clock()
    progress, out = plain(clock, interval=60.0)
    for _ in range(39):  # 39 games in 39 s: below a tenth (40) and below the interval
        clock.now += 1.0
        progress.advance()
    assert out.getvalue() == ""
    clock.now += 1.0
    progress.advance()  # the 40th: a tenth of the work
    assert out.getvalue().splitlines() == ["games 40/400 (10%)  1 games/s  ETA 0:06:00"]
    clock.now += 61.0
    progress.advance()  # one game, but more than the interval since the last line
    assert len(out.getvalue().splitlines()) == 2
    progress.note("evaluation: win share vs random 0.61")
    progress.stop()
    progress.stop()  # a finally after an explicit stop prints nothing more
    lines = out.getvalue().splitlines()
    assert lines[2] == "evaluation: win share vs random 0.61" and len(lines) == 3  # nothing done since the last line
    assert not any("\x1b" in line or "\r" in line for line in lines)  # no control codes in a log


def test_stop_prints_the_last_line_when_work_was_done_since():
    clock = Clock()
    progress, out = plain(clock)
    clock.now += 5.0
    progress.update(7, status="eval -")  # 393 left at 1.4 games/s: 281 s
    progress.stop()
    assert out.getvalue().splitlines() == ["games 7/400 (1%)  1.4 games/s  ETA 0:04:41  eval -"]


def test_a_terminal_gets_a_live_bar_with_the_run_rate():
    clock = Clock()
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True)
    with Progress("games", 20, "games", console=console, clock=clock) as progress:
        assert progress._bar is not None
        clock.now += 40.0
        progress.advance(4)
    assert "0.1 games/s" in out.getvalue()  # 4 games in 40 s, whatever rich's own speed says


def test_disabled_shows_nothing_and_bad_arguments_are_refused():
    clock = Clock()
    progress = Progress("games", 10, "games", enabled=False, clock=clock)
    progress.advance(3)
    progress.note("hidden")
    progress.stop()
    assert progress.done == 3
    with pytest.raises(ValueError, match="total must be an int >= 0, got -1"):
        Progress("games", -1, "games")
    with pytest.raises(ValueError, match=r"every must be None \(a tenth of the total\) or an int >= 1, got 0"):
        Progress("games", 10, "games", every=0)


def test_formats():
    assert format_rate(0.15234, "games") == "0.152 games/s"
    assert format_rate(12.345, "games") == "12.3 games/s"
    assert format_rate(4210.4, "samples") == "4,210 samples/s"
    assert format_seconds(None) == "-:--:--" and format_seconds(3725.2) == "1:02:05"


def _summary() -> dict:
    labels = [LONG, "heuristic", "random", "mcts:simulations=100,c=1.4"]
    records = []
    for g in range(24):
        seated = [labels[(g + j) % 4] for j in range(3)]
        records.append({"agents": seated, "ranks": [1 + (g + j) % 3 for j in range(3)], "length": 90, "game": g})
    return summarize(records, labels, 3, bootstrap=20)


@pytest.mark.parametrize("table", [agents_table, pairs_table, seats_table])
def test_result_tables_keep_agent_names_whole_at_80_columns(table):
    summary = _summary()
    out = io.StringIO()
    Console(file=out, width=80, force_terminal=False).print(table(summary))
    lines = out.getvalue().splitlines()
    assert max(map(len, lines)) <= 80
    for name in summary["agents"]:
        assert sum(re.search(rf"(^|\s){re.escape(name)}(\s|$)", line) is not None for line in lines) == 1, name
    intervals = re.findall(r"\[[-\d.]+,[-\d.]+\]", out.getvalue())  # an interval is never split either
    assert table is not agents_table or len(intervals) == 3 * len(summary["agents"])


def test_the_ladder_on_the_console_keeps_names_whole():
    """``tabletop-zoo ladder`` printed its Markdown, whose console tables cut long names with an ellipsis."""
    summary = {**_summary(), "config": {"seed": 0, "options": {}}}
    out = io.StringIO()
    ladder.print_summary("irish_gauge", summary, Console(file=out, width=80, force_terminal=False))
    text = out.getvalue()
    assert "irish_gauge, 3 players" in text and "…" not in text
    assert all(len(re.findall(rf"(^|\s){re.escape(name)}(\s|$)", text, re.M)) == 3 for name in summary["agents"])


def test_the_self_play_bar_shows_the_run_rate_and_prints_evaluations(capsys):
    """The trainers' bar is this module's: a caller's burst speed is not shown; plain lines in a captured output."""
    run = pytest.importorskip("tabletop_zoo.training.run")
    bar = run.SampleProgress(total=100, done=20, enabled=True)
    clock = Clock()
    bar.progress.clock, bar.progress.started = clock, clock.now
    clock.now += 10.0
    bar.update(60, 9999.0, games=3)  # 40 samples in 10 s, whatever the last round's speed was
    bar.evaluated({"random": 0.61})
    bar.stop()
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "samples 60/100 (60%)  4 samples/s  ETA 0:00:10  3 games  eval -",
        "evaluation: win share vs random 0.61",
    ]
