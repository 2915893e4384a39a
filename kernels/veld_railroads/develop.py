"""Developing settlements (VR-DEV-1..7, VR-BOER-3).

Reads/writes: dev_level, dev_picks, dev_picked, cash, bank_in, phase.
"""

from .._common.jit import internal
from .actions import A_DONE
from .actions import A_SETTLEMENT
from .network import tracked
from .state import PH_DEVELOP_PICK
from .state import PH_END_OF_TURN
from .tables import BOER_WAR_ROW
from .tables import DEV_FREE_BOER
from .tables import DEV_FREE_NORMAL
from .tables import DEV_PAID_COST
from .tables import JOHANNESBURG
from .tables import MAX_DEV
from .tables import N_SETTLEMENTS
from .tables import SET_TYPE

T_METROPOLIS = 4


@internal(cache=True)
def eligible(r, s):
    """VR-DEV-2: a step left on the ladder and some track touches s (Johannesburg needs no track)."""
    if r.dev_level[s] >= MAX_DEV[s]:  # VR-DEV-6
        return False
    return s == JOHANNESBURG or tracked(r, s)


@internal(cache=True)
def any_eligible(r):
    for s in range(N_SETTLEMENTS):
        if eligible(r, s):
            return True
    return False


@internal(cache=True)
def free_picks(r):
    """VR-DEV-3/4, VR-BOER-3: one free development, two in the Boer War."""
    return DEV_FREE_BOER if r.row == BOER_WAR_ROW else DEV_FREE_NORMAL


@internal(cache=True)
def _picked(r, s):
    for i in range(r.dev_picks):
        if r.dev_picked[i] == s:
            return True
    return False


@internal(cache=True)
def start_develop(r):
    r.dev_picks = 0
    for i in range(r.dev_picked.shape[0]):
        r.dev_picked[i] = -1
    r.phase = PH_DEVELOP_PICK


@internal(cache=True)
def valid_develop(r, mask):
    """VR-DEV-2..5 and §6: eligible settlements not yet picked; the paid pick needs $3 and is never
    Johannesburg (DONE gives that step free); DONE once a development has been made."""
    paid = r.dev_picks >= free_picks(r)
    if not (paid and r.cash[r.active] < DEV_PAID_COST):  # VR-GEN-2: the paid pick must be affordable
        for s in range(N_SETTLEMENTS):
            if not eligible(r, s):
                continue
            if paid and s == JOHANNESBURG:
                continue  # §6: dominated by DONE
            if _picked(r, s) and not (r.repeat_metro and SET_TYPE[s] == T_METROPOLIS):
                continue  # VR-DEV-5 (option repeat_metropolis_pick lifts it for metropolises)
            mask[A_SETTLEMENT + s] = 1
    if r.dev_picks >= 1:
        mask[A_DONE] = 1


@internal(cache=True)
def _auto_johannesburg(r):
    """VR-DEV-3/4: stopping without the paid development develops Johannesburg one step."""
    if r.dev_level[JOHANNESBURG] < MAX_DEV[JOHANNESBURG]:
        r.dev_level[JOHANNESBURG] += 1


@internal(cache=True)
def do_develop(r, s):
    """VR-DEV-1: raise s one step; the paid pick costs $3 and ends the action."""
    paid = r.dev_picks >= free_picks(r)
    if paid:
        r.cash[r.active] -= DEV_PAID_COST  # VR-DEV-3: paid to the bank
        r.bank_in += DEV_PAID_COST
    r.dev_level[s] += 1
    r.dev_picked[r.dev_picks] = s
    r.dev_picks += 1
    if paid:
        r.phase = PH_END_OF_TURN  # §6: after the paid pick the action ends by itself


@internal(cache=True)
def do_develop_done(r):
    _auto_johannesburg(r)  # VR-DEV-3/4
    r.phase = PH_END_OF_TURN
