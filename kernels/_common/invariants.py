"""The contract's ``check_invariants``, written once: a room writes only the generator of its violations."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator

import numpy as np


def invariant_checker(violations: Callable[[np.void, int], Iterator[str]]) -> Callable[[np.ndarray], list[str]]:
    """``check_invariants(s) -> list[str]`` of the room whose ``violations(r, n)`` yields one line for each
    conservation law the record ``r`` (``n`` seats at the table) breaks: empty when the record is sound. Plain
    Python, for the tests and ``validate``; the rules never call it."""

    def check_invariants(s: np.ndarray) -> list[str]:
        r = s[0]
        return list(violations(r, int(r["num_players"])))

    check_invariants.__module__ = violations.__module__
    check_invariants.__doc__ = (
        f"Every conservation law of {violations.__module__} that the record breaks, one line each (empty when sound)."
    )
    return check_invariants
