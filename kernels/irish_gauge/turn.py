"""Turn order and game end (IG-TURN-2, IG-END-1). Reads/writes: phase, active, turn, bag."""

from .._common.jit import internal
from .state import PH_GAME_OVER
from .state import PH_MAIN


@internal(cache=True)
def bag_total(r):
    return r.bag[0] + r.bag[1] + r.bag[2]


@internal(cache=True)
def end_turn(r):
    """After an action is fully resolved: end the game on an empty bag, else pass to the left."""
    r.turn += 1
    if bag_total(r) == 0:
        r.phase = PH_GAME_OVER  # IG-END-1: the bag emptied during this turn
        return
    r.active = (r.active + 1) % r.num_players  # IG-TURN-2
    r.phase = PH_MAIN
