"""Kremlin / "Magne!" action ids: one ``Discrete(304)`` space for every seat (spec §6).

| ids     | name             | meaning                                                  |
|---------|------------------|----------------------------------------------------------|
| 0-25    | SELECT_GAMER(g)  | g = gamer index (G01 = 0)                                |
| 26-38   | SELECT_POST(k)   | 26 + post index (P00 = 26)                               |
| 39-298  | DECLARE(g, v)    | 39 + 10*g + (v - 1), v = 1..10 (KRM-INF-2)               |
| 299     | DONE             | pass / stop / decline / "neither"                        |
| 300     | VOTE_OPPOSE      | KRM-RUM-3, KRM-ELE-3                                     |
| 301     | VOTE_SUPPORT     | (= not opposing)                                         |
| 302     | RUMOUR_A         | send a member away (KRM-RUM-2)                           |
| 303     | RUMOUR_B         | put an officer on trial (KRM-RUM-2)                      |
"""

from .._common.actions import ActionLayout
from .state import PH_ASSIGN
from .tables import GAMER_IDS
from .tables import GAMER_LABELS
from .tables import MAX_VALUE
from .tables import N_GAMERS
from .tables import N_POSTS
from .tables import POST_IDS
from .tables import POST_LABELS

_ACTIONS = ActionLayout()
A_SELECT_GAMER = _ACTIONS.add("SELECT_GAMER", N_GAMERS)
A_SELECT_POST = _ACTIONS.add("SELECT_POST", N_POSTS)
N_DECLARE = N_GAMERS * MAX_VALUE
A_DECLARE = _ACTIONS.add("DECLARE", N_DECLARE)
A_DONE = _ACTIONS.add("DONE")
A_OPPOSE = _ACTIONS.add("VOTE_OPPOSE")
A_SUPPORT = _ACTIONS.add("VOTE_SUPPORT")
A_RUMOUR_A = _ACTIONS.add("RUMOUR_A")
A_RUMOUR_B = _ACTIONS.add("RUMOUR_B")
NUM_ACTIONS = _ACTIONS.size
assert (A_SELECT_POST, A_DECLARE, A_DONE, NUM_ACTIONS) == (26, 39, 299, 304)


def declare_id(g: int, v: int) -> int:
    """Action id of DECLARE(g, v) (g gamer index, v = 1..10)."""
    return A_DECLARE + MAX_VALUE * g + (v - 1)


def action_family(action: int) -> tuple[str, tuple[int, ...]]:
    """(family name, arguments) of an action id: (gamer,), (post,), (gamer, value) or none."""
    family, arg = _ACTIONS.family(int(action))
    if family == "DECLARE":
        g, v = divmod(arg, MAX_VALUE)
        return family, (g, v + 1)
    return family, (arg,) if family in ("SELECT_GAMER", "SELECT_POST") else ()


def _theme(s) -> str:
    return "kremlin_en" if s is not None and int(s[0]["theme"]) == 1 else "magne_en"


def gamer_label(s, g: int) -> str:
    return f"{GAMER_IDS[g]} {GAMER_LABELS[_theme(s)][g]}"


def post_label(s, k: int) -> str:
    return f"{POST_IDS[k]} {POST_LABELS[_theme(s)][k]}"


def action_name(s, action: int) -> str:
    """Human-readable name of an action id; labels follow the record's theme (magne / kremlin)."""
    family, args = action_family(action)
    if family == "SELECT_GAMER":
        return f"SELECT_GAMER {gamer_label(s, args[0])}"
    if family == "SELECT_POST":
        return f"SELECT_POST {post_label(s, args[0])}"
    if family == "DECLARE":
        return f"DECLARE {gamer_label(s, args[0])} {args[1]}"
    return family


def public_action_name(s, action: int, viewer: int | None) -> str:
    """``action_name`` as ``viewer`` may see it, for the move about to be made in ``s`` (call it before the
    step). Only the influence allocation is secret (KRM-SET-4, spec §7): another seat's SELECT_GAMER
    there shows the value given (public) but not the gamer. ``viewer`` None is a spectator, who sees
    only public information."""
    r = s[0]
    if viewer is not None and not 0 <= viewer < int(r["num_players"]):
        raise ValueError(f"viewer must be None (a spectator) or a seat 0..{int(r['num_players']) - 1}, got {viewer!r}")
    mover = int(r["assign_seat"])
    if int(r["phase"]) == PH_ASSIGN and action_family(action)[0] == "SELECT_GAMER" and viewer != mover:
        value = MAX_VALUE - int(r["assign_count"])  # KRM-SET-4: values 10, 9, ..., 1 in this order
        return f"SELECT_GAMER (secret: influence {value} on a hidden gamer)"
    return action_name(s, action)
