"""The ladder's standard line-up (tabletop_zoo/arena/ladder.py): what `tabletop-zoo ladder all` plays."""

import json

import pytest

from tabletop_zoo.agents.spec import check_agent_spec
from tabletop_zoo.arena import ladder, seating

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


def test_at_two_players_every_two_agents_meet_in_both_seat_orders(tmp_path):
    """The arena's rotation seats only neighbours of the line-up at two players (random never meets az); the
    ladder's round robin plays every pair as often, each agent first in half its pair's games, and rates them
    in one fit over all the games."""
    rotated = {frozenset(ladder.lineup()[j] for j in seating(ladder.lineup(), 2, g)) for g in range(100)}
    assert len(rotated) == 5  # why the ladder does not use it at two players
    assert len(ladder.pairs(ladder.lineup())) == 10
    assert ladder.default_games(5, quick=False, players=2) == 100 and ladder.games_per_pair(100, 5) == 10
    summary = ladder.ladder(
        "french_revolution_1789", players=2, quick=True, games=12, out=tmp_path, workers=1, progress=False
    )
    names = ladder.lineup(quick=True)
    orders = [tuple(r["agents"]) for r in _records(tmp_path / "french_revolution_1789" / "pairs")]
    assert sorted(orders) == sorted([(a, b) for a in names for b in names if a != b] * 2)
    assert summary["games"] == 12 and summary["config"]["schedule"] == ladder.ROUND_ROBIN
    for a in names:
        assert summary["agents"][a]["seats_played"] == 8
        assert all(summary["head_to_head"][a][b]["n"] == 4 for b in names if b != a)
    assert json.loads((tmp_path / "french_revolution_1789" / "summary.json").read_text())["games"] == 12
    assert "round robin" in ladder.markdown("french_revolution_1789", summary)


def test_a_two_player_ladder_refuses_games_its_pairs_cannot_share_before_any_game(tmp_path):
    for games in (10, 7, -6):
        with pytest.raises(
            ValueError,
            match=f"round robin of 3 pairs in both seat orders: games must be a positive multiple of 6, got {games}",
        ):
            ladder.ladder("imperial", players=2, quick=True, games=games, out=tmp_path, progress=False)
    with pytest.raises(ValueError, match="unknown agent"):
        ladder.ladder("imperial", players=2, agents=["grandmaster"], quick=True, games=12, out=tmp_path)
    assert not any(tmp_path.iterdir())


def _records(folder) -> list[dict]:
    return [json.loads(line) for path in sorted(folder.glob("*/games.jsonl")) for line in path.read_text().splitlines()]
