"""The matplotlib back-end's plumbing: an off-screen figure of a fixed pixel size, its RGB pixels, text by Pillow."""

from __future__ import annotations

import functools
import threading

import numpy as np

# Every game renders to the same documented frame size, so frames of any game stack into one video.
WIDTH, HEIGHT, DPI = 1280, 800, 100


def new_figure(width: int = WIDTH, height: int = HEIGHT):
    """An Agg figure (no GUI backend, safe in worker processes and notebooks) of width x height pixels."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width / DPI, height / DPI), dpi=DPI)


def rgb_pixels(rgba: np.ndarray) -> np.ndarray:
    """A contiguous uint8[h, w, 3] copy of RGBA pixels, a channel at a time: ``rgba[:, :, :3].copy()``
    walks 3-byte runs and takes ~6x as long (40 ms of a 1280 x 800 frame)."""
    out = np.empty((*rgba.shape[:2], 3), np.uint8)
    for c in range(3):
        out[:, :, c] = rgba[:, :, c]
    return out


@functools.lru_cache(maxsize=64)
def mono_grid(fontsize: float, pitch: float, dpi: int = DPI) -> tuple[float, float, float]:
    """Metrics to lay a table out as a few multi-line monospace texts instead of one text per cell.

    Returns ``(linespacing, first, advance)`` for lines ``pitch`` pixels apart: pass ``linespacing``
    and ``va="top"`` to ``ax.text``; line i is then centred ``first + i * pitch`` pixels below the
    anchor, and each character is ``advance`` pixels wide. Measured once from matplotlib itself, so
    boxes drawn behind the cells line up with the glyphs.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(dpi=dpi)
    renderer = FigureCanvasAgg(fig).get_renderer()

    def height(lines: int, spacing: float) -> float:
        text = fig.text(0, 0, "\n".join(["0"] * lines), family="monospace", size=fontsize, linespacing=spacing)
        return text.get_window_extent(renderer).height

    spacing = pitch / (height(3, 1.0) - height(2, 1.0))
    first = height(1, spacing) / 2
    advance = fig.text(0, 0, "0" * 100, family="monospace", size=fontsize).get_window_extent(renderer).width / 100
    return spacing, first, advance


# --- fast frames: a persistent figure over cached pixels, text drawn with Pillow ----------------------------
#
# matplotlib lays out and rasterises every glyph of every Text afresh each draw, and building a Figure with
# its Axes is costly too (benchmarks/RENDER.md). A ``Frame`` keeps one figure (and its axes) alive, paints
# cached pixels (a scene's static layers) into its buffer, lets matplotlib draw only the shapes and draws the
# text with Pillow from cached glyph masks, in the same DejaVu fonts at the same sizes and anchor points.


