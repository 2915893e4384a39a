"""French Revolution 1789 as a picture: France's cities at approximate real positions with each city's
army unit and support marker, the regime track with its votes, the turn track and unit cups, and each
player's points, supply, intrigue hand and persons.

``render_rgb(s)`` is the PRIVILEGED view of the full record: like ``render_ansi`` it names every
intrigue card in every hand, which the other players cannot see at the table. Use it for debugging and
replays, never as an agent's input. City positions and the outline of France come from
``kernels/french_revolution_1789/data/layout.json``. The map and fixed labels are drawn once per
process into a cached background; each frame draws only the pieces on top.
"""

from __future__ import annotations

import functools
import textwrap

import numpy as np
from matplotlib.patches import Polygon, Rectangle

from ...kernels import french_revolution_1789 as kernel
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
    N_REGIMES,
    N_TURNS,
    REGIME_ABBR,
    TABLES,
    TURN_LABELS,
)
from ._canvas import Frame, TextAxes, new_figure, to_rgb
from ._panels import layout, mover_label, panel_axes, title_bar

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

# Right panel: player blocks, then the pending decision; bottom-left panel: regime and turn tracks.
BLOCK_TOP, BLOCK_H, PENDING_TOP = 735, 106, 150
REGIME_W, REGIME_Y, TURN_Y = 80, 118, 40


def render_rgb(s: np.ndarray) -> np.ndarray:
    """uint8[800, 1280, 3]: map top-left, tracks bottom-left, players and pending decision on the right."""
    r = s[0]
    frame, board, tracks, side = _frame()
    with frame:
        _title(frame, s)
        _pieces(board, r)
        _tracks(tracks, r)
        _players(side, s)
        _pending(side, s)
        return frame.finish(_background())


@functools.lru_cache(maxsize=1)
def _frame() -> tuple[Frame, TextAxes, TextAxes, TextAxes]:
    """The figure each frame draws its pieces and numbers in (kept for the process)."""
    frame = Frame()
    return frame, _map_axes(frame), _track_axes(frame), _side_axes(frame)


@functools.lru_cache(maxsize=1)
def _background() -> np.ndarray:
    """Map, city names and values, track boxes, legend (once per process; a plain array, safe to fork)."""
    fig = new_figure()
    _map(_map_axes(fig))
    _track_labels(_track_axes(fig))
    return to_rgb(fig)


def _map_axes(fig):
    return panel_axes(fig, (0.005, 0.245, 0.445, 0.68), (-5.2 * _COS, 10.2 * _COS), (41.15, 51.45), "equal")


def _track_axes(fig):
    return panel_axes(fig, (0.0, 0.0, 0.45, 0.24), (0, 576), (0, 192))


def _side_axes(fig):
    return panel_axes(fig, (0.46, 0.0, 0.54, 0.925), (0, 691), (0, 740))


def _title(frame, s) -> None:
    r = s[0]
    turn = TURN_LABELS[min(int(r["turn"]), N_TURNS - 1)]
    title_bar(
        frame,
        f"French Revolution 1789  -  turn {turn}  -  {PHASE_NAMES[int(r['phase'])]}  -  "
        f"{mover_label(kernel, s, 'drawing')}",
        f"regime: {REGIME_NAMES[int(r['regime'])]}; start player_{int(r['start_player'])}; "
        f"{int(r['decisions'])} decisions\nprivileged view (intrigue hands shown)",
    )


def _map(ax) -> None:
    """Sea, France, cities with RP / VP and which foreign armies may enter (C coalition, R royalist)."""
    ax.add_patch(Rectangle((0, 0), 1, 1, transform=ax.transAxes, facecolor=SEA, edgecolor="none", zorder=0))
    for outline in LAYOUT["outlines"].values():
        ax.add_patch(Polygon(_project(outline), closed=True, facecolor=LAND, edgecolor="#8a7f66", linewidth=1.0))
    ax.scatter(CITY_XY[:, 0], CITY_XY[:, 1], s=30, color="black", zorder=2)
    for c, cid in enumerate(CITY_IDS):
        x, y = CITY_XY[c]
        elig = ("C" if CITY_ELIG[c] & 2 else "") + ("R" if CITY_ELIG[c] & 4 else "")
        name_y = y - 0.4 if cid in LABEL_BELOW else y + 0.62  # the values line sits under the name
        ax.text(x, name_y, CITY_NAMES[c], fontsize=9, ha="center", va="center", weight="bold")
        ax.text(
            x,
            name_y - 0.25,
            f"{int(CITY_RP[c])} RP  {int(CITY_VP[c])} VP" + (f"  {elig}" if elig else ""),
            fontsize=7,
            ha="center",
            va="center",
            color="#555555",
        )
    legend = [("army unit (strength): French", ARMY_FACE[0]), ("coalition", ARMY_FACE[1]), ("royalist", ARMY_FACE[2])]
    for k, (label, face) in enumerate(legend):
        y = 0.975 - 0.035 * k
        ax.add_patch(
            Rectangle(
                (0.02, y - 0.012),
                0.025,
                0.024,
                transform=ax.transAxes,
                facecolor=face,
                edgecolor="black",
                linewidth=0.6,
            )
        )
        ax.text(0.055, y, label, transform=ax.transAxes, fontsize=7.5, va="center")
    ax.text(
        0.02,
        0.87,
        "disc = support marker (player colour)\nC / R: coalition / royalist may enter",
        transform=ax.transAxes,
        fontsize=7.5,
        va="top",
    )


