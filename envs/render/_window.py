"""``render_mode="human"``: the rgb_array frame in an interactive matplotlib window, where one can open.

The window uses matplotlib's current backend as the caller has it (``matplotlib.get_backend()``, which
only resolves matplotlib's own default): nothing here calls ``matplotlib.use`` or pyplot, so the
caller's backend and figures are untouched. Without a display, or with a non-window backend (Agg,
inline, webagg), ``open_window`` returns None and the env prints the text board instead.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from ._canvas import DPI

# Interactive backends that are not a desktop window: a notebook or a web page.
_NOT_WINDOWS = frozenset({"nbagg", "notebook", "webagg"})


def has_display() -> bool:
    """A desktop session to open windows in (on Linux: an X11 or Wayland display)."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def window_backend() -> str | None:
    """The caller's matplotlib backend if it opens desktop windows here, else None."""
    if not has_display():
        return None
    import matplotlib
    from matplotlib.backends import BackendFilter, backend_registry

    backend = matplotlib.get_backend().lower()
    windows = set(backend_registry.list_builtin(BackendFilter.INTERACTIVE)) - _NOT_WINDOWS
    return backend if backend in windows else None


class Window:
    """One figure window showing frames; ``show(frame)`` updates it and waits ``1 / fps`` seconds."""

    def __init__(self, backend: str, title: str, fps: float):
        from matplotlib.backends import backend_registry
        from matplotlib.figure import Figure

        self.fps = fps
        self._fig = None
        self._canvas_class = backend_registry.load_backend_module(backend).FigureCanvas
        self._title = title
        self._image = None
        self._figure_class = Figure

    def show(self, frame: np.ndarray) -> None:
        if self._fig is None:
            self._open(frame.shape)
        self._image.set_data(frame)
        canvas = self._fig.canvas
        canvas.draw_idle()
        canvas.start_event_loop(1.0 / self.fps)  # handles window events while the frame is on screen

    def _open(self, shape) -> None:
        fig = self._figure_class(figsize=(shape[1] / DPI, shape[0] / DPI), dpi=DPI)
        self._manager = self._canvas_class.new_manager(fig, 0)
        self._manager.set_window_title(self._title)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.axis("off")
        self._image = ax.imshow(np.zeros(shape, np.uint8))
        self._fig = fig
        self._manager.show()

    def close(self) -> None:
        if self._fig is not None:
            self._manager.destroy()
            self._fig = None


def open_window(title: str, fps: float) -> Window | None:
    """A frame window if a display and a window backend exist, else None (the caller prints text)."""
    backend = window_backend()
    return None if backend is None else Window(backend, title, fps)
