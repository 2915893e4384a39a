"""Seat order and kingmaking: what a win share means in a game, read from a seat-rotated run's game records.

Seat order. In a seat-rotated run every agent sits every seat equally often, so the win share by seat position
(ties for first split, Wilson 95% intervals) measures the seat, not the agents in it: seat 0's excess over the
equal share is the first player's advantage. ``p_equal`` is the chi-square test that every seat wins equally
often (approximate for a few games per seat).

Kingmaking. A game's *decisive decision* is the last decision after which the eventual winner stood ahead of
the runner-up on score (``kernel.scores``: the game's own measure of worth, read after every decision) and
stayed ahead to the end; a decision counts together with everything the rules did automatically before the
next one (chance draws, payouts). The game is *kingmade* when the seat that made the decisive decision finished
third or worse: a seat that could not win decided which of the two contenders did. Counted over the games with
a single winner that finished ahead of the runner-up on score (a winner ahead from the first position to the end
has no decisive decision: such a game counts, as not kingmade); the others are reported apart: a shared first
place, or a winner that the rules' verdict put first without a higher score (Kremlin's vacancy, French
Revolution's RP tie-break). With two seats there is no third seat: kingmaking is not defined.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import chisquare

from .. import registry
from ..standings import win_shares
from .stats import bootstrap_mean, wilson

FROM_START = -1  # decisive_seat: the winner led the runner-up from the first position to the end


def seat_order(records: list[dict], num_players: int) -> dict:
    """Per seat position: ``win_share`` and ``mean_rank`` as ``[value, low, high]``; ``p_equal`` (chi-square,
    None without a win); ``games``."""
    shares = np.array([win_shares(r["ranks"]) for r in records], np.float64).reshape(-1, num_players)
    wins = shares.sum(axis=0)
    ranks = np.array([r["ranks"] for r in records], np.float64).reshape(-1, num_players)
    p_equal = float(chisquare(wins).pvalue) if wins.sum() > 0 else None
    return {
        "games": len(records),
        "win_share": [list(wilson(w, len(records))) for w in wins],
        "mean_rank": [list(bootstrap_mean(ranks[:, s], 1, num_players)) for s in range(num_players)],
        "p_equal": p_equal,
    }


def decisive_seat(game_id: str, num_players: int, options: dict, record: dict) -> int | None:
    """The seat whose decision last put the winner (``record``'s single rank 1) ahead of the runner-up on score
    for good, by replaying the record; FROM_START when the winner was ahead from the first position on and never
    fell back; None when the winner does not end ahead on score."""
    ranks = record["ranks"]
    winner = ranks.index(1)
    runner_up = min((s for s in range(num_players) if s != winner), key=lambda s: ranks[s])
    env = registry.make_env(game_id, num_players=num_players, **options)
    env.reset(seed=record["seed"])
    score = np.zeros(env.kernel.MAX_PLAYERS, np.int64)

    def ahead() -> bool:
        env.kernel.scores(env.get_state(), score)
        return bool(score[winner] > score[runner_up])

    was_ahead = ahead()
    decisive = FROM_START if was_ahead else None
    for action in record["actions"]:
        seat = int(env.agent_selection.removeprefix("player_"))
        env.step(action)
        now = ahead()
        if now and not was_ahead:
            decisive = seat
        was_ahead = now
    return decisive if was_ahead else None


def kingmaking(game_id: str, num_players: int, options: dict, records: list[dict]) -> dict | None:
    """How often the decisive decision was a non-contender's (the module's definition): ``kingmade`` as
    ``[share, low, high]`` over ``scored`` games; who made the decisive decision (``by_winner``,
    ``by_runner_up``, ``by_others``, or none: ``from_start``); the games left out (``shared_first``, ``by_verdict``). None for two
    seats."""
    if num_players < 3:
        return None
    counts = {"from_start": 0, "by_winner": 0, "by_runner_up": 0, "by_others": 0, "shared_first": 0, "by_verdict": 0}
    for rec in records:
        ranks = rec["ranks"]
        if ranks.count(1) > 1:
            counts["shared_first"] += 1
            continue
        seat = decisive_seat(game_id, num_players, options, rec)
        if seat is None:
            counts["by_verdict"] += 1
        elif seat == FROM_START:
            counts["from_start"] += 1
        elif ranks[seat] == 1:
            counts["by_winner"] += 1
        elif ranks[seat] == 2:
            counts["by_runner_up"] += 1
        else:
            counts["by_others"] += 1
    scored = counts["from_start"] + counts["by_winner"] + counts["by_runner_up"] + counts["by_others"]
    return {"games": len(records), "scored": scored, "kingmade": list(wilson(counts["by_others"], scored)), **counts}


def tables(game_id: str, num_players: int, options: dict, records: list[dict]) -> dict:
    """``{"seat_order": ..., "kingmaking": ...}`` of one run (``seat_order`` and ``kingmaking``)."""
    return {
        "seat_order": seat_order(records, num_players),
        "kingmaking": kingmaking(game_id, num_players, options, records),
    }


def markdown(seating: dict) -> str:
    """The seat-order table and the kingmaking line of one run (``tables``)."""
    order, king = seating["seat_order"], seating["kingmaking"]
    n = len(order["win_share"])
    p = "-" if order["p_equal"] is None else f"{order['p_equal']:.2g}"
    lines = [
        f"Seat order ({order['games']} games; every agent in every seat equally often; equal share {1 / n:.2f}; "
        f"chi-square p = {p} that every seat wins equally often):",
        "",
        "| | " + " | ".join(f"seat {s}" for s in range(n)) + " |",
        "|---" * (n + 1) + "|",
        "| win share | " + " | ".join(_iv(v) for v in order["win_share"]) + " |",
        "| mean rank | " + " | ".join(_iv(v) for v in order["mean_rank"]) + " |",
        "",
    ]
    if king is None:
        lines.append("Kingmaking: not defined with two seats.")
    else:
        lines.append(
            f"Kingmaking: {_iv(king['kingmade'])} of the {king['scored']} games won on score were decided by a seat "
            f"that finished third or worse (the decisive decision: the winner's {king['by_winner']}, the "
            f"runner-up's {king['by_runner_up']}, a non-contender's {king['by_others']}; the winner led from the "
            f"start in {king['from_start']}); left out: "
            f"{king['shared_first']} shared first places, {king['by_verdict']} won by the rules' verdict without a "
            "higher score."
        )
    return "\n".join(lines) + "\n"


def _iv(v) -> str:
    mean, low, high = v[:3]
    return "-" if mean != mean else f"{mean:.2f} [{low:.2f}, {high:.2f}]"