@functools.lru_cache(maxsize=64)
def _font(family: str, weight: str, style: str, px: float):
    """(Pillow font, ascent, descent, line gap) for a matplotlib font spec at ``px`` pixels per em.

    The metrics are the ones matplotlib (3.11) spaces lines by: the font's OS/2 (else hhea) table."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font
    from PIL import ImageFont

    prop = font_manager.FontProperties(family=family, weight=weight, style=style)
    path = font_manager.findfont(prop)
    ft = FT2Font(path)
    scale = px / ft.get_sfnt_table("head")["unitsPerEm"]
    os2, hhea = ft.get_sfnt_table("OS/2"), ft.get_sfnt_table("hhea")
    if os2 is not None:
        asc, desc, gap = os2["sTypoAscender"], -os2["sTypoDescender"], os2["sTypoLineGap"]
    else:
        asc, desc, gap = hhea["ascent"], -hhea["descent"], hhea["lineGap"]
    # BASIC layout: hinted whole-pixel advances, as matplotlib's Agg text has (raqm's are wider)
    font = ImageFont.truetype(path, px, layout_engine=ImageFont.Layout.BASIC)
    return font, asc * scale, desc * scale, gap * scale


@functools.lru_cache(maxsize=4096)
def _glyph(font, char: str, stroke: int) -> tuple[np.ndarray, int, int, float, float, float]:
    """One character anchored at its left baseline: (coverage uint8[h, w], left, top, advance, ascent,
    descent), rasterised by Pillow (~0.2 ms a glyph, hence the cache)."""
    from PIL import Image, ImageDraw

    left, top, right, bottom = font.getbbox(char, anchor="ls", stroke_width=stroke)
    im = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
    ImageDraw.Draw(im).text((-left, -top), char, font=font, fill=255, anchor="ls", stroke_width=stroke)
    _, ink_top, _, ink_bottom = font.getbbox(char, anchor="ls") if stroke else (left, top, right, bottom)
    return np.asarray(im), left, top, font.getlength(char), float(-ink_top), float(max(ink_bottom, 0))


@functools.lru_cache(maxsize=8192)
def _mask(font, text: str, stroke: int) -> tuple[np.ndarray, int, int, float, float, float]:
    """``text`` anchored at its left baseline, in ``_glyph``'s format, laid out from cached glyphs.

    Pillow's BASIC layout advances by whole hinted pixels and the DejaVu faces have no legacy kerning,
    so glyph by glyph at the summed advances is the string Pillow draws; a label whose digits changed
    then costs a few array copies, not a fresh rasterisation (~9 ms for a 50-character line)."""
    if len(text) == 1:
        return _glyph(font, text, stroke)
    glyphs, pen, placed = [], 0.0, []
    for char in text:
        g = _glyph(font, char, stroke)
        glyphs.append(g)
        placed.append(round(pen))
        pen += g[3]
    left = min(x + g[1] for x, g in zip(placed, glyphs))
    top = min(g[2] for g in glyphs)
    right = max(x + g[1] + g[0].shape[1] for x, g in zip(placed, glyphs))
    bottom = max(g[2] + g[0].shape[0] for g in glyphs)
    cover = np.zeros((bottom - top, right - left), np.uint8)
    for x, (glyph, g_left, g_top, *_) in zip(placed, glyphs):
        h, w = glyph.shape
        y0, x0 = g_top - top, x + g_left - left
        window = cover[y0 : y0 + h, x0 : x0 + w]
        np.maximum(window, glyph, out=window)  # overlapping ink and halos: their union
    ascent = max(g[4] for g in glyphs)
    descent = max(g[5] for g in glyphs)
    return cover, left, top, pen, ascent, descent


@functools.lru_cache(maxsize=256)
def _rgba(colour) -> tuple[np.ndarray, float]:
    from matplotlib.colors import to_rgba

    r, g, b, a = to_rgba(colour)
    return np.array([round(255 * r), round(255 * g), round(255 * b)], np.uint16), a


_TEXT_KEYS = {
    "fontsize": "size",
    "horizontalalignment": "ha",
    "verticalalignment": "va",
    "fontweight": "weight",
    "fontstyle": "style",
    "fontfamily": "family",
    "c": "color",
    "ma": "multialignment",
}


class Frame:
    """A persistent figure whose shapes matplotlib draws over given pixels and whose text Pillow draws.

    ``axes(...)`` (at set-up) makes axes that keep their place; each time, ``with frame:`` (which takes the
    frame's lock and drops the previous drawing's artists), the caller adds shapes to the axes and text
    with ``add_pixel_text``, and ``finish(background)`` returns the pixels. Text lies above every shape.
    """

    def __init__(self, width: int = WIDTH, height: int = HEIGHT):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.fig = new_figure(width, height)
        self.fig.patch.set_visible(False)
        self.canvas = FigureCanvasAgg(self.fig)
        self.height = height
        self._texts: list[tuple[float, float, str, dict]] = []
        self._backgrounds: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._lock = threading.Lock()  # one figure per frame size: drawings from several threads take turns

    def __enter__(self) -> Frame:
        self._lock.acquire()
        self.begin()
        return self

    def __exit__(self, *exc) -> None:
        self._lock.release()

    def axes(self, rect, xlim, ylim):
        """Axes without ticks at ``rect`` (figure fractions) with fixed limits."""
        ax = self.fig.add_axes(rect)
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
        ax.set_axis_off()
        return ax

    def begin(self) -> None:
        """Forget the previous drawing's artists and text."""
        for ax in self.fig.axes:
            for artist in [*ax.collections, *ax.patches, *ax.lines, *ax.images, *ax.texts]:
                artist.remove()
        self._texts = []

    def add_pixel_text(self, px: float, py: float, s: str, kw: dict) -> None:
        """Text anchored at pixel (px, py) counted from the top left, in ``draw_text``'s keywords."""
        self._texts.append((px, py, str(s), kw))

    def finish(self, background: np.ndarray) -> np.ndarray:
        """The picture: ``background`` (uint8[h, w, 3]), the shapes, then the text."""
        renderer = self.canvas.get_renderer()
        buf = np.asarray(renderer.buffer_rgba())
        np.copyto(buf, self._opaque(background))  # a plain copy; filling RGB into RGBA strides is 50x slower
        self.fig.draw(renderer)
        rgb = rgb_pixels(buf)  # text is blended into contiguous pixels (the RGBA view's strides are slow)
        for px, py, s, kw in self._texts:
            draw_text(rgb, px, py, s, **kw)
        return rgb

    def _opaque(self, background: np.ndarray) -> np.ndarray:
        """``background`` as opaque RGBA, converted once per background array."""
        key = id(background)
        if key not in self._backgrounds:
            rgba = np.empty((*background.shape[:2], 4), np.uint8)
            rgba[:, :, :3] = background
            rgba[:, :, 3] = 255
            self._backgrounds[key] = (background, rgba)  # holding the array keeps its id unique
        return self._backgrounds[key][1]


