"""Income, regime and scoring phases, the end of the action phase and of the game.

FR-INC-1, FR-REG-1/2, FR-SCO-1..4, FR-ACT-3/4, FR-END-1.
"""

from numba import njit

from .._common.jit import internal
from .state import PH_ACTION
from .state import PH_AUCTION
from .state import PH_GAME_OVER
from .state import ST_DEAD
from .state import ST_EXILED
from .tables import CARD_PERSON
from .tables import CARD_SCORE
from .tables import CITY_EXILE_W
from .tables import CITY_RP
from .tables import CITY_VP
from .tables import COALITION
from .tables import DECK_START
from .tables import EXILE_VP
from .tables import INCOME
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_REGIMES
from .tables import N_TURNS
from .tables import RP_CAP


@internal(cache=True)
def income(r):
    for p in range(r.num_players):
        r.rp[p] = min(RP_CAP, r.rp[p] + INCOME[r.num_players])  # FR-INC-1, FR-GEN-4


@internal(cache=True)
def reveal_next(r, opener):
    """FR-AUC-1: reveal the top card of the stock and open its bidding with opener (FR-AUC-2)."""
    r.auc_card = r.deck[r.deck_pos]
    r.deck_pos += 1
    r.auc_high = -1
    r.auc_high_bidder = -1
    for p in range(r.auc_passed.shape[0]):
        r.auc_passed[p] = 0
    r.auc_bidder = opener
    r.phase = PH_AUCTION


@internal(cache=True)
def start_action_phase(r):
    """FR-ACT-1: the start player card holder acts first."""
    r.auc_card = -1
    r.auc_bidder = -1
    r.phase = PH_ACTION
    r.act_player = r.start_player
    r.last_passer = -1
    for p in range(r.act_passed.shape[0]):
        r.act_passed[p] = 0


@njit(cache=True)
def exile_count(r):
    """FR-SCO-2: cities holding a coalition unit, Paris weighing 2."""
    n = 0
    for c in range(N_CITIES):
        if r.city_army[c] == COALITION:
            n += CITY_EXILE_W[c]
    return n


@internal(cache=True)
def voted_regime(r):
    """FR-REG-1: the regime the vote markers now on the boxes would set: the box with the most votes; a tie
    for the most (or no votes) keeps the regime in force."""
    best = 0
    winner = r.regime
    for g in range(N_REGIMES):
        if r.votes[g] > best:
            best = r.votes[g]
            winner = g
        elif r.votes[g] == best and best > 0:
            winner = r.regime
    return winner


@internal(cache=True)
def regime_phase(r):
    """FR-REG-1 then FR-REG-2: the voted regime comes into force and every vote marker is removed."""
    r.regime = voted_regime(r)
    for g in range(N_REGIMES):
        r.votes[g] = 0  # FR-REG-2


@internal(cache=True)
def scoring_phase(r):
    """FR-SCO-1..4 under the regime just set (simultaneous)."""
    band = EXILE_VP[exile_count(r)]
    for c in range(N_CARDS):
        p = r.card_owner[c]
        if p < 0 or not CARD_PERSON[c] or r.card_status[c] == ST_DEAD:
            continue
        if r.card_status[c] == ST_EXILED:
            r.vp[p] += band  # FR-SCO-2
        else:
            r.vp[p] += CARD_SCORE[c, r.regime]  # FR-SCO-1 (imprisoned persons score)
    for c in range(N_CITIES):
        p = r.city_owner[c]
        if p >= 0:
            r.rp[p] = min(RP_CAP, r.rp[p] + CITY_RP[c])  # FR-SCO-3, FR-GEN-4
            r.vp[p] += CITY_VP[c]


@internal(cache=True)
def end_action_phase(r):
    """FR-ACT-3/4 then the regime and scoring phases; next turn's income and auction, or the end."""
    for c in range(N_CARDS):
        r.card_tilted[c] = 0  # FR-ACT-3
    r.start_player = r.last_passer  # FR-ACT-4
    regime_phase(r)
    scoring_phase(r)
    r.turn += 1
    if r.turn >= N_TURNS:  # FR-END-1
        r.phase = PH_GAME_OVER
        r.act_player = -1
        return
    income(r)  # FR-INC-1
    r.deck_pos = DECK_START[r.turn]
    reveal_next(r, r.start_player)  # FR-AUC-1
