"""Kremlin / "Magne!" as a picture: the posts ladder (chairman, seniors, juniors, members) with each
post's gamer, stress points, broke / suspicion / part-time markers and controlling faction; the
civilians, other circles and retired; the players' speeches and the influence sheets.

``render_rgb(s)`` is the PRIVILEGED view of the full record: next to every public declaration it
shows each faction's SECRET influence sheet (``assigned``), which no player sees at the table. Use it
for debugging and replays, never as an agent's input (agents get ``observe``). Labels follow the
record's theme (Magne! or Kremlin). No map layout is needed: the ladder is drawn from the post levels
in ``kernels/kremlin/data/posts.json``. Fixed labels are drawn once per process per theme into a
cached background; each frame draws only the pieces on top.
"""

from __future__ import annotations

import functools

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.patches import Rectangle

from ...kernels import kremlin as kernel
from ...kernels.kremlin.state import (
    CH_EXPULSION,
    CH_FINANCE,
    CH_SPEECH,
    CONT_NAMES,
    PH_CHANCE,
    PH_GAME_OVER,
    PH_WINDOW,
    PHASE_NAMES,
    WIN_DRAW,
    WIN_TRUNCATED,
)
from ...kernels.kremlin.tables import (
    EXPERIENCE,
    GAMER_IDS,
    GAMER_LABELS,
    LEVEL,
    LOC_CIV,
    LOC_OTH,
    LOC_RET,
    LOCATION_LABELS,
    N_GAMERS,
    N_POSTS,
    POST_IDS,
    POST_LABELS,
    SPEECHES_TO_WIN,
)
from ._canvas import Frame, TextAxes, mono_grid, new_figure, to_rgb
from ._panels import mover_label, panel_axes, title_bar

PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
THEMES = ("magne_en", "kremlin_en")
MONO = {"family": "monospace", "va": "center"}

# Ladder geometry (axes units ~ pixels of the left panel): one row per level, posts centred in a row.
BOX_W, BOX_H = 142, 86
LEVEL_Y = (668, 568, 468, 368)
LADDER_X = 398  # centre line of the ladder
LOC_ROWS = ((LOC_CIV, 272), (LOC_OTH, 222), (LOC_RET, 172))
CHIP_X, CHIP_ROW, CHIPS_PER_LINE = 24, 20, 20  # chips: 3-letter ids, 5 characters apart
PENDING_Y = 88
# Right panel: players then the influence sheets, one row per gamer.
TABLE_X, PLAYERS_TOP, SHEET_TOP, SHEET_ROW = 800, 718, 546, 18.9  # SHEET_TOP: top of the first gamer row
CELL = 7  # characters per faction column of the sheet


def _post_xy() -> np.ndarray:
    """Centre of each post's box: levels stacked top-down, posts of a level side by side."""
    xy = np.zeros((N_POSTS, 2))
    for lv in range(4):
        posts = np.flatnonzero(LEVEL == lv)
        for i, k in enumerate(posts):
            xy[k] = (LADDER_X + (i - (len(posts) - 1) / 2) * (BOX_W + 12), LEVEL_Y[lv])
    return xy


POST_XY = _post_xy()
LEVEL_NAMES = ("chairman", "senior officers", "junior officers", "members")


def render_rgb(s: np.ndarray) -> np.ndarray:
    """uint8[800, 1280, 3]: ladder and locations on the left, players and influence sheets on the right."""
    r = s[0]
    theme = THEMES[int(r["theme"])]
    frame, ax = _frame()
    with frame:
        _title(frame, s, theme)
        _ladder(ax, r, theme)
        _locations(ax, r)
        _pending(ax, s)
        _players(ax, s)
        _sheets(ax, r)
        return frame.finish(_background(theme, int(r["num_players"])))


@functools.lru_cache(maxsize=1)
def _frame() -> tuple[Frame, TextAxes]:
    """The figure each frame draws its pieces and numbers in (kept for the process)."""
    frame = Frame()
    return frame, _axes(frame)


