"""The ladder's standard line-up (tabletop_zoo/arena/ladder.py): what `tabletop-zoo ladder all` plays."""

import pytest

from tabletop_zoo.agents.spec import check_agent_spec
from tabletop_zoo.arena import ladder

pytest.importorskip("torch")


def test_the_standard_line_up_builds_in_every_game(game_id):
    """Every agent of the line-up, az with its shipped network included, is refused before a game starts if
    it cannot play: this builds each one for every game, as `ladder all` does before its first game."""
    assert ladder.lineup() == ["random", "heuristic", "mcts:simulations=100", "mcts:simulations=1000", "az"]
    for spec in ladder.lineup():
        check_agent_spec(spec, game_id)
    assert ladder.default_games(len(ladder.lineup()), quick=False) == 100  # 20 whole rotations


def test_extra_agents_join_the_line_up_once():
    assert ladder.lineup(["az", "policy:path=p.pt"]) == [*ladder.STANDARD, "policy:path=p.pt"]
    assert ladder.lineup(quick=True) == ["random", "heuristic", "mcts:simulations=20"]
