"""Spec §7: a seat's observation is a function of what it may see, checked by editing the hidden fields of
the record directly (not through the kernel's own ``determinize``, which could share a bug with ``observe``).

Each test takes positions reached by random play at every player count, changes one secret (an intrigue
card moved between a hand and the pile, two hands exchanging cards, the order of the undrawn history cards),
and compares every seat's ``observe`` before and after: the seats that may see the secret see the change,
no other seat does, and the privileged full view (seat -1) always does.
"""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.kernels import french_revolution_1789 as k
from tabletop_zoo.kernels._common.record import copy_record
from tabletop_zoo.kernels.french_revolution_1789.state import LOC_PILE

DECISIONS = (6, 60, 150)  # the first auction, the first action phase, later in the game


def positions(n: int, seed: int = 11):
    """Records after each of DECISIONS random decisions of one game (fewer if it ends first)."""
    s, mask, rng = k.new_state(n, seed), np.zeros(k.NUM_ACTIONS, np.uint8), np.random.default_rng(seed)
    for played in range(max(DECISIONS) + 1):
        if played in DECISIONS:
            yield played, copy_record(s)
        if k.is_over(s):
            return
        k.legal_mask(s, mask)
        k.step(s, int(rng.choice(np.flatnonzero(mask))))


def views(s, n: int) -> list[np.ndarray]:
    """observe() of every seat, then of the full view (-1)."""
    out = []
    for seat in [*range(n), -1]:
        o = np.zeros(k.OBS_SIZE, np.float32)
        k.observe(s, seat, o)
        out.append(o)
    return out


def check(s, t, n: int, seeing: set[int], where: str, full_view_sees: bool = True) -> None:
    """t differs from s by a secret only ``seeing`` may see: exactly they (and the full view) see a change."""
    before, after = views(s, n), views(t, n)
    for seat in range(n):
        changed = not np.array_equal(before[seat], after[seat])
        assert changed == (seat in seeing), f"{where}: player_{seat} {'sees' if changed else 'misses'} it"
    if full_view_sees:
        assert not np.array_equal(before[-1], after[-1]), f"{where}: the full view misses the change"


def known_only_to(r, card: int, seat: int) -> bool:
    return int(r["intr_known"][card]) == 1 << seat


@pytest.mark.parametrize("n", range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1))
def test_a_hand_card_swapped_with_the_pile_shows_only_to_its_holder(n):
    """FR §7 (private: each player's own intrigue hand): p's card known to p alone goes to the pile and an
    unknown pile card takes its place; only p's observation changes."""
    checked = 0
    for decisions, s in positions(n):
        r = s[0]
        unknown_pile = [int(r["pile"][i]) for i in range(int(r["pile_n"])) if r["intr_known"][r["pile"][i]] == 0]
        for p in range(n):
            mine = [int(j) for j in np.flatnonzero(r["intr_loc"] == p) if known_only_to(r, j, p)]
            if not mine or not unknown_pile:
                continue
            t = copy_record(s)
            u, j, c = t[0], mine[0], unknown_pile[0]
            slot = int(np.flatnonzero(u["pile"][: u["pile_n"]] == c)[0])
            u["intr_loc"][j], u["intr_known"][j], u["pile"][slot] = LOC_PILE, 0, j
            u["intr_loc"][c], u["intr_known"][c] = p, 1 << p
            check(s, t, n, {p}, f"{n}p after {decisions}, player_{p}'s hand")
            checked += 1
    assert checked, "no position had a card to swap"


@pytest.mark.parametrize("n", range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1))
def test_two_hands_exchanging_secret_cards_show_only_to_the_two_holders(n):
    """FR §7: p and q swap one card each (each known to its holder alone; counts unchanged): p and q see it,
    every third seat sees nothing. (The full view shows the cards held, not by whom: its ``my_hand`` is the
    union of the hands, which an exchange leaves as it was.)"""
    checked = 0
    for decisions, s in positions(n):
        r = s[0]
        for p in range(n):
            for q in range(p + 1, n):
                a = [int(j) for j in np.flatnonzero(r["intr_loc"] == p) if known_only_to(r, j, p)]
                b = [int(j) for j in np.flatnonzero(r["intr_loc"] == q) if known_only_to(r, j, q)]
                if not a or not b:
                    continue
                t = copy_record(s)
                u = t[0]
                u["intr_loc"][a[0]], u["intr_known"][a[0]] = q, 1 << q
                u["intr_loc"][b[0]], u["intr_known"][b[0]] = p, 1 << p
                check(s, t, n, {p, q}, f"{n}p after {decisions}, player_{p} and player_{q}", full_view_sees=False)
                checked += 1
    assert checked, "no position had two hands to exchange"


@pytest.mark.parametrize("n", range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1))
def test_the_order_of_undrawn_history_cards_shows_to_nobody(n):
    """FR §7 (the order of each deck is hidden until each card is revealed; FR-AUC-1): reversing the unrevealed
    part of every deck changes no seat's observation."""
    starts = [*k.tables.DECK_START.tolist(), k.tables.N_CARDS]
    checked = 0
    for decisions, s in positions(n):
        pos, t = int(s[0]["deck_pos"]), copy_record(s)
        for start, end in zip(starts, starts[1:]):
            lo = max(start, pos)
            t[0]["deck"][lo:end] = t[0]["deck"][lo:end][::-1].copy()
        if np.array_equal(t[0]["deck"], s[0]["deck"]):
            continue
        before, after = views(s, n), views(t, n)
        for seat in range(n):
            assert np.array_equal(before[seat], after[seat]), f"{n}p after {decisions}: player_{seat} sees the order"
        checked += 1
    assert checked, "no position had two undrawn cards in a deck"
