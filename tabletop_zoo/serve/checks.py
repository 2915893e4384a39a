"""The web app's errors and the checks of the values a client sends: every refusal is a ``ServeError`` whose
one-line message says what was wrong and what is allowed."""

from __future__ import annotations

import numbers

MAX_DETAIL = 400  # characters of an error message sent back: one line, never a page of traceback


class ServeError(ValueError):
    """A request that cannot be carried out; the message says what was wrong and what is allowed."""


def one_line(text: str) -> str:
    """``text`` as one line for the client: the first non-empty line, at most ``MAX_DETAIL`` characters."""
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    line = lines[0] if lines else "error"
    return line if len(line) <= MAX_DETAIL else line[: MAX_DETAIL - 3] + "..."


def check_int(value, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ServeError(f"{what} must be an int, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ServeError(f"{what} must be in {low}..{high}, got {value}")
    return value


def check_text(value: str, what: str) -> str:
    """Text without control characters (a NUL byte would reach file names and C strings)."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ServeError(f"{what} must be printable text without control characters (such as NUL), got {value!r}")
    return value
