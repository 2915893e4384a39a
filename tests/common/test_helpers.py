"""Mask helpers, exact chance probabilities, observation layout and the contract checker."""

import re
import types

import numpy as np
import pytest
from numba import njit

from tabletop_zoo.kernels._common import chance, layout, masks, observing, scoring
from tabletop_zoo.kernels._common.contract import check_kernel, contract_problems
from tabletop_zoo.kernels._common.rng import seed_rng


def test_mask_helpers():
    m = np.zeros(10, np.uint8)
    masks.set_range(m, 2, 3)
    assert m.tolist() == [0, 0, 1, 1, 1, 0, 0, 0, 0, 0]
    assert masks.count_legal(m) == 3
    assert [masks.nth_legal(m, k) for k in range(4)] == [2, 3, 4, -1]
    masks.clear(m)
    assert masks.count_legal(m) == 0
    g = np.zeros(1, np.uint64)
    seed_rng(g, 1)
    assert masks.sample_legal(m, g) == -1


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.bool_])
def test_count_and_nth_legal_at_every_length_and_density(dtype):
    """nth_legal reads eight ids at a time, count_legal counts in 16 bits up to 65,535 ids: every length around a
    word's end, sparse and dense masks, k out of range, masks too long for 16 bits."""
    rng = np.random.default_rng(0)
    for length in [*range(1, 40), 180, 222, 304, 630, 801]:
        for density in (0.0, 0.02, 0.3, 1.0):
            m = (rng.random(length) < density).astype(dtype)
            legal = np.flatnonzero(m).tolist()
            assert [masks.nth_legal(m, k) for k in range(-1, len(legal) + 2)] == [-1, *legal, -1, -1]
            assert masks.count_legal(m) == len(legal)
    for length in (0xFFFF, 0x10000, 70_001):  # past what 16 bits count
        m = (rng.random(length) < 0.9).astype(dtype)
        assert masks.count_legal(m) == int(m.astype(np.int64).sum())


def test_sample_legal_only_legal_and_uniform():
    m = np.zeros(8, np.uint8)
    m[[1, 5, 6]] = 1
    g = np.zeros(1, np.uint64)
    seed_rng(g, 3)
    xs = np.array([masks.sample_legal(m, g) for _ in range(9000)])
    counts = np.bincount(xs, minlength=8)
    assert counts[[0, 2, 3, 4, 7]].sum() == 0
    assert all(abs(c - 3000) < 250 for c in counts[[1, 5, 6]])


def test_comb_and_hypergeometric():
    assert chance.comb(10, 3) == 120 and chance.comb(4, 0) == 1 and chance.comb(3, 5) == 0
    # spec EX-9: bag 1/1/2, draw 3: (1,1,1) 1/2, (1,0,2) 1/4, (0,1,2) 1/4
    bag = np.array([1, 1, 2], np.int8)
    assert chance.hypergeom_prob(bag, np.array([1, 1, 1], np.int8)) == pytest.approx(0.5)
    assert chance.hypergeom_prob(bag, np.array([1, 0, 2], np.int8)) == pytest.approx(0.25)
    assert chance.hypergeom_prob(bag, np.array([2, 0, 1], np.int8)) == 0.0


def test_layout_pieces_and_unflatten():
    obs = layout.ObsLayout()
    assert obs.add("a", (2,), "") == 0 and obs.add("b", (2, 3), "x", layout.SEATS) == 2 and obs.add("c", (1,), "") == 8
    assert obs.size == 9 and [(p.name, p.offset, p.shape, p.per_seat) for p in obs.pieces] == [
        ("a", 0, (2,), False),
        ("b", 2, (2, 3), True),
        ("c", 8, (1,), False),
    ]
    parts = layout.unflatten(obs.pieces, np.arange(9))
    assert parts["b"].shape == (2, 3) and parts["b"][1, 0] == 5 and parts["c"][0] == 8


def test_layout_refuses_a_repeated_piece_or_an_unknown_marker():
    obs = layout.ObsLayout()
    obs.add("a", (2,), "")
    with pytest.raises(ValueError, match="'a': needs a new name"):
        obs.add("a", (3,), "")
    with pytest.raises(ValueError, match="'b'"):
        obs.add("b", (3,), "", "players")
    assert obs.size == 2 and len(obs.pieces) == 1


_PIECES = """
| piece | shape  | per seat | divisor   | max      | unit             |
|-------|--------|----------|-----------|----------|------------------|
| a     | (2,)   |          | 1         | 1        | 0/1              |
| b     | (S, 3) | yes      | 10        | int8     | x | capped       |
| c     | (1,)   |          | (TOP,)    | (TOP,)   | 0/1              |
"""