@functools.lru_cache(maxsize=16)
def _background(theme: str, n: int) -> np.ndarray:
    """Post boxes and labels, location names, table heads (once per theme and player count)."""
    fig = new_figure()
    ax = _axes(fig)
    for k in range(N_POSTS):
        x, y = POST_XY[k]
        ax.add_patch(Rectangle((x - BOX_W / 2, y - BOX_H / 2), BOX_W, BOX_H, facecolor="#f4f1ea", edgecolor="#888888"))
        ax.text(
            x - BOX_W / 2 + 5,
            y + BOX_H / 2 - 10,
            f"{POST_IDS[k]} {POST_LABELS[theme][k]}",
            fontsize=7.5,
            weight="bold",
            va="center",
            color="#333333",
        )
    for lv, name in enumerate(LEVEL_NAMES):
        ax.text(4, LEVEL_Y[lv], name, fontsize=8.5, va="center", color="#666666", rotation=90, ha="center")
    for loc, y in LOC_ROWS:
        ax.text(4, y + 10, LOCATION_LABELS[theme][loc].split(" (")[0], fontsize=10, weight="bold", va="center")
    ax.text(4, PENDING_Y + 26, "Pending decision", fontsize=12, weight="bold", va="center")
    ax.text(TABLE_X, PLAYERS_TOP + 22, "Factions", fontsize=12, weight="bold", va="center")
    ax.text(
        TABLE_X,
        PLAYERS_TOP,
        _player_cells("seat", "speeches", "controls", "declared"),
        fontsize=9,
        weight="bold",
        **MONO,
    )
    ax.text(
        TABLE_X,
        SHEET_TOP + 32,
        "Influence: declared / SECRET sheet (grey: retired)",
        fontsize=11,
        weight="bold",
        va="center",
    )
    ax.text(
        TABLE_X,
        SHEET_TOP + 12,
        "gamer " + "".join(f"{'p' + str(p):>{CELL}}" for p in range(n)),
        fontsize=9,
        weight="bold",
        **MONO,
    )
    advance = mono_grid(9, SHEET_ROW)[2]
    for p in range(n):
        ax.add_patch(
            Rectangle((_cell_x(p + 1) - 2 * advance, SHEET_TOP + 2), 2 * advance, 4, facecolor=PLAYER_COLOURS[p])
        )
    return to_rgb(fig)


_AXES = (0.0, 0.0, 1.0, 0.925)


def _axes(fig):
    return panel_axes(fig, _AXES, (0, 1280), (0, 740))


def _title(frame, s, theme) -> None:
    r = s[0]
    phase = PHASE_NAMES[int(r["phase"])]
    if int(r["phase"]) == PH_WINDOW:
        phase += f" (before {CONT_NAMES[int(r['dw_cont'])]})"
    name = "Kremlin" if theme == "kremlin_en" else "Magne!"
    title_bar(
        frame,
        f"{name}  -  turn {int(r['turn'])}/{int(r['turn_limit'])}  -  {phase}  -  "
        f"{mover_label(kernel, s, 'd20 roll pending')}",
        f"start player_{int(r['start_player'])}, {int(r['decisions'])} decisions\n"
        "privileged view (secret sheets shown)",
    )


def _boxes(ax, boxes, faces, edges="none", lw=0.0, alpha=None) -> None:
    """Rectangles (x, y, w, h) as one collection: one artist draws much faster than many patches."""
    if not boxes:
        return
    b = np.asarray(boxes, dtype=float)
    x0, y0, x1, y1 = b[:, 0], b[:, 1], b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]
    verts = np.stack([np.stack(c, axis=1) for c in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))], axis=1)
    ax.add_collection(
        PolyCollection(verts, facecolors=faces, edgecolors=edges, linewidths=lw, alpha=alpha), autolim=False
    )


