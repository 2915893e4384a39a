"""Irish Gauge as a picture: the hex map of Ireland with each company's locomotives and the cubes, plus
the players, companies, bag and drawn-cube track.

``render_rgb(s)`` draws the full state record, the same privileged view as ``render_ansi`` (Irish
Gauge keeps nothing secret except the bag order, which the record does not fix either). Hex centres
come from ``kernels/irish_gauge/data/layout.json``. The map and every fixed label are drawn once per
process into a cached background; each frame draws only the pieces and numbers on top.
"""

from __future__ import annotations

import functools

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.patches import Rectangle

from ...kernels import irish_gauge as kernel
from ...kernels.irish_gauge.state import (
    PH_AUCTION,
    PH_BUILD,
    PH_GAME_OVER,
    PH_INITIAL_AUCTION,
    PHASE_NAMES,
    RULESETS,
)
from ...kernels.irish_gauge.tables import (
    COLOUR_NAMES,
    COMPANY_IDS,
    COMPONENTS,
    HEX_IDS,
    HEX_NAMES,
    HOME_HEX,
    LOCOMOTIVES,
    N_CERTS,
    N_COMPANIES,
    SHARE_VALUE,
    TERRAIN,
    TERRAIN_NAMES,
    TRACK_ROWS,
)
from ._canvas import Frame, TextAxes, new_figure, to_rgb
from ._panels import layout, mover_label, panel_axes, title_bar

LAYOUT = layout(kernel)
HEX_XY = np.array([LAYOUT["hexes"][h] for h in HEX_IDS], dtype=float)  # [hex, (x, y)], north up

# Company colours follow the printed components (components.json "colour").
_NAMED = {"yellow": "#f2d024", "purple": "#7b3fa0", "orange": "#f07f13", "light_blue": "#6ec6f0", "red": "#d62728"}
_COMPANIES = sorted(COMPONENTS["companies"], key=lambda c: c["index"])
COMPANY_COLOURS = tuple(_NAMED[c["colour"]] for c in _COMPANIES)
COMPANY_NAMES = tuple(c["name"] for c in _COMPANIES)
CUBE_RGB = tuple({"black": "#202020", "pink": "#ff8cc6", "white": "#ffffff"}[c] for c in COLOUR_NAMES)
TERRAIN_COLOURS = {
    "easy": "#d5ebb5",
    "difficult": "#93b27a",
    "town": "#f6efcf",
    "city": "#f5d99a",
    "major_city": "#f2bd62",
}
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
SEA = "#dbe9f6"
MONO = {"family": "monospace", "fontsize": 10, "va": "center"}

# Each company's locomotive has its own slot on the lower arc of the hex (the label sits on top, the cube
# in the middle), so hexes shared by several companies stay readable.
_ANG = np.deg2rad(190 + 40 * np.arange(N_COMPANIES))
LOCO_OFFSET = 0.6 * np.stack([np.cos(_ANG), np.sin(_ANG)], axis=1)
_HEX_CORNERS = np.stack([np.cos(np.deg2rad(60 * np.arange(6))), np.sin(np.deg2rad(60 * np.arange(6)))], axis=1)

# Side panel geometry, in side-axes units (~ pixels): section tops and row pitch.
PLAYERS_TOP, COMPANIES_TOP, BAG_TOP, PENDING_TOP, ROW = 730, 535, 320, 95, 26
TRACK_X = 330


def render_rgb(s: np.ndarray) -> np.ndarray:
    """uint8[800, 1280, 3]: the map on the left, the tables on the right (privileged full view)."""
    r = s[0]
    frame, markers, side = _frame()
    with frame:
        _title(frame, s)
        _units(markers, r)
        _players_rows(side, s)
        _companies_rows(side, r)
        _bag_and_track(side, r)
        _pending(side, s)
        return frame.finish(_background())


@functools.lru_cache(maxsize=1)
def _frame() -> tuple[Frame, tuple, TextAxes]:
    """The figure each frame draws its pieces and numbers in (kept for the process)."""
    frame = Frame()
    cubes, locos = markers = _unit_markers(_board_axes(frame))
    frame.kept.extend([cubes, *locos])
    return frame, markers, _side_axes(frame)


