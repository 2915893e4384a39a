"""Kremlin / "Magne!"'s scene: the posts ladder (chairman, seniors, juniors, members) with each post's gamer,
stress points, broke / suspicion / part-time markers and controlling faction; the civilians, other circles
and retired; the factions' speeches and the influence sheets; the pending decision.

The influence sheets are secret (KRM-INF-1, spec §7): ``scene(s, viewer)`` shows a seat its own sheet (declared
/ secret value per gamer) and of the others only what is declared, as the seat's text view does. The
PRIVILEGED view (``viewer=None``: every faction's SECRET sheet) says so on the picture; ``render_rgb(s)``
draws it, for debugging and replays, never as an agent's input (agents get ``observe``). Labels follow the
record's theme (Magne! or Kremlin); the ladder is drawn from the post levels in
``kernels/kremlin/data/posts.json``. In the browser a post is the place of SELECT_POST, a gamer (its part of
a post, or its chip) the place of SELECT_GAMER (``place_of``).
"""

from __future__ import annotations

import functools

import numpy as np
from matplotlib.colors import to_hex, to_rgb

from ...kernels import kremlin as kernel
from ...kernels.kremlin.actions import action_family
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
from ._canvas import HEIGHT, WIDTH, mono_grid
from ._panels import mover_label, title_texts
from .mpl import rasterize
from .scene import Builder, Circle, Layer, Rect, Scene, Text, privileged_note

PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
THEMES = ("magne_en", "kremlin_en")
BOX_FILL = "#f4f1ea"

# Ladder geometry (pixels, y up from the frame's bottom): one row per level, posts centred in a row.
BOX_W, BOX_H = 142, 86
LEVEL_Y = (668, 568, 468, 368)
LADDER_X = 398  # centre line of the ladder
LOC_ROWS = ((LOC_CIV, 272), (LOC_OTH, 222), (LOC_RET, 172))
CHIP_X, CHIP_ROW, CHIPS_PER_LINE, CHIP_W = 24, 20, 20, 34
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


POST_XY = _post_xy()  # pixels, y up from the frame's bottom
LEVEL_NAMES = ("chairman", "senior officers", "junior officers", "members")


def _xy(x: float, y: float) -> tuple[float, float]:
    """Pixels with y up from the frame's bottom to frame pixels (y down)."""
    return float(x), HEIGHT - float(y)


def _mix(colour: str, alpha: float, base: str = "white") -> str:
    """``colour`` laid over ``base`` at ``alpha`` (a tint)."""
    c, b = np.array(to_rgb(colour)), np.array(to_rgb(base))
    return to_hex(alpha * c + (1 - alpha) * b)


def place_of(action: int) -> str | None:
    """The post or gamer an action names (the browser's click target), else None."""
    family, args = action_family(int(action))
    if family == "SELECT_POST":
        return POST_IDS[args[0]]
    if family == "SELECT_GAMER":
        return GAMER_IDS[args[0]]
    return None


def render_rgb(s: np.ndarray) -> np.ndarray:
    """uint8[800, 1280, 3]: the privileged scene (every secret sheet) drawn by matplotlib."""
    return rasterize(scene(s))


def scene(s: np.ndarray, viewer: int | None = None) -> Scene:
    """The picture of record ``s`` as ``viewer`` may see it: a seat (its own secret sheet), ``SPECTATOR`` (no
    secret sheet) or None (privileged: every sheet)."""
    r = s[0]
    n = int(r["num_players"])
    if viewer is not None and viewer != -1 and not 0 <= viewer < n:
        raise ValueError(f"viewer must be None (privileged), -1 (spectator) or a seat 0..{n - 1}, got {viewer!r}")
    theme = THEMES[int(r["theme"])]
    out = Builder()
    out.add(*_title(s, theme, viewer))
    out.add(*_ladder(r, theme), *_locations(r), *_pending(s), *_players(s), *_sheets(r, viewer))
    return Scene(WIDTH, HEIGHT, "white", (_static(theme, n), out.layer()), out.items[0].text, viewer)


