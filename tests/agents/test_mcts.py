"""MCTS / IS-MCTS: finds forced wins, counts visits right, is reproducible, never reads secrets."""

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo.agents import MCTSAgent, make_agent
from tabletop_zoo.agents.mcts import search_root
from tabletop_zoo.kernels._common import dispatch
from tabletop_zoo.play import play_game

from . import kuhn_stub as kuhn

ig = tabletop_zoo.kernel("irish_gauge")
CALL_DIVIDENDS = 40


def hx(label):
    return ig.tables.HEX_INDEX[label]


def last_cube_position():
    """3 players, P0 to move, one black cube left in the bag (IG-DIV-1, IG-SI-4, IG-END-1).

    P0 holds BCD (Belfast black + Drogheda town: pays 6 on black); worth 42 + 8 = 50.
    P1 holds MGW (Dublin pink + Tullamore town): worth 46 + 6 = 52, and can end the game by a special
    interest on Tullamore. Calling dividends now is P0's only winning move: black pays P0 6 (56 > 52)
    and empties the bag; anything else lets P1 take the last cube and win.
    """
    s = ig.new_state(3, 0)
    r = s[0]
    r["loco"][:] = 0
    r["cube"][:] = -1
    for label, colour in {"C12": 0, "H11": 1, "H3": 2, "B8": 2, "L4": 2, "L8": 2, "M9": 2, "O4": 2}.items():
        r["cube"][hx(label)] = colour
    for label in ("C12", "C11", "D11", "E11", "F11"):
        r["loco"][2, hx(label)] = 1  # BCD
    for label in ("H11", "H10", "H9", "H8", "H7"):
        r["loco"][4, hx(label)] = 1  # MGW
    r["loco"][0, hx("O4")] = r["loco"][1, hx("L4")] = r["loco"][3, hx("H11")] = 1
    r["supply"][:] = [18, 18, 14, 18, 14]
    r["bag"][:] = [1, 0, 0]
    # the other 21 cubes were drawn earlier: 8 black, 9 pink, 4 white on 7 rows of the track
    r["drawn"][:] = -1
    r["drawn"][:7] = np.array([0] * 8 + [1] * 9 + [2] * 4).reshape(7, 3)
    r["drawn_rows"] = 7
    for c, seat in ((2, 0), (4, 1)):
        r["held"][seat, c] = 1
        r["cert_owner"][c, 0] = seat
        r["next_cert"][c] = 1
    r["cash"][:3] = [42, 46, 30]
    r["bank_in"], r["bank_out"] = 0, 42 + 46 + 30 - 60
    r["phase"], r["active"], r["auc_company"] = ig.state.PH_MAIN, 0, -1
    assert ig.check_invariants(s) == []
    return s


def test_finds_the_only_winning_move():
    s = last_cube_position()
    agent = MCTSAgent(simulations=400, seed=3)
    assert agent.act_state(s) == CALL_DIVIDENDS
    visits, value = search_root(s, 400, 20, 1.0, seed=5)
    assert value[CALL_DIVIDENDS] == pytest.approx(1.0)  # a certain win for the root mover
    assert visits.argmax() == CALL_DIVIDENDS


@pytest.mark.parametrize("threads", [1, 2])
def test_visit_counts_sum_to_simulations(threads):
    s = ig.new_state(4, 8)
    mask = np.zeros(ig.NUM_ACTIONS, np.uint8)
    ig.legal_mask(s, mask)
    visits, _ = search_root(s, 301, 10, 1.0, seed=1, threads=threads)
    assert visits.sum() == 301
    assert not visits[mask == 0].any(), "only legal root actions are searched"


def test_same_seed_same_move_and_tree():
    s = ig.new_state(5, 2)
    for _ in range(12):  # into the main game
        m = np.zeros(ig.NUM_ACTIONS, np.uint8)
        ig.legal_mask(s, m)
        ig.step(s, int(np.flatnonzero(m)[0]))
    a = search_root(s, 500, 20, 1.0, seed=9, threads=2)
    b = search_root(s, 500, 20, 1.0, seed=9, threads=2)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert MCTSAgent(seed=4, simulations=300).act_state(s) == MCTSAgent(seed=4, simulations=300).act_state(s)


def test_search_does_not_read_the_games_future_draws():
    """The record RNG is reseeded per simulation: the real next draw must not steer the search."""
    s = last_cube_position()
    s[0]["bag"][:] = [2, 0, 2]  # the next call draws 3 of 4 cubes: which ones is chance
    results = set()
    for rng_state in (1, 2, 3, 4):
        t = s.copy()
        t[0]["rng"][0] = rng_state
        results.add(tuple(search_root(t, 200, 20, 1.0, seed=7)[0]))
    assert len(results) == 1


def test_search_refuses_a_finished_game():
    s = last_cube_position()
    ig.step(s, CALL_DIVIDENDS)
    assert ig.is_over(s)
    with pytest.raises(ValueError, match="game is over"):
        search_root(s, 10, 5, 1.0, seed=0)


def test_bad_parameters():
    with pytest.raises(ValueError, match="simulations must be an integer >= 1, got 0"):
        MCTSAgent(simulations=0)
    with pytest.raises(RuntimeError, match="bind"):
        MCTSAgent().act(np.zeros(3), np.ones(2, np.int8))


