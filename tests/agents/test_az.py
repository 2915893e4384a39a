"""The network-guided search (agents/az): UCT's choices with a blank network, batching changes nothing,
chance is sampled as the kernel says, no secret reaches the network, and the agent plays real games. The
agent's search (``inline.py``) evaluates the same network inside numba: the same numbers as torch, the same
tree as the batched search when the leaf value is the network's alone, and the rollout's weight honoured."""

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
    return save_az(tmp_path / "az.pt", AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, (32, 32)), game_id)


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
    assert agent_parameters("az") == [
        "path",
        "simulations",
        "c",
        "temperature",
        "mix",
        "rollout_depth",
        "seconds",
        "early_stop",
        "reuse",
    ]
    path = _random_net("irish_gauge", tmp_path)
    with pytest.raises(ValueError, match="a network for 'irish_gauge', not 'kremlin'"):
        make_agent("az", "kremlin", path=str(path))
    with pytest.raises(FileNotFoundError, match="no az network at"):
        make_agent("az", "irish_gauge", path=str(tmp_path / "missing.pt"))
    with pytest.raises(ValueError, match="simulations"):
        make_agent("az", "irish_gauge", path=str(path), simulations=1)
    with pytest.raises(ValueError, match=r"mix must be a number in \[0, 1\], got 1.5"):
        make_agent("az", "irish_gauge", path=str(path), mix=1.5)
    with pytest.raises(ValueError, match="temperature must be a finite number >= 0.01, got 0"):
        make_agent("az", "irish_gauge", path=str(path), temperature=0)
    with pytest.raises(ValueError, match="seconds must be a finite number >= 0"):
        make_agent("az", "irish_gauge", path=str(path), seconds=-1.0)
    (tmp_path / "other.pt").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="is not an az network file"):
        make_agent("az", "irish_gauge", path=str(tmp_path / "other.pt"))


# --- the agent's search: the network inside numba ---------------------------------------------------
def _net(kernel, seed=0, hidden=(32, 32)):
    from tabletop_zoo.agents.az.network import AZNet

    torch.manual_seed(seed)
    return AZNet(kernel.OBS_SIZE, kernel.NUM_ACTIONS, kernel.MAX_PLAYERS, hidden)


def _positions(kernel, n, count, seed=0):
    """Records after 0, 7, 14, ... random decisions of one game."""
    s, mask, rng = kernel.new_state(n, seed), np.zeros(kernel.NUM_ACTIONS, np.uint8), np.random.default_rng(seed)
    out = []
    while len(out) < count and not kernel.is_over(s):
        out.append(s.copy())
        for _ in range(7):
            if kernel.is_over(s):
                break
            kernel.legal_mask(s, mask)
            kernel.step(s, int(rng.choice(np.flatnonzero(mask))))
    return out


@pytest.mark.parametrize("hidden", [(24,), (32, 32), (40, 30, 20)])
def test_the_numba_network_is_the_torch_network(hidden):
    """Prior over the legal actions and seat-relative values, from the sparse trunk and the lazy policy head,
    equal torch's forward pass on Irish Gauge positions, for trunks of one to three layers."""
    from tabletop_zoo.agents.az import inline

    ig = tabletop_zoo.kernel("irish_gauge")
    net = _net(ig, hidden=hidden)
    w = inline.NumbaNet.of(net)
    hid, buf = np.zeros(w.width, np.float32), np.zeros((2, w.widest), np.float32)
    obs, mask = np.zeros(ig.OBS_SIZE, np.float32), np.zeros(ig.NUM_ACTIONS, np.uint8)
    for s in _positions(ig, 3, 8):
        ig.observe(s, int(ig.to_move(s)), obs)
        ig.legal_mask(s, mask)
        prior, value = net.evaluate(obs[None], mask[None], 3)
        inline.trunk(obs, w.layers, w.biases, buf, hid)
        legal = np.flatnonzero(mask)
        logits = np.array([inline.logit(a, hid, w.w_pol, w.b_pol) for a in legal])
        mine = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
        assert np.allclose(mine, prior[0, legal], atol=1e-6)
        assert np.allclose(w.w_val[:3] @ hid + w.b_val[:3], value[0], atol=1e-5)