def test_observation_table_gives_pieces_named_offsets_and_divisors():
    obs = layout.ObsLayout.from_table(_PIECES, S=2, TOP=4)
    assert [(p.name, p.offset, p.shape, p.per_seat, p.unit, p.divisor, p.most) for p in obs.pieces] == [
        ("a", 0, (2,), False, "0/1", 1.0, 1.0),
        ("b", 2, (2, 3), True, "x | capped", 10.0, 127.0),
        ("c", 8, (1,), False, "0/1", (4.0,), (4.0,)),
    ]
    assert obs.size == 9 and obs.offsets == (0, 2, 8) and (obs.offsets.b, obs.offsets.c) == (2, 8)
    assert obs.divisors.b == 10.0 and obs.divisors.c == (4.0,)
    low, high = layout.observation_bounds(obs.pieces)
    assert low.tolist() == [0.0] * 9 and high.dtype == np.float32
    assert high.tolist() == [1.0, 1.0] + [np.float32(12.7)] * 6 + [1.0]


def test_observation_table_reads_the_constants_of_its_namespaces():
    names = {"S": 2, "TOP": np.int64(4), "top": 9, "FLAG": True, "PIECES": _PIECES, "LIMITS": np.array([3, 4])}
    want = layout.ObsLayout.from_table(_PIECES, S=2, TOP=4).pieces
    assert layout.ObsLayout.from_table(_PIECES, {"S": 5}, names).pieces == want  # a later namespace wins
    assert layout.ObsLayout.from_table(_PIECES, np, names).pieces == want  # a module is read by its vars
    o, d, pieces, size = layout.ObsLayout.from_table(_PIECES, names).exports()
    assert (o, d, pieces, size) == ((0, 2, 8), (1.0, 10.0, (4.0,)), want, 9) and o.c == 8 and d.b == 10.0
    assert layout.ObsLayout.from_table(_PIECES, names, S=3).size == 2 + 9 + 1  # a keyword wins over them all
    with pytest.raises(ValueError, match=re.escape("axis 'T' is neither an int nor one of ['LIMITS', 'S', 'TOP']")):
        layout.ObsLayout.from_table(_PIECES.replace("(S, 3)", "(T, 3)"), names)
    many = {**names, **{f"N_{i}": i for i in range(10)}}
    with pytest.raises(ValueError, match=re.escape("axis 'T' is neither an int nor one of the 13 constants of")):
        layout.ObsLayout.from_table(_PIECES.replace("(S, 3)", "(T, 3)"), many)


