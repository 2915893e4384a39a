"""Shared matplotlib plumbing: an off-screen figure of a fixed pixel size and its RGB pixels."""

from __future__ import annotations

import functools

import numpy as np

# Every game renders to the same documented frame size, so frames of any game stack into one video.
WIDTH, HEIGHT, DPI = 1280, 800, 100


def new_figure(width: int = WIDTH, height: int = HEIGHT):
    """An Agg figure (no GUI backend, safe in worker processes and notebooks) of width x height pixels."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width / DPI, height / DPI), dpi=DPI)


def to_rgb(fig) -> np.ndarray:
    """Draw ``fig`` and return its pixels as uint8[height, width, 3]."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[:, :, :3].copy()


def draw_over(background: np.ndarray, fig) -> np.ndarray:
    """Draw ``fig`` (a figure with a transparent face) and blend its pixels over ``background``.

    Renderers draw the parts of a board that never change once into ``background`` (uint8[h, w, 3],
    e.g. ``to_rgb`` of a figure built once per process) and only the pieces on top each frame: text is
    what makes a matplotlib frame slow, so a cached board with its labels keeps frames fast.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig.patch.set_alpha(0.0)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    fg = np.asarray(canvas.buffer_rgba())  # Agg's buffer is straight (not premultiplied) RGBA
    # The pieces cover a small part of the frame: blend only the pixels they touch, in integers
    # (the rounded a*fg + (1-a)*bg; 4x faster than blending the whole frame in floats).
    out = background.copy()
    ys, xs = np.nonzero(fg[:, :, 3])
    alpha = fg[ys, xs, 3:4].astype(np.uint16)
    mixed = background[ys, xs].astype(np.uint16) * (255 - alpha) + fg[ys, xs, :3].astype(np.uint16) * alpha
    out[ys, xs] = ((mixed + 127) // 255).astype(np.uint8)
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
