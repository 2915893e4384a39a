"""Building track (VR-BUILD-1..5, VR-DBL-1..4, VR-BOER-1/2, VR-ZASM-4) and free first sections.

Reads/writes: section_owner, touch, n_sections, treasury_cash, bank_in, bld_* fields, phase,
reached_jo, zasm_trigger (and cash / bank_out through the special dividend).
"""

from .._common.jit import internal
from .actions import A_BUILD_RAILROAD
from .actions import A_SECTION
from .dividends import special_dividend
from .income import controls
from .income import has_controller
from .network import any_legal_section
from .network import double_cost
from .network import lay_section
from .network import near_end
from .network import other_end
from .network import section_legal
from .network import single_cost
from .network import tracked
from .state import PH_BUILD_CHOOSE_RAILROAD
from .state import PH_BUILD_FIRST_LEG
from .state import PH_BUILD_SECOND_LEG
from .state import PH_END_OF_TURN
from .state import PH_SETUP_NEXT
from .tables import BOER_WAR_ROW
from .tables import JOHANNESBURG
from .tables import N_RAILROADS
from .tables import N_SECTIONS
from .tables import SEC_A
from .tables import SEC_B
from .tables import ZASM


@internal(cache=True)
def can_build(r, rr):
    """VR-BUILD-4: opened, controlled, a legal single exists and the treasury covers its price;
    ZASM never in the Boer War (VR-BOER-2)."""
    if not r.opened[rr] or not has_controller(r, rr):
        return False
    if rr == ZASM and r.row == BOER_WAR_ROW:
        return False  # VR-BOER-2
    if r.treasury_cash[rr] < single_cost(r, rr):
        return False
    return any_legal_section(r, rr)


@internal(cache=True)
def own_choice_exists(r, p):
    """VR-BUILD-4: p controls at least one railroad that can build."""
    for rr in range(N_RAILROADS):
        if controls(r, p, rr) and can_build(r, rr):
            return True
    return False


@internal(cache=True)
def build_choice_ok(r, p, rr, own):
    """VR-BUILD-4: with own = own_choice_exists(r, p), may p name rr as the builder railroad?"""
    if not can_build(r, rr):
        return False
    return controls(r, p, rr) if own else True  # the fallback: any railroad that can build


@internal(cache=True)
def build_choices(r, p, mask):
    """Mask the railroads p may name (VR-BUILD-4); returns how many."""
    own = own_choice_exists(r, p)
    count = 0
    for rr in range(N_RAILROADS):
        if build_choice_ok(r, p, rr, own):
            mask[A_BUILD_RAILROAD + rr] = 1
            count += 1
    return count


@internal(cache=True)
def any_build_choice(r, p):
    for rr in range(N_RAILROADS):
        if can_build(r, rr):
            return True
    return False


@internal(cache=True)
def first_controller_from(r, p, rr):
    """VR-BUILD-4 tie-break: the first controller of rr clockwise from p (p excluded unless alone)."""
    n = r.num_players
    for i in range(1, n + 1):
        q = (p + i) % n
        if controls(r, q, rr):
            return q
    return -1


@internal(cache=True)
def choose_railroad(r, rr):
    """Start rr's build: the acting player builds if they control rr, else rr's first controller."""
    r.bld_railroad = rr
    r.bld_builder = r.active if controls(r, r.active, rr) else first_controller_from(r, r.active, rr)
    r.bld_leg1 = -1
    r.bld_far = -1
    r.bld_single_cost = single_cost(r, rr)  # VR-ZASM-4: judged before the build
    r.bld_double_cost = double_cost(r, rr)
    r.phase = PH_BUILD_FIRST_LEG


@internal(cache=True)
def add_section(r, rr, e, special):
    """Lay e for rr; VR-BUILD-5: first arrival in Johannesburg pays the special dividend (not ZASM,
    VR-ZASM-5) and arms the ZASM opening (VR-ZASM-1a)."""
    lay_section(r, rr, e)
    if SEC_A[e] == JOHANNESBURG or SEC_B[e] == JOHANNESBURG:
        if not r.opened[ZASM]:
            r.zasm_trigger = 1  # VR-ZASM-1(a)
        if special and rr != ZASM and not r.reached_jo[rr]:
            r.reached_jo[rr] = 1
            special_dividend(r, rr)  # VR-DIV-5


