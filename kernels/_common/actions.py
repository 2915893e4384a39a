"""Action-id layouts declared once per kernel: one range of consecutive ids per move family, in order.

A kernel's ``actions.py`` adds its families in the order of its spec's action table; each ``add`` returns the
family's first id, so the ``A_*`` constants stay plain ints that numba reads as globals, and the layout's
``size`` is ``NUM_ACTIONS``. ``family(action)`` decodes an id into (family name, argument) for names, tests and
boards; the kernel still asserts the ranges against the spec's literal numbers.

    _ACTIONS = ActionLayout()
    A_AUCTION = _ACTIONS.add("AUCTION", N_COMPANIES)
    A_PASS = _ACTIONS.add("PASS")
    NUM_ACTIONS = _ACTIONS.size
"""

from __future__ import annotations


class ActionLayout:
    """Consecutive action-id ranges, one per family, in the order they were added."""

    def __init__(self) -> None:
        self.families: list[tuple[str, int, int, int]] = []  # (name, first id, count, argument of the first id)
        self.size = 0  # ids so far: NUM_ACTIONS once every family is added

    def add(self, name: str, count: int = 1, first_arg: int = 0) -> int:
        """Append family ``name`` of ``count`` ids and return its first id; ``family`` gives id ``start + i``
        the argument ``first_arg + i`` (e.g. 1 for bids counted from one dollar)."""
        count = int(count)
        if count < 1 or any(name == f[0] for f in self.families):
            raise ValueError(f"action family {name!r}: needs a new name and at least one id, got count {count}")
        start = self.size
        self.families.append((name, start, count, int(first_arg)))
        self.size += count
        return start

    def family(self, action: int) -> tuple[str, int]:
        """(family name, argument) of an action id; raises ValueError outside 0..size-1."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is out of range 0..{self.size - 1}")
        for name, start, count, first_arg in self.families:
            if action < start + count:
                return name, action - start + first_arg
        raise AssertionError("unreachable")