def _ladder(ax, r, theme) -> None:
    """Each post: its gamer, SP and age, markers; the box is tinted with the controlling faction's colour."""
    actor, target = int(r["actor"]), int(r["target"])
    tints, tint_faces, frames, frame_edges, frame_widths = [], [], [], [], []
    for k in range(N_POSTS):
        g = int(r["holder"][k])
        x, y = POST_XY[k]
        if g < 0:
            ax.text(x, y - 8, "(vacant)", fontsize=9, ha="center", va="center", color="#888888", style="italic")
            continue
        c = int(r["controller"][g])
        if c >= 0:
            tints.append((x - BOX_W / 2, y - BOX_H / 2, BOX_W, BOX_H - 20))
            tint_faces.append(PLAYER_COLOURS[c])
        edge = "#1a9e1a" if g == actor else "#e00000" if g == target else (PLAYER_COLOURS[c] if c >= 0 else None)
        if edge:
            frames.append((x - BOX_W / 2, y - BOX_H / 2, BOX_W, BOX_H))
            frame_edges.append(edge)
            frame_widths.append(2.8 if g in (actor, target) else 1.6)
        age = int(EXPERIENCE[g]) + int(r["sp"][g])
        owner = f"player_{c}" if c >= 0 else "no faction"
        ax.text(
            x - BOX_W / 2 + 5,
            y - 10,
            f"{GAMER_IDS[g]} {GAMER_LABELS[theme][g]}\nexp {int(EXPERIENCE[g])} "
            f"SP {int(r['sp'][g])} age {age}\n{owner}",
            fontsize=8,
            va="center",
            linespacing=1.35,
        )
        _markers(ax, r, g, x + BOX_W / 2 - 6, y - BOX_H / 2 + 9)
    _boxes(ax, tints, tint_faces, alpha=0.28)
    _boxes(ax, frames, "none", edges=frame_edges, lw=frame_widths)


def _markers(ax, r, g, x, y) -> None:
    """Broke markers (red discs), suspicion (S with the turn it was placed), part-time (PT), right-aligned."""
    marks = []
    if r["part_time"][g]:
        marks.append("PT")
    if r["susp_turn"][g]:
        marks.append(f"S{int(r['susp_turn'][g])}")
    marks.extend("●" * int(r["broke"][g]))
    if marks:
        ax.text(x, y, " ".join(marks), fontsize=8.5, ha="right", va="center", color="#c00000", weight="bold")


def _locations(ax, r) -> None:
    """Gamers outside the posts as chips tinted with their controlling faction's colour; red dots = broke."""
    spacing, first, advance = mono_grid(8, CHIP_ROW)
    chips, faces, dots = [], [], []
    for loc, y in LOC_ROWS:
        gamers = np.flatnonzero(r["loc"] == loc)
        lines = [gamers[i : i + CHIPS_PER_LINE] for i in range(0, len(gamers), CHIPS_PER_LINE)]
        text = "\n".join("  ".join(GAMER_IDS[g] for g in line) for line in lines)
        ax.text(CHIP_X, y, text or "-", family="monospace", fontsize=8, va="top", linespacing=spacing)
        for i, g in enumerate(gamers):
            row, col = divmod(i, CHIPS_PER_LINE)
            cx, cy = CHIP_X + 5 * advance * col - 3, y - first - CHIP_ROW * row
            c = int(r["controller"][g])
            chips.append((cx, cy - 8, 3 * advance + 6, 16))
            faces.append(PLAYER_COLOURS[c] if c >= 0 else "#eeeeee")
            if loc != LOC_RET:
                dots.extend((cx + 3 * advance + 3 - 5 * b, cy + 8) for b in range(int(r["broke"][g])))
    _boxes(ax, chips, faces, edges="#555555", lw=0.6, alpha=0.45)
    if dots:
        ax.scatter(*np.array(dots).T, s=12, color="#c00000", zorder=3)