@functools.lru_cache(maxsize=1)
def _background() -> np.ndarray:
    """The board and every fixed label (computed once per process; a plain array, safe to fork)."""
    fig = new_figure()
    board = _board_axes(fig)
    _board(board)
    _homes(board)
    _static_labels(_side_axes(fig))
    return to_rgb(fig)


_BOARD = (
    (0.005, 0.005, 0.40, 0.92),
    (HEX_XY[:, 0].min() - 1.2, HEX_XY[:, 0].max() + 1.2),
    (HEX_XY[:, 1].min() - 1.2, HEX_XY[:, 1].max() + 1.2),
    "equal",
)
_SIDE = ((0.42, 0.0, 0.575, 0.925), (0, 736), (0, 740), None)


def _board_axes(fig):
    """The map axes, in a plain figure (the cached background) or a ``Frame``."""
    return panel_axes(fig, *_BOARD)


def _side_axes(fig):
    return panel_axes(fig, *_SIDE)


def _title(frame, s) -> None:
    r = s[0]
    title_bar(
        frame,
        f"Irish Gauge  -  {PHASE_NAMES[int(r['phase'])]}  -  turn {int(r['turn'])}  -  "
        f"{mover_label(kernel, s, 'drawing cubes')}",
        f"ruleset {RULESETS[int(r['ruleset'])]}, {int(r['decisions'])} decisions (full view)",
    )


def _board(ax) -> None:
    """Sea, land hexes coloured by terrain, hex ids and place names."""
    ax.add_patch(Rectangle((0, 0), 1, 1, transform=ax.transAxes, facecolor=SEA, edgecolor="none", zorder=0))
    polys = HEX_XY[:, None, :] + 0.98 * _HEX_CORNERS[None, :, :]
    faces = [TERRAIN_COLOURS[TERRAIN_NAMES[t]] for t in TERRAIN]
    ax.add_collection(PolyCollection(polys, facecolors=faces, edgecolors="#7a8a70", linewidths=0.5))
    for h, (x, y) in enumerate(HEX_XY):  # place name (with its id) or just the id, at the top of the hex
        if HEX_NAMES[h]:
            ax.text(x, y + 0.5, f"{HEX_NAMES[h]}\n", fontsize=6.5, ha="center", va="center", weight="bold")
            ax.text(x, y + 0.5, f"\n{HEX_IDS[h]}", fontsize=5, ha="center", va="center", color="#5b6655")
        else:
            ax.text(x, y + 0.6, HEX_IDS[h], fontsize=5, ha="center", va="center", color="#5b6655")
    for k, (name, colour) in enumerate(TERRAIN_COLOURS.items()):  # legend in the empty sea off Mayo
        y = 0.97 - 0.03 * k
        ax.add_patch(
            Rectangle((0.02, y - 0.011), 0.03, 0.022, transform=ax.transAxes, facecolor=colour, edgecolor="#7a8a70")
        )
        ax.text(0.06, y, name.replace("_", " "), transform=ax.transAxes, fontsize=7.5, va="center")


def _unit_markers(ax) -> tuple:
    """The cube squares and one locomotive collection per company (made once; ``_units`` moves them)."""
    none = np.empty((0, 2))
    cubes = ax.scatter(none[:, 0], none[:, 1], s=70, marker="s", zorder=3, edgecolors="#444444", linewidths=0.8)
    locos = [
        ax.scatter(none[:, 0], none[:, 1], s=38, color=COMPANY_COLOURS[c], edgecolors="black", linewidths=0.6, zorder=4)
        for c in range(N_COMPANIES)
    ]
    return cubes, locos


def _homes(ax) -> None:
    """Each company's home: a ring on its locomotive slot (on the cached background; the rings are wider
    than a locomotive disc, so drawing them under the discs changes no pixel)."""
    home = HEX_XY[HOME_HEX] + LOCO_OFFSET
    ax.scatter(home[:, 0], home[:, 1], s=95, facecolors="none", edgecolors=COMPANY_COLOURS, linewidths=1.4, zorder=4)


