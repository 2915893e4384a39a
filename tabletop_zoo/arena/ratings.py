"""Ratings fitted on the whole run: a Plackett-Luce maximum a posteriori fit, with bootstrap intervals.

Each game is a ranking of its seats. Under Plackett-Luce the seat in place k is chosen from the seats not yet
placed with probability proportional to exp(theta) of its agent; seats that share a rank are placed together
(Breslow's approximation: each of them is chosen from all seats at its rank or worse), and an agent in several
seats of one game simply appears several times. The log-likelihood is concave, so the fit is unique and does
not depend on the order of the games -- unlike a sequential update (openskill, Elo), where two agents with the
same placements end up apart because of when they won. choix fits Plackett-Luce too, but without ties or an
agent in two seats, which a tournament of N-player games has.

theta is reported on the Elo scale (400 / ln 10 per unit: for two seats, the win probability is Elo's
logistic), with the anchor agent (the first ``random`` of the line-up, else the first agent) fixed at 0. A
weak normal prior on the spread of the ratings around their mean (sd PRIOR_ELO Elo) keeps an agent that won
or lost every game finite; it moves a rating estimated from tens of games by a few percent. Intervals: percentile bootstrap over games.
"""

from __future__ import annotations

import math

import numpy as np

ELO = 400.0 / math.log(10.0)
PRIOR_ELO = 800.0
ANCHOR = "random"


def anchor_of(labels: list[str]) -> str:
    """The agent fixed at rating 0: the first ``random`` agent of the line-up, else the first agent."""
    return next((lab for lab in labels if lab.split(":")[0] == ANCHOR), labels[0])


class _Design:
    """The run as arrays: a one-hot agent per seat (G x P x A) and, per (game, seat k), the mask of seats at
    k's rank or worse (G x P x P) -- the seats k was chosen from."""

    def __init__(self, records: list[dict], labels: list[str]):
        index = {lab: i for i, lab in enumerate(labels)}
        agent = np.array([[index[a] for a in r["agents"]] for r in records], np.int64)
        self.onehot = np.eye(len(labels))[agent]
        ranks = np.array([r["ranks"] for r in records], np.float64)
        self.pool = (ranks[:, None, :] >= ranks[:, :, None]).astype(np.float64)
        self.agent = agent

    def terms(self, theta: np.ndarray, weight: np.ndarray):
        """Weighted log-likelihood, its gradient and Hessian in theta (per agent)."""
        t = theta[self.agent]
        t = t - t.max(axis=1, keepdims=True)  # a per-game shift cancels; keeps exp in range
        e = np.exp(t)
        denom = np.einsum("gkj,gj->gk", self.pool, e)
        ll = weight @ (t - np.log(denom)).sum(axis=1)
        p = self.pool * e[:, None, :] / denom[:, :, None]  # chance each seat j had when k was placed
        q = np.einsum("gkj,gja->gka", p, self.onehot)  # the same, per agent
        grad = np.einsum("g,gja->a", weight, self.onehot) - np.einsum("g,gka->a", weight, q)
        hess = np.einsum("g,gka->a", weight, q)
        hess = np.diag(hess) - np.einsum("g,gka,gkb->ab", weight, q, q)
        return ll, grad, hess  # hess is the (negative semi-definite) Hessian of ll, up to sign below


def _fit(design: _Design, weight: np.ndarray, anchor: int, x0: np.ndarray | None = None) -> np.ndarray:
    """Newton's method on the concave log-posterior. The prior shrinks ratings towards their mean, not
    towards the anchor, so it is blind to the choice of anchor and to relabelling: two agents with the same
    placements get the same rating. The anchor only fixes the zero."""
    n = design.onehot.shape[2]
    free = np.array([i for i in range(n) if i != anchor], np.int64)
    lam = (ELO / PRIOR_ELO) ** 2
    centre = np.eye(n) - 1.0 / n

    def posterior(theta):
        ll, grad, info = design.terms(theta, weight)
        c = centre @ theta
        return ll - 0.5 * lam * (c @ c), grad - lam * (centre @ c), info + lam * centre

    theta = np.zeros(n) if x0 is None else x0.copy()
    if free.size == 0:  # a line-up of one agent: nothing to rate against
        return theta
    value, grad, info = posterior(theta)
    for _ in range(100):
        step = np.linalg.solve(info[np.ix_(free, free)], grad[free])
        size = 1.0
        while True:  # damped: halve until the posterior does not fall
            trial = theta.copy()
            trial[free] += size * step
            t_value, t_grad, t_info = posterior(trial)
            if t_value >= value - 1e-12 or size < 1e-6:
                break
            size /= 2
        theta, value, grad, info = trial, t_value, t_grad, t_info
        if np.abs(grad[free]).max() < 1e-9 * max(1.0, weight.sum()):
            break
    return theta


def fit_ratings(records: list[dict], labels: list[str], bootstrap: int = 200, seed: int = 0) -> dict:
    """``{label: (rating, low, high)}`` on the Elo scale (anchor 0; 95% percentile-bootstrap interval), plus
    ``"_anchor"``. With no games every rating is 0 with an unbounded interval."""
    anchor = anchor_of(labels)
    if not records:
        return {"_anchor": anchor, **{lab: (0.0, -math.inf, math.inf) for lab in labels}}
    design = _Design(records, labels)
    a = labels.index(anchor)
    ones = np.ones(len(records))
    theta = _fit(design, ones, a)
    rng = np.random.default_rng(seed)
    draws = np.empty((bootstrap, len(labels)))
    for b in range(bootstrap):
        weight = rng.multinomial(len(records), ones / len(records)).astype(np.float64)
        draws[b] = _fit(design, weight, a, theta)
    low, high = np.percentile(draws, [2.5, 97.5], axis=0) if bootstrap else (theta, theta)
    out = {"_anchor": anchor}
    for i, lab in enumerate(labels):
        out[lab] = (float(theta[i] * ELO), float(low[i] * ELO), float(high[i] * ELO))
    return out
