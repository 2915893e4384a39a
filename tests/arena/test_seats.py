"""Seat order and kingmaking from a run's game records (tabletop_zoo/arena/seats.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.arena import seats

# Seat to move and every seat's score after each decision of a scripted 3-seat game (seat 0 wins, 1 is second).
MOVERS = [0, 1, 2, 0, 1, 2]
KINGMADE = [[0, 0, 0], [5, 0, 0], [5, 6, 0], [7, 6, 0], [7, 6, 1], [7, 6, 1], [7, 6, 1]]
OWN_WIN = [[0, 0, 0], [0, 3, 0], [2, 3, 0], [2, 3, 4], [9, 3, 4], [9, 5, 4], [9, 5, 4]]
FROM_START = [[3, 0, 0], [5, 0, 0], [5, 4, 0], [7, 6, 0], [7, 6, 1], [7, 6, 1], [7, 6, 1]]
BY_VERDICT = [[0, 0, 0], [5, 0, 0], [5, 6, 0], [5, 6, 0], [5, 6, 1], [5, 6, 1], [5, 6, 1]]


class _Kernel:
    MAX_PLAYERS = 6

    def __init__(self, trajectory):
        self.trajectory = trajectory

    def scores(self, state, out):
        out[:] = 0
        out[:3] = self.trajectory[state]


class _Env:
    """Plays back a scripted score trajectory: the state is the number of decisions made."""

    def __init__(self, trajectory):
        self.kernel = _Kernel(trajectory)
        self.t = None

    def reset(self, seed=None):
        self.t = 0

    @property
    def agent_selection(self):
        return f"player_{MOVERS[self.t]}"

    def step(self, action):
        self.t += 1

    def get_state(self):
        return self.t


@pytest.fixture
def scripted(monkeypatch):
    def use(trajectory):
        monkeypatch.setattr(seats.registry, "make_env", lambda game, num_players, **options: _Env(trajectory))

    return use


def _record(ranks):
    return {"seed": 0, "ranks": ranks, "actions": [0] * len(MOVERS), "agents": ["a", "b", "c"]}


def test_the_decisive_decision_is_the_last_that_put_the_winner_ahead(scripted):
    """Seat 2 (third) moves the winner ahead of the runner-up for good: decisive seat 2; the winner's own move is
    decisive when it is the last lead change; a winner ahead from the start never needed one (FROM_START); a
    winner not ahead on score at the end (the rules' verdict) has none."""
    scripted(KINGMADE)
    assert seats.decisive_seat("g", 3, {}, _record([1, 2, 3])) == 2
    scripted(OWN_WIN)
    assert seats.decisive_seat("g", 3, {}, _record([1, 2, 3])) == 0
    scripted(FROM_START)
    assert seats.decisive_seat("g", 3, {}, _record([1, 2, 3])) == seats.FROM_START
    scripted(BY_VERDICT)
    assert seats.decisive_seat("g", 3, {}, _record([1, 2, 3])) is None


def test_kingmaking_counts_each_kind_of_game(scripted):
    """A kingmade game, a shared first place (left out) and, with two seats, nothing defined."""
    scripted(KINGMADE)
    king = seats.kingmaking("g", 3, {}, [_record([1, 2, 3]), _record([1, 1, 3])])
    assert (king["scored"], king["by_others"], king["shared_first"], king["by_verdict"]) == (1, 1, 1, 0)
    assert king["kingmade"][0] == 1.0
    scripted(FROM_START)
    king = seats.kingmaking("g", 3, {}, [_record([1, 2, 3])])
    assert (king["scored"], king["from_start"], king["kingmade"][0]) == (1, 1, 0.0)
    assert seats.kingmaking("g", 2, {}, [_record([1, 2])]) is None


def test_seat_order_splits_ties_and_tests_equal_seats():
    """Seat 0 wins 3 of 4 games and shares the fourth with seat 1: shares 3.5/4 and 0.5/4."""
    records = [{"ranks": r} for r in ([1, 2], [1, 2], [1, 2], [1, 1])]
    order = seats.seat_order(records, 2)
    assert [v[0] for v in order["win_share"]] == [0.875, 0.125]
    assert order["mean_rank"][0][0] == 1.0 and order["mean_rank"][1][0] == 1.75
    assert order["p_equal"] == pytest.approx(0.1336, abs=1e-4)  # (1.5² + 1.5²) / 2 = 2.25 on 1 df
    assert np.isclose(sum(v[0] for v in order["win_share"]), 1.0)


def test_markdown_states_the_tables():
    """The seat table and the kingmaking line, with the counts the definition leaves out."""
    records = [{"ranks": r} for r in ([1, 2, 3], [2, 1, 3], [3, 2, 1])]
    king = {"scored": 2, "kingmade": [0.5, 0.1, 0.9], "by_winner": 1, "by_runner_up": 0, "by_others": 1}
    king |= {"from_start": 0}
    text = seats.markdown(
        {"seat_order": seats.seat_order(records, 3), "kingmaking": king | {"shared_first": 1, "by_verdict": 0}}
    )
    assert "| win share | 0.33 [" in text and "0.50 [0.10, 0.90] of the 2 games won on score" in text