def _player_cells(seat, speeches, controls, declared) -> str:
    return f"{seat:<11}{speeches:>9}{controls:>10}{declared:>10}"


@functools.lru_cache(maxsize=1)
def _advance() -> float:
    """The width of one character of the sheet's monospace rows (pixels)."""
    return mono_grid(9, SHEET_ROW)[2]


def _cell_x(p: int) -> float:
    """Left edge of faction p's column in the sheet (monospace, so columns are exact)."""
    return TABLE_X + _advance() * (6 + CELL * p)


@functools.lru_cache(maxsize=16)
def _static(theme: str, n: int) -> Layer:
    """Post boxes (a post is its SELECT_POST place) and labels, level and location names, table heads."""
    out = Builder(key=f"kremlin-{theme}-{n}")
    for k in range(N_POSTS):
        x, y = _xy(*POST_XY[k])
        out.add(
            Rect(
                x - BOX_W / 2,
                y - BOX_H / 2,
                BOX_W,
                BOX_H,
                fill=BOX_FILL,
                stroke="#888888",
                id=f"post:{POST_IDS[k]}",
                place=POST_IDS[k],
            )
        )
        label = f"{POST_IDS[k]} {POST_LABELS[theme][k]}"
        out.add(Text(x - BOX_W / 2 + 5, y - BOX_H / 2 + 10, label, 7.5, "#333333", "bold"))
    for lv, name in enumerate(LEVEL_NAMES):
        out.add(Text(*_xy(4, LEVEL_Y[lv] + BOX_H / 2 + 7), name, 8.5, "#666666"))  # in the gap above the row
    for loc, y in LOC_ROWS:
        out.add(Text(*_xy(4, y + 10), LOCATION_LABELS[theme][loc].split(" (")[0], 10, weight="bold"))
    out.add(Text(*_xy(4, PENDING_Y + 26), "Pending decision", 12, weight="bold"))
    out.add(Text(*_xy(TABLE_X, PLAYERS_TOP + 22), "Factions", 12, weight="bold"))
    head = _player_cells("seat", "speeches", "controls", "declared")
    out.add(Text(*_xy(TABLE_X, PLAYERS_TOP), head, 9, weight="bold", mono=True))
    head = "gamer " + "".join(f"{'p' + str(p):>{CELL}}" for p in range(n))
    out.add(Text(*_xy(TABLE_X, SHEET_TOP + 12), head, 9, weight="bold", mono=True))
    for p in range(n):
        x, y = _xy(_cell_x(p + 1) - 2 * _advance(), SHEET_TOP + 6)
        out.add(Rect(x, y, 2 * _advance(), 4, fill=PLAYER_COLOURS[p]))
    return out.layer()


def _title(s, theme: str, viewer: int | None) -> list[Text]:
    r = s[0]
    phase = PHASE_NAMES[int(r["phase"])]
    if int(r["phase"]) == PH_WINDOW:
        phase += f" (before {CONT_NAMES[int(r['dw_cont'])]})"
    name = "Kremlin" if theme == "kremlin_en" else "Magne!"
    return title_texts(
        f"{name}  -  turn {int(r['turn'])}/{int(r['turn_limit'])}  -  {phase}  -  "
        f"{mover_label(kernel, s, 'd20 roll pending')}",
        f"start player_{int(r['start_player'])}, {int(r['decisions'])} decisions\n{privileged_note(viewer)}",
    )


def _markers(r, g: int) -> str:
    """Part-time (PT), suspicion (S with the turn it was placed), broke markers (red discs)."""
    marks = ["PT"] if r["part_time"][g] else []
    if r["susp_turn"][g]:
        marks.append(f"S{int(r['susp_turn'][g])}")
    marks.extend("●" * int(r["broke"][g]))
    return " ".join(marks)


