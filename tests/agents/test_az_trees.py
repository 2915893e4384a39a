"""The az searches grow the same trees as before PUCT was written once (#47): the batched self-play search
(``search_batch``: a blank and a non-uniform evaluator, with and without root noise), the agent's play search
(``inline.grow`` at several ``mix`` and ``temperature`` values, grown in chunks) and the agent's moves with the
shipped networks (its whole budget; stopping early, it plays the same moves), in every game at its fewest and its
most seats.

The goldens (``goldens/az_trees.npz``) were written by the code before the change; every array of a tree is
compared: node actions, child lists, rows, visits (exactly) and summed values (to float tolerance, since the
policy head's dot products may be summed in another order on another CPU). The positions, the evaluator and the
network are formulas, so the goldens depend on no library's random stream. Write them again only for an
intended change of behaviour: ``python -m tests.agents.test_az_trees``.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import registry

GOLDENS = pathlib.Path(__file__).parent / "goldens" / "az_trees.npz"
SIMULATIONS = 48
CASES = [
    (g, n) for g in sorted(tabletop_zoo.GAMES) for n in registry.player_counts(g)[:: len(registry.player_counts(g)) - 1]
]
INLINE_SETTINGS = [(0.0, 1.0), (0.5, 1.7), (1.0, 1.0), (1.0, 0.6)]  # (mix, temperature)
TREE_FIELDS = ("action", "first_child", "next_sibling", "row", "visits", "value")


def positions(k, num_players: int, count: int, every: int = 9) -> np.ndarray:
    """Records after 0, every, 2 * every, ... decisions of one game, each decision a formula of the step."""
    s, mask, out, step = k.new_state(num_players, 3), np.zeros(k.NUM_ACTIONS, np.uint8), [], 0
    while len(out) < count and not k.is_over(s):
        if step % every == 0:
            out.append(s.copy())
        k.legal_mask(s, mask)
        legal = np.flatnonzero(mask)
        k.step(s, int(legal[(step * 7919 + 5) % legal.size]))
        step += 1
    return np.concatenate(out)


def formula_evaluator(obs: np.ndarray, mask: np.ndarray, num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """A non-uniform prior and value from the observation's non-zero entries, in exact arithmetic."""
    h = np.array([np.flatnonzero(o).sum() for o in obs], np.int64)
    weight = mask * (1 + (np.arange(mask.shape[1])[None] * 7 + h[:, None]) % 5)
    prior = (weight / weight.sum(axis=1, keepdims=True)).astype(np.float32)
    value = (((h[:, None] + 3 * np.arange(num_players)[None]) % 7 - 3) / 4).astype(np.float32)
    return prior, value


