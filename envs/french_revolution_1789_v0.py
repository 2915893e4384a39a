"""French Revolution 1789 (2-5 players): factions buy historical figures at auction and use them to
steer France's regime, win city support, imprison, exile, execute and call in foreign armies.

| import             | ``from tabletop_zoo.envs import french_revolution_1789_v0``              |
|--------------------|---------------------------------------------------------------------------|
| actions            | Discrete(180)                                                             |
| agents             | ``player_0 .. player_{n-1}``, n = 2..5 (``num_players``, default 4)      |
| observation        | Dict(observation: float32[OBS_SIZE], action_mask: int8[180])             |
| observation pieces | ``tabletop_zoo.kernels.french_revolution_1789.OBS_PIECES`` (seat-relative) |
| rewards            | at the end: 1/k to each of k tied winners (VP, then RP), else 0          |
| options            | ``person_marks=False`` (FR-OPT-1)                                         |
| information        | imperfect: intrigue hands, the intrigue pile and undrawn deck order       |
| render modes       | ``"ansi"`` (text), ``"rgb_array"`` (uint8[800, 1280, 3]: map, tracks, players); |
|                    | both show the full record (every hand); ``render_ansi(s, seat)`` and       |
|                    | ``env.render_for(seat)`` give the text table as that seat may see it     |

Action ids (spec ``shared/rules/french_revolution_1789.md`` §6): 0 PASS, 1-61 BID_k (k = id - 1),
62-93 SELECT_CARD, 94-107 PLAY_INTRIGUE, 108-120 REGIME_ACTION (vote ... assassin), 121 USE_ABILITY,
122-133 TARGET_CITY, 134-165 TARGET_PERSON, 166-172 TARGET_REGIME, 173-177 TARGET_PLAYER,
178-179 TARGET_ARMY (coalition, royalist).

Unit draws and Police Network's steal are drawn by the environment from its seeded generator; no
chance seat is exposed. Search code can drive them through ``chance_outcomes``/``step_chance``.

Version history: v0 first release.
"""

from __future__ import annotations

import numpy as np

from ..kernels import french_revolution_1789 as kernel
from ..kernels.french_revolution_1789.names import resolution_lines
from ..kernels.french_revolution_1789.state import LOC_PLAYED, PHASE_NAMES, STATUS_NAMES
from ..kernels.french_revolution_1789.tables import (
    ARMY_NAMES,
    CARD_NAMES,
    CARD_PERSON,
    CITY_IDS,
    DECK_START,
    INTRIGUE_NAMES,
    REGIME_IDS,
    TURN_LABELS,
)
from .base import KernelAECEnv, auction_text


def _hand_text(r, p: int, seat: int | None) -> str:
    """Seat p's intrigue hand as ``seat`` sees it (spec §7): every card for its owner and the full view
    (seat None); for another seat the count, naming only cards ``seat`` knows (intr_known: e.g. a card
    Police Network took from it), the rest '?'."""
    held = np.flatnonzero(r["intr_loc"] == p)
    if seat is None or p == seat:
        names = [INTRIGUE_NAMES[j] for j in held]
    else:
        known = [INTRIGUE_NAMES[j] for j in held if (int(r["intr_known"][j]) >> seat) & 1]
        names = known + ["?"] * (len(held) - len(known))
    return f"hand {len(held)} [{', '.join(names)}]"


def _pile_text(r, seat: int | None) -> str:
    """The intrigue pile: its size; for a seat also any pile card it knows the place of."""
    text = f"intrigue pile {int(r['pile_n'])}"
    if seat is not None:
        pile = r["pile"][: int(r["pile_n"])]
        known = [INTRIGUE_NAMES[int(j)] for j in pile if (int(r["intr_known"][j]) >> seat) & 1]
        if known:
            text += f" (you know it holds {', '.join(known)})"
    return text


def render_ansi(s: np.ndarray, seat: int | None = None) -> str:
    """A text view of the table. ``seat`` None is the privileged full view (every intrigue hand);
    ``seat`` p shows what p may see (spec §7): its own hand, the other hands' sizes (and any of their
    cards p knows), never the order of the pile or of the undrawn history cards."""
    r = s[0]
    n = int(r["num_players"])
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"seat must be None (full view) or a seat 0..{n - 1}, got {seat!r}")
    turn = TURN_LABELS[min(int(r["turn"]), 4)]
    view = "full table view" if seat is None else f"player_{seat}'s view"
    lines = [
        f"French Revolution 1789 - turn {turn} - {PHASE_NAMES[int(r['phase'])]} - "
        f"regime {REGIME_IDS[int(r['regime'])]}, start player player_{int(r['start_player'])} - {view}"
    ]
    votes = ", ".join(f"{REGIME_IDS[g]} {int(v)}" for g, v in enumerate(r["votes"]) if v)
    lines.append(f"votes: {votes or '-'}")
    lines.append(
        "cities: "
        + "; ".join(
            f"{CITY_IDS[c]} {ARMY_NAMES[int(r['city_army'][c])][:3]}{int(r['city_str'][c])}"
            + (f" [p{int(r['city_owner'][c])}]" if r["city_owner"][c] >= 0 else "")
            for c in range(len(CITY_IDS))
        )
    )
    cups = "; ".join(f"{ARMY_NAMES[a]} " + ",".join(str(int(x)) for x in r["cup"][a][1:]) for a in range(3))
    lines.append(f"cups (units of strength 1..4): {cups}")
    for p in range(n):
        persons = []
        for c in np.flatnonzero(r["card_owner"] == p):
            st = int(r["card_status"][c])
            tag = "" if st == 0 else f"({STATUS_NAMES[st]})"
            tag += "*" if r["card_tilted"][c] else ""
            persons.append(CARD_NAMES[c] + tag if CARD_PERSON[c] or st else CARD_NAMES[c])
        you = " (you)" if p == seat else ""
        lines.append(
            f"player_{p}{you}: RP {int(r['rp'][p])} VP {int(r['vp'][p])} supply {int(r['supply'][p])} "
            + _hand_text(r, p, seat)
        )
        lines.append("   cards: " + (", ".join(persons) or "-"))
    left = int(DECK_START[min(int(r["turn"]) + 1, 5)] - r["deck_pos"]) if r["turn"] < 5 else 0
    lines.append(f"{_pile_text(r, seat)}; cards left in this deck {max(left, 0)}")
    played = [INTRIGUE_NAMES[j] for j in np.flatnonzero(r["intr_loc"] == LOC_PLAYED)]  # public (spec §7)
    lines.append(f"intrigue cards played: {', '.join(played) or '-'}")
    if int(r["auc_card"]) >= 0:
        lines.append(
            f"auction {CARD_NAMES[int(r['auc_card'])]}: " + auction_text(r, n, "auc_high", no_bid="no bid yet")
        )
    elif int(r["phase"]) != 5:
        passed = ",".join(str(p) for p in range(n) if r["act_passed"][p])
        lines.append(f"action phase: player_{int(r['act_player'])} to act; passed: {passed or '-'}")
        lines.extend(resolution_lines(r))  # the card, intrigue or effect being resolved, targets so far
    if int(r["last_draw"]):
        result = "success" if r["last_success"] else "failed"
        lines.append(f"last unit drawn: strength {int(r['last_draw'])} ({result})")
    return "\n".join(lines)


class raw_env(KernelAECEnv):
    kernel = kernel
    render_ansi = staticmethod(render_ansi)


env = raw_env.make