def _inline(root, num_players, net, simulations, seed, mix, kernel):
    from tabletop_zoo.agents.az import inline

    w = inline.NumbaNet.of(net)
    tree = inline.Tree(simulations, kernel, w)
    tree.reset(np.uint64(seed))
    ran = inline.grow(root, simulations, -1, num_players, 1.25, 1.0, mix, 10, w.arrays(), *tree.arrays())
    visits, value = np.zeros(kernel.NUM_ACTIONS, np.int32), np.zeros(kernel.NUM_ACTIONS)
    t = tree
    seat = int(kernel.to_move(root))
    inline.root_statistics(t.counts, t.action, t.first_child, t.next_sibling, t.visits, t.value, seat, visits, value)
    return ran, visits, value


@pytest.mark.parametrize("cards", [(0, 2), (2, 1), (1, 0)])
def test_the_inline_search_is_the_batched_search_when_the_network_values_the_leaves(cards):
    """mix=0: the leaf value is the network's, so the agent's numba search grows the tree the batched search
    grows with torch evaluating the leaves (same seeds, same determinizations, same choices)."""
    net = _net(kuhn, seed=sum(cards))
    s = after_bet(*cards)
    (visits, mean), _ = az(s, 2, 300, 9, evaluate=net.evaluate)
    ran, mine, mine_mean = _inline(s, 2, net, 300, 9, 0.0, kuhn)
    assert ran == 300
    assert np.array_equal(mine, visits[0]) and np.allclose(mine_mean, mean[0], atol=1e-5)


def test_with_mix_1_the_rollouts_value_the_leaves_and_the_value_head_is_ignored():
    ig = tabletop_zoo.kernel("irish_gauge")
    s = _positions(ig, 3, 3)[-1]
    a, b = _net(ig, seed=1), _net(ig, seed=1)
    with torch.no_grad():
        b.value.weight.mul_(-10.0)  # the same prior, other values
    results = {mix: [_inline(s, 3, net, 200, 4, mix, ig)[1] for net in (a, b)] for mix in (0.0, 1.0)}
    assert np.array_equal(*results[1.0])
    assert not np.array_equal(*results[0.0])  # the value head does steer the search when mix < 1


def test_a_time_budget_stops_the_search_between_chunks(tmp_path):
    from tabletop_zoo.agents.az.agent import SECONDS_CHUNK

    path = _random_net("irish_gauge", tmp_path)
    env = tabletop_zoo.make_env("irish_gauge", num_players=3)
    env.reset(seed=3)
    agent = make_agent("az", "irish_gauge", path=str(path), simulations=50_000, seconds=0.0).bind(env)
    action = agent.act(None, env.action_mask())
    assert env.action_mask()[action] == 1
    assert agent.last_visits.sum() == SECONDS_CHUNK - 1  # one chunk; its first simulation evaluated the root


def test_the_agent_never_reads_the_other_seats_card():
    """Seat 1 holds the Q facing a bet; whether seat 0 holds the J or the K, the agent's search (network
    inputs, rollouts and tree) is the same."""
    from tabletop_zoo.agents.az.agent import AZAgent

    agent = AZAgent(net=_net(kuhn, seed=3), simulations=300, seed=2)
    trees = set()
    for secret in (0, 2):
        agent.act_for_seat(after_bet(secret, 1))
        trees.add(tuple(agent.last_visits))
    assert len(trees) == 1


