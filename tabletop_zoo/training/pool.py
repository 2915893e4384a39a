"""Who plays the seats: ``--pool self=0.6,snapshot=0.2,heuristic=0.1,random=0.1``.

In every game one seat, chosen uniformly, is the current policy (so every game yields samples); each
other seat is drawn independently from the pool: the current policy (``self``), a past snapshot of it
(``snapshot``, uniform over the kept snapshots; the untrained policy is snapshot 0), the game's
heuristic agent or a uniformly random player.
"""

from __future__ import annotations

import numpy as np

from .batch import HEURISTIC, LEARNER, RANDOM, SNAPSHOT

POOL_KINDS = ("self", "snapshot", "heuristic", "random")
DEFAULT_POOL = "self=0.6,snapshot=0.2,heuristic=0.1,random=0.1"


def parse_pool(text: str | dict) -> dict[str, float]:
    """``name=probability,...`` (names from POOL_KINDS, probabilities >= 0 summing to 1) -> dict."""
    if isinstance(text, dict):
        items = list(text.items())
    else:
        items = []
        for part in filter(None, (p.strip() for p in str(text).split(","))):
            name, eq, value = part.partition("=")
            if not eq:
                raise ValueError(f"pool entry {part!r} must look like name=probability, e.g. {DEFAULT_POOL}")
            try:
                items.append((name.strip(), float(value)))
            except ValueError:
                raise ValueError(f"pool probability {value!r} of {name.strip()!r} is not a number") from None
    pool = {}
    for name, p in items:
        if name not in POOL_KINDS:
            raise ValueError(f"unknown pool member {name!r}; allowed: {', '.join(POOL_KINDS)}")
        if name in pool:
            raise ValueError(f"pool member {name!r} given twice")
        if not (np.isfinite(p) and p >= 0):
            raise ValueError(f"pool probability of {name!r} must be >= 0, got {p}")
        pool[name] = float(p)
    if not pool or abs(sum(pool.values()) - 1.0) > 1e-6:
        raise ValueError(f"pool probabilities must sum to 1, got {sum(pool.values()):g} from {text!r}")
    return {name: pool.get(name, 0.0) for name in POOL_KINDS}


def draw_seats(pool: dict[str, float], num_players: int, num_snapshots: int, rng: np.random.Generator) -> np.ndarray:
    """Seat kinds of one game: one uniform seat is LEARNER, the others drawn from the pool."""
    probs = np.array([pool[name] for name in POOL_KINDS])
    drawn = rng.choice(len(POOL_KINDS), size=num_players, p=probs)
    kinds = np.empty(num_players, np.int64)
    for seat, j in enumerate(drawn):
        name = POOL_KINDS[j]
        if name == "self":
            kinds[seat] = LEARNER
        elif name == "snapshot":
            kinds[seat] = SNAPSHOT + int(rng.integers(num_snapshots))
        else:
            kinds[seat] = HEURISTIC if name == "heuristic" else RANDOM
    kinds[int(rng.integers(num_players))] = LEARNER
    return kinds