def _pieces(ax, r) -> None:
    """Each city's army unit (square with its strength) and support marker (disc in the player's colour)."""
    unit_xy = CITY_XY + UNIT_OFFSET
    faces = [ARMY_FACE[int(a)] for a in r["city_army"]]
    ax.scatter(unit_xy[:, 0], unit_xy[:, 1], s=150, marker="s", c=faces, edgecolors="black", linewidths=0.7, zorder=3)
    for c in range(len(CITY_IDS)):
        if r["city_str"][c] > 0:
            ax.text(
                unit_xy[c, 0],
                unit_xy[c, 1],
                str(int(r["city_str"][c])),
                fontsize=8,
                ha="center",
                va="center",
                color=ARMY_TEXT[int(r["city_army"][c])],
                weight="bold",
                zorder=4,
            )
    owned = np.flatnonzero(r["city_owner"] >= 0)
    support_xy = CITY_XY[owned] + SUPPORT_OFFSET[owned]
    ax.scatter(
        support_xy[:, 0],
        support_xy[:, 1],
        s=120,
        zorder=3,
        edgecolors="black",
        linewidths=0.8,
        c=[PLAYER_COLOURS[int(r["city_owner"][c])] for c in owned],
    )


def _track_labels(ax) -> None:
    """Regime boxes (abbreviation and name) and turn boxes."""
    ax.text(4, 176, "Regime track (votes on each box)", fontsize=11, weight="bold", va="center")
    for g in range(N_REGIMES):
        x = 4 + g * REGIME_W
        ax.add_patch(Rectangle((x, REGIME_Y - 30), REGIME_W - 6, 62, facecolor="#f4f1ea", edgecolor="#888888"))
        ax.text(
            x + (REGIME_W - 6) / 2, REGIME_Y + 20, REGIME_ABBR[g], fontsize=10, weight="bold", ha="center", va="center"
        )
        name = "\n".join(textwrap.wrap(REGIME_NAMES[g], 14, break_long_words=False))
        ax.text(x + (REGIME_W - 6) / 2, REGIME_Y + 4, name, fontsize=6.5, ha="center", va="center", color="#444444")
    ax.text(4, TURN_Y + 20, "Turn", fontsize=10, weight="bold", va="center")
    for t in range(N_TURNS):
        ax.add_patch(Rectangle((50 + t * 34, TURN_Y + 8), 28, 24, facecolor="#f4f1ea", edgecolor="#888888"))
        ax.text(64 + t * 34, TURN_Y + 20, TURN_LABELS[t], fontsize=9, ha="center", va="center")
    ax.text(230, TURN_Y + 20, "Unit cups (units by strength 1/2/3/4)", fontsize=10, weight="bold", va="center")


def _tracks(ax, r) -> None:
    """Regime in force (gold frame), vote counts, current turn, cups' contents."""
    g = int(r["regime"])
    ax.add_patch(
        Rectangle(
            (4 + g * REGIME_W, REGIME_Y - 30), REGIME_W - 6, 62, facecolor="none", edgecolor="#d4a017", linewidth=3.5
        )
    )
    for k in np.flatnonzero(r["votes"]):
        ax.text(
            4 + k * REGIME_W + (REGIME_W - 6) / 2,
            REGIME_Y - 20,
            f"{int(r['votes'][k])} votes",
            fontsize=8.5,
            ha="center",
            va="center",
            color="#b00000",
            weight="bold",
        )
    t = min(int(r["turn"]), N_TURNS - 1)
    ax.add_patch(Rectangle((50 + t * 34, TURN_Y + 8), 28, 24, facecolor="none", edgecolor="#d4a017", linewidth=3))
    cups = "   ".join(f"{ARMY_NAMES[a]} " + "/".join(str(int(x)) for x in r["cup"][a][1:]) for a in range(3))
    ax.text(230, TURN_Y - 6, cups, fontsize=9, va="center", family="monospace")


