"""French Revolution 1789's scene: France's cities at approximate real positions with each city's army unit and
support marker, the regime track with its votes, the turn track and unit cups, and each player's points,
supply, intrigue hand and persons; the pending decision.

Intrigue hands are secret (spec §7): ``scene(s, viewer)`` names a seat's own hand and, of the others', only
the cards the seat knows (``intr_known``), the rest '?', as the seat's text view does. The PRIVILEGED view
(``viewer=None``: every hand) says so on the picture; ``render_rgb(s)`` draws it, for debugging and replays,
never as an agent's input. City positions and the outline of France come from
``kernels/french_revolution_1789/data/layout.json``; in the browser a city is the place of its actions
(``place_of``).
"""

from __future__ import annotations

import functools
import textwrap

import numpy as np

from ...kernels import french_revolution_1789 as kernel
from ...kernels.french_revolution_1789.actions import A_CITY
from ...kernels.french_revolution_1789.names import CITY_NAMES, resolution_lines
from ...kernels.french_revolution_1789.state import (
    PH_AUCTION,
    PH_GAME_OVER,
    PHASE_NAMES,
    ST_DEAD,
    ST_EXILED,
    ST_IMPRISONED,
)
from ...kernels.french_revolution_1789.tables import (
    ARMY_NAMES,
    CARD_NAMES,
    CITY_ELIG,
    CITY_IDS,
    CITY_RP,
    CITY_VP,
    DECK_START,
    INTRIGUE_NAMES,
    N_CITIES,
    N_REGIMES,
    N_TURNS,
    REGIME_ABBR,
    TABLES,
    TURN_LABELS,
)
from ._canvas import HEIGHT, WIDTH
from ._panels import layout, mover_label, title_texts
from .mpl import rasterize
from .scene import PT, Builder, Circle, Layer, Polygon, Rect, Scene, Text, privileged_note

LAYOUT = layout(kernel)
_COS = float(np.cos(np.deg2rad(LAYOUT["projection"]["lat0"])))


def _project(lonlat) -> np.ndarray:
    """Equirectangular x, y (x shrunk by cos(lat0) so France keeps its shape)."""
    a = np.asarray(lonlat, dtype=float)
    return np.stack([a[..., 0] * _COS, a[..., 1]], axis=-1)


CITY_XY = _project([LAYOUT["cities"][c] for c in CITY_IDS])
REGIME_NAMES = tuple(x["name_en"].split(" (")[0] for x in sorted(TABLES["regimes"], key=lambda x: x["index"]))
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
ARMY_FACE = ("#1d3f8f", "#3a3a3a", "#f4f1de")  # French navy, coalition grey, royalist white
ARMY_TEXT = ("white", "white", "black")
LAND, SEA = "#efe6cf", "#dbe9f6"
# Label offsets (points) for cities whose names would collide with a neighbour's pieces.
LABEL_BELOW = {"toulon", "perpignan", "bayonne", "strasbourg", "nantes"}
# Where a city's unit and support marker sit beside its dot (x, y in map units); Toulon's both go east so
# they do not touch Marseille's.
UNIT_OFFSET = np.array([[0.4, 0.0] if c == "toulon" else [-0.22, 0.0] for c in CITY_IDS])
SUPPORT_OFFSET = np.array([[0.82, 0.0] if c == "toulon" else [0.24, 0.0] for c in CITY_IDS])

# The map box (frame pixels, y down), France fitted into it; the side panel and the tracks' origins.
_BOX = (6.4, 64.0, 569.6, 544.0)  # left, top, width, height
_LO, _HI = np.array([-5.2 * _COS, 41.15]), np.array([10.2 * _COS, 51.45])
UNIT = min(_BOX[2] / (_HI - _LO)[0], _BOX[3] / (_HI - _LO)[1])  # pixels per map unit
_ORIGIN = (_BOX[0] + (_BOX[2] - UNIT * (_HI - _LO)[0]) / 2, _BOX[1] + (_BOX[3] + UNIT * (_HI - _LO)[1]) / 2)
SIDE_X = 0.46 * WIDTH

# Right panel: player blocks, then the pending decision; bottom-left panel: regime and turn tracks (pixels, y up
# from the frame's bottom).
BLOCK_TOP, BLOCK_H, PENDING_TOP = 735, 106, 150
REGIME_W, REGIME_Y, TURN_Y = 80, 118, 40


def map_px(xy) -> tuple[float, float]:
    """Map units (projected lon, lat) to frame pixels (y down)."""
    return _ORIGIN[0] + UNIT * (float(xy[0]) - _LO[0]), _ORIGIN[1] - UNIT * (float(xy[1]) - _LO[1])