def test_decode_gives_raw_quantities_by_name():
    obs = layout.ObsLayout.from_table(_PIECES, S=2, TOP=4)
    vector = np.array([1, 0, 0.1, 0.2, 0.3, 1.2, 0, 0, 0.25], np.float32)
    o = layout.decode(obs.pieces, vector)
    assert o["a"].base is vector or o["a"].base is vector.base  # divisor 1: a view, nothing computed
    assert o["b"].dtype == np.float32 and o["b"].tolist() == (vector[2:8] * np.float32(10)).reshape(2, 3).tolist()
    assert o["b"][1, 0] == 12 and o["c"].tolist() == [1.0] and o.encoded("c").tolist() == [0.25]
    assert sorted(o) == ["a", "b", "c"] and len(o) == 3
    with pytest.raises(KeyError, match="no observation piece 'd'; the pieces are a, b, c"):
        o["d"]


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (("| yes      |", "| no       |"), "needs a name, a unit and per seat yes or blank"),
        (("| 0/1              |\n| b", "|                  |\n| b"), "needs a name, a unit"),
        (("| c     |", "| a     |"), "observation piece 'a': needs a new name"),
        (("(S, 3)", "(T, 3)"), "axis 'T' is neither an int nor one of ['S', 'TOP']"),
        (("| 10        |", "| ten       |"), "divisor 'ten' is not a number, one of ['S', 'TOP']"),
        (("| int8     |", "| int9     |"), "max 'int9' is not a number, one of ['S', 'TOP'] or an integer type"),
        (("| 10        |", "| 0         |"), "observation piece 'b': divisor 0.0 must be positive"),
        (("| (TOP,)    |", "| (TOP, 2)  |"), "observation piece 'c': a divisor tuple needs one number per item"),
        (
            ("| per seat |", "| seats    |"),
            "the observation table must start with | piece | shape | per seat | divisor | max | unit |",
        ),
    ],
)
def test_observation_table_refuses_a_bad_row(edit, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        layout.ObsLayout.from_table(_PIECES.replace(*edit), S=2, TOP=4)


_TWO_FIELDS = np.dtype([("num_players", np.int8), ("phase", np.int8)])


@njit
def _start(s, seat, mover, out):  # kernels pass the record from inside numba, as here
    observing.start_observation(s[0], seat, mover, out, 0, 2, 6)


@pytest.mark.parametrize(
    ("seat", "mover", "present", "to_move"),
    [
        (1, 2, [1, 1, 1, 0], [0, 1, 0, 0]),  # seat 2 sits next after the observer, seat 1
        (0, 0, [1, 1, 1, 0], [1, 0, 0, 0]),
        (-1, 2, [1, 1, 1, 0], [0, 0, 1, 0]),  # a spectator sees absolute seats
        (2, -1, [1, 1, 1, 0], [0, 0, 0, 0]),  # a chance event or the end: nobody to move
    ],
)
def test_start_observation_clears_then_writes_phase_seats_and_mover(seat, mover, present, to_move):
    s = np.zeros(1, _TWO_FIELDS)
    s[0] = (3, 1)
    out = np.full(2 + 4 + 4 + 1, 7.0, np.float32)  # phases (2), present (4), to move (4), one untouched cell
    _start(s, seat, mover, out)
    assert out.tolist() == [0, 1, *present, *to_move, 0]


@njit
def _relative(s, seat, p):
    return observing.relative_seat(s[0], seat, p)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_relative_seat_counts_clockwise_from_the_observer(n):
    s = np.zeros(1, _TWO_FIELDS)
    s[0] = (n, 0)
    for p in range(n):
        assert _relative(s, -1, p) == p  # a spectator sees absolute seats
        for seat in range(n):
            assert _relative(s, seat, p) == (p - seat) % n


def test_mark_sets_one_item_of_a_one_hot_and_none_for_minus_one():
    out = np.zeros(5, np.float32)
    observing.mark(out, 1, -1)
    assert not out.any()
    observing.mark(out, 1, 3)
    assert out.tolist() == [0, 0, 0, 0, 1]


def test_state_layout_check():
    dt = np.dtype([("rng", np.uint64, (1,)), ("cash", np.int32, (3,))])
    layout.check_state_layout(dt, [("rng", "u8", (1,)), ("cash", "i4", (3,))], 20)
    with pytest.raises(AssertionError, match="layout changed"):
        layout.check_state_layout(dt, [("rng", "u8", (1,)), ("cash", "i2", (3,))], 20)


def test_contract_checker_lists_what_is_missing():
    fake = types.ModuleType("fake")
    fake.GAME_ID, fake.CHANCE_MODE, fake.INFORMATION = "fake", "explicit_stochastic", "imperfect"
    problems = contract_problems(fake)
    assert "missing constant STATE" in problems
    assert "missing function step_chance" in problems  # stochastic games need explicit chance
    assert "missing function determinize" in problems  # hidden information needs determinize
    with pytest.raises(TypeError, match="breaks the contract"):
        check_kernel(fake)
    fake.CHANCE_MODE = "sometimes"
    assert any("CHANCE_MODE" in p for p in contract_problems(fake))


_TABLE = """
| field  | dtype, shape | meaning        |
|--------|--------------|----------------|
| rng    | uint64 (1,)  | counter        |
| a, b   | int8 (S, 3)  | two of a kind  |
| c      | int32        | a scalar       |
"""


def test_record_from_table_builds_fields_in_table_order():
    dt = layout.record_from_table(_TABLE, S=5)
    assert dt.names == ("rng", "a", "b", "c") and dt.itemsize == 8 + 15 + 15 + 4
    assert dt["a"].shape == (5, 3) and dt["a"].base == np.int8 and dt["c"] == np.int32


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (("int8 (S, 3)", "int (S, 3)  "), "type 'int' is not one of"),
        (("(S, 3)", "(Q, 3)"), "axis 'Q' is neither an int nor one of ['S']"),
        (("| c     ", "| a     "), "field 'a' is not a new identifier"),
        (("a scalar", "        "), "every field needs a meaning"),
        (("(S, 3)", "S, 3  "), "shape 'S, 3' is not a parenthesised tuple"),
        (("| field ", "| name  "), "the field table must start with"),
        (("|--------|", "| rule   |"), "the field table must start with"),
    ],
)
def test_record_from_table_refuses_a_bad_row(edit, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        layout.record_from_table(_TABLE.replace(*edit), S=5)


@njit
def _shares(worth, n, over, out):
    scoring.final_shares(worth, n, over, out)


def test_final_shares_may_write_over_the_worth_they_read():
    """A room may pass its returns' ``out`` as the worth (French Revolution's returns do): the same shares as from
    a separate worth array, for every table size, ties included, before and after the end."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(1, 7))
        worth = rng.integers(0, 4, 6).astype(np.float64)  # few values: ties are common
        over = bool(rng.integers(2))
        apart = np.full(6, 9.0)
        _shares(worth.copy(), n, over, apart)
        together = worth.copy()
        _shares(together, n, over, together)
        np.testing.assert_array_equal(together, apart)
        if over:
            best = worth[:n].max()
            winners = worth[:n] == best
            assert apart[:n][winners].tolist() == [1.0 / winners.sum()] * int(winners.sum())
            assert not apart[:n][~winners].any() and not apart[n:].any()
        else:
            assert not apart.any()