def _post(r, k: int, theme: str) -> tuple[list, list]:
    """One post's shapes and texts: its gamer (SELECT_GAMER's place) tinted by the controlling faction,
    framed green when acting and red when targeted; experience, SP, age, controller and markers."""
    g = int(r["holder"][k])
    x, y = _xy(*POST_XY[k])
    left, top = x - BOX_W / 2, y - BOX_H / 2
    if g < 0:
        return [], [Text(x, y + 8, "(vacant)", 9, "#888888", style="italic", ha="center")]
    c = int(r["controller"][g])
    fill = _mix(PLAYER_COLOURS[c], 0.28, BOX_FILL) if c >= 0 else BOX_FILL
    shapes = [Rect(left, top + 20, BOX_W, BOX_H - 20, fill=fill, id=f"gamer:{GAMER_IDS[g]}", place=GAMER_IDS[g])]
    actor, target = int(r["actor"]), int(r["target"])
    edge = "#1a9e1a" if g == actor else "#e00000" if g == target else (PLAYER_COLOURS[c] if c >= 0 else None)
    if edge:
        shapes.append(Rect(left, top, BOX_W, BOX_H, stroke=edge, width=2.8 if g in (actor, target) else 1.6))
    age = int(EXPERIENCE[g]) + int(r["sp"][g])
    owner = f"player_{c}" if c >= 0 else "no faction"
    text = f"{GAMER_IDS[g]} {GAMER_LABELS[theme][g]}\nexp {int(EXPERIENCE[g])} SP {int(r['sp'][g])} age {age}\n{owner}"
    texts = [Text(left + 5, y + 10, text, 8)]
    marks = _markers(r, g)
    if marks:
        texts.append(Text(x + BOX_W / 2 - 6, top + BOX_H - 9, marks, 8.5, "#c00000", "bold", ha="right"))
    return shapes, texts


def _ladder(r, theme: str) -> list:
    shapes, texts = [], []
    for k in range(N_POSTS):
        a, b = _post(r, k, theme)
        shapes += a
        texts += b
    return shapes + texts


def _locations(r) -> list:
    """Gamers outside the posts as chips (SELECT_GAMER's place) tinted with their controlling faction's colour;
    red dots = broke."""
    chips, dots, texts = [], [], []
    for loc, y in LOC_ROWS:
        for i, g in enumerate(np.flatnonzero(r["loc"] == loc)):
            row, col = divmod(i, CHIPS_PER_LINE)
            cx, cy = _xy(CHIP_X + (CHIP_W + 4) * col, y - 10 - CHIP_ROW * row)
            c = int(r["controller"][g])
            fill = _mix(PLAYER_COLOURS[c] if c >= 0 else "#eeeeee", 0.45)
            chips.append(
                Rect(
                    cx,
                    cy - 8,
                    CHIP_W,
                    16,
                    fill=fill,
                    stroke="#555555",
                    width=0.6,
                    id=f"gamer:{GAMER_IDS[g]}",
                    place=GAMER_IDS[g],
                )
            )
            texts.append(Text(cx + CHIP_W / 2, cy, GAMER_IDS[g], 8, ha="center", mono=True))
            if loc != LOC_RET:
                dots += [
                    Circle(cx + CHIP_W - 3 - 5 * b, cy - 8, 2.4, fill="#c00000") for b in range(int(r["broke"][g]))
                ]
        if not np.any(r["loc"] == loc):
            texts.append(Text(*_xy(CHIP_X, y - 10), "-", 8, mono=True))
    return chips + dots + texts


def _result(r) -> str:
    """Who won and why (KRM-END-1..3)."""
    w = int(r["winner"])
    if w == WIN_DRAW:
        return "draw"
    if w == WIN_TRUNCATED:
        return "turn limit reached, no winner (KRM-END-3)"
    if int(r["speeches"][w]) >= SPEECHES_TO_WIN:
        return f"player_{w} wins: three speeches (KRM-END-1)"
    return f"player_{w} wins: a member post stayed vacant: the chairman's faction wins (KRM-END-2)"


