"""``policy:path=``: an az network plays by its policy head alone (no search), and a model of another game is refused
before any move."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tabletop_zoo import registry  # noqa: E402
from tabletop_zoo.agents import make_agent  # noqa: E402
from tabletop_zoo.agents.az.network import AZNet, save_az  # noqa: E402
from tabletop_zoo.play import play_game  # noqa: E402

GAME = "irish_gauge"


@pytest.fixture(scope="module")
def network(tmp_path_factory):
    k = registry.kernel(GAME)
    torch.manual_seed(0)
    net = AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, (16, 16))
    path = save_az(tmp_path_factory.mktemp("az") / "az.pt", net, GAME, {"command": "test"})
    return net, str(path)


def positions(n: int = 40):
    """Observations and masks of the seats to move in a random 3-player game."""
    env = registry.make_env(GAME, num_players=3)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(n):
        obs, _, done, truncated, _ = env.last()
        if done or truncated:
            return
        yield obs["observation"], obs["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_an_az_network_plays_the_argmax_of_its_policy_head_over_the_legal_moves(network):
    net, path = network
    agent = make_agent("policy", GAME, seed=0, path=path)
    for obs, mask in positions():
        with torch.no_grad():
            logits = net(torch.from_numpy(obs[None]))[0][0].numpy()
        legal = np.flatnonzero(mask)
        assert agent.act(obs, mask) == legal[np.argmax(logits[legal])]


def test_sampling_from_the_policy_head_stays_legal_and_follows_the_seed(network):
    _, path = network
    moves = []
    for _ in range(2):
        agent = make_agent("policy", GAME, seed=7, path=path, deterministic=False)
        moves.append([agent.act(obs, mask) for obs, mask in positions()])
    assert moves[0] == moves[1]
    assert all(mask[a] for a, (_, mask) in zip(moves[0], positions()))


def test_an_az_network_plays_a_whole_game_as_a_policy_agent(network):
    _, path = network
    env = registry.make_env(GAME, num_players=3)
    agents = [make_agent("policy", GAME, seed=1, path=path)] + [make_agent("heuristic", GAME, seed=i) for i in (2, 3)]
    assert len(play_game(env, agents, seed=4)) == 3


def test_a_model_of_another_game_is_refused_before_any_move(network):
    _, path = network
    with pytest.raises(ValueError, match="was trained for 'irish_gauge', not 'kremlin'"):
        make_agent("policy", "kremlin", path=path)


def test_a_torch_file_of_another_kind_is_named(tmp_path):
    bad = tmp_path / "other.pt"
    torch.save({"format": "something else"}, bad)
    with pytest.raises(ValueError, match="is not a self-play policy file .* nor an az network"):
        make_agent("policy", GAME, path=str(bad))
    junk = tmp_path / "junk.pt"
    junk.write_text("not a torch file")
    with pytest.raises(ValueError, match="is not a torch file"):
        make_agent("policy", GAME, path=str(junk))
