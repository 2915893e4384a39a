"""The dividend hot path on its own (IG-DIV-1..8, IG-DISK-1): exact payouts on hand-made boards and the
distribution of the cube draw.

Expected numbers are worked out by hand from the rules: income = 4 x paying cities + 2 x towns when
(P >= 1 and T >= 1) or P >= 2, plus the major-city bonus when qualifying with all three majors;
per share = ceil(income / sold).
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest

from tabletop_zoo.kernels import irish_gauge as k
from tabletop_zoo.kernels._common.rng import seed_rng
from tabletop_zoo.kernels.irish_gauge.dividends import (
    company_potential,
    dividend_payouts,
    draw_dividend_cubes,
    draw_outcome_probs,
)

from ._helpers import (
    BCD,
    BLACK,
    CALL_DIVIDENDS,
    CBSC,
    GSW,
    MGW,
    PINK,
    WHITE,
    WLW,
    common_board,
    draw,
    give_cert,
    hx,
    play,
    set_network,
)

N_HEX = 139

# Chi-square critical values at p = 1e-4 by degrees of freedom (checked against the regularised
# incomplete gamma function: each has survival probability 1.000e-4 to three digits).
CHI2_CRIT_1E4 = {1: 15.137, 2: 18.421, 3: 21.108, 4: 23.513, 5: 25.745, 6: 27.856, 7: 29.878, 8: 31.828, 9: 33.720}


# --------------------------------------------------------------------------------------------------
# Hand-made boards
# --------------------------------------------------------------------------------------------------
class Board:
    """Plain arrays in the dtypes the record uses; cubes default to none."""

    def __init__(self, num_players: int = 4):
        self.loco = np.zeros((5, N_HEX), np.uint8)
        self.cube = np.full(N_HEX, -1, np.int8)
        self.held = np.zeros((5, 5), np.int8)
        self.num_players = num_players

    def net(self, c, *labels):
        for label in labels:
            self.loco[c, hx(label)] = 1
        return self

    def cubes(self, **colours):
        for label, colour in colours.items():
            self.cube[hx(label)] = colour
        return self

    def shares(self, c, *counts):
        for seat, n in enumerate(counts):
            self.held[seat, c] = n
        return self

    def pay(self, paying_colours=(), bonus=0, paying=None):
        if paying is None:
            paying = np.zeros(3, np.int8)
            for colour in paying_colours:
                paying[colour] = 1
        income = np.full(5, -99, np.int32)
        payout = np.full(5, -99, np.int32)
        dividend_payouts(
            self.loco,
            self.cube,
            np.asarray(paying, np.int8),
            self.held,
            np.int8(self.num_players),
            np.int16(bonus),
            income,
            payout,
        )
        return income.tolist(), payout[: self.num_players].tolist()


# Cities on the real map (spec §2.1): B8 Derry, L4 Limerick, L8 Kilkenny, M9 Waterford, O4 Cork (cities);
# C12 Belfast, H3 Galway, H11 Dublin (majors). Towns: D4, D9, F2, F11, H7, J12, K3, K12, L9, N1.


def test_qualify_one_paying_city_and_one_town_IG_DIV_4():
    """IG-DIV-4."""
    b = Board().net(WLW, "L4", "K3").cubes(L4=BLACK).shares(WLW, 1)
    assert b.pay([BLACK]) == ([0, 6, 0, 0, 0], [6, 0, 0, 0])


def test_qualify_two_paying_cities_no_town_IG_DIV_4():
    """IG-DIV-4."""
    # Two cities of different drawn colours.
    b = Board().net(WLW, "L4", "L8").cubes(L4=BLACK, L8=WHITE).shares(WLW, 0, 1)
    assert b.pay([BLACK, WHITE]) == ([0, 8, 0, 0, 0], [0, 8, 0, 0])
    # Two cities of the same drawn colour.
    b = Board().net(WLW, "L4", "M9").cubes(L4=BLACK, M9=BLACK).shares(WLW, 0, 1)
    assert b.pay([BLACK]) == ([0, 8, 0, 0, 0], [0, 8, 0, 0])


@pytest.mark.parametrize(
    "labels, paying, why",
    [
        (("L4",), [BLACK], "P=1, T=0"),
        (("L4", "L8"), [BLACK], "P=1 plus a non-paying city, T=0: non-paying cities count for nothing"),
        (("K3", "L9", "N1"), [BLACK, PINK, WHITE], "P=0, T=3"),
        (("L4", "L8", "K3"), [PINK], "P=0 (two non-paying cities), T=1"),
        (("L4", "M9", "K3"), [], "nothing drawn"),
    ],
)
def test_not_qualifying_pays_nothing_IG_DIV_4_5(labels, paying, why):
    """IG-DIV-4, IG-DIV-5."""
    b = Board().net(WLW, *labels).cubes(L4=BLACK, M9=BLACK, L8=WHITE).shares(WLW, 1, 1)
    assert b.pay(paying) == ([0, 0, 0, 0, 0], [0, 0, 0, 0]), why


def test_income_counts_every_town_IG_DIV_5():
    """IG-DIV-5: P=2, T=3 -> 4*2 + 2*3 = 14 (every connected town counts, not just one)."""
    b = Board().net(MGW, "H11", "B8", "H7", "F11", "D9").cubes(H11=PINK, B8=PINK).shares(MGW, 1)
    assert b.pay([PINK]) == ([0, 0, 0, 0, 14], [14, 0, 0, 0])


def test_upgraded_town_is_a_city_not_a_town_IG_DIV_5_SI_2():
    """IG-DIV-5: A town with a cube (special interest) pays 4 when its colour is drawn and never 2 as a town."""
    b = Board().net(MGW, "H11", "H7", "F11").cubes(H11=PINK, H7=WHITE).shares(MGW, 1)
    assert b.pay([WHITE])[0][MGW] == 4 + 2  # P=1 (Tullamore), T=1 (Drogheda)
    assert b.pay([PINK])[0][MGW] == 4 + 2  # P=1 (Dublin), T=1 (Drogheda); Tullamore is not a town now
    assert b.pay([PINK, WHITE])[0][MGW] == 4 + 4 + 2
    assert b.pay([BLACK])[0][MGW] == 0


@pytest.mark.parametrize(
    "income_labels, expected_income, holdings, per_share",
    [
        # P=3 (B8, O4, H11 pink), T=1 -> 14; sold 4 -> ceil(14/4) = 4
        (("B8", "O4", "H11", "H7"), 14, (2, 1, 1, 0), 4),
        # P=2, T=1 -> 10; sold 3 -> ceil(10/3) = 4 (the bank pays 12)
        (("B8", "O4", "H7"), 10, (1, 1, 1, 0), 4),
        # P=2, T=0 -> 8; sold 2 -> exactly 4, no rounding
        (("B8", "O4"), 8, (0, 1, 0, 1), 4),
        # P=1, T=1 -> 6; sold 4 -> ceil(6/4) = 2
        (("O4", "H7"), 6, (1, 1, 1, 1), 2),
        # P=1, T=2 -> 8; sold 3 -> ceil(8/3) = 3
        (("H11", "H7", "F11"), 8, (0, 0, 3, 0), 3),
    ],
)
def test_per_share_rounds_up_several_holders_IG_DIV_7(income_labels, expected_income, holdings, per_share):
    """IG-DIV-7."""
    b = Board().net(GSW, *income_labels).cubes(B8=PINK, O4=PINK, H11=PINK).shares(GSW, *holdings)
    income, payout = b.pay([PINK])
    assert income[GSW] == expected_income
    assert payout == [per_share * n for n in holdings]


def test_payouts_add_up_over_companies_IG_DIV_7():
    """IG-DIV-7: A seat holding shares of several paying companies receives the sum."""
    b = Board().cubes(C12=BLACK, H11=PINK, L4=BLACK, M9=BLACK)
    b.net(BCD, "C12", "F11").shares(BCD, 1)  # 6 -> seat 0
    b.net(WLW, "L4", "M9", "K3").shares(WLW, 1, 1)  # 4+4+2 = 10 -> 5 each
    b.net(MGW, "H11", "H7").shares(MGW, 0, 0, 1)  # pink not drawn -> 0
    income, payout = b.pay([BLACK])
    assert income == [0, 10, 6, 0, 0]
    assert payout == [6 + 5, 5, 0, 0]


def test_zero_sold_pays_nothing_IG_DIV_8():
    """IG-DIV-8."""
    b = Board().net(BCD, "C12", "F11").cubes(C12=BLACK)
    income, payout = b.pay([BLACK])
    assert payout == [0, 0, 0, 0]
    assert income[BCD] in (0, 6)  # the income may be reported, but nobody is paid


MAJORS = ("C12", "H3", "H11")


@pytest.mark.parametrize(
    "labels, paying, bonus, expected",
    [
        # all three majors, qualifies with P=2 -> 8 + 12
        (MAJORS, [WHITE, PINK], 12, 20),
        # all three majors, qualifies with P=1, T=1 -> 6 + 12
        (MAJORS + ("H7",), [WHITE], 12, 18),
        # all three majors but P=1, T=0: does not qualify -> no bonus either
        (MAJORS, [WHITE], 12, 0),
        # all three majors, nothing paying -> 0
        (MAJORS + ("H7",), [], 12, 0),
        # qualifies but only two majors -> no bonus
        (("H3", "H11"), [WHITE, PINK], 12, 8),
        (("C12", "H11", "H7"), [BLACK], 12, 6),
        # bonus switched off (seed ruleset)
        (MAJORS, [WHITE, PINK], 0, 8),
        # the bonus is whatever the option says
        (MAJORS, [BLACK, WHITE, PINK], 6, 12 + 6),
    ],
)
def test_major_city_bonus_only_when_qualifying_with_all_three_IG_DIV_6(labels, paying, bonus, expected):
    """IG-DIV-6."""
    b = Board().net(GSW, *labels).cubes(C12=BLACK, H3=WHITE, H11=PINK).shares(GSW, 2)
    income, payout = b.pay(paying, bonus=bonus)
    assert income == [0, 0, 0, expected, 0]
    assert payout == [expected, 0, 0, 0]  # 2 shares, all with seat 0: ceil(x/2) * 2 == x for even x


def test_major_city_bonus_divided_among_shares_IG_DIV_6_7():
    """IG-DIV-6, IG-DIV-7:
    The bonus is part of income before division: (8 + 12) over 3 shares -> ceil(20/3) = 7 each."""
    b = Board().net(GSW, *MAJORS).cubes(C12=BLACK, H3=WHITE, H11=PINK).shares(GSW, 1, 1, 1)
    assert b.pay([WHITE, PINK], bonus=12) == ([0, 0, 0, 20, 0], [7, 7, 7, 0])


def test_colour_drawn_twice_pays_once_IG_DIV_3():
    """IG-DIV-3: Two or three white cubes make a white city pay once: the hot path sees the same result with
    paying counts 1, 2 or 3."""
    b = Board().net(MGW, "H3", "L8", "F11").cubes(H3=WHITE, L8=WHITE).shares(MGW, 1, 1)
    once = b.pay(paying=[0, 0, 1])
    assert once == ([0, 0, 0, 0, 10], [5, 5, 0, 0])  # P=2 (two white cities), T=1
    assert b.pay(paying=[0, 0, 2]) == once
    assert b.pay(paying=[0, 0, 3]) == once


def test_colour_drawn_three_times_pays_once_full_path_IG_DIV_3():
    """IG-DIV-3: Through step_chance: white x3 and a single white among three colours pay a white city the same."""
    s = common_board()
    set_network(s, MGW, ["H11", "H10", "H9", "H8", "H7", "H6", "H5", "H4", "H3"])  # Galway white, Dublin pink
    give_cert(s, 1, MGW)
    play(s, CALL_DIVIDENDS, 0, decision=True)
    a, b = s.copy(), s.copy()
    draw(a, 0, 0, 3)
    draw(b, 1, 0, 2)  # black pays nothing for MGW
    assert a[0]["last_income"][MGW] == b[0]["last_income"][MGW] == 4 + 2  # P=1 (Galway), T=1 (Tullamore)
    assert a[0]["cash"][1] == b[0]["cash"][1] == 26


def test_company_potential_IG_DISK_1():
    """IG-DISK-1: 4 per connected city (any colour, paying or not), 2 per connected town, no major-city bonus."""
    cube = np.full(N_HEX, -1, np.int8)
    for label, colour in {"C12": BLACK, "H3": WHITE, "H11": PINK, "B8": PINK, "H7": WHITE}.items():
        cube[hx(label)] = colour
    loco = np.zeros((5, N_HEX), np.uint8)
    for label in ("C12", "H3", "H11", "H7", "F11", "D9", "H10"):
        loco[GSW, hx(label)] = 1
    assert company_potential(loco, cube, GSW) == 4 * 4 + 2 * 2
    assert company_potential(loco, cube, CBSC) == 0
    loco[CBSC, hx("O4")] = 1
    cube[hx("O4")] = BLACK
    assert company_potential(loco, cube, CBSC) == 4


# --------------------------------------------------------------------------------------------------
# The draw (IG-DIV-1, spec §7)
# --------------------------------------------------------------------------------------------------
def exact_prob(bag, triple) -> float:
    n = sum(triple)
    num = math.prod(math.comb(bag[i], triple[i]) for i in range(3))
    return num / math.comb(sum(bag), n)


def outcome_probs(bag) -> dict[tuple[int, int, int], float]:
    ids = np.zeros(19, np.int64)
    probs = np.zeros(19, np.float64)
    n = draw_outcome_probs(np.asarray(bag, np.int8), ids, probs)
    out = {}
    for i in range(n):
        t = tuple(int(x) for x in k.DRAW_OUTCOMES[ids[i]])
        assert t not in out
        out[t] = float(probs[i])
    return out


def test_outcome_probs_for_every_bag_IG_DIV_1():
    """IG-DIV-1: For every bag in (0..10)^3 with at least one cube: n = min(3, total) cubes, every feasible colour
    triple listed once with its hypergeometric probability, and the probabilities sum to 1."""
    for bag in product(range(11), repeat=3):
        total = sum(bag)
        if total == 0:
            continue
        n = min(3, total)
        got = outcome_probs(bag)
        feasible = {t for t in product(range(n + 1), repeat=3) if sum(t) == n and all(t[i] <= bag[i] for i in range(3))}
        assert set(got) == feasible, bag
        assert math.isclose(sum(got.values()), 1.0, abs_tol=1e-12), bag
        for t, p in got.items():
            assert math.isclose(p, exact_prob(bag, t), rel_tol=1e-12), (bag, t)
            assert p > 0


@pytest.mark.parametrize(
    "bag, n", [((3, 2, 5), 3), ((1, 1, 2), 3), ((7, 7, 8), 3), ((0, 4, 1), 3), ((1, 0, 1), 2), ((2, 3, 0), 3)]
)
def test_draw_matches_outcome_probs_chi_square_IG_DIV_1(bag, n):
    """IG-DIV-1: Many draws from a fixed bag with draw_dividend_cubes against draw_outcome_probs (chi-square,
    fixed seed, p > 1e-4)."""
    probs = outcome_probs(bag)
    assert {sum(t) for t in probs} == {n}
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, 20240601 + sum(bag))
    counts = np.zeros(3, np.int8)
    trials = 20000
    observed = dict.fromkeys(probs, 0)
    for _ in range(trials):
        b = np.asarray(bag, np.int8).copy()
        draw_dividend_cubes(b, n, rng, counts)
        t = (int(counts[0]), int(counts[1]), int(counts[2]))
        assert t in observed, t
        assert (b == np.asarray(bag, np.int8) - counts).all()  # drawn cubes left the bag
        observed[t] += 1
    chi2 = sum((observed[t] - trials * p) ** 2 / (trials * p) for t, p in probs.items())
    df = len(probs) - 1
    if df == 0:
        assert observed[next(iter(probs))] == trials
    else:
        assert chi2 < CHI2_CRIT_1E4[df], (observed, chi2)


def test_draw_without_replacement_exhausts_small_bag_IG_DIV_1():
    """IG-DIV-1: Drawing all cubes of a bag returns exactly its contents (no replacement)."""
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, 5)
    counts = np.zeros(3, np.int8)
    for bag in [(1, 0, 0), (0, 2, 0), (1, 1, 1), (0, 1, 2)]:
        for _ in range(50):
            b = np.asarray(bag, np.int8).copy()
            draw_dividend_cubes(b, sum(bag), rng, counts)
            assert counts.tolist() == list(bag) and b.tolist() == [0, 0, 0]


@pytest.mark.parametrize("bag", [(2, 0, 0), (0, 1, 1), (0, 0, 1), (3, 0, 0), (5, 4, 3)])
def test_call_draws_min_3_and_bag_IG_DIV_1_2(bag):
    """IG-DIV-1, IG-DIV-2: Through k.step (the record RNG): a call takes min(3, bag) cubes out of the bag for good."""
    s = common_board()
    s[0]["bag"][:] = bag
    give_cert(s, 0, CBSC)
    play(s, CALL_DIVIDENDS, 0)
    r = s[0]
    n = min(3, sum(bag))
    assert int(r["last_draw"].sum()) == n
    assert (r["bag"] == np.asarray(bag) - r["last_draw"]).all()
    assert r["drawn_rows"] == 1 and int((r["drawn"][0] >= 0).sum()) == n
    assert k.is_over(s) == (sum(bag) <= 3)  # IG-END-1
