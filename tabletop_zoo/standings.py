"""Who finished where: ranks from the game's own result (the kernel's ``returns``), then the final score.

A seat's rank is 1 + the number of seats strictly ahead of it, where ahead means a higher return, or an
equal return and a higher final score (competition ranking: ties share a rank and the next rank is skipped,
1, 1, 3). The return decides first because it is the rules' verdict: in Kremlin the winner is decided by a
vacancy, not by speeches; in French Revolution 1789 a tie on VP is broken by RP (FR-GEN-2).
A game's win share is 1/k to each of the k seats ranked first (so a Kremlin draw, where every return is
equal, goes to the best speeches, as do truncated games with no winner).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def competition_ranks(returns, scores) -> list[int]:
    """Rank per seat (1 = best) from per-seat returns and final scores."""
    returns, scores = [float(r) for r in returns], [int(s) for s in scores]
    if len(returns) != len(scores):
        raise ValueError(f"returns and scores need one value per seat, got {len(returns)} and {len(scores)}")
    keys = list(zip(returns, scores))
    return [1 + sum(other > mine for other in keys) for mine in keys]


def win_shares(ranks) -> list[float]:
    """1/k to each of the k seats ranked first, 0 to the others."""
    first = sum(r == 1 for r in ranks)
    return [1.0 / first if r == 1 else 0.0 for r in ranks]


@dataclass(frozen=True)
class Standings:
    returns: list[float]
    scores: list[int]
    ranks: list[int]

    @property
    def winners(self) -> list[int]:
        """Seats ranked first."""
        return [i for i, r in enumerate(self.ranks) if r == 1]

    @property
    def shares(self) -> list[float]:
        """Each seat's win share: 1/k to each of k seats ranked first, 0 to the others."""
        return win_shares(self.ranks)


def final_standings(kernel, record: np.ndarray) -> Standings:
    """Returns, scores and ranks of a finished game record."""
    if not kernel.is_over(record):
        raise ValueError("the game is not over: there are no final standings yet")
    n = int(record[0]["num_players"])
    ret = np.zeros(kernel.MAX_PLAYERS, np.float64)
    score = np.zeros(kernel.MAX_PLAYERS, np.int64)
    kernel.returns(record, ret)
    kernel.scores(record, score)
    returns, scores = [float(x) for x in ret[:n]], [int(x) for x in score[:n]]
    return Standings(returns, scores, competition_ranks(returns, scores))
