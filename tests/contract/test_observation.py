"""Observations for every game x player count: in the space, seat-relative, and leak-free.

- Seat pieces (``ObsPiece.per_seat``) are the table's seats rotated so index 0 is the observer.
- Perfect-information games: every other piece is the same for every observer.
- Hidden-information games: what a seat observes is unchanged when ``determinize`` resamples
  everything that seat cannot see (so no secret of another seat reaches its observation).
"""

import numpy as np

from tabletop_zoo import registry

from ..conftest import random_trajectory


def _observe(k, s, seat):
    out = np.full(k.OBS_SIZE, np.nan, np.float32)
    k.observe(s, seat, out)
    assert not np.isnan(out).any(), "observe must write every entry"
    return out


def _sample_states(k, n, every=9):
    for i, (s, m) in enumerate(random_trajectory(k, n, seed=21, policy_seed=4)):
        if m is None or i % every == 0:
            yield s.copy()


def test_observation_is_seat_relative(game_n):
    game, n = game_n
    k = registry.kernel(game)
    for s in _sample_states(k, n):
        table = _observe(k, s, -1)
        for seat in range(n):
            mine = _observe(k, s, seat)
            assert mine.min() >= 0.0 and np.isfinite(mine).all()
            for p in k.OBS_PIECES:
                view, full = mine[p.offset : p.offset + p.size], table[p.offset : p.offset + p.size]
                if p.per_seat:
                    rows = p.size // p.shape[0]
                    v, f = view.reshape(p.shape[0], rows), full.reshape(p.shape[0], rows)
                    for i in range(n):
                        assert np.array_equal(v[i], f[(seat + i) % n]), (p.name, seat, i)
                    assert not v[n:].any(), f"{p.name}: seats beyond num_players must be zero"
                elif k.INFORMATION == "perfect":
                    assert np.array_equal(view, full), f"{p.name} differs between observers"


def test_no_hidden_information_leaks(hidden_game_n):
    """Games with hidden information only; perfect-information games are covered by the test above."""
    game, n = hidden_game_n
    k = registry.kernel(game)
    changed = 0
    for s in _sample_states(k, n):
        for seat in range(n):
            for draw in range(3):
                other = s.copy()
                k.determinize(other, seat, 1000 + draw)
                assert np.array_equal(_observe(k, other, seat), _observe(k, s, seat))
                changed += other.tobytes() != s.tobytes()
    assert changed > 0, "determinize never changed anything: the secrets are not being resampled"