def _units(markers, r) -> None:
    """Cubes in the hex centres; one locomotive disc per company on a ring around them."""
    cubes, locos = markers
    held = np.flatnonzero(r["cube"] >= 0)
    cubes.set_offsets(np.stack([HEX_XY[held, 0], HEX_XY[held, 1] - 0.05], axis=1))
    cubes.set_facecolor([CUBE_RGB[int(r["cube"][h])] for h in held])
    for c in range(N_COMPANIES):
        locos[c].set_offsets(HEX_XY[np.flatnonzero(r["loco"][c])] + LOCO_OFFSET[c])


def _player_cells(name, cash, worth, held, pay) -> str:
    return f"{name:<16}{cash:>6}{worth:>7}" + "".join(f"{h:>6}" for h in held) + f"{pay:>10}"


def _company_cells(price, left, on_map, supply, income) -> str:
    return f"{price:>8}{left:>8}{on_map:>8}{supply:>8}{income:>8}"


def _static_labels(ax) -> None:
    """Section titles, column heads, company names (the colour legend), cube colours, empty track slots."""
    ax.text(0, PLAYERS_TOP, "Players", fontsize=12, weight="bold", va="center")
    ax.text(
        0, PLAYERS_TOP - ROW, _player_cells("seat", "cash", "worth", COMPANY_IDS, "last pay"), weight="bold", **MONO
    )
    ax.text(0, COMPANIES_TOP, "Companies", fontsize=12, weight="bold", va="center")
    ax.text(
        390, COMPANIES_TOP - ROW, _company_cells("next £", "left", "on map", "supply", "income"), weight="bold", **MONO
    )
    for c in range(N_COMPANIES):
        y = COMPANIES_TOP - 2 * ROW - ROW * c
        ax.scatter([7], [y], s=90, color=COMPANY_COLOURS[c], edgecolors="black", linewidths=0.6)
        ax.text(20, y, f"{COMPANY_IDS[c]:<5}{COMPANY_NAMES[c]}", fontsize=8.5, va="center")
    ax.text(
        0,
        COMPANIES_TOP - 2 * ROW - ROW * N_COMPANIES,
        "map: disc = locomotive, ringed disc = home, square = dividend cube",
        fontsize=8.5,
        va="center",
        color="#444444",
    )
    ax.text(0, BAG_TOP, "Cube bag", fontsize=12, weight="bold", va="center")
    for k in range(len(COLOUR_NAMES)):
        ax.add_patch(Rectangle((0, BAG_TOP - 30 - ROW * k - 8), 16, 16, facecolor=CUBE_RGB[k], edgecolor="black"))
    ax.text(TRACK_X, BAG_TOP, "Drawn-cube track", fontsize=12, weight="bold", va="center")
    for row in range(TRACK_ROWS):
        for j in range(3):
            ax.add_patch(
                Rectangle(
                    (TRACK_X + 40 * row, BAG_TOP - 55 - 40 * j),
                    30,
                    30,
                    facecolor="none",
                    edgecolor="#999999",
                    linewidth=0.8,
                    linestyle=":",
                )
            )
        ax.text(
            TRACK_X + 15 + 40 * row, BAG_TOP - 168, str(row + 1), fontsize=8, ha="center", va="center", color="#666666"
        )
    ax.text(0, PENDING_TOP, "Pending decision", fontsize=12, weight="bold", va="center")


def _players_rows(ax, s) -> None:
    """Seat rows: cash, worth (IG-SCORE-1), certificates held per company, last dividend payout."""
    r = s[0]
    worth = np.zeros(kernel.MAX_PLAYERS, np.int64)
    kernel.scores(s, worth)
    mover = int(kernel.to_move(s))
    for p in range(int(r["num_players"])):
        y = PLAYERS_TOP - 2 * ROW - ROW * p
        if p == mover:
            ax.add_patch(Rectangle((-4, y - 12), 700, 24, facecolor="#fff3b0", edgecolor="none", zorder=0))
        ax.add_patch(Rectangle((0, y - 7), 14, 14, facecolor=PLAYER_COLOURS[p], edgecolor="black", linewidth=0.7))
        name = f"  player_{p}" + (" <" if p == mover else "")
        held = [str(int(r["held"][p, c]) or "-") for c in range(N_COMPANIES)]
        ax.text(
            0,
            y,
            _player_cells(name, f"£{int(r['cash'][p])}", f"£{int(worth[p])}", held, f"£{int(r['last_payout'][p])}"),
            **MONO,
        )


