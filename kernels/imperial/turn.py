"""Turn flow: end of a rondel action, investor activity, next nation, truncation.

IMP-TURN-1/3, IMP-INV-4/5, IMP-END-2. Reads/writes: phase, nation, turn, passed_investor,
investor_card, inv_buyer, inv_next, truncated.
"""

from .._common.jit import internal
from .board import flags_held
from .investor import investor_bonus
from .state import PH_BUY
from .state import PH_GAME_OVER
from .state import PH_RONDEL
from .tables import N_NATIONS


@internal(cache=True)
def end_nation_turn(r):
    """IMP-TURN-1: next nation in turn order whose flag is not in the bank (IMP-TURN-3)."""
    r.turn += 1
    if r.turn >= r.max_turns:
        r.truncated = 1  # IMP-END-2
        r.phase = PH_GAME_OVER
        return
    n = r.nation
    for _ in range(N_NATIONS):
        n = (n + 1) % N_NATIONS
        if r.flag[n] >= 0:
            break
    r.nation = n
    r.phase = PH_RONDEL


@internal(cache=True)
def start_activity(r):
    """IMP-INV-5 (a)+(b): bonus to the card holder, who may buy first."""
    investor_bonus(r)
    r.inv_buyer = r.investor_card
    r.inv_next = 1
    r.phase = PH_BUY


@internal(cache=True)
def next_buyer(r):
    """IMP-INV-5 (c)+(d): the next flagless player clockwise, else pass the card and end the turn."""
    n = r.num_players
    while r.inv_next < n:
        q = (r.investor_card + r.inv_next) % n
        r.inv_next += 1
        if flags_held(r, q) == 0:  # flagless at the moment its turn comes
            r.inv_buyer = q
            r.phase = PH_BUY
            return
    r.investor_card = (r.investor_card + 1) % n  # IMP-INV-5 (d)
    r.inv_buyer = -1
    end_nation_turn(r)


@internal(cache=True)
def end_action(r):
    """The rondel space's action is fully resolved: investor activity if Investor was passed (IMP-INV-4)."""
    if r.passed_investor:
        r.passed_investor = 0
        start_activity(r)
    else:
        end_nation_turn(r)