def _low(x: float, y: float) -> tuple[float, float]:
    """Track-panel pixels (y up from the frame's bottom) to frame pixels."""
    return float(x), HEIGHT - float(y)


def _side(x: float, y: float) -> tuple[float, float]:
    """Side-panel pixels (from its left edge, y up from the frame's bottom) to frame pixels."""
    return SIDE_X + x, HEIGHT - float(y)


def place_of(action: int) -> str | None:
    """The city an action names (the browser's click target), else None."""
    a = int(action)
    return CITY_IDS[a - A_CITY] if A_CITY <= a < A_CITY + N_CITIES else None


def render_rgb(s: np.ndarray) -> np.ndarray:
    """uint8[800, 1280, 3]: the privileged scene (every intrigue hand) drawn by matplotlib."""
    return rasterize(scene(s))


def scene(s: np.ndarray, viewer: int | None = None) -> Scene:
    """The picture of record ``s`` as ``viewer`` may see it: a seat (its own hand, and of the others' only the
    cards it knows), ``SPECTATOR`` (no hand) or None (privileged: every hand)."""
    r = s[0]
    n = int(r["num_players"])
    if viewer is not None and viewer != -1 and not 0 <= viewer < n:
        raise ValueError(f"viewer must be None (privileged), -1 (spectator) or a seat 0..{n - 1}, got {viewer!r}")
    out = Builder()
    out.add(*_title(s, viewer))
    out.add(*_pieces(r), *_tracks(r), *_players(s, viewer), *_pending(s, viewer))
    return Scene(WIDTH, HEIGHT, "white", (_static(), out.layer()), out.items[0].text, viewer)


@functools.lru_cache(maxsize=1)
def _static() -> Layer:
    """Map, city names and values, track boxes, legend (the same for every record)."""
    out = Builder(key="french_revolution_1789")
    _map(out)
    _track_labels(out)
    return out.layer()


def _title(s, viewer: int | None) -> list[Text]:
    r = s[0]
    turn = TURN_LABELS[min(int(r["turn"]), N_TURNS - 1)]
    return title_texts(
        f"French Revolution 1789  -  turn {turn}  -  {PHASE_NAMES[int(r['phase'])]}  -  "
        f"{mover_label(kernel, s, 'drawing')}",
        f"regime: {REGIME_NAMES[int(r['regime'])]}; start player_{int(r['start_player'])}; "
        f"{int(r['decisions'])} decisions\n{privileged_note(viewer)}",
    )


def _map(out: Builder) -> None:
    """Sea, France, cities (a city is its actions' place) with RP / VP and which foreign armies may enter."""
    x0, y0 = map_px(_LO)
    x1, y1 = map_px(_HI)
    out.add(Rect(x0, y1, x1 - x0, y0 - y1, fill=SEA))
    for outline in LAYOUT["outlines"].values():
        out.add(Polygon(tuple(map_px(p) for p in _project(outline)), fill=LAND, stroke="#8a7f66"))
    for c, cid in enumerate(CITY_IDS):
        out.add(
            Circle(*map_px(CITY_XY[c]), 9, fill="#cbc4b0", stroke="#8a7f66", width=0.6, id=f"city:{cid}", place=cid)
        )
    out.add(*(Circle(*map_px(CITY_XY[c]), 3.8, fill="black") for c in range(N_CITIES)))
    for c, cid in enumerate(CITY_IDS):
        x, y = CITY_XY[c]
        elig = ("C" if CITY_ELIG[c] & 2 else "") + ("R" if CITY_ELIG[c] & 4 else "")
        name_y = y - 0.4 if cid in LABEL_BELOW else y + 0.62  # the values line sits under the name
        out.add(Text(*map_px((x, name_y)), CITY_NAMES[c], 9, weight="bold", ha="center"))
        values = f"{int(CITY_RP[c])} RP  {int(CITY_VP[c])} VP" + (f"  {elig}" if elig else "")
        out.add(Text(*map_px((x, name_y - 0.25)), values, 7, "#555555", ha="center"))
    legend = [("army unit (strength): French", ARMY_FACE[0]), ("coalition", ARMY_FACE[1]), ("royalist", ARMY_FACE[2])]
    for k, (label, face) in enumerate(legend):
        x, y = x0 + 0.02 * (x1 - x0), y1 + (0.025 + 0.035 * k) * (y0 - y1)
        out.add(Rect(x, y - 6.5, 13, 13, fill=face, stroke="black", width=0.6), Text(x + 18, y, label, 7.5))
    key = "disc = support marker (player colour)\nC / R: coalition / royalist may enter"
    out.add(Text(x0 + 0.02 * (x1 - x0), y1 + 0.13 * (y0 - y1), key, 7.5, va="top"))