def _companies_rows(ax, r) -> None:
    """Company rows: next share price, shares left, locomotives on the map and in supply, last income."""
    for c in range(N_COMPANIES):
        left = int(N_CERTS[c] - r["next_cert"][c])
        price = f"£{int(SHARE_VALUE[c, r['next_cert'][c]])}" if left else "sold"
        ax.text(
            390,
            COMPANIES_TOP - 2 * ROW - ROW * c,
            _company_cells(
                price,
                f"{left}/{int(N_CERTS[c])}",
                int(r["loco"][c].sum()),
                f"{int(r['supply'][c])}/{LOCOMOTIVES}",
                f"£{int(r['last_income'][c])}",
            ),
            **MONO,
        )


def _bag_and_track(ax, r) -> None:
    """Bag contents per colour and the drawn-cube track (IG-DIV-2), one column per row of the track."""
    for k, name in enumerate(COLOUR_NAMES):
        ax.text(
            24,
            BAG_TOP - 30 - ROW * k,
            f"{name:<6}{int(r['bag'][k]):>3} in bag, last call drew {int(r['last_draw'][k])}",
            **MONO,
        )
    ax.text(TRACK_X + 175, BAG_TOP, f"{int(r['drawn_rows'])}/{TRACK_ROWS} rows used", fontsize=10, va="center")
    for row in range(int(r["drawn_rows"])):
        for j in range(3):
            k = int(r["drawn"][row, j])
            if k >= 0:
                ax.add_patch(
                    Rectangle(
                        (TRACK_X + 40 * row, BAG_TOP - 55 - 40 * j),
                        30,
                        30,
                        facecolor=CUBE_RGB[k],
                        edgecolor="black",
                        linewidth=0.8,
                    )
                )


def _pending(ax, s) -> None:
    """The open auction or build action, or the result once the game is over."""
    r = s[0]
    phase = int(r["phase"])
    n = int(r["num_players"])
    if phase in (PH_AUCTION, PH_INITIAL_AUCTION) and int(r["auc_company"]) >= 0:
        bidder = int(r["auc_high_bidder"])
        high = f"£{int(r['auc_high_bid'])} by player_{bidder}" if bidder >= 0 else "no bid yet"
        out = ", ".join(f"player_{p}" for p in range(n) if r["auc_passed"][p])
        lines = [
            f"auction of {COMPANY_IDS[int(r['auc_company'])]} (opened by player_{int(r['auc_opener'])}): "
            f"high bid {high}",
            f"passed: {out or '-'};  player_{int(r['auc_bidder'])} to bid or pass",
        ]
    elif phase == PH_BUILD and int(r["bld_company"]) >= 0:
        lines = [
            f"player_{int(r['active'])} builds for {COMPANY_IDS[int(r['bld_company'])]}: "
            f"{int(r['bld_budget']) / 2:g} BP left, {int(r['bld_placed'])} locomotive(s) placed"
        ]
    elif phase == PH_GAME_OVER:
        worth = np.zeros(kernel.MAX_PLAYERS, np.int64)
        kernel.scores(s, worth)
        best = int(worth[:n].max())
        winners = ", ".join(f"player_{p}" for p in range(n) if worth[p] == best)
        lines = [f"game over: {winners} {'wins' if ',' not in winners else 'tie'} with £{best} (IG-SCORE-1)"]
    else:
        lines = [f"{PHASE_NAMES[phase].lower().replace('_', ' ')}; start player player_{int(r['start_player'])}"]
    for i, line in enumerate(lines):
        ax.text(0, PENDING_TOP - ROW - 22 * i, line, fontsize=10, va="center")
