"""The network-guided search (agents/az): UCT's choices with a blank network, batching changes nothing,
chance is sampled as the kernel says, no secret reaches the network, and the agent plays real games."""

import numpy as np
import pytest
from scipy.stats import chisquare

import tabletop_zoo
from tabletop_zoo.agents import agent_parameters, make_agent
from tabletop_zoo.agents.az import Trees, search_batch, uniform_evaluator
from tabletop_zoo.agents.mcts.uct import search as uct_search
from tabletop_zoo.kernels._common import dispatch
from tabletop_zoo.play import play_game

from . import dice_stub as dice
from . import kuhn_stub as kuhn

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module", autouse=True)
def _register_stubs():
    dispatch.register(kuhn)
    dispatch.register(dice)


def after_bet(card_0, card_1):
    s = kuhn.new_state(cards=(card_0, card_1))
    kuhn.step(s, kuhn.BET_OR_CALL)  # seat 0 bets; seat 1 to act
    return s


def az(root, num_players, simulations, seed, evaluate=uniform_evaluator, kernel=kuhn, c=1.25):
    trees = Trees(len(root), simulations, kernel.NUM_ACTIONS, kernel.MAX_PLAYERS, kernel.OBS_SIZE)
    seeds = np.atleast_1d(np.asarray(seed, np.uint64))
    return search_batch(root, num_players, trees, evaluate, simulations, c, seeds), trees


class Recorder:
    """An evaluator that remembers every input the network would have seen."""

    def __init__(self):
        self.inputs = []

    def __call__(self, obs, mask, num_players):
        self.inputs.append((obs.copy(), mask.copy()))
        return uniform_evaluator(obs, mask, num_players)


@pytest.mark.parametrize("cards", [(0, 2), (2, 0), (1, 2), (1, 0)])
def test_a_blank_network_makes_the_uct_choices(cards):
    """Uniform prior and value 0: the search still scores every finished game exactly, so on Kuhn poker's
    tiny tree it prefers what plain UCT prefers (call with the K, fold the J), by a wide margin."""
    s = after_bet(*cards)
    (visits, _), _ = az(s, 2, 400, 3)
    uct_visits, uct_value = np.zeros(2, np.int64), np.zeros(2)
    uct_search(s, 400, 10, 1.0, 3, uct_visits, uct_value)
    assert visits[0].argmax() == uct_visits.argmax()
    assert visits[0].max() > 0.8 * visits[0].sum()


def test_visits_count_every_simulation_but_the_roots_own_evaluation():
    (visits, _), trees = az(after_bet(1, 2), 2, 50, 0)
    assert visits.sum() == 49  # the first simulation evaluates the root itself
    assert trees.visits[0, 0] == 50


def test_batched_and_one_at_a_time_searches_are_the_same():
    ig = tabletop_zoo.kernel("irish_gauge")
    roots = np.concatenate([ig.new_state(3, 10 + i) for i in range(4)])
    for _ in range(8):  # a few decisions in, so chance (dividend draws) is close
        for b in range(4):
            mask = np.zeros(ig.NUM_ACTIONS, np.uint8)
            ig.legal_mask(roots[b : b + 1], mask)
            ig.step(roots[b : b + 1], int(np.flatnonzero(mask)[b % mask.sum()]))
    seeds = np.array([7, 8, 9, 10], np.uint64)
    (batched, batched_q), _ = az(roots, 3, 60, seeds, kernel=ig)
    for b in range(4):
        (alone, alone_q), _ = az(roots[b : b + 1], 3, 60, seeds[b], kernel=ig)
        assert np.array_equal(alone[0], batched[b]) and np.allclose(alone_q[0], batched_q[b])
    again, _ = az(roots, 3, 60, seeds, kernel=ig)
    assert np.array_equal(again[0], batched)  # and reproducible


def test_chance_is_sampled_with_the_kernels_probabilities():
    """After the roll, the search's mean value per seat is how often each face came up (dice_stub)."""
    simulations = 3001
    _, trees = az(dice.new_state(5), 3, simulations, 11, kernel=dice)
    child = trees.first_child[0, 0]
    counts = trees.value[0, child, :3]
    faces, p = dice.chance_outcomes()
    assert counts.sum() == simulations - 1 == trees.visits[0, child]
    assert chisquare(counts, (simulations - 1) * p).pvalue > 1e-3