def _pending(s) -> list[Text]:
    """Who decides what: the acting gamer and target, vote counts, the last d20, or the result."""
    r = s[0]
    ph = int(r["phase"])
    if ph == PH_GAME_OVER:
        lines = [_result(r)]
    else:
        parts = [f"phase {PHASE_NAMES[ph]}"]
        if ph == PH_CHANCE:
            rolls = {CH_EXPULSION: "expulsion roll", CH_FINANCE: "finance roll", CH_SPEECH: "speech roll"}
            parts.append(rolls.get(int(r["chance_kind"]), "d20"))
        if int(r["actor"]) >= 0:
            parts.append(f"acting gamer {GAMER_IDS[int(r['actor'])]} (green)")
        if int(r["target"]) >= 0:
            parts.append(f"target {GAMER_IDS[int(r['target'])]} (red)")
        lines = [
            ", ".join(parts),
            f"opposing votes {int(r['oppose_count'])}, nominations {int(r['nominations'])}, "
            f"window passes {int(r['dw_passes'])}, last d20 {int(r['last_roll']) or '-'}",
        ]
    return [Text(*_xy(4, PENDING_Y - 22 * i), line, 10, id=f"pending:{i}") for i, line in enumerate(lines)]


def _players(s) -> list:
    """Faction rows: successful speeches (three win), gamers controlled, influence declared."""
    r = s[0]
    n = int(r["num_players"])
    mover = int(kernel.to_move(s))
    out: list = []
    if 0 <= mover < n:
        out.append(Rect(*_xy(TABLE_X + 16, PLAYERS_TOP - 20 * (mover + 1) + 10), 454, 20, fill="#fff3b0"))
    for p in range(n):
        x, y = _xy(TABLE_X, PLAYERS_TOP - 20 * (p + 1))
        out.append(Rect(x, y - 6, 12, 12, fill=PLAYER_COLOURS[p], stroke="black", width=0.6))
        speeches = f"{int(r['speeches'][p])}/{SPEECHES_TO_WIN}"
        cells = _player_cells(f"  player_{p}", speeches, int((r["controller"] == p).sum()), int(r["declared"][p].sum()))
        out.append(Text(x, y, cells + ("  <" if p == mover else ""), 9, mono=True, id=f"faction:{p}"))
    return out


def _sheet_cell(r, p: int, g: int, viewer: int | None) -> str:
    """Faction p's declared / secret value on gamer g as ``viewer`` sees it (KRM-INF-1: the sheet is p's secret)."""
    d, a = int(r["declared"][p, g]), int(r["assigned"][p, g])
    if viewer is None or p == viewer:
        return f"{d}/{a}" if d or a else ""
    return f"{d}/?" if d else ""


def _sheets(r, viewer: int | None) -> list:
    """One row per gamer: each faction's declared / secret value as ``viewer`` sees it; the controller's cell
    tinted, retired gamers grey."""
    n = int(r["num_players"])
    head = "Influence: declared / SECRET sheet (grey: retired)"
    if viewer is not None:
        head = "Influence: declared / secret (own sheet only)"
    out: list = [Text(*_xy(TABLE_X, SHEET_TOP + 32), head, 11, weight="bold", id="sheets")]
    for g in range(N_GAMERS):
        c = int(r["controller"][g])
        if c >= 0:
            x, y = _xy(_cell_x(c) + _advance(), SHEET_TOP - SHEET_ROW * g - 1)
            out.append(Rect(x, y, _advance() * (CELL - 0.6), SHEET_ROW - 2, fill=_mix(PLAYER_COLOURS[c], 0.3)))
    for g in range(N_GAMERS):
        row = f"{GAMER_IDS[g]:<6}" + "".join(f"{_sheet_cell(r, p, g, viewer):>{CELL}}" for p in range(n))
        grey = "#999999" if r["loc"][g] == LOC_RET else "black"
        y = SHEET_TOP - SHEET_ROW * (g + 0.5)
        out.append(Text(*_xy(TABLE_X, y), row, 9, grey, mono=True, id=f"sheet:{GAMER_IDS[g]}"))
    return out