@internal(cache=True)
def _second_leg_ok(r, rr, b, e):
    """VR-DBL-1/2: leg 2 from B to an untracked C other than Johannesburg, legal as if leg 1 were built."""
    if r.section_owner[e] >= 0 or (SEC_A[e] != b and SEC_B[e] != b):
        return False
    c = other_end(e, b)
    if c == JOHANNESBURG or tracked(r, c):
        return False
    return section_legal(r, rr, e) and near_end(r, rr, e) == b


@internal(cache=True)
def valid_second_legs(r, mask):
    """Mask leg-2 sections (BUILD_SECOND_LEG)."""
    for e in range(N_SECTIONS):
        if _second_leg_ok(r, r.bld_railroad, r.bld_far, e):
            mask[A_SECTION + e] = 1


@internal(cache=True)
def any_second_leg(r):
    for e in range(N_SECTIONS):
        if _second_leg_ok(r, r.bld_railroad, r.bld_far, e):
            return True
    return False


@internal(cache=True)
def valid_first_legs(r, mask):
    rr = r.bld_railroad
    for e in range(N_SECTIONS):
        if section_legal(r, rr, e):  # VR-BUILD-2
            mask[A_SECTION + e] = 1


@internal(cache=True)
def _pay(r, rr, price):
    r.treasury_cash[rr] -= price  # VR-BUILD-1: the railroad pays the bank
    r.bank_in += price


@internal(cache=True)
def do_first_leg(r, e):
    """Lay leg 1; enter BUILD_SECOND_LEG only if a double is possible (VR-DBL-1..4), else pay a single."""
    rr = r.bld_railroad
    a = near_end(r, rr, e)
    b = other_end(e, a)
    b_was_tracked = tracked(r, b)
    add_section(r, rr, e, True)
    r.bld_leg1 = e
    r.bld_far = b
    double = (
        r.row != BOER_WAR_ROW  # VR-DBL-3
        and a != JOHANNESBURG
        and b != JOHANNESBURG  # VR-DBL-2
        and not b_was_tracked  # VR-DBL-1: B had no track
        and r.treasury_cash[rr] >= r.bld_double_cost
    )
    if double and any_second_leg(r):
        r.phase = PH_BUILD_SECOND_LEG
    else:
        _pay(r, rr, r.bld_single_cost)  # VR-DBL-4: the single is paid at once
        end_build(r)


@internal(cache=True)
def do_second_leg(r, e):
    """VR-DBL-1: leg 2 completes a double for the double price."""
    rr = r.bld_railroad
    add_section(r, rr, e, True)
    _pay(r, rr, r.bld_double_cost)
    end_build(r)


@internal(cache=True)
def do_done_after_leg1(r):
    """VR-DBL-4: DONE after leg 1 pays the single price."""
    _pay(r, r.bld_railroad, r.bld_single_cost)
    end_build(r)


@internal(cache=True)
def end_build(r):
    r.bld_railroad = -1
    r.bld_builder = -1
    r.bld_leg1 = -1
    r.bld_far = -1
    r.bld_single_cost = 0
    r.bld_double_cost = 0
    r.phase = PH_END_OF_TURN


@internal(cache=True)
def start_build(r):
    """VR-BUILD-4: the build box; no railroad can build -> a no-op turn."""
    if not any_build_choice(r, r.active):
        r.phase = PH_END_OF_TURN
    else:
        r.phase = PH_BUILD_CHOOSE_RAILROAD


@internal(cache=True)
def do_free_section(r, e):
    """§3 step 6 / VR-ZASM-3: the free section, no cost, never a special dividend."""
    add_section(r, r.fs_railroad, e, False)
    r.fs_railroad = -1
    r.fs_player = -1
    r.phase = PH_SETUP_NEXT if r.setup_k < 5 else PH_END_OF_TURN
