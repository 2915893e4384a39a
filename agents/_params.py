"""Checks for agent parameters: a clear ValueError naming the parameter, the value and what is allowed.

Spec strings arrive as text turned into int/float/bool (``agents/spec.py``), so 1.5 for a count or ``nan``
for a constant must be refused here rather than silently truncated or propagated into a search.
"""

from __future__ import annotations

import math
import numbers


def check_int(name: str, value, minimum: int, maximum: int | None = None) -> int:
    """An integer >= minimum (and <= maximum); 3.0 is accepted as 3, 1.5 and True are not."""
    ok = not isinstance(value, bool) and (
        isinstance(value, numbers.Integral) or (isinstance(value, float) and value.is_integer())
    )
    allowed = f"an integer >= {minimum}" + (f" and <= {maximum}" if maximum is not None else "")
    if not ok:
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    value = int(value)
    if value < minimum or (maximum is not None and value > maximum):
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return value


def check_float(name: str, value, minimum: float) -> float:
    """A finite real number >= minimum."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < minimum:
        raise ValueError(f"{name} must be a finite number >= {minimum}, got {value!r}")
    return float(value)


def check_bool(name: str, value) -> bool:
    """True or False (a spec's ``true``/``false``, or 1/0)."""
    if isinstance(value, bool) or (isinstance(value, numbers.Integral) and value in (0, 1)):
        return bool(value)
    raise ValueError(f"{name} must be true or false (or 1 or 0), got {value!r}")