def _pending(ax, s) -> None:
    """Who decides what: the acting gamer and target, vote counts, the last d20, or the result."""
    r = s[0]
    ph = int(r["phase"])
    lines = []
    if ph == PH_GAME_OVER:
        w = int(r["winner"])
        why = (
            (
                "three speeches (KRM-END-1)"
                if int(r["speeches"][w]) >= SPEECHES_TO_WIN
                else "a member post stayed vacant: the chairman's faction wins (KRM-END-2)"
            )
            if w >= 0
            else ""
        )
        lines.append(
            "draw"
            if w == WIN_DRAW
            else "turn limit reached, no winner (KRM-END-3)"
            if w == WIN_TRUNCATED
            else f"player_{w} wins: {why}"
        )
    else:
        parts = [f"phase {PHASE_NAMES[ph]}"]
        if ph == PH_CHANCE:
            parts.append(
                {CH_EXPULSION: "expulsion roll", CH_FINANCE: "finance roll", CH_SPEECH: "speech roll"}.get(
                    int(r["chance_kind"]), "d20"
                )
            )
        for key, label in (("actor", "acting gamer"), ("target", "target")):
            g = int(r[key])
            if g >= 0:
                parts.append(f"{label} {GAMER_IDS[g]} (green)" if key == "actor" else f"{label} {GAMER_IDS[g]} (red)")
        lines.append(", ".join(parts))
        lines.append(
            f"opposing votes {int(r['oppose_count'])}, nominations {int(r['nominations'])}, "
            f"window passes {int(r['dw_passes'])}, last d20 {int(r['last_roll']) or '-'}"
        )
    for i, line in enumerate(lines):
        ax.text(4, PENDING_Y - 22 * i, line, fontsize=10, va="center")


def _player_cells(seat, speeches, controls, declared) -> str:
    return f"{seat:<11}{speeches:>9}{controls:>10}{declared:>10}"


def _players(ax, s) -> None:
    """Faction rows: successful speeches (three win), gamers controlled, influence declared."""
    r = s[0]
    n = int(r["num_players"])
    mover = int(kernel.to_move(s))
    rows = [(TABLE_X, PLAYERS_TOP - 20 * (p + 1) - 6, 12, 12) for p in range(n)]
    _boxes(ax, rows, PLAYER_COLOURS[:n], edges="black", lw=0.6)
    if 0 <= mover < n:
        _boxes(ax, [(TABLE_X + 16, PLAYERS_TOP - 20 * (mover + 1) - 10, 454, 20)], "#fff3b0")
    for p in range(n):
        cells = _player_cells(
            f"  player_{p}",
            f"{int(r['speeches'][p])}/{SPEECHES_TO_WIN}",
            int((r["controller"] == p).sum()),
            int(r["declared"][p].sum()),
        )
        ax.text(TABLE_X, PLAYERS_TOP - 20 * (p + 1), cells + ("  <" if p == mover else ""), fontsize=9, **MONO)


def _cell_x(p: int) -> float:
    """Left edge of faction p's column in the sheet (monospace, so columns are exact)."""
    return TABLE_X + mono_grid(9, SHEET_ROW)[2] * (6 + CELL * p)


def _sheets(ax, r) -> None:
    """One row per gamer: each faction's declared / secret value; the controller's cell is tinted.

    One multi-line text per column (not per cell) keeps the frame fast.
    """
    n = int(r["num_players"])
    spacing, first, advance = mono_grid(9, SHEET_ROW)
    col = {"family": "monospace", "fontsize": 9, "va": "top", "linespacing": spacing}
    retired = r["loc"] == LOC_RET
    ax.text(TABLE_X, SHEET_TOP, "\n".join("" if retired[g] else GAMER_IDS[g] for g in range(N_GAMERS)), **col)
    ax.text(
        TABLE_X,
        SHEET_TOP,
        "\n".join(GAMER_IDS[g] if retired[g] else "" for g in range(N_GAMERS)),
        color="#999999",
        **col,
    )
    for p in range(n):
        d, a = r["declared"][p], r["assigned"][p]
        cells = [f"{int(d[g])}/{int(a[g])}" if d[g] or a[g] else "" for g in range(N_GAMERS)]
        ax.text(_cell_x(p + 1), SHEET_TOP, "\n".join(cells), ha="right", multialignment="right", **col)
    gamers = np.flatnonzero(r["controller"][:N_GAMERS] >= 0)
    tints = [
        (
            _cell_x(int(r["controller"][g])) + advance,
            SHEET_TOP - first - SHEET_ROW * g - SHEET_ROW / 2 + 1,
            advance * (CELL - 0.6),
            SHEET_ROW - 2,
        )
        for g in gamers
    ]
    _boxes(ax, tints, [PLAYER_COLOURS[int(r["controller"][g])] for g in gamers], alpha=0.3)