def _pieces(r) -> list:
    """Each city's army unit (square with its strength) and support marker (disc in the player's colour)."""
    units, discs, texts = [], [], []
    for c, cid in enumerate(CITY_IDS):
        x, y = map_px(CITY_XY[c] + UNIT_OFFSET[c])
        army = int(r["city_army"][c])
        units.append(Rect(x - 8.5, y - 8.5, 17, 17, fill=ARMY_FACE[army], stroke="black", width=0.7, id=f"unit:{cid}"))
        if r["city_str"][c] > 0:
            texts.append(Text(x, y, str(int(r["city_str"][c])), 8, ARMY_TEXT[army], "bold", ha="center"))
        if r["city_owner"][c] >= 0:
            colour = PLAYER_COLOURS[int(r["city_owner"][c])]
            discs.append(
                Circle(
                    *map_px(CITY_XY[c] + SUPPORT_OFFSET[c]),
                    7.6,
                    fill=colour,
                    stroke="black",
                    width=0.8,
                    id=f"support:{cid}",
                )
            )
    return units + discs + texts


def _track_labels(out: Builder) -> None:
    """Regime boxes (abbreviation and name) and turn boxes."""
    out.add(Text(*_low(4, 176), "Regime track (votes on each box)", 11, weight="bold"))
    for g in range(N_REGIMES):
        x, y = _low(4 + g * REGIME_W, REGIME_Y + 32)
        out.add(Rect(x, y, REGIME_W - 6, 62, fill="#f4f1ea", stroke="#888888", id=f"regime:{REGIME_ABBR[g]}"))
        out.add(Text(x + (REGIME_W - 6) / 2, y + 12, REGIME_ABBR[g], 10, weight="bold", ha="center"))
        name = "\n".join(textwrap.wrap(REGIME_NAMES[g], 14, break_long_words=False))
        out.add(Text(x + (REGIME_W - 6) / 2, y + 28, name, 6.5, "#444444", ha="center"))
    out.add(Text(*_low(4, TURN_Y + 20), "Turn", 10, weight="bold"))
    for t in range(N_TURNS):
        out.add(Rect(*_low(50 + t * 34, TURN_Y + 32), 28, 24, fill="#f4f1ea", stroke="#888888"))
        out.add(Text(*_low(64 + t * 34, TURN_Y + 20), TURN_LABELS[t], 9, ha="center"))
    out.add(Text(*_low(230, TURN_Y + 20), "Unit cups (units by strength 1/2/3/4)", 10, weight="bold"))


def _tracks(r) -> list:
    """Regime in force (gold frame), vote counts, current turn, cups' contents."""
    g = int(r["regime"])
    t = min(int(r["turn"]), N_TURNS - 1)
    out: list = [
        Rect(*_low(4 + g * REGIME_W, REGIME_Y + 32), REGIME_W - 6, 62, stroke="#d4a017", width=3.5, id="regime"),
        Rect(*_low(50 + t * 34, TURN_Y + 32), 28, 24, stroke="#d4a017", width=3, id="turn"),
    ]
    for k in np.flatnonzero(r["votes"]):
        x, y = _low(4 + k * REGIME_W + (REGIME_W - 6) / 2, REGIME_Y - 20)
        out.append(Text(x, y, f"{int(r['votes'][k])} votes", 8.5, "#b00000", "bold", ha="center"))
    cups = "   ".join(f"{ARMY_NAMES[a]} " + "/".join(str(int(x)) for x in r["cup"][a][1:]) for a in range(3))
    out.append(Text(*_low(230, TURN_Y - 6), cups, 9, mono=True, id="cups"))
    return out


def _card_label(r, c: int) -> str:
    st = int(r["card_status"][c])
    tag = {ST_IMPRISONED: " (prison)", ST_EXILED: " (exile)", ST_DEAD: " (dead)"}.get(st, "")
    return CARD_NAMES[c] + tag + ("*" if r["card_tilted"][c] else "")


def _hand(r, p: int, viewer: int | None) -> list[str]:
    """Seat p's intrigue hand as ``viewer`` sees it (spec §7): every card for its owner and the privileged view;
    of another seat's only the cards the viewer knows (``intr_known``), the rest '?'."""
    held = np.flatnonzero(r["intr_loc"] == p)
    if viewer is None or p == viewer:
        return [INTRIGUE_NAMES[j] for j in held]
    known = [INTRIGUE_NAMES[j] for j in held if viewer >= 0 and (int(r["intr_known"][j]) >> viewer) & 1]
    return known + ["?"] * (len(held) - len(known))


