"""Boards as SVG scenes for the browser, drawn from the same layout data and pieces as the renderers.

Each game has one module here (``boards/<game>.py``) with two functions:

- ``scene(s) -> Scene``: the map part of ``envs/render/<game>.py``'s picture (its positions, colours and the
  same record fields) as a list of SVG elements; the browser draws them as they are. A scene shows only
  what every seat may see: hidden information (Kremlin's influence sheets, French Revolution hands) is
  never drawn on the board, so a board can be sent to any viewer.
- ``place_of(action) -> str | None``: the map place an action names (a hex, region, settlement, section,
  city, post or gamer id), from the kernel's action families; the browser makes that place clickable.

A ``Scene`` is JSON: ``{"width", "height", "items": [[tag, {attribute: value}, text], ...]}`` with ``tag``
one of ``SVG_TAGS``; items carrying ``data-place`` are map targets.
"""

from __future__ import annotations

import importlib
from types import ModuleType

SVG_TAGS = ("rect", "circle", "line", "polygon", "polyline", "text")


class Scene:
    """SVG elements in drawing order on a ``width`` x ``height`` canvas (pixels, y down)."""

    def __init__(self, width: float, height: float, background: str):
        self.width, self.height = float(width), float(height)
        self.items: list[list] = []
        self.add("rect", x=0, y=0, width=width, height=height, fill=background)

    def add(self, tag: str, text: str | None = None, place: str | None = None, **attrs) -> None:
        """One element; ``stroke_width=2`` becomes ``stroke-width="2"``; ``place`` marks a map target."""
        if tag not in SVG_TAGS:
            raise ValueError(f"unknown SVG tag {tag!r}; allowed: {SVG_TAGS}")
        out = {k.replace("_", "-"): _value(v) for k, v in attrs.items() if v is not None}
        if place is not None:
            out["data-place"] = place
        self.items.append([tag, out, text])

    def to_json(self) -> dict:
        return {"width": round(self.width, 1), "height": round(self.height, 1), "items": self.items}


def _value(v):
    if isinstance(v, float):
        return round(v, 2)
    if isinstance(v, (list, tuple)):  # polygon points
        return " ".join(f"{float(x):.1f},{float(y):.1f}" for x, y in v)
    return v


def board(game_id: str) -> ModuleType:
    """The board module of a (canonical) game id."""
    return importlib.import_module(f"{__name__}.{game_id}")
