"""validate(s) for Kremlin records that enter from outside: real positions pass, each corrupted field is
named in the report (values written out here, not taken from the code under test)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.kernels import kremlin as k

ASSIGN, WINDOW, PT_SELECT, EXP_TARGET, VOTE, NOMINATE, PER_A_DST, CHANCE, GAME_OVER = 0, 1, 2, 3, 7, 8, 10, 16, 17
CH_EXPULSION = 1


def _play_until(phase: int, n: int = 4, seed: int = 0, skip: int = 0, when=None, max_games: int = 150) -> np.ndarray:
    """A record met in a random game (decisions and d20s one at a time) in ``phase`` (and ``when(r)``),
    after ``skip`` earlier such records."""
    rng = np.random.default_rng(seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    for game in range(max_games):
        s = k.new_state(n, seed * 1000 + game, turn_limit=4)
        while True:
            if int(s[0]["phase"]) == phase and (when is None or when(s[0])):
                if skip == 0:
                    return s
                skip -= 1
            if k.is_over(s):
                break
            if k.is_chance(s):
                k.step_chance(s, int(rng.integers(20)))
                continue
            k.legal_mask(s, mask)
            k.step_decision(s, int(rng.choice(np.flatnonzero(mask))))
    raise AssertionError(f"no record in phase {phase} within {max_games} random games")


@pytest.fixture(scope="module")
def midgame() -> np.ndarray:
    return _play_until(WINDOW, skip=40)


def _corrupt(s, field, value, index=None) -> list[str]:
    c = s.copy()
    if index is None:
        c[0][field] = value
    else:
        c[0][field][index] = value
    return k.validate(c)


def test_real_records_of_every_phase_pass(midgame):
    assert k.validate(midgame) == []
    assert k.validate(k.new_state(6, 1, traits=True, random_placement=True)) == []
    for phase in (ASSIGN, PT_SELECT, EXP_TARGET, VOTE, NOMINATE, PER_A_DST, CHANCE, GAME_OVER):
        s = _play_until(phase, seed=phase)
        assert k.validate(s) == [], k.state.PHASE_NAMES[phase]


# (field, index, value): one field out of its range in the 4-player mid-game record (phase WINDOW)
CORRUPTIONS = [
    ("num_players", None, 7),
    ("num_players", None, 2),
    ("phase", None, 18),
    ("phase", None, -1),
    ("ruleset", None, 1),
    ("theme", None, 2),
    ("traits", None, 2),
    ("ranking", None, -1),
    ("turn_limit", None, 0),
    ("turn_limit", None, 201),
    ("turn", None, 0),
    ("turn", None, 300),
    ("start_player", None, 4),
    ("start_player", None, -1),
    ("decisions", None, -5),
    ("loc", 3, 16),
    ("loc", 3, -1),
    ("holder", 0, 26),
    ("holder", 5, -2),
    ("sp", 7, -1),
    ("sp", 7, 30000),
    ("broke", 2, -1),
    ("broke", 2, 9),
    ("susp_turn", 4, -1),
    ("susp_turn", 4, 30000),
    ("part_time", 1, 2),
    ("flag", 1, 7),
    ("opposer", 1, 2),
    ("midway_done", 1, 255),
    ("assigned", (0, 3), 11),
    ("assigned", (2, 3), -1),
    ("assigned", (5, 3), 1),
    ("declared", (1, 3), -1),
    ("declared", (1, 3), 11),
    ("declared", (4, 3), 1),
    ("burned", (0, 9), 12),
    ("stamp", (0, 0), -1),
    ("stamp", (0, 0), 2**30),
    ("counter", None, -1),
    ("controller", 2, 4),
    ("controller", 2, -2),
    ("speeches", 0, 4),
    ("speeches", 1, -1),
    ("winner", None, 2),
    ("assign_seat", None, 2),
    ("assign_count", None, 3),
    ("dw_seat", None, 4),
    ("dw_seat", None, -1),
    ("dw_passes", None, 4),
    ("dw_cont", None, 12),
    ("seat_cursor", None, 9),
    ("seats_done", None, 5),
    ("actor", None, 26),
    ("actor", None, -2),
    ("target", None, 26),
    ("target", None, -5),
    ("post_cursor", None, 9),
    ("post_cursor", None, -1),
    ("oppose_count", None, 9),
    ("nominations", None, 3),
    ("rumour_mode", None, 3),
    ("chance_kind", None, 1),
    ("last_roll", None, 21),
]


@pytest.mark.parametrize("field, index, value", CORRUPTIONS)
def test_each_corrupted_field_is_named(midgame, field, index, value):
    problems = _corrupt(midgame, field, value, index)
    assert problems, f"{field}[{index}] = {value} accepted"
    assert any(p.startswith(field) for p in problems), problems


def test_KRM_SET_4_allocation_counters():
    s = _play_until(ASSIGN, skip=13)  # seat 1, three values given
    assert (int(s[0]["assign_seat"]), int(s[0]["assign_count"])) == (1, 3)
    assert any(p.startswith("assign_count") for p in _corrupt(s, "assign_count", 10))
    assert any(p.startswith("assign_seat") for p in _corrupt(s, "assign_seat", 4))
    assert any("assigned[1]" in p for p in _corrupt(s, "assign_count", 5))  # 10, 9, 8 given, not 5 values
    assert any("declared" in p for p in _corrupt(s, "declared", 1, (0, 1)))  # nothing declared yet


def test_KRM_DW_2_the_window_seat_decides():
    s = _play_until(WINDOW, skip=3)
    assert any(p.startswith("dw_passes") for p in _corrupt(s, "dw_passes", 4))  # four passes closed it


def test_KRM_EXP_2_expulsion_roll_needs_a_target_in_a_post():
    s = _play_until(CHANCE, seed=5, when=lambda r: int(r["chance_kind"]) == CH_EXPULSION)
    assert any(p.startswith("target") for p in _corrupt(s, "target", -1))
    civilian = int(np.flatnonzero(s[0]["loc"] == 13)[0])
    assert any(p.startswith("target") and "post" in p for p in _corrupt(s, "target", civilian))


def test_KRM_INF_5_the_deciding_gamer_must_be_controlled():
    s = _play_until(EXP_TARGET, seed=3)
    actor = int(s[0]["actor"])
    c = s.copy()
    c[0]["controller"][actor] = -1
    assert any(p.startswith(f"controller[{actor}]") or "actor" in p for p in k.validate(c))


def test_KRM_ELE_1_election_needs_vacant_P00():
    s = _play_until(NOMINATE, seed=2)
    assert any(p.startswith("holder[0]") for p in _corrupt(s, "holder", 1, 0))


def test_KRM_ELE_3_votes_are_cast_by_officers():
    s = _play_until(VOTE, seed=4)
    assert any(p.startswith("post_cursor") for p in _corrupt(s, "post_cursor", 8))


def test_KRM_PER_1_moved_gamer_holds_a_post():
    s = _play_until(PER_A_DST, seed=6)
    assert any(p.startswith("target") for p in _corrupt(s, "target", -1))


def test_KRM_ELE_4_second_nomination_needs_an_opposer():
    s = _play_until(NOMINATE, seed=2)
    assert int(s[0]["nominations"]) == 0 and not s[0]["opposer"].any()
    problems = _corrupt(s, "nominations", 1)  # a second nomination, but nobody opposed the first
    assert any("NOMINATE" in p and "no legal action" in p for p in problems), problems


def test_wrong_shape_or_dtype_and_random_bytes_never_raise():
    assert k.validate(np.zeros(2, k.STATE)) and k.validate(np.zeros(1, np.int64))
    rng = np.random.default_rng(0)
    for _ in range(200):
        raw = np.frombuffer(rng.integers(0, 256, k.STATE.itemsize, dtype=np.uint8).tobytes(), k.STATE).copy()
        problems = k.validate(raw)
        assert problems and all(isinstance(p, str) and p for p in problems)