def _players(s, viewer: int | None) -> list:
    """One block per player: VP, RP, supply, intrigue hand (as the viewer sees it), every history card owned."""
    r = s[0]
    mover = int(kernel.to_move(s))
    shapes: list = []
    texts: list = [Text(*_side(0, BLOCK_TOP), "Players  (* = used this action phase)", 12, weight="bold")]
    for p in range(int(r["num_players"])):
        top = BLOCK_TOP - 22 - BLOCK_H * p
        if p == mover:
            shapes.append(Rect(*_side(-4, top + 12), 695, BLOCK_H - 4, fill="#fff3b0"))
        shapes.append(Rect(*_side(0, top + 7), 14, 14, fill=PLAYER_COLOURS[p], stroke="black", width=0.7))
        head = (
            f"player_{p}{' (to move)' if p == mover else ''}   VP {int(r['vp'][p])}   RP {int(r['rp'][p])}"
            f"   supply {int(r['supply'][p])}   cities {int((r['city_owner'] == p).sum())}"
        )
        texts.append(Text(*_side(20, top), head, 10.5, weight="bold"))
        cards = ", ".join(_card_label(r, c) for c in np.flatnonzero(r["card_owner"] == p)) or "-"
        hand = _hand(r, p, viewer)
        text = textwrap.fill(f"cards: {cards}", 110, subsequent_indent="  ")
        text += "\n" + textwrap.fill(f"intrigue ({len(hand)}): {', '.join(hand) or '-'}", 110, subsequent_indent="  ")
        texts.append(Text(*_side(20, top - 12), text, 8, va="top", id=f"player:{p}"))
    return shapes + texts


def _pile(r, viewer: int | None) -> str:
    """The intrigue pile: its size; for a seat also any pile card it knows the place of."""
    text = f"intrigue pile {int(r['pile_n'])} cards"
    if viewer is not None and viewer >= 0:
        pile = r["pile"][: int(r["pile_n"])]
        known = [INTRIGUE_NAMES[int(j)] for j in pile if (int(r["intr_known"][j]) >> viewer) & 1]
        if known:
            text += f" (you know it holds {', '.join(known)})"
    return text


def _pending_lines(s) -> list[str]:
    """The auction or the action being resolved, or the result."""
    r = s[0]
    n = int(r["num_players"])
    ph = int(r["phase"])
    if ph == PH_GAME_OVER:
        share = np.zeros(kernel.MAX_PLAYERS, np.float64)
        kernel.returns(s, share)  # FR-GEN-1/2: most VP, ties broken by RP
        win = ", ".join(f"player_{p} ({int(r['vp'][p])} VP, {int(r['rp'][p])} RP)" for p in range(n) if share[p] > 0)
        return [f"game over: {win} {'wins' if share.max() == 1 else 'share the win'}"]
    if ph == PH_AUCTION and int(r["auc_card"]) >= 0:
        hb = int(r["auc_high_bidder"])
        high = f"{int(r['auc_high'])} RP by player_{hb}" if hb >= 0 else "no bid yet"
        out = ", ".join(f"player_{p}" for p in range(n) if r["auc_passed"][p])
        return [
            f"auction of {CARD_NAMES[int(r['auc_card'])]}: high bid {high}",
            f"passed: {out or '-'};  player_{int(r['auc_bidder'])} to bid or pass",
        ]
    passed = ", ".join(f"player_{p}" for p in range(n) if r["act_passed"][p])
    return [f"action phase: player_{int(r['act_player'])} to act; passed: {passed or '-'}", *resolution_lines(r)]


def _pending(s, viewer: int | None) -> list[Text]:
    """The pending decision, the last unit draw, the intrigue pile and the deck."""
    r = s[0]
    lines = _pending_lines(s)
    if int(r["last_draw"]):
        outcome = "success" if r["last_success"] else "failed"
        lines.append(f"last unit drawn: strength {int(r['last_draw'])} ({outcome})")
    left = max(int(DECK_START[min(int(r["turn"]) + 1, N_TURNS)] - r["deck_pos"]), 0) if r["turn"] < N_TURNS else 0
    lines.append(f"{_pile(r, viewer)}; history cards left in this turn's deck {left}")
    out = [Text(*_side(0, PENDING_TOP), "Pending decision", 12, weight="bold")]
    pitch = 1.4 * 9.5 * PT
    y = HEIGHT - PENDING_TOP + 16 + 9.5 * PT / 2
    return out + [Text(SIDE_X, y + pitch * i, line, 9.5, id=f"pending:{i}") for i, line in enumerate(lines)]