@pytest.mark.parametrize("game", ["irish_gauge", "kremlin"])  # perfect information; hidden, determinized
def test_an_early_stop_plays_the_whole_budgets_move_in_fewer_simulations(game):
    """The search stops once the most visited root action leads the next by more than the simulations left
    (each adds one visit to one root action), so the move is the whole budget's, always."""
    from tabletop_zoo.agents.az.agent import AZAgent

    k = tabletop_zoo.kernel(game)
    net, budget, stopped = _net(k, seed=5), 200, 0
    for s in _positions(k, 4, 14, seed=1):
        if k.is_over(s):
            continue
        full = AZAgent(net=net, simulations=budget, early_stop=False, seed=3)
        early = AZAgent(net=net, simulations=budget, seed=3)
        assert early.act_for_seat(s) == full.act_for_seat(s)
        assert full.last_visits.sum() == budget - 1  # the first simulation evaluates the root itself
        visits = np.sort(early.last_visits)[::-1]
        left = budget - 1 - visits.sum()
        assert left >= 0 and (left == 0 or visits[0] - visits[1] > left)
        stopped += left > 0
    assert stopped >= 3  # it does stop early, and often


def test_an_early_stop_under_a_time_budget_counts_every_chunk_still_planned():
    """In chunks (``seconds``) the stop compares the lead with the whole budget left, not the chunk's, so a
    clock that never runs out grows the tree of one call."""
    from tabletop_zoo.agents.az.agent import AZAgent

    ig = tabletop_zoo.kernel("irish_gauge")
    net = _net(ig, seed=2)
    for s in _positions(ig, 3, 6, seed=4):
        whole = AZAgent(net=net, simulations=300, seed=1)
        chunked = AZAgent(net=net, simulations=300, seconds=1e6, seed=1)
        assert whole.act_for_seat(s) == chunked.act_for_seat(s)
        assert np.array_equal(whole.last_visits, chunked.last_visits)


@pytest.mark.parametrize("value", [2, -1, 0.5, "yes"])
def test_early_stop_is_true_or_false(value):
    with pytest.raises(ValueError, match="early_stop must be true or false"):
        make_agent("az", "irish_gauge", early_stop=value)


# --- reuse: the search goes on from the subtree of the position the game reached ---------------------------
def _subtree(tree, node):
    """(action, visits, values, prior row's logits and trunk activation, children in order) under ``node``."""
    from tabletop_zoo.agents.az.puct import NO_NODE

    r = int(tree.row[node])
    own = (int(tree.visits[node]), tree.value[node].tobytes())
    if r >= 0:
        own += (tree.logits[r].tobytes(), tree.hidden[r].tobytes())
    children, ch = [], tree.first_child[node]
    while ch != NO_NODE:
        children.append((int(tree.action[ch]), _subtree(tree, ch)))
        ch = tree.next_sibling[ch]
    return own, children


def _after(kernel, s, actions):
    s = s.copy()
    for a in actions:
        kernel.step(s, a)
    return s


def test_a_kept_subtree_is_the_subtree_of_its_node():
    from tabletop_zoo.agents.az import inline
    from tabletop_zoo.agents.az.agent import AZAgent

    ig = tabletop_zoo.kernel("irish_gauge")
    agent = AZAgent(net=_net(ig, seed=5), simulations=300, early_stop=False, seed=1)
    tree = None
    for s in _positions(ig, 3, 3, seed=2)[1:]:
        agent.act_for_seat(s)
        tree = agent._tree
        node = int(tree.first_child[0])
        while node != -1:
            kept = inline.Tree(300, ig, agent.weights)
            kept.keep(tree, node)
            assert _subtree(kept, 0) == _subtree(tree, node)
            assert kept.counts[0] == _count(tree, node) and kept.counts[1] == (kept.row >= 0).sum()
            node = int(tree.next_sibling[node])


def _count(tree, node):
    ch, n = tree.first_child[node], 1
    while ch != -1:
        n += _count(tree, ch)
        ch = tree.next_sibling[ch]
    return n


