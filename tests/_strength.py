"""One statistics helper for every strength claim: seat-rotated matches and an exact binomial test.

A match puts one candidate seat against n-1 copies of an opponent; game g uses env seed ``seed + g`` and
puts the candidate in seat ``g % n``, so every seat is played equally often. A game counts as a win only
when the candidate's reward is strictly above every other seat's (a shared win is not a win), which keeps
the test conservative: an equal player wins alone with probability at most 1/n. The p-value is the
one-sided exact binomial tail P(X >= wins) under that equal share (``tabletop_zoo.arena.stats.p_value_above_equal``,
the one test of every strength claim, also used by ``benchmarks/strength_check.py``).

The slow strength tests of every game use these functions; run as a script it prints the table in
benchmarks/HEURISTICS.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import tabletop_zoo
from tabletop_zoo.agents import make_agent
from tabletop_zoo.arena.stats import p_value_above_equal
from tabletop_zoo.play import play_game

AgentFactory = Callable[[int], object]  # agent seed -> agent
SEEDS = (1009, 2027)  # fixed before any strength run, never tuned: every slow strength test runs at both


@dataclass(frozen=True)
class MatchResult:
    game: str
    players: int
    games: int
    wins: int
    seed: int
    options: dict

    @property
    def share(self) -> float:
        return self.wins / self.games

    @property
    def equal_share(self) -> float:
        return 1.0 / self.players

    @property
    def p_value(self) -> float:
        return p_value_above_equal(self.wins, self.games, self.players)

    def row(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items()) or "-"
        return (
            f"| {self.game} | {self.players} | {opts} | {self.seed} | {self.games} | {self.wins} | "
            f"{self.share:.3f} | {self.equal_share:.3f} | {self.p_value:.2g} |"
        )


def assert_beats(result: MatchResult, alpha: float = 0.01, at_least_half: bool = False) -> None:
    """The candidate beats the equal share at level alpha (and, if asked, wins at least half the games)."""
    detail = (
        f"{result.game} {result.players}p {result.options or ''} seed {result.seed}: "
        f"{result.wins}/{result.games} wins, p = {result.p_value:.3g}"
    )
    print(detail)  # the figures of a passing run too (pytest -rA shows them)
    assert result.p_value < alpha, detail
    if at_least_half:
        assert result.share >= 0.5, detail


def seat_rotated_match(
    game: str, players: int, candidate: AgentFactory, opponent: AgentFactory, games: int, seed: int, **options
) -> MatchResult:
    """Play ``games`` games, candidate in seat g % players of game g; count its outright wins."""
    if games < players:
        raise ValueError(f"need at least one game per seat: games >= {players}, got {games}")
    wins = 0
    for g in range(games):
        env = tabletop_zoo.make_env(game, num_players=players, **options)
        seat = g % players
        agents = [opponent(seed * 1000 + 10 * g + i) for i in range(players)]
        agents[seat] = candidate(seed * 1000 + 10 * g + seat)
        result = play_game(env, agents, seed=seed + g)
        rewards = [result[f"player_{i}"]["reward"] for i in range(players)]
        wins += all(rewards[seat] > r for i, r in enumerate(rewards) if i != seat)
    return MatchResult(game, players, games, wins, seed, dict(options))


def agent(name: str, game: str, **kwargs) -> AgentFactory:
    """An agent factory by registry name, e.g. ``agent("mcts", "imperial", simulations=1000)``."""
    return lambda s: make_agent(name, game, seed=s, **kwargs)


def heuristic_vs_random(game: str, players: int, games: int, seed: int, **options) -> MatchResult:
    return seat_rotated_match(game, players, agent("heuristic", game), agent("random", game), games, seed, **options)


def mcts_vs_heuristics(
    game: str, players: int, games: int, seed: int, simulations: int = 1000, **options
) -> MatchResult:
    return seat_rotated_match(
        game, players, agent("mcts", game, simulations=simulations), agent("heuristic", game), games, seed, **options
    )


def strength_tests(game: str) -> tuple[Callable, Callable]:
    """The two slow strength tests of ``game``, for its tests/<game>/test_strength.py to bind to test_* names:
    the heuristic wins at least half of 200 games against random opponents at every player count, and MCTS
    (1000 simulations) beats three heuristics in 60 four-player games; each at p < 0.01, at both SEEDS."""
    import pytest

    from tabletop_zoo import registry

    @pytest.mark.slow
    @pytest.mark.parametrize("seed", SEEDS)
    @pytest.mark.parametrize("n", list(registry.player_counts(game)))
    def heuristic_beats_random(n, seed):
        assert_beats(heuristic_vs_random(game, n, 200, seed), at_least_half=True)

    @pytest.mark.slow
    @pytest.mark.parametrize("seed", SEEDS)
    def mcts_beats_three_heuristics(seed):
        assert_beats(mcts_vs_heuristics(game, 4, 60, seed))

    return heuristic_beats_random, mcts_beats_three_heuristics


# Every game x player count x ruleset the heuristic must beat random in (issue #18).
def heuristic_cases() -> list[tuple[str, int, dict]]:
    from tabletop_zoo import registry

    cases = []
    for game in sorted(tabletop_zoo.GAMES):
        rulesets = [{}] if game != "irish_gauge" else [{"ruleset": "seed"}, {"ruleset": "published"}]
        for n in registry.player_counts(game):
            cases += [(game, n, opts) for opts in rulesets]
    return cases


HEADER = (
    "| game | players | options | seed | games | wins | win share | equal share | p (exact binomial) |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def main(argv: list[str] | None = None) -> None:
    import argparse
    import time

    ap = argparse.ArgumentParser(description="seat-rotated strength table (heuristic vs random, mcts vs heuristic)")
    ap.add_argument("kind", choices=["heuristic", "mcts"])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seeds", type=int, nargs="+", default=list(SEEDS))
    ap.add_argument("--game", default=None, help="only this game")
    ap.add_argument("--players", type=int, default=None, help="only this player count")
    args = ap.parse_args(argv)
    if args.kind == "heuristic":
        cases = heuristic_cases()
    else:
        cases = [(g, 4, {}) for g in sorted(tabletop_zoo.GAMES)]
    cases = [c for c in cases if (args.game in (None, c[0])) and (args.players in (None, c[1]))]
    print(HEADER, flush=True)
    for game, n, opts in cases:
        for seed in args.seeds:
            t0 = time.perf_counter()
            run = heuristic_vs_random if args.kind == "heuristic" else mcts_vs_heuristics
            res = run(game, n, args.games, seed, **opts)
            print(res.row() + f" {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
