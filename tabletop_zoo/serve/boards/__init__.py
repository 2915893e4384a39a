"""The browser's board: a game's scene (``envs/render/<game>.py``) drawn by the SVG back-end.

``board_json(game, s, viewer)`` is the scene of record ``s`` as ``viewer`` may see it (a seat, ``SPECTATOR`` or
``None`` for the privileged view), as ``envs.render.svg.to_json`` gives it; ``place_of(game, action)`` is the map
place an action names, which the scene marks on its elements (``data-place``) so the browser makes it clickable.
Games whose picture is not yet a scene keep their SVG board module here (``boards/<game>.py``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np

from ...envs.render import svg

SVG_TAGS = svg.SVG_TAGS


def picture(game_id: str) -> ModuleType:
    """The scene module of a (canonical) game id, or its older board module."""
    scene = importlib.import_module(f"tabletop_zoo.envs.render.{game_id}")
    return scene if hasattr(scene, "scene") else importlib.import_module(f"{__name__}.{game_id}")


def board_json(game_id: str, s: np.ndarray, viewer: int | None) -> dict:
    """The board of record ``s`` for ``viewer`` as JSON elements (``svg.to_json``)."""
    module = picture(game_id)
    if module.__name__.startswith(__name__):
        return module.scene(s).to_json()  # an older board: public pieces only
    return svg.to_json(module.scene(s, viewer))


def place_of(game_id: str, action: int) -> str | None:
    """The map place ``action`` names in that game, or None."""
    return picture(game_id).place_of(action)


class Scene:
    """SVG elements in drawing order on a ``width`` x ``height`` canvas (the older boards' format)."""

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