def test_rollout_depth_is_the_game_s_own_unless_given():
    """A kernel's ROLLOUT_DEPTH sets MCTS's default rollouts (French Revolution: 40); 20 where it sets none;
    an explicit rollout_depth wins everywhere, and the default search is the search at that depth."""
    fr = tabletop_zoo.kernel("french_revolution_1789")
    default, explicit = MCTSAgent(), MCTSAgent(rollout_depth=7)
    assert default.depth_for(fr) == fr.ROLLOUT_DEPTH == 40 and not hasattr(ig, "ROLLOUT_DEPTH")
    assert default.depth_for(ig) == 20 and explicit.depth_for(fr) == explicit.depth_for(ig) == 7
    s = fr.new_state(4, 3)
    visits, _ = MCTSAgent(simulations=60)._search(s, np.uint64(5))
    assert np.array_equal(visits, search_root(s, 60, 40, 1.0, np.uint64(5))[0])
    with pytest.raises(ValueError, match="rollout_depth must be an integer >= 0"):
        MCTSAgent(rollout_depth=-1)


def test_mcts_plays_through_the_pettingzoo_loop_and_cli_names():
    env = tabletop_zoo.make_env("irish_gauge", num_players=3)
    agents = [
        make_agent("mcts", "irish_gauge", seed=1, simulations=50, rollout_depth=5),
        make_agent("heuristic", "irish_gauge", seed=2),
        make_agent("random", "irish_gauge", seed=3),
    ]
    result = play_game(env, agents, seed=4)
    assert sum(r["reward"] for r in result.values()) == pytest.approx(1.0)


# --- hidden information: IS-MCTS on Kuhn poker ---------------------------------------------------
@pytest.fixture(scope="module", autouse=True)
def _register_stub():
    dispatch.register(kuhn)


def after_bet(card_0, card_1):
    s = kuhn.new_state(cards=(card_0, card_1))
    kuhn.step(s, kuhn.BET_OR_CALL)  # seat 0 bets; seat 1 to act
    return s


def test_ismcts_calls_with_the_king_and_folds_the_jack():
    agent = MCTSAgent(simulations=300, seed=1)
    assert agent.act_for_seat(after_bet(0, 2)) == kuhn.BET_OR_CALL  # K always wins the showdown
    assert agent.act_for_seat(after_bet(2, 0)) == kuhn.CHECK_OR_FOLD  # J always loses it


def test_ismcts_never_reads_the_other_seats_card():
    """Seat 1 holds Q facing a bet; whether seat 0 holds J or K must change nothing in its search."""
    agent = MCTSAgent(simulations=300, seed=2)
    moves, trees = set(), set()
    for secret in (0, 2):
        moves.add(agent.act_for_seat(after_bet(secret, 1)))
        trees.add(tuple(agent.last_visits))
    assert len(moves) == 1 and len(trees) == 1


def test_determinize_keeps_what_the_seat_sees():
    s = after_bet(2, 1)
    seen = np.zeros(kuhn.OBS_SIZE, np.float32)
    kuhn.observe(s, 1, seen)
    samples = set()
    for seed in range(20):
        t = s.copy()
        kuhn.determinize(t, 1, seed)
        again = np.zeros(kuhn.OBS_SIZE, np.float32)
        kuhn.observe(t, 1, again)
        assert np.array_equal(seen, again)
        samples.add(int(t[0]["card"][0]))
    assert samples == {0, 2}


def test_a_tree_grown_in_chunks_is_the_tree_of_one_search():
    """``grow`` continues a tree: chunks of any size give the very visits and values of one ``search`` call."""
    from tabletop_zoo.agents.mcts.uct import grow, new_tree, root_statistics, search

    s = ig.new_state(4, 8)
    expected = np.zeros(ig.NUM_ACTIONS, np.int64), np.zeros(ig.NUM_ACTIONS)
    search(s, 150, 10, 1.0, np.uint64(3), *expected)
    tree = new_tree(s, 150, np.uint64(3))
    for chunk in (1, 32, 17, 100):
        grow(s, chunk, 10, 1.0, *tree)
    got = np.zeros(ig.NUM_ACTIONS, np.int64), np.zeros(ig.NUM_ACTIONS)
    action, first_child, next_sibling, visits, _, value = tree[:6]
    root_statistics(s, action, first_child, next_sibling, visits, value, *got)
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])
    assert expected[0].sum() == 150


@pytest.mark.parametrize("threads", [1, 2])
def test_seconds_stops_the_search_at_the_clock(threads):
    """With no time left the search stops after its first chunk of each tree; with time to spare it runs its
    whole budget and equals the search without a clock."""
    from tabletop_zoo.agents.mcts.agent import SECONDS_CHUNK

    s = ig.new_state(4, 8)
    visits, _ = search_root(s, 10_000, 10, 1.0, seed=1, threads=threads, seconds=0.0)
    assert visits.sum() == threads * SECONDS_CHUNK
    timed = search_root(s, 100, 10, 1.0, seed=1, threads=threads, seconds=3600.0)
    plain = search_root(s, 100, 10, 1.0, seed=1, threads=threads)
    assert np.array_equal(timed[0], plain[0]) and np.array_equal(timed[1], plain[1])
    agent = MCTSAgent(simulations=10_000, seconds=0.0, threads=threads)
    assert agent._search(s, np.uint64(1))[0].sum() == agent.threads * SECONDS_CHUNK  # threads: at most the cores


def test_simulations_and_seconds_have_limits():
    from tabletop_zoo.agents.mcts.agent import MAX_SIMULATIONS

    assert MAX_SIMULATIONS == 1_000_000
    MCTSAgent(simulations=1_000_000)
    with pytest.raises(ValueError, match=r"simulations must be an integer >= 1 and <= 1000000 .*got 1000001"):
        MCTSAgent(simulations=1_000_001)
    with pytest.raises(ValueError, match="seconds must be a finite number >= 0.0, got -1"):
        MCTSAgent(seconds=-1)
