"""Issue #16: every bad input to records, actions and options is a clear error before a kernel sees it."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from tabletop_zoo import registry
from tabletop_zoo.kernels._common.checked import checked
from tabletop_zoo.kernels._common.contract import contract_problems
from tabletop_zoo.replay import ReplayError, arena_replay

# A seat field per game that the kernels index with (to_move and the auction/turn order read it).
SEAT_FIELDS = {"irish_gauge": "active", "veld_railroads": "active", "imperial": "investor_card"}


def _mid_game_env(game: str, steps: int = 12):
    env = registry.make_env(game)
    env.reset(seed=3)
    for _ in range(steps):
        if not env.agents:
            break
        env.step(env.legal_actions()[0])
    return env


def test_every_kernel_exports_validate(game_id):
    k = registry.kernel(game_id)
    assert contract_problems(k) == []
    assert callable(k.validate)
    s = k.new_state(k.MIN_PLAYERS, 1)
    assert k.validate(s) == []


@pytest.mark.parametrize("game", sorted(SEAT_FIELDS))
@pytest.mark.parametrize("value", [7, -3])
def test_set_state_rejects_an_out_of_range_seat_field(game, value):
    """A seat of 7 gave a bare IndexError and -3 silently became player_0 (issue #16)."""
    env = _mid_game_env(game)
    before = env.get_state()
    s = env.get_state()
    s[0][SEAT_FIELDS[game]] = value
    with pytest.raises(ValueError, match=rf"{SEAT_FIELDS[game]} = {value}, allowed 0\.\.\d"):
        env.set_state(s)
    with pytest.raises(ValueError, match="set_state: invalid"):
        env.set_state(s.tobytes())
    assert env.get_state().tobytes() == before.tobytes()  # the env kept its game


def test_set_state_rejects_wrong_sizes_and_player_counts(game_id):
    env = _mid_game_env(game_id, steps=2)
    with pytest.raises(ValueError, match="bytes"):
        env.set_state(b"\0" * 3)
    s = env.get_state()
    s[0]["num_players"] = 99
    with pytest.raises(ValueError, match="num_players = 99"):
        env.set_state(s)


def test_unpickling_a_corrupted_env_is_rejected():
    env = _mid_game_env("irish_gauge")
    env._s[0]["auc_company"] = 40  # corrupt the live record behind the env's back, then ship it
    with pytest.raises(ValueError, match="unpickled env: invalid irish_gauge state.*auc_company"):
        pickle.loads(pickle.dumps(env))


def test_reset_options_must_be_a_dict(game_id):
    env = registry.make_env(game_id)
    with pytest.raises(TypeError, match="options must be a dict"):
        env.reset(seed=1, options="x")


def test_options_are_checked_against_their_field_storage():
    """major_city_bonus=70000 wrapped to 4464 in its int16 field (issue #16)."""
    with pytest.raises(
        ValueError, match=r"major_city_bonus must be an int in 0\.\.32767 \(stored as int16\), got 70000"
    ):
        registry.make_env("irish_gauge", major_city_bonus=70000)
    with pytest.raises(ValueError, match=r"tax_chips_per_nation must be an int in 1\.\.30"):
        registry.make_env("imperial", tax_chips_per_nation=200)
    with pytest.raises(ValueError, match=r"max_nation_turns must be an int in 1\.\.2000"):
        registry.make_env("imperial", max_nation_turns=1.5)


@pytest.mark.parametrize(
    "action, message",
    [
        (-1, r"action -1 in env 1 is out of range"),
        (10**6, r"action 1000000 in env 1 is out of range"),
        (1.5, r"actions must be integers"),
    ],
)
def test_vector_env_rejects_bad_actions(action, message):
    """-1 read the last action's mask and was applied; 10**6 gave a numpy IndexError (issue #16)."""
    from tabletop_zoo.envs.wrappers.vector import KernelVecEnv

    venv = KernelVecEnv("irish_gauge", num_envs=2, seed=1)
    venv.reset()
    actions = np.array([int(np.flatnonzero(m)[0]) for m in venv.action_masks()], dtype=object)
    actions[1] = action
    with pytest.raises((ValueError, TypeError), match=message):
        venv.step(np.array(actions.tolist()))


def test_vector_env_rejects_an_illegal_action_naming_the_env():
    from tabletop_zoo.envs.wrappers.vector import KernelVecEnv

    venv = KernelVecEnv("irish_gauge", num_envs=2, seed=1)
    venv.reset()
    masks = venv.action_masks()
    actions = [int(np.flatnonzero(m)[0]) for m in masks]
    actions[0] = int(np.flatnonzero(masks[0] == 0)[0])
    with pytest.raises(ValueError, match=rf"illegal action {actions[0]} in env 0 \(seat \d\); legal there"):
        venv.step(np.array(actions))


@pytest.mark.parametrize("action, error", [(-1, ValueError), (10**6, ValueError), (1.5, TypeError), ("x", TypeError)])
def test_single_seat_env_rejects_bad_actions(action, error):
    from tabletop_zoo.envs.wrappers.single_seat import SingleSeatEnv

    env = SingleSeatEnv("irish_gauge", seed=1)
    env.reset()
    with pytest.raises(error, match="action"):
        env.step(action)


def test_checked_kernel_rejects_bad_records_and_actions():
    k = checked(registry.kernel("irish_gauge"))
    s = k.new_state(3, 1)
    with pytest.raises(ValueError, match="step: action 999 is out of range 0..221"):
        k.step(s, 999)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    with pytest.raises(ValueError, match="is illegal; legal now"):
        k.step(s, int(np.flatnonzero(mask == 0)[0]))
    k.step(s, int(np.flatnonzero(mask)[0]))  # a legal action goes through
    s[0]["cube"][0] = 9
    with pytest.raises(ValueError, match=r"observe \(before the call\): invalid irish_gauge state.*cube\[0\] = 9"):
        k.observe(s, 0, np.zeros(k.OBS_SIZE, np.float32))


def test_policy_agent_names_a_missing_model_file(tmp_path):
    from tabletop_zoo.agents.policy_agent import PolicyAgent

    missing = tmp_path / "model.zip"
    with pytest.raises(ValueError, match="no saved model at") as info:
        PolicyAgent(path=str(missing))
    assert "model.zip.zip'" not in str(info.value).split("(nor")[0]


def test_arena_replay_rejects_a_non_object_line(tmp_path):
    (tmp_path / "run.json").write_text(json.dumps({"game": "irish_gauge", "players": 3}))
    games = tmp_path / "games.jsonl"
    games.write_text('{"game": 0, "seed": 1, "actions": []}\n[1, 2]\n')
    with pytest.raises(ReplayError, match="line 2 is not an arena game record: expected a JSON object, got list"):
        arena_replay(games, 0)
