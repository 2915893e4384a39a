"""The SVG back-end: any ``Scene`` as SVG elements, for the browser's board (``to_json``) or a file (``to_svg``).

``to_json`` gives ``{"width", "height", "title", "items": [[tag, {attribute: value}, text], ...]}`` with ``tag``
one of ``SVG_TAGS``: the browser creates each element as it is (no markup is parsed). An element's scene ``id``
becomes ``data-id`` and its ``place`` ``data-place``, which the browser makes clickable when a legal move
names that place. Sizes in points (font sizes, line widths) become pixels; a text of several lines becomes one
``text`` element per line, spaced as matplotlib spaces them (1.2 font sizes).
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .scene import PT, Circle, Line, Polygon, Rect, Scene, Text

SVG_TAGS = ("rect", "circle", "line", "polygon", "polyline", "text")
FONTS = {False: "DejaVu Sans, sans-serif", True: "DejaVu Sans Mono, monospace"}
_ANCHOR = {"left": "start", "center": "middle", "right": "end"}


def to_json(scene: Scene) -> dict:
    """The scene as JSON-ready elements in drawing order (the background first)."""
    items = [["rect", {"x": 0, "y": 0, "width": scene.width, "height": scene.height, "fill": scene.background}, None]]
    for item in scene.items():
        items.extend(_elements(item))
    return {"width": scene.width, "height": scene.height, "title": scene.title, "items": items}


def to_svg(scene: Scene) -> str:
    """A standalone SVG document of the scene."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}">',
        f"<title>{escape(scene.title)}</title>",
        "<style>text { white-space: pre; }</style>",
    ]
    for tag, attrs, text in to_json(scene)["items"]:
        a = " ".join(f"{k}={quoteattr(str(v))}" for k, v in attrs.items())
        out.append(f"<{tag} {a}/>" if text is None else f"<{tag} {a}>{escape(text)}</{tag}>")
    out.append("</svg>")
    return "\n".join(out)


def _num(v: float) -> float:
    return round(float(v), 1)


def _common(item) -> dict:
    out = {}
    if item.id is not None:
        out["data-id"] = item.id
    if item.place is not None:
        out["data-place"] = item.place
    return out


def _paint(item, fill: bool = True) -> dict:
    out = {"fill": item.fill if fill else "none"}
    if item.stroke is not None:
        out["stroke"] = item.stroke
        out["stroke-width"] = _num(item.width * PT)
        if item.dash is not None:
            out["stroke-dasharray"] = " ".join(str(_num(d)) for d in item.dash)
    return out


def _points(points) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _elements(item) -> list[list]:
    """The SVG elements of one primitive."""
    common = _common(item)
    if isinstance(item, Rect):
        attrs = {"x": _num(item.x), "y": _num(item.y), "width": _num(item.w), "height": _num(item.h)}
        if item.radius:
            attrs["rx"] = _num(item.radius)
        return [["rect", {**attrs, **_paint(item), **common}, None]]
    if isinstance(item, Circle):
        attrs = {"cx": _num(item.x), "cy": _num(item.y), "r": _num(item.r)}
        return [["circle", {**attrs, **_paint(item), **common}, None]]
    if isinstance(item, Line):
        paint = {"fill": "none", "stroke": item.stroke, "stroke-width": _num(item.width * PT)}
        if item.dash is not None:
            paint["stroke-dasharray"] = " ".join(str(_num(d)) for d in item.dash)
        return [["polyline", {"points": _points(item.points), **paint, **common}, None]]
    if isinstance(item, Polygon):
        return [["polygon", {"points": _points(item.points), **_paint(item), **common}, None]]
    if isinstance(item, Text):
        return _text(item, common)
    raise TypeError(f"not a scene primitive: {item!r}")


def _text(t: Text, common: dict) -> list[list]:
    """One ``text`` element per line; the block placed by ``va`` as matplotlib places it."""
    px = t.size * PT
    lines = t.text.split("\n")
    pitch = 1.2 * px
    block = (len(lines) - 1) * pitch
    # the first line's baseline: cap height ~0.73 em above it, descent ~0.24 em below
    first = {
        "top": t.y + 0.76 * px,
        "center": t.y - block / 2 + 0.36 * px,
        "bottom": t.y - block - 0.24 * px,
        "baseline": t.y - block,
    }[t.va]
    attrs = {"font-size": _num(px), "font-family": FONTS[t.mono], "fill": t.colour, "text-anchor": _ANCHOR[t.ha]}
    if t.weight != "normal":
        attrs["font-weight"] = t.weight
    if t.style != "normal":
        attrs["font-style"] = t.style
    if t.halo is not None:
        attrs.update({"stroke": t.halo, "stroke-width": _num(2.5 * PT), "paint-order": "stroke"})
    return [
        ["text", {"x": _num(t.x), "y": _num(first + i * pitch), **attrs, **common}, line]
        for i, line in enumerate(lines)
        if line.strip()
    ]
