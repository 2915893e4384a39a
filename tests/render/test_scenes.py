"""Scenes and their back-ends (issue #47): every game's picture is one scene, drawn alike by matplotlib
(``rgb_array``) and SVG (the browser), with the legal moves' places on its elements."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.envs.render import mpl, svg
from tabletop_zoo.envs.render.scene import SPECTATOR, Circle, Layer, Line, Polygon, Rect, Scene, Text

from ._helpers import FRAME, play

GAMES = sorted(tabletop_zoo.GAMES)


def picture(game: str):
    return importlib.import_module(f"tabletop_zoo.envs.render.{game}")


@pytest.fixture(scope="module", params=GAMES)
def game_scene(request):
    game = request.param
    k = registry.kernel(game)
    s = play(k, k.MAX_PLAYERS, 3, 60)
    return game, s, picture(game).scene(s)


def _svg_lines(scene: Scene) -> list[str]:
    return [text for tag, _, text in svg.to_json(scene)["items"] if tag == "text"]


def test_the_browser_shows_every_text_and_shape_of_the_picture(game_scene):
    """The SVG back-end draws every primitive of the scene: each text line and each shape, in order."""
    game, s, scene = game_scene
    lines = [line for t in scene.texts() for line in t.split("\n") if line.strip()]
    assert _svg_lines(scene) == lines
    shapes = [i for i in scene.items() if not isinstance(i, Text)]
    items = svg.to_json(scene)["items"]
    assert len([it for it in items if it[0] != "text"]) == len(shapes) + 1  # + the background
    assert {tag for tag, _, _ in items} <= set(svg.SVG_TAGS)
    assert svg.to_svg(scene).startswith("<svg") and scene.title in svg.to_svg(scene)


def test_the_picture_has_the_tables_and_the_pending_decision(game_scene):
    """What the issue found missing in the browser: the pending decision and every player's row are in the scene."""
    game, s, scene = game_scene
    ids = {i.id for layer in scene.layers for i in layer.items if i.id}
    assert any(i.startswith("pending:") for i in ids), game
    for p in range(int(s[0]["num_players"])):
        assert any(f"player_{p}" in t for t in scene.texts()), (game, p)


def test_every_legal_place_is_on_an_element_of_the_scene(game_scene):
    game, s, scene = game_scene
    pic, k = picture(game), registry.kernel(game)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    places = {i.place for i in scene.items() if i.place}
    # every action's place over the whole action space, not only the legal ones now
    named = {pic.place_of(a) for a in range(k.NUM_ACTIONS)} - {None}
    assert named <= places, sorted(named - places)[:5]
    k.legal_mask(s, mask)
    assert {pic.place_of(int(a)) for a in np.flatnonzero(mask)} - {None} <= places


def test_rgb_array_is_the_scene_rasterized(game_scene):
    game, s, scene = game_scene
    img = mpl.rasterize(scene)
    assert img.shape == FRAME and img.dtype == np.uint8
    assert np.array_equal(img, picture(game).render_rgb(s))


def test_matplotlib_draws_shapes_where_the_scene_puts_them():
    red = Rect(10, 20, 30, 10, fill="#ff0000")
    disc = Circle(100, 50, 8, fill="#0000ff", stroke="black")
    tri = Polygon(((150, 10), (170, 10), (160, 40)), fill="#00ff00")
    line = Line(((0, 90), (199, 90)), "#ff00ff", 3)
    label = Text(100, 75, "label", 10, "#000000", ha="center")
    scene = Scene(200, 100, "white", (Layer((red, disc, tri, line, label)),))
    img = mpl.rasterize(scene).astype(int)
    assert tuple(img[25, 25]) == (255, 0, 0) and tuple(img[50, 100]) == (0, 0, 255)
    assert tuple(img[25, 160]) == (0, 255, 0) and tuple(img[90, 50]) == (255, 0, 255)
    assert tuple(img[5, 5]) == (255, 255, 255)
    assert (img[70:82, 85:115].sum(axis=2) < 200).any()  # the label's ink


def test_static_layers_are_cached_and_must_lie_under_the_others():
    still = Layer((Rect(0, 0, 10, 10, fill="#00ff00"),), key="test-still")
    moving = Layer((Rect(20, 0, 10, 10, fill="#ff0000"),))
    a = mpl.rasterize(Scene(40, 20, "white", (still, moving)))
    b = mpl.rasterize(Scene(40, 20, "white", (still, Layer(()))))
    assert tuple(a[5, 5]) == tuple(b[5, 5]) == (0, 255, 0) and tuple(b[5, 25]) == (255, 255, 255)
    with pytest.raises(ValueError, match="static layers"):
        mpl.rasterize(Scene(40, 20, "white", (moving, still)))


def test_svg_carries_ids_and_places_and_converts_points():
    scene = Scene(
        50, 50, "white", (Layer((Rect(1, 2, 3, 4, fill="red", stroke="black", width=1.44, id="r", place="P1"),)),)
    )
    (_, background, _), (tag, attrs, _) = svg.to_json(scene)["items"]
    assert tag == "rect" and attrs["data-id"] == "r" and attrs["data-place"] == "P1"
    assert attrs["stroke-width"] == 2.0  # 1.44 points at 100 dpi
    text = Scene(50, 50, "white", (Layer((Text(5, 5, "a\nb", 9, va="top"),)),))
    first, second = svg.to_json(text)["items"][1:]
    assert (first[2], second[2]) == ("a", "b") and second[1]["y"] > first[1]["y"]


@pytest.mark.parametrize("game", GAMES)
def test_a_scene_is_built_for_any_viewer(game):
    """Every scene takes a seat, the spectator or None (the privileged view)."""
    k = registry.kernel(game)
    s = play(k, k.MIN_PLAYERS, 1, 20)
    pic = picture(game)
    for viewer in (None, SPECTATOR, 0, k.MIN_PLAYERS - 1):
        assert pic.scene(s, viewer).viewer == viewer