def test_reuse_finds_the_position_the_game_reached_in_the_last_tree():
    """Replaying the tree's lines from the last root finds the node of the position reached, a move or
    several later; a position the tree does not hold (another game) is not found."""
    from tabletop_zoo.agents.az.agent import AZAgent, find_position

    ig = tabletop_zoo.kernel("irish_gauge")
    agent = AZAgent(net=_net(ig, seed=5), simulations=400, early_stop=False, seed=1)
    root = _positions(ig, 3, 2, seed=2)[1]
    agent.act_for_seat(root)
    tree, node, line = agent._tree, 0, []
    for _ in range(3):  # down the most visited line
        ch, best = tree.first_child[node], -1
        while ch != -1:
            if best < 0 or tree.visits[ch] > tree.visits[best]:
                best = ch
            ch = tree.next_sibling[ch]
        if best < 0 or tree.first_child[best] == -1:
            break
        node = int(best)
        line.append(int(tree.action[node]))
        assert find_position(ig, root, tree, _after(ig, root, line)) == node
    assert len(line) >= 2
    assert find_position(ig, root, tree, root) == 0
    assert find_position(ig, root, tree, _positions(ig, 3, 2, seed=9)[1]) == -1


def test_reuse_counts_the_visits_carried_towards_the_budget(monkeypatch):
    """After its move the agent searches on from that move's subtree: its visits count, so only the rest of
    the budget is simulated and the root ends with the budget's visits, as a search from scratch does."""
    from tabletop_zoo.agents.az import agent as az_agent

    ig = tabletop_zoo.kernel("irish_gauge")
    grown = []
    grow = az_agent.inline.grow
    monkeypatch.setattr(az_agent.inline, "grow", lambda root, n, *args: grown.append(n) or grow(root, n, *args))
    agent = az_agent.AZAgent(net=_net(ig, seed=5), simulations=300, early_stop=False, reuse=True, seed=1)
    root = _positions(ig, 3, 2, seed=2)[1]
    a = agent.act_for_seat(root)
    carried = _subtree(agent._tree, _child(agent._tree, 0, a))
    b = agent.act_for_seat(_after(ig, root, [a]))
    assert carried[0][0] > 1 and grown == [300, 300 - carried[0][0]] and agent.last_carried == carried[0][0]
    assert agent.last_visits.sum() == 300 - 1 and b == int(np.argmax(agent.last_visits))
    assert _subtree(agent._tree, 0)[0][0] == 300
    fresh = az_agent.AZAgent(net=_net(ig, seed=5), simulations=300, early_stop=False, seed=1)
    assert fresh.act_for_seat(root) == a  # the first move is a search from scratch's


def _child(tree, node, a):
    ch = tree.first_child[node]
    while tree.action[ch] != a:
        ch = tree.next_sibling[ch]
    return int(ch)


def test_reuse_plays_reproducible_games(tmp_path):
    path = _random_net("irish_gauge", tmp_path)
    results = []
    for _ in range(2):
        env = tabletop_zoo.make_env("irish_gauge", num_players=3)
        agents = [
            make_agent("az", "irish_gauge", seed=1, path=str(path), simulations=40, reuse=True),
            make_agent("az", "irish_gauge", seed=2, path=str(path), simulations=40, reuse=True),
            make_agent("heuristic", "irish_gauge", seed=3),
        ]
        results.append(play_game(env, agents, seed=4))
        results.append(play_game(env, agents, seed=5))  # the same agents, a second game: nothing carried over
    assert results[0] == results[2] and results[1] == results[3]


def test_reuse_is_refused_where_a_search_starts_from_a_sample_of_hidden_information():
    env = tabletop_zoo.make_env("kremlin", num_players=3)
    agent = make_agent("az", "kremlin", reuse=True)
    with pytest.raises(ValueError, match="reuse needs a game of perfect information, and kremlin hides"):
        agent.bind(env)
    with pytest.raises(ValueError, match="reuse must be true or false"):
        make_agent("az", "kremlin", reuse="sometimes")
