"""Progress of long work (arena games, training samples, video frames) that tells the truth.

The rate shown is over the run so far: the items done since the progress started, divided by the seconds since.
rich's own speed (``task.speed``) is a short recent window, which shows bursts when work finishes in batches (an
arena printed 8.1 games/s for a run of 0.15 games/s); the time left is the work left at the run's rate.

On a terminal (or in Jupyter) this is a live rich bar. Elsewhere (a log file, CI, a pipe) a live bar shows
nothing until it ends, so plain lines are printed instead: one every ``every`` items (default a tenth of the
work) or ``interval`` seconds, whichever comes first, and a last one when the work stops.

    with Progress("games", total=400, unit="games") as progress:
        for batch in batches:
            progress.advance(len(batch))
"""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

DEFAULT_INTERVAL = 30.0  # seconds between plain lines at most: a slow run still shows it is alive
DEFAULT_LINES = 10  # plain lines over the whole work (one every tenth), besides the interval's


def format_rate(rate: float, unit: str) -> str:
    """``0.152 games/s``, ``12.3 games/s``, ``4,210 samples/s``: three significant digits below 100."""
    number = f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"
    return f"{number} {unit}/s"


def format_seconds(seconds: float | None) -> str:
    """``H:MM:SS`` (``-:--:--`` when unknown)."""
    if seconds is None:
        return "-:--:--"
    s = round(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class Progress:
    """Progress over ``total`` items of ``unit``, from ``done`` already finished (a resumed run).

    ``enabled=False`` shows nothing (every method still works, so callers need no branches). ``console`` is a
    ``rich.console.Console`` (default: a new one on stdout, or on stderr with ``stderr=True``); ``every`` and
    ``interval`` space the plain lines; ``clock`` gives seconds (tests pass a fake one)."""

    def __init__(
        self,
        label: str,
        total: int,
        unit: str,
        *,
        done: int = 0,
        enabled: bool = True,
        console: Console | None = None,
        stderr: bool = False,
        every: int | None = None,
        interval: float = DEFAULT_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise ValueError(f"total must be an int >= 0, got {total!r}")
        if every is not None and (isinstance(every, bool) or not isinstance(every, int) or every < 1):
            raise ValueError(f"every must be None (a tenth of the total) or an int >= 1, got {every!r}")
        if not interval > 0:
            raise ValueError(f"interval must be > 0 seconds, got {interval!r}")
        self.label, self.total, self.unit = label, total, unit
        self.done = self.start_done = done
        self.status = ""
        self.enabled = enabled
        self.every = every or max(1, total // DEFAULT_LINES)
        self.interval = interval
        self.clock = clock
        self.started = clock()
        self._last_line = (done, self.started)  # (items, time) of the last plain line
        self._bar = None
        self.console = None
        if not enabled:
            return
        if console is None:
            from rich.console import Console

            console = Console(stderr=stderr)
        self.console = console
        if console.is_terminal or console.is_jupyter:
            self._bar = self._start_bar(console)

    # --- what is shown ------------------------------------------------------------------------------
    @property
    def rate(self) -> float:
        """Items per second over this run (0.0 before any time has passed)."""
        elapsed = self.clock() - self.started
        return (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0

    def eta(self) -> float | None:
        """Seconds left at the run's rate (None while nothing is done yet)."""
        rate = self.rate
        return (self.total - self.done) / rate if rate > 0 else None

    def line(self) -> str:
        """The plain progress line, e.g. ``games 40/400 (10%)  0.152 games/s  ETA 0:39:28  <status>``."""
        share = f" ({100 * self.done // self.total}%)" if self.total else ""
        text = f"{self.label} {self.done:,}/{self.total:,}{share}  {format_rate(self.rate, self.unit)}"
        text += f"  ETA {format_seconds(self.eta())}"
        return f"{text}  {self.status}" if self.status else text

    # --- progress -----------------------------------------------------------------------------------
    def update(self, done: int, status: str | None = None) -> None:
        """``done`` items finished in all (resumed ones included); ``status`` replaces the text after the rate."""
        self.done = done
        if status is not None:
            self.status = status
        if self._bar is not None:
            self._bar.update(self._task, completed=done, status=self.status)
        elif self.enabled:
            self._maybe_line()

    def advance(self, n: int = 1) -> None:
        """``n`` more items finished."""
        self.update(self.done + n)

    def note(self, text: str) -> None:
        """Print a message (an evaluation, a warning) above the bar, or as its own line."""
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False)
        elif self.enabled:
            self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def stop(self) -> None:
        """End the bar; without one, print the last line if anything was done since the previous line."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        elif self.enabled and self.done != self._last_line[0]:
            self._print_line()
        self.enabled = False  # stopping twice (a finally after an explicit stop) prints nothing more

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()

    # --- the two displays ---------------------------------------------------------------------------
    def _maybe_line(self) -> None:
        items, at = self._last_line
        if self.done - items >= self.every or self.clock() - at >= self.interval:
            self._print_line()

    def _print_line(self) -> None:
        self._last_line = (self.done, self.clock())
        self.console.print(self.line(), markup=False, highlight=False, soft_wrap=True)

    def _start_bar(self, console: Console):
        from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn
        from rich.progress import Progress as RichProgress
        from rich.text import Text

        owner = self

        class RunRate(ProgressColumn):
            """The rate and time left over the whole run (rich's own columns use a recent window)."""

            def render(self, task) -> Text:
                return Text(f"{format_rate(owner.rate, owner.unit)}  ETA {format_seconds(owner.eta())}")

        bar = RichProgress(
            TextColumn(self.label),
            BarColumn(),
            MofNCompleteColumn(),
            RunRate(),
            TextColumn("{task.fields[status]}"),
            console=console,
        )
        self._task = bar.add_task(self.label, total=self.total, completed=self.done, status=self.status)
        bar.start()
        return bar
