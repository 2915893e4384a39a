"""The loops each room builds from its own functions, closed over its module: the ``step`` of an explicit-chance
game (``make_chance_step``), ``step_and_mask`` and random playouts; and ``phase_is``, every room's ``is_over`` and
``is_chance``.

Each is compiled for the room's own record and functions and cached: closed over the room's module, each calls
the room's functions directly, where a loop written once over the dispatch (the record's dtype picking the
game's functions at compile time) adds a layer to every step of every search and playout.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
from numba import njit

from .masks import sample_legal
from .rng import seed_rng


def make_chance_step(rules: ModuleType):
    """``step`` of an explicit-chance room whose module ``rules`` defines ``step_decision``, ``is_chance``,
    ``step_chance`` and ``sample_chance``: apply one legal decision, then every chance event it opens, each
    drawn from the record's RNG (the same seed and actions reproduce the same game)."""

    @njit(cache=True)
    def step(s, action):
        rules.step_decision(s, action)
        while rules.is_chance(s):
            rules.step_chance(s, rules.sample_chance(s))

    return step


def phase_is(phase: int):
    """A predicate ``f(s) -> bool``: is the game on record ``s`` in ``phase``? The contract's ``is_over`` and
    ``is_chance`` of every room are two of these (``is_over = phase_is(PH_GAME_OVER)``), each compiled for the
    room's own record and phase number (a closure over a plain int caches like any njit function)."""
    phase = int(phase)

    @njit(cache=True)
    def in_phase(s):
        return s[0].phase == phase

    return in_phase


def make_step_and_mask(rules: ModuleType):
    """The contract's ``step_and_mask`` of the room whose module ``rules`` defines ``step``, ``legal_mask`` and
    ``to_move``: apply a decision, fill the next legal mask, return whose move it is.

    It calls the room's functions directly, as the room's own four lines would, not through the dispatch. It
    closes over the module, not over the functions: numba keys a cached closure by its captured values, and a
    module pickles by its name while a compiled function pickles with a fresh id, which would compile it again
    in every process and add a cache entry each time.
    """

    @njit(cache=True)
    def step_and_mask(s, action, mask):
        rules.step(s, action)
        rules.legal_mask(s, mask)
        return rules.to_move(s)

    return step_and_mask


def make_random_games(kernel: ModuleType):
    """The random-playout loop of the room ``kernel`` (its ``playouts``), calling the room's ``init_state``,
    ``is_over``, ``legal_mask`` and ``step`` directly, closed over the module as ``make_step_and_mask`` is (not
    written once over the dispatch, for the reason above).

    ``random_games(s, mask, num_players, setup, n_games, seed, max_decisions)`` plays n_games uniformly random
    games on the zeroed record ``s`` and returns (decisions, games that ended). Game g is the kernel's
    ``init_state(s, num_players, seed + g, *setup)`` on a zeroed record; the policy draws from its own
    generator, so each game's chance stream is the one the env would produce for the same seed and actions. A
    game not over after max_decisions is abandoned (counted in decisions, not in games). ``mask`` is a
    uint8[NUM_ACTIONS] scratch array.
    """

    @njit(cache=True, nogil=True)
    def random_games(s, mask, num_players, setup, n_games, seed, max_decisions):
        policy_rng = np.zeros(1, np.uint64)
        seed_rng(policy_rng, seed ^ np.uint64(0x5EED5EED))
        blank = s.copy()
        total = 0
        finished = 0
        for g in range(n_games):
            s[0] = blank[0]  # a record copy (an array copy's shape check compiles numba's string formatting)
            kernel.init_state(s, num_players, seed + np.uint64(g), *setup)
            n = 0
            while not kernel.is_over(s) and n < max_decisions:
                # mask then step, not step_and_mask: a playout never asks whose turn it is, so it does not
                # pay for the seat step_and_mask works out
                kernel.legal_mask(s, mask)
                kernel.step(s, sample_legal(mask, policy_rng))
                n += 1
            total += n
            finished += kernel.is_over(s)
        return total, finished

    return random_games
