"""The browser's board: a game's scene (``envs/render/<game>.py``) drawn by the SVG back-end.

``board_json(game, s, viewer)`` is the scene of record ``s`` as ``viewer`` may see it (a seat, ``SPECTATOR`` or
``None`` for the privileged view), as ``envs.render.svg.to_json`` gives it: the same picture as the
``rgb_array`` frame (map, tables, pending decision). ``place_of(game, action)`` is the map place an action names;
the scene marks it on its elements (``data-place``), so the browser makes legal targets clickable.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np

from ...envs.render import svg

SVG_TAGS = svg.SVG_TAGS


def picture(game_id: str) -> ModuleType:
    """The scene module of a (canonical) game id."""
    return importlib.import_module(f"tabletop_zoo.envs.render.{game_id}")


def board_json(game_id: str, s: np.ndarray, viewer: int | None) -> dict:
    """The board of record ``s`` for ``viewer`` as JSON elements (``svg.to_json``)."""
    return svg.to_json(picture(game_id).scene(s, viewer))


def place_of(game_id: str, action: int) -> str | None:
    """The map place ``action`` names in that game, or None."""
    return picture(game_id).place_of(action)
