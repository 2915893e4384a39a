"""The az networks shipped in the package (``agents/az/weights``): every game has one, each loads by name,
fits the size budget and plays every player count of its game from seat-relative values; a game without one
says so clearly."""

from importlib import resources

import pytest

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.agents import make_agent
from tabletop_zoo.agents.az.agent import shipped_network

torch = pytest.importorskip("torch")

SIZE_BUDGET = 20 * 2**20  # all five games' networks together (#21)


def _shipped(game_id: str) -> bool:
    return resources.files("tabletop_zoo.agents.az").joinpath("weights", f"{game_id}.pt").is_file()


def test_the_shipped_networks_are_their_games_and_fit_the_budget():
    from tabletop_zoo.agents.az.network import load_az

    total = 0
    assert [g for g in tabletop_zoo.GAMES if not _shipped(g)] == []  # a baseline for every game (#21)
    for game_id in tabletop_zoo.GAMES:
        path = shipped_network(game_id)
        net, blob = load_az(path, game_id)
        k = registry.kernel(game_id)
        assert blob["game"] == game_id
        assert (net.obs_size, net.num_actions, net.max_players) == (k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS)
        total += resources.files("tabletop_zoo.agents.az").joinpath("weights", f"{game_id}.pt").stat().st_size
    assert total <= SIZE_BUDGET


def test_the_shipped_network_plays_every_player_count(game_id):
    """make_agent("az", game) with no path: the packaged network searches legal moves at 2..6 seats alike."""
    k = registry.kernel(game_id)
    agent = make_agent("az", game_id, simulations=4, seed=1, early_stop=False)
    for n in range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1):
        env = tabletop_zoo.make_env(game_id, num_players=n)
        env.reset(seed=n)
        agent.bind(env)
        for _ in range(6):
            mask = env.action_mask()
            action = agent.act(env.observe(env.agent_selection)["observation"], mask)
            assert mask[action] == 1
            env.step(action)
        assert agent.last_visits.sum() == 4 - 1  # the first simulation evaluates the root itself


def test_a_shipped_network_plays_the_same_move_again():
    game_id = "irish_gauge"
    env = tabletop_zoo.make_env(game_id)
    moves = []
    for _ in range(2):
        env.reset(seed=5)
        agent = make_agent("az", game_id, simulations=8, seed=2).bind(env)
        moves.append(agent.act(None, env.action_mask()))
    assert moves[0] == moves[1]


def test_a_game_without_a_shipped_network_says_how_to_get_one(monkeypatch):
    import tabletop_zoo.agents.az.agent as az_agent

    class Missing:
        def joinpath(self, *parts):
            return self

        def is_file(self):
            return False

    monkeypatch.setattr(az_agent.resources, "files", lambda package: Missing())
    with pytest.raises(ValueError, match="no az network is shipped for 'kremlin' yet: train one with"):
        make_agent("az", "kremlin")
