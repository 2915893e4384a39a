"""The matplotlib back-end: any ``Scene`` as uint8[height, width, 3] pixels (``rgb_array`` frames, GIF, MP4).

Shapes are drawn by matplotlib on an Agg canvas (``Frame``: one figure per frame size, kept for the process, no
GUI backend), a run of consecutive shapes of one kind as one collection; text by Pillow in matplotlib's DejaVu
faces (``_canvas.draw_text``), above the shapes of its pass. Two passes: the static layers (those with a
``key``) once per set of keys, cached as pixels; then, over them, the layers drawn each time. So a static
layer never lies above a layer drawn each time (``rasterize`` refuses such a scene).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from ._canvas import Frame
from .scene import PT, Circle, Item, Line, Polygon, Rect, Scene, Text, expand


def rasterize(scene: Scene) -> np.ndarray:
    """The scene's pixels, uint8[scene.height, scene.width, 3]."""
    static = [layer for layer in scene.layers if layer.key is not None]
    if any(layer.key is not None for layer in scene.layers[len(static) :]):
        raise ValueError("a scene's static layers (with a key) must come before the layers drawn each time")
    keys = (scene.width, scene.height, scene.background, *(layer.key for layer in static))
    base = _background(keys, scene) if static else _plain(scene.width, scene.height, scene.background)
    return _draw(scene.width, scene.height, [i for layer in scene.layers[len(static) :] for i in layer.items], base)


_STATIC: dict[tuple, np.ndarray] = {}  # pixels of the static layers, by frame size, background and layer keys


def _background(keys: tuple, scene: Scene) -> np.ndarray:
    if keys not in _STATIC:
        if len(_STATIC) >= 32:
            _STATIC.pop(next(iter(_STATIC)))
        items = [i for layer in scene.layers if layer.key is not None for i in layer.items]
        _STATIC[keys] = _draw(scene.width, scene.height, items, _plain(scene.width, scene.height, scene.background))
    return _STATIC[keys]


_background.cache_clear = _STATIC.clear  # like the lru caches here (tests draw from empty caches)


@functools.lru_cache(maxsize=8)
def _plain(width: int, height: int, colour: str) -> np.ndarray:
    from matplotlib.colors import to_rgb

    out = np.empty((height, width, 3), np.uint8)
    out[:] = np.round(np.array(to_rgb(colour)) * 255).astype(np.uint8)
    return out


@functools.lru_cache(maxsize=4)
def _frame(width: int, height: int) -> tuple[Frame, object]:
    """The figure and its one pixel-unit axes (y down) for frames of this size."""
    frame = Frame(width, height)
    return frame, frame.axes((0, 0, 1, 1), (0, width), (height, 0))  # data units are the frame's pixels


def _draw(width: int, height: int, items: list[Item], base: np.ndarray) -> np.ndarray:
    frame, ax = _frame(width, height)
    with frame:
        parts = [p for item in items for p in expand(item)]
        texts = [p for p in parts if isinstance(p, Text)]
        shapes = [p for p in parts if not isinstance(p, Text)]
        for z, (kind, run) in enumerate(itertools.groupby(shapes, key=_kind)):
            collection = _COLLECTIONS[kind](list(run))
            collection.set_zorder(z)
            ax.add_collection(collection, autolim=False)
        for t in texts:
            frame.add_pixel_text(t.x, t.y, t.text, _text_style(t))  # the axes are the frame's pixels
        return frame.finish(base)


def _kind(item: Item) -> str:
    if isinstance(item, Rect):
        return "round" if item.radius else "rect"
    return type(item).__name__.lower()


def _edges(items) -> dict:
    """Edge colours, widths and dash patterns of shapes, as collection keywords."""
    styles = []
    for i in items:
        w = max(i.width, 0.1)
        styles.append("solid" if i.dash is None else (0, tuple(d / PT / w for d in i.dash)))
    return {
        "edgecolors": ["none" if i.stroke is None else i.stroke for i in items],
        "linewidths": [0.0 if i.stroke is None else i.width for i in items],
        "linestyles": styles,
    }


def _rects(items: list[Rect]):
    from matplotlib.collections import PolyCollection

    polys = [((r.x, r.y), (r.x + r.w, r.y), (r.x + r.w, r.y + r.h), (r.x, r.y + r.h)) for r in items]
    return PolyCollection(polys, facecolors=[r.fill for r in items], **_edges(items))


def _rounds(items: list[Rect]):
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import FancyBboxPatch

    boxes = [
        FancyBboxPatch((r.x, r.y), r.w, r.h, boxstyle=f"round,pad=0,rounding_size={min(r.radius, r.h / 2)}")
        for r in items
    ]
    return PatchCollection(boxes, facecolors=[r.fill for r in items], **_edges(items))


def _circles(items: list[Circle]):
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle as Disc

    discs = [Disc((c.x, c.y), c.r) for c in items]
    return PatchCollection(discs, facecolors=[c.fill for c in items], **_edges(items))


def _lines(items: list[Line]):
    from matplotlib.collections import LineCollection

    edges = _edges(items)
    return LineCollection(
        [line.points for line in items], colors=edges["edgecolors"], linewidths=[i.width for i in items],
        linestyles=edges["linestyles"],
    )  # fmt: skip


def _polygons(items: list[Polygon]):
    from matplotlib.collections import PolyCollection

    return PolyCollection([p.points for p in items], facecolors=[p.fill for p in items], **_edges(items))


_COLLECTIONS = {"rect": _rects, "round": _rounds, "circle": _circles, "line": _lines, "polygon": _polygons}


def _text_style(t: Text) -> dict:
    """``draw_text`` keywords (matplotlib's names) for a scene text."""
    kw = {
        "size": t.size,
        "color": t.colour,
        "weight": t.weight,
        "style": t.style,
        "ha": t.ha,
        "va": t.va,
        "family": "DejaVu Sans Mono" if t.mono else "DejaVu Sans",
    }
    if t.halo is not None:
        from matplotlib import patheffects

        kw["path_effects"] = [patheffects.withStroke(linewidth=2.5, foreground=t.halo)]
    return kw