def _card_label(r, c: int) -> str:
    st = int(r["card_status"][c])
    tag = {ST_IMPRISONED: " (prison)", ST_EXILED: " (exile)", ST_DEAD: " (dead)"}.get(st, "")
    return CARD_NAMES[c] + tag + ("*" if r["card_tilted"][c] else "")


def _players(ax, s) -> None:
    """One block per player: VP, RP, supply, intrigue hand, and every history card owned."""
    r = s[0]
    mover = int(kernel.to_move(s))
    ax.text(0, BLOCK_TOP, "Players  (* = used this action phase)", fontsize=12, weight="bold", va="center")
    for p in range(int(r["num_players"])):
        top = BLOCK_TOP - 22 - BLOCK_H * p
        if p == mover:
            ax.add_patch(Rectangle((-4, top - BLOCK_H + 16), 695, BLOCK_H - 4, facecolor="#fff3b0", edgecolor="none"))
        ax.add_patch(Rectangle((0, top - 7), 14, 14, facecolor=PLAYER_COLOURS[p], edgecolor="black", linewidth=0.7))
        hand = [INTRIGUE_NAMES[j] for j in np.flatnonzero(r["intr_loc"] == p)]
        ax.text(
            20,
            top,
            f"player_{p}{' (to move)' if p == mover else ''}   VP {int(r['vp'][p])}   RP {int(r['rp'][p])}"
            f"   supply {int(r['supply'][p])}   cities {int((r['city_owner'] == p).sum())}",
            fontsize=10.5,
            weight="bold",
            va="center",
        )
        cards = ", ".join(_card_label(r, c) for c in np.flatnonzero(r["card_owner"] == p)) or "-"
        text = textwrap.fill(f"cards: {cards}", 110, subsequent_indent="  ")
        text += "\n" + textwrap.fill(f"intrigue ({len(hand)}): {', '.join(hand) or '-'}", 110, subsequent_indent="  ")
        ax.text(20, top - 12, text, fontsize=8, va="top", linespacing=1.3)


def _pending(ax, s) -> None:
    """The auction or the action being resolved, the last unit draw, the intrigue pile and deck."""
    r = s[0]
    n = int(r["num_players"])
    ax.text(0, PENDING_TOP, "Pending decision", fontsize=12, weight="bold", va="center")
    ph = int(r["phase"])
    if ph == PH_GAME_OVER:
        share = np.zeros(kernel.MAX_PLAYERS, np.float64)
        kernel.returns(s, share)  # FR-GEN-1/2: most VP, ties broken by RP
        win = ", ".join(f"player_{p} ({int(r['vp'][p])} VP, {int(r['rp'][p])} RP)" for p in range(n) if share[p] > 0)
        lines = [f"game over: {win} {'wins' if share.max() == 1 else 'share the win'}"]
    elif ph == PH_AUCTION and int(r["auc_card"]) >= 0:
        hb = int(r["auc_high_bidder"])
        high = f"{int(r['auc_high'])} RP by player_{hb}" if hb >= 0 else "no bid yet"
        out = ", ".join(f"player_{p}" for p in range(n) if r["auc_passed"][p])
        lines = [
            f"auction of {CARD_NAMES[int(r['auc_card'])]}: high bid {high}",
            f"passed: {out or '-'};  player_{int(r['auc_bidder'])} to bid or pass",
        ]
    else:
        passed = ", ".join(f"player_{p}" for p in range(n) if r["act_passed"][p])
        lines = [f"action phase: player_{int(r['act_player'])} to act; passed: {passed or '-'}"]
        lines += resolution_lines(r)
    if int(r["last_draw"]):
        lines.append(
            f"last unit drawn: strength {int(r['last_draw'])} ({'success' if r['last_success'] else 'failed'})"
        )
    left = max(int(DECK_START[min(int(r["turn"]) + 1, N_TURNS)] - r["deck_pos"]), 0) if r["turn"] < N_TURNS else 0
    lines.append(f"intrigue pile {int(r['pile_n'])} cards; history cards left in this turn's deck {left}")
    ax.text(0, PENDING_TOP - 16, "\n".join(lines), fontsize=9.5, va="top", linespacing=1.4)
