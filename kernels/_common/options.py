"""Game options declared once per kernel: the table ``OPTIONS``, ``resolve_options`` and the values setup stores.

A kernel lists its options in order as ``Choice``, ``Flag`` and ``Integer`` rows of an ``Options`` table.
From that one table come the contract's ``OPTIONS`` ({name: description}, shown in every error and by the
CLI), ``resolve_options(**given)`` (checked values with defaults filled, one clear line on bad input) and
``values(resolved, *names)``, the integers ``init_state`` writes into the record's option fields (a choice
by its index, a flag as 0/1). A default may depend on options declared before it (``by_ruleset``), so a
ruleset fills the defaults of the rules it changes and an explicit value still overrides them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .validate import check_int_option

Default = Any | Callable[[dict], Any]


@dataclass(frozen=True)
class by_ruleset:  # noqa: N801  (reads as a function in the tables: default=by_ruleset(10, 15))
    """A default that depends on the ruleset already resolved: ``seed`` under "seed", ``published`` otherwise."""

    seed: Any
    published: Any

    def __call__(self, resolved: dict) -> Any:
        return self.published if resolved["ruleset"] == "published" else self.seed


@dataclass(frozen=True)
class Choice:
    """One of a few named values (the first is the default unless ``default`` says otherwise)."""

    name: str
    values: tuple[str, ...]
    doc: str
    default: Default = None

    def check(self, value) -> str:
        if not isinstance(value, str) or value not in self.values:
            raise ValueError(f"{self.name} must be one of {self.values}, got {value!r}")
        return value

    def number(self, value: str) -> int:
        return self.values.index(value)


@dataclass(frozen=True)
class Flag:
    """True or False."""

    name: str
    doc: str
    default: Default = False

    def check(self, value) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{self.name} must be True or False, got {value!r}")
        return bool(value)

    def number(self, value: bool) -> int:
        return int(value)


@dataclass(frozen=True)
class Integer:
    """An int in lo..hi that fits ``dtype``, the record field storing it (so it can never wrap there)."""

    name: str
    doc: str
    dtype: Any
    default: Default
    lo: int | None = None
    hi: int | None = None

    def check(self, value) -> int:
        return check_int_option(self.name, value, self.dtype, self.lo, self.hi)

    def number(self, value: int) -> int:
        return int(value)


Option = Choice | Flag | Integer


class Options:
    """A game's options in declaration order (defaults may read the options declared before them)."""

    def __init__(self, game_id: str, *options: Option):
        self.game_id = game_id
        self.by_name = {o.name: o for o in options}
        self.doc = {o.name: o.doc for o in options}  # the contract's OPTIONS

    def resolve(self, **given) -> dict:
        """Every option checked, in declaration order, with its default where not given (raises one line)."""
        unknown = sorted(set(given) - set(self.by_name))
        if unknown:
            raise ValueError(f"unknown option(s) {unknown} for {self.game_id}; allowed: {self.doc}")
        resolved: dict = {}
        for name, option in self.by_name.items():
            value = given.get(name)
            if value is None:
                value = option.default(resolved) if callable(option.default) else option.default
                if value is None:  # a Choice without a stated default takes its first value
                    value = option.values[0]
            resolved[name] = option.check(value)
        return resolved

    def values(self, resolved: dict, *names: str) -> tuple[int, ...]:
        """The integers setup stores for ``names`` (all options when none are named), in that order."""
        return tuple(self.by_name[n].number(resolved[n]) for n in (names or self.by_name))