def formula_noise(prior: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Root noise without randomness: a quarter of the prior moved to the uniform over the legal actions."""
    return (0.75 * prior + 0.25 * mask / mask.sum(axis=1, keepdims=True)).astype(np.float32)


def formula_net(k, width: int = 8):
    """A two-layer ``NumbaNet`` whose weights are a formula of their indices."""
    from tabletop_zoo.agents.az.inline import NumbaNet

    def table(rows, cols, salt, scale=8.0):
        i, j = np.arange(rows)[:, None], np.arange(cols)[None]
        return (((i * 7 + j * 13 + salt) % 11 - 5) / scale).astype(np.float32)

    return NumbaNet(
        [table(k.OBS_SIZE, width, 1), table(width, width, 2)],
        [table(1, width, 3)[0], table(1, width, 4)[0]],
        table(k.NUM_ACTIONS, width, 5),
        table(1, k.NUM_ACTIONS, 6)[0],
        table(k.MAX_PLAYERS, width, 7, 32.0),
        table(1, k.MAX_PLAYERS, 8, 32.0)[0],
    )


def batched_trees(game: str, n: int) -> dict[str, np.ndarray]:
    """Three positions searched together, by each evaluator: root statistics and every tree's arrays."""
    from tabletop_zoo.agents.az import Trees, search_batch, uniform_evaluator

    k = registry.kernel(game)
    roots = positions(k, n, 3)
    out = {}
    for name, evaluate, noise in (
        ("uniform", uniform_evaluator, None),
        ("formula", formula_evaluator, None),
        ("noise", formula_evaluator, formula_noise),
    ):
        trees = Trees(len(roots), SIMULATIONS, k.NUM_ACTIONS, k.MAX_PLAYERS, k.OBS_SIZE)
        seeds = np.array([11, 12, 2**63 + 13][: len(roots)], np.uint64)
        visits, mean = search_batch(roots, n, trees, evaluate, SIMULATIONS, 1.25, seeds, noise)
        out[f"{name}/root_visits"], out[f"{name}/root_value"] = visits, mean
        for field in TREE_FIELDS:
            out[f"{name}/{field}"] = getattr(trees, field).copy()
    return out


def inline_trees(game: str, n: int) -> dict[str, np.ndarray]:
    """One position searched by the play search at each (mix, temperature), in chunks of 20 simulations."""
    from tabletop_zoo.agents.az import inline

    k = registry.kernel(game)
    root = positions(k, n, 2)[1:2]
    net = formula_net(k)
    out = {}
    for mix, temperature in INLINE_SETTINGS:
        tree = inline.Tree(SIMULATIONS, k, net)
        tree.reset(np.uint64(21))
        ran = [
            inline.grow(root, chunk, -1, n, 1.25, temperature, mix, 6, net.arrays(), *tree.arrays())
            for chunk in (20, 20, SIMULATIONS)
        ]
        visits, mean = np.zeros(k.NUM_ACTIONS, np.int32), np.zeros(k.NUM_ACTIONS)
        t = tree
        inline.root_statistics(
            t.counts, t.action, t.first_child, t.next_sibling, t.visits, t.value, int(k.to_move(root)), visits, mean
        )
        name = f"mix{mix}-t{temperature}"
        out[f"{name}/ran"], out[f"{name}/counts"] = np.array(ran), t.counts.copy()
        out[f"{name}/root_visits"], out[f"{name}/root_value"] = visits, mean
        for field in TREE_FIELDS:
            out[f"{name}/{field}"] = getattr(t, field).copy()
    return out


def agent_moves(game: str, n: int, early_stop: bool = False) -> dict[str, np.ndarray]:
    """The shipped network's agent at its defaults on three positions, searching its whole budget unless
    ``early_stop``: its moves and root visits."""
    from tabletop_zoo.agents import make_agent

    k = registry.kernel(game)
    agent = make_agent("az", game, seed=4, early_stop=early_stop)
    moves, visits = [], []
    roots = positions(k, n, 3, every=11)
    for i in range(len(roots)):
        moves.append(agent.act_for_seat(roots[i : i + 1]))
        visits.append(agent.last_visits.copy())
    return {"moves": np.array(moves), "visits": np.array(visits)}


KINDS = {"batched": batched_trees, "inline": inline_trees, "agent": agent_moves}


def compute(game: str, n: int, kind: str) -> dict[str, np.ndarray]:
    return {f"{game}-{n}p/{kind}/{key}": value for key, value in KINDS[kind](game, n).items()}


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize(("game", "n"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_the_search_grows_the_golden_trees(game, n, kind):
    pytest.importorskip("torch")
    golden = np.load(GOLDENS)
    now = compute(game, n, kind)
    expected = sorted(key for key in golden.files if key.startswith(f"{game}-{n}p/{kind}/"))
    assert sorted(now) == expected
    for key in expected:
        if np.issubdtype(golden[key].dtype, np.floating):
            assert np.allclose(now[key], golden[key], rtol=1e-6, atol=1e-9), key
        else:
            assert np.array_equal(now[key], golden[key]), key


@pytest.mark.parametrize(("game", "n"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_an_early_stop_plays_the_golden_moves_in_fewer_simulations(game, n):
    """The agent's default: it stops once no simulation left can change the move, so its moves are the whole
    budget's."""
    pytest.importorskip("torch")
    golden = np.load(GOLDENS)
    now = agent_moves(game, n, early_stop=True)
    assert np.array_equal(now["moves"], golden[f"{game}-{n}p/agent/moves"])
    assert (now["visits"].sum(1) <= golden[f"{game}-{n}p/agent/visits"].sum(1)).all()


if __name__ == "__main__":
    arrays = {}
    for game, n in CASES:
        for kind in KINDS:
            arrays.update(compute(game, n, kind))
            print(game, n, kind, flush=True)
    GOLDENS.parent.mkdir(exist_ok=True)
    np.savez_compressed(GOLDENS, **arrays)
    print(f"wrote {GOLDENS} ({len(arrays)} arrays)")