def draw_text(out: np.ndarray, px: float, py: float, s: str, *, size=None, ha="left", va="baseline", **kw) -> None:
    """Draw ``s`` into ``out`` (uint8[h, w, 3]) the way ``ax.text`` places it, its anchor at pixel
    (px, py) counted from the top left: matplotlib's alignment, line spacing and "lp" line metrics,
    DejaVu glyphs by Pillow (masks cached per string, so repeated labels cost a copy)."""
    for long, short in _TEXT_KEYS.items():
        if long in kw:
            kw[short] = kw.pop(long)
    size = kw.pop("size", size)
    ha, va = kw.pop("ha", ha), kw.pop("va", va)
    from matplotlib import rcParams

    pt = rcParams["font.size"] if size is None else float(size)
    family = kw.pop("family", "sans-serif")
    family = family[0] if isinstance(family, (list, tuple)) else family
    font, asc, desc, gap = _font(family, str(kw.pop("weight", "normal")), kw.pop("style", "normal"), pt * DPI / 72)
    colour, alpha = _rgba(kw.pop("color", "black"))
    spacing = kw.pop("linespacing", None) or "normal"
    align = kw.pop("multialignment", ha)
    stroke = None
    for effect in kw.pop("path_effects", ()):  # withStroke: a halo of the given width (points) and colour
        stroke = (max(1, round(effect._gc.get("linewidth", 2) * DPI / 72 / 2)), effect._gc.get("foreground"))
    kw.pop("zorder", None)
    kw.pop("clip_on", None)
    if kw:
        raise TypeError(f"draw_text: unsupported text properties {sorted(kw)}")
    s = s.replace(r"\$", "$")  # matplotlib's escape for a literal dollar
    lines = s.split("\n")
    # matplotlib's Text._get_layout: each line is as high as its ink, widened to the font's ascent and
    # descent (linespacing "normal"), or centred in linespacing x (ascent + descent) (a number).
    ys, widths, y, d = [], [], 0.0, 0.0
    for line in lines:
        w, a, d = _mask(font, line, 0)[3:] if line else (0.0, 0.0, 0.0)
        if spacing == "normal":
            g = gap if len(lines) > 1 else 0.0
            a, d = max(a, asc) + g / 2, max(d, desc) + g / 2
        else:
            lead = float(spacing) * (asc + desc) - (a + d)
            a, d = a + lead / 2, d + lead / 2
        y += a
        ys.append(y)
        widths.append(w)
        y += d
    height, width = y, max(widths)
    top = {"top": py, "bottom": py - height, "center": py - height / 2}.get(va, py - (height - d))
    left = {"left": px, "center": px - width / 2, "right": px - width}[ha]
    for line, w, base in zip(lines, widths, ys):
        if not line.strip():
            continue
        x = left + {"left": 0, "center": (width - w) / 2, "right": width - w}[align]
        if stroke:
            _blend(out, _mask(font, line, stroke[0]), x, top + base, *_rgba(stroke[1]))
        _blend(out, _mask(font, line, 0), x, top + base, colour, alpha)


def _blend(out: np.ndarray, mask, x: float, y: float, colour: np.ndarray, alpha: float) -> None:
    cover, left, top = mask[:3]
    x0, y0 = round(x) + left, round(y) + top
    h, w = cover.shape
    ys, xs = max(0, -y0), max(0, -x0)
    ye, xe = min(h, out.shape[0] - y0), min(w, out.shape[1] - x0)
    if ye <= ys or xe <= xs:
        return
    a = cover[ys:ye, xs:xe, None].astype(np.uint16)
    if alpha < 1:
        a = (a * alpha).astype(np.uint16)
    region = out[y0 + ys : y0 + ye, x0 + xs : x0 + xe]
    region[...] = (region * (255 - a) + colour * a + 127) // 255
