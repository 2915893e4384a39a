"""validate(s) for Imperial records from outside: real positions pass, each corruption is named with its
field, value and allowed range (values written out here, not taken from the code under test)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.kernels import imperial as k

RONDEL, DEST, STANCE, BUY = 0, 4, 6, 11


def _records(games=2, seed=0):
    rng = np.random.default_rng(seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    for g in range(games):
        s = k.new_state(3, seed * 100 + g, max_nation_turns=120)
        while not k.is_over(s):
            yield s.copy()
            k.legal_mask(s, mask)
            k.step(s, int(rng.choice(np.flatnonzero(mask))))
        yield s.copy()


def _first(phase):
    return next(s for s in _records(games=8) if int(s[0]["phase"]) == phase)


def test_real_records_pass():
    assert all(k.validate(s) == [] for s in _records(games=2))


@pytest.mark.parametrize(
    "field, value, phase, message",
    [
        ("nation", 6, RONDEL, "nation = 6, allowed 0..5"),  # IMP-TURN-1
        ("investor_card", 7, RONDEL, "investor_card = 7, allowed 0..2"),  # IMP-INV-5
        ("rondel_pos", 8, RONDEL, "rondel_pos"),  # IMP-RON-1: spaces 0..7, -1 = centre
        ("mv_origin", -1, DEST, "mv_origin = -1, allowed 0..53 in phase DEST"),
        ("inv_buyer", -1, BUY, "inv_buyer = -1, allowed 0..2 in phase BUY"),
        ("max_turns", 0, RONDEL, "max_turns = 0, allowed 1..2000"),  # IMP-END-2
    ],
)
def test_each_corruption_is_named(field, value, phase, message):
    s = _first(phase)
    if field == "rondel_pos":
        s[0][field][0] = value
    else:
        s[0][field] = value
    problems = k.validate(s)
    assert any(p.startswith(message) for p in problems), problems


def test_the_nation_to_act_must_have_a_flag_holder():
    """IMP-TURN-1/2: the flag holder decides for the nation; a nation in the bank cannot be to act."""
    s = _first(RONDEL)
    nation = int(s[0]["nation"])
    s[0]["flag"][nation] = -1
    problems = k.validate(s)
    assert any(p.startswith(f"flag[{nation}] = -1: nation {nation} is to act") for p in problems), problems


def test_a_running_game_is_below_its_turn_limit():
    """IMP-END-2: the nation turn that reaches max_turns ends the game; a running record at the limit would
    play one turn past it (found by the NUMBA_BOUNDSCHECK fuzz)."""
    s = _first(RONDEL)
    limit = int(s[0]["max_turns"])
    s[0]["turn"] = limit
    assert f"turn = {limit}, allowed 0..{limit - 1}" in k.validate(s)
    s[0]["turn"] = limit - 1
    assert k.validate(s) == []


def test_a_game_truncated_at_its_turn_limit_is_sound():
    """IMP-END-2: a game cut at max_turns ends with turn == max_turns, and that record passes."""
    rng = np.random.default_rng(2)
    s = k.new_state(3, 2, max_nation_turns=4)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    while not k.is_over(s):
        k.legal_mask(s, mask)
        k.step(s, int(rng.choice(np.flatnonzero(mask))))
    assert int(s[0]["turn"]) == 4 and int(s[0]["truncated"]) == 1
    assert k.validate(s) == []
