"""Ranks from the game's result: the kernel's returns first, then the final score; competition ties."""

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo.agents import RandomAgent
from tabletop_zoo.kernels.kremlin.state import PH_GAME_OVER
from tabletop_zoo.play import play_game
from tabletop_zoo.standings import competition_ranks, final_standings, win_shares


def test_competition_ranks_skip_after_ties():
    assert competition_ranks([0, 0, 0], [5, 9, 5]) == [2, 1, 2]
    assert competition_ranks([1 / 3, 1 / 3, 1 / 3, 0], [5, 5, 5, 9]) == [1, 1, 1, 4]  # three-way tie, then 4th
    assert competition_ranks([0.5, 0.5, 0, 0], [7, 7, 3, 3]) == [1, 1, 3, 3]
    assert competition_ranks([0, 1, 0], [30, 2, 30]) == [2, 1, 2]  # the return decides before the score


def test_win_shares_split_first_place():
    assert win_shares([1, 1, 3]) == [0.5, 0.5, 0.0]
    assert win_shares([2, 1, 3, 4]) == [0.0, 1.0, 0.0, 0.0]


def _finished(game, players, seed):
    env = tabletop_zoo.make_env(game, num_players=players)
    play_game(env, [RandomAgent(seed=i) for i in range(players)], seed=seed)
    return env.kernel, env.get_state()


def test_kremlin_vacancy_winner_ranks_first_with_fewer_speeches():
    """KRM-END-4: the rules' winner is first even when another seat made more speeches."""
    k, s = _finished("kremlin", 4, 3)
    s[0]["phase"] = PH_GAME_OVER
    s[0]["winner"] = 2
    s[0]["speeches"][:4] = [6, 1, 0, 4]
    assert k.is_over(s)
    final = final_standings(k, s)
    assert final.returns == [0.0, 0.0, 1.0, 0.0]
    assert final.ranks == [2, 4, 1, 3]
    assert final.winners == [2]


def test_french_revolution_vp_tie_broken_by_rp():
    """FR-GEN-2: equal VP, more RP wins; the loser of the tie-break ranks second, not tied first."""
    k, s = _finished("french_revolution_1789", 3, 5)
    s[0]["vp"][:3] = [12, 12, 4]
    s[0]["rp"][:3] = [1, 3, 9]
    final = final_standings(k, s)
    assert final.returns == [0.0, 1.0, 0.0]
    assert final.ranks == [2, 1, 3]


def test_standings_need_a_finished_game():
    env = tabletop_zoo.make_env("irish_gauge", num_players=3)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not over"):
        final_standings(env.kernel, env.get_state())


def test_play_game_reports_ranks_from_returns():
    env = tabletop_zoo.make_env("kremlin", num_players=4)
    result = play_game(env, [RandomAgent(seed=i) for i in range(4)], seed=11)
    final = final_standings(env.kernel, env.get_state())
    assert [result[a]["rank"] for a in env.possible_agents] == final.ranks
    assert [result[a]["winner"] for a in env.possible_agents] == [r == 1 for r in final.ranks]
    assert np.isclose(sum(result[a]["reward"] for a in env.possible_agents), sum(final.returns))
