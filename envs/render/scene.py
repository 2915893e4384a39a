"""A scene: what one picture of a game shows, as plain data that any back-end draws.

A game's scene module (``envs/render/<game>.py``) turns a record and a viewer into a ``Scene``: shapes, text
and tables in frame pixels (x right, y down, the SVG convention), grouped in layers. The back-ends draw any
scene: ``mpl.rasterize`` (matplotlib, for ``rgb_array`` frames, GIFs and videos) and ``svg`` (the browser's
board). Sizes follow matplotlib's units, which the SVG back-end converts: font sizes and line widths in
points (``PT`` pixels each at the frames' 100 dpi), everything else in pixels.

Every element may carry an ``id`` (a stable name, e.g. ``"cube:h12"``) and a ``place``: the map place a
legal action names (``place_of(action)`` of the scene module), which the browser makes clickable.

A ``Layer`` with a ``key`` is static: the same for every record that shares the key (a map, headings), so
the matplotlib back-end draws it once and reuses the pixels; layers without a key are drawn each time.

Hidden information: a scene is built for a ``viewer``: a seat (``int``) sees its own secrets and only the
public part of the others', ``SPECTATOR`` sees no secret at all, and ``None`` is the privileged view of
the whole record, which a hidden-information game's scene says on the picture (``privileged_note``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

Point = tuple[float, float]
PT = 100 / 72  # pixels per point at the frames' 100 dpi
SPECTATOR = -1  # a viewer who sees no seat's secrets (hot seat between turns)


@dataclass(frozen=True, kw_only=True)
class Element:
    """What every item may carry, by keyword: a stable ``id`` and the ``place`` a legal action names."""

    id: str | None = None
    place: str | None = None


@dataclass(frozen=True, kw_only=True)
class Shape(Element):
    """A closed shape's paint, by keyword: ``fill``, the outline's ``stroke`` colour (None: no outline), its
    ``width`` in points and ``dash``, its on/off pattern in pixels."""

    fill: str = "none"
    stroke: str | None = None
    width: float = 1.0
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Rect(Shape):
    """A rectangle with its top-left corner at (x, y); ``radius`` (by keyword) rounds its corners (pixels)."""

    x: float
    y: float
    w: float
    h: float
    radius: float = field(default=0.0, kw_only=True)


@dataclass(frozen=True)
class Circle(Shape):
    """A disc of radius ``r`` pixels centred on (x, y)."""

    x: float
    y: float
    r: float


@dataclass(frozen=True)
class Line(Element):
    """An open polyline through ``points``; ``dash`` is the on/off pattern in pixels."""

    points: tuple[Point, ...]
    stroke: str = "black"
    width: float = 1.0
    dash: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Polygon(Shape):
    """A closed polygon through ``points``."""

    points: tuple[Point, ...]


@dataclass(frozen=True)
class Text(Element):
    """Text anchored at (x, y): ``ha`` left/center/right, ``va`` top/center/bottom/baseline (of the whole block;
    lines split at ``\\n``); ``size`` in points; ``mono`` for the monospace face; ``halo``: an outline colour."""

    x: float
    y: float
    text: str
    size: float = 10.0
    colour: str = "black"
    weight: str = "normal"
    style: str = "normal"
    ha: str = "left"
    va: str = "center"
    mono: bool = False
    halo: str | None = None


@dataclass(frozen=True)
class Table(Element):
    """Monospace rows from (x, y) down, ``pitch`` pixels apart (row i centred at ``y + i * pitch``); rows in
    ``bold`` are bold, ``highlight`` rows get a band of that colour behind them, ``swatches`` a colour chip at
    their left edge (``None``: none). Back-ends draw it as its ``parts()``."""

    x: float
    y: float
    rows: tuple[str, ...]
    size: float = 8.0
    pitch: float = 13.0
    bold: tuple[int, ...] = (0,)
    swatches: tuple[str | None, ...] = ()
    highlight: tuple[int, str] | None = None
    width: float = 0.0

    def parts(self) -> list[Rect | Text]:
        """The table as rectangles (band, swatches) and one ``Text`` per row."""
        out: list[Rect | Text] = []
        indent = 8.0 if self.swatches else 0.0
        if self.highlight is not None:
            row, colour = self.highlight
            y = self.y + row * self.pitch - self.pitch / 2
            out.append(Rect(self.x - 2, y, self.width or 8 * len(self.rows[row]) + indent, self.pitch, fill=colour))
        for i, colour in enumerate(self.swatches):
            if colour is not None:
                out.append(Rect(self.x, self.y + i * self.pitch - 5, 6, 10, fill=colour))
        for i, row in enumerate(self.rows):
            weight = "bold" if i in self.bold else "normal"
            rid = None if self.id is None else f"{self.id}:{i}"
            out.append(Text(self.x + indent, self.y + i * self.pitch, row, self.size, weight=weight, mono=True, id=rid))
        return out


Item = Rect | Circle | Line | Polygon | Text | Table


@dataclass(frozen=True)
class Layer:
    """Items in drawing order; ``key`` names a static layer (the same for every record with that key)."""

    items: tuple[Item, ...]
    key: str | None = None


@dataclass(frozen=True)
class Scene:
    """One picture: ``width`` x ``height`` pixels on ``background``, its layers bottom to top; ``title`` is the
    picture's headline in words (also its accessible name in the browser)."""

    width: int
    height: int
    background: str
    layers: tuple[Layer, ...]
    title: str = ""
    viewer: int | None = None

    def items(self) -> list[Item]:
        """Every item of every layer, bottom to top, tables expanded into their parts."""
        return [part for layer in self.layers for item in layer.items for part in expand(item)]

    def texts(self) -> list[str]:
        """Every string the picture shows (for tests: what a viewer can read)."""
        return [item.text for item in self.items() if isinstance(item, Text)]


def expand(item: Item) -> list[Item]:
    """An item as the primitives a back-end draws (a table becomes its parts)."""
    return item.parts() if isinstance(item, Table) else [item]


@dataclass
class Builder:
    """Collects the items of one layer: ``add(item)`` in drawing order, ``layer()`` at the end."""

    key: str | None = None
    items: list[Item] = field(default_factory=list)

    def add(self, *items: Item) -> None:
        """Append ``items`` (drawn after, so above, the ones before)."""
        self.items.extend(items)

    def layer(self) -> Layer:
        """The collected items as a layer."""
        return Layer(tuple(self.items), self.key)


def privileged_note(viewer: int | None) -> str:
    """The picture's words for whose view it is, in a hidden-information game."""
    if viewer is None:
        return "privileged view: every secret shown"
    if viewer == SPECTATOR:
        return "spectator view: secrets hidden"
    return f"player_{viewer}'s view: only its own secrets"