def test_no_secret_reaches_the_network():
    """Seat 0 holds the Q, to open; whether seat 1 holds the J or the K, every input the network is given
    (seat 1's observations included: seat 1's card there is a determinization's) and the search's result
    are the same."""
    seen, results = [], []
    for secret in (0, 2):
        recorder = Recorder()
        (visits, _), _ = az(kuhn.new_state(cards=(1, secret)), 2, 200, 5, evaluate=recorder)
        seen.append(recorder.inputs)
        results.append(visits)
    assert len(seen[0]) == len(seen[1]) > 1
    for (obs_a, mask_a), (obs_b, mask_b) in zip(*seen):
        assert np.array_equal(obs_a, obs_b) and np.array_equal(mask_a, mask_b)
    assert np.array_equal(*results)


def test_the_network_values_are_seat_relative():
    """Value row k is the return of seat (mover + k) % players: a network saying "the seat to move wins"
    credits whichever seat moves at each leaf."""

    def mover_wins(obs, mask, num_players):
        prior, value = uniform_evaluator(obs, mask, num_players)
        value[:, 0] = 1.0
        return prior, value

    (_, mean), trees = az(kuhn.new_state(cards=(1, 2)), 2, 2, 0, evaluate=mover_wins)
    leaf = trees.first_child[0, 0]
    # the root (seat 0 to move) was evaluated first: seat 0 got 1; the leaf has seat 1 to move: seat 1 got 1
    assert trees.value[0, 0].tolist() == [1.0, 1.0]
    assert trees.value[0, leaf].tolist() == [0.0, 1.0]


def test_the_batch_must_fit_the_trees():
    trees = Trees(2, 10, kuhn.NUM_ACTIONS, 2, kuhn.OBS_SIZE)
    roots = np.concatenate([after_bet(0, 1)] * 3)
    with pytest.raises(ValueError, match="1 to 2 searches of 1 to 10 simulations"):
        search_batch(roots, 2, trees, uniform_evaluator, 5, 1.0, [0, 1, 2])
    with pytest.raises(ValueError, match="got 1 roots and 11 simulations"):
        search_batch(roots[:1], 2, trees, uniform_evaluator, 11, 1.0, [0])


# --- the agent --------------------------------------------------------------------------------------
def _random_net(game_id, tmp_path):
    from tabletop_zoo.agents.az.network import AZNet, save_az

    k = tabletop_zoo.kernel(game_id)
    torch.manual_seed(0)
    return save_az(tmp_path / "az.pt", AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, (32,)), game_id)


def test_the_agent_plays_a_whole_game_and_is_reproducible(tmp_path):
    path = _random_net("irish_gauge", tmp_path)
    results = []
    for _ in range(2):
        env = tabletop_zoo.make_env("irish_gauge", num_players=3)
        agents = [
            make_agent("az", "irish_gauge", seed=1, path=str(path), simulations=8),
            make_agent("random", "irish_gauge", seed=2),
            make_agent("heuristic", "irish_gauge", seed=3),
        ]
        results.append(play_game(env, agents, seed=4))
    assert results[0] == results[1]
    assert sum(r["reward"] for r in results[0].values()) == pytest.approx(1.0)


def test_the_agents_parameters_and_errors(tmp_path):
    assert agent_parameters("az") == ["path", "simulations", "c"]
    path = _random_net("irish_gauge", tmp_path)
    with pytest.raises(ValueError, match="a network for 'irish_gauge', not 'kremlin'"):
        make_agent("az", "kremlin", path=str(path))
    with pytest.raises(FileNotFoundError, match="no az network at"):
        make_agent("az", "irish_gauge", path=str(tmp_path / "missing.pt"))
    with pytest.raises(ValueError, match="simulations"):
        make_agent("az", "irish_gauge", path=str(path), simulations=0)
    (tmp_path / "other.pt").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="is not an az network file"):
        make_agent("az", "irish_gauge", path=str(tmp_path / "other.pt"))
