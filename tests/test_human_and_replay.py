"""Terminal play driven through its prompt; replays reproduce games exactly and refuse corrupted files."""

import io
import json

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

import tabletop_zoo
from tabletop_zoo import arena, registry
from tabletop_zoo.agents import RandomAgent
from tabletop_zoo.cli import app
from tabletop_zoo.play import play_game
from tabletop_zoo.replay import (
    ReplayError,
    frame_positions,
    load_replay,
    parse_replay,
    replay_of,
    save_replay,
    write_gif,
    write_video,
)

runner = CliRunner()
HUMAN_TURN = "to move, decision"  # the header printed once per human turn


def flat(text: str) -> str:
    return " ".join(text.split())


def lowest_legal_moves_of(replay, seat: int) -> list[tuple[int, int, int]]:
    """(action played, lowest legal action, number of legal actions) at each decision of ``seat``."""
    env = replay.make_env()
    moves = []
    for action in replay.actions:
        if env.agent_selection == f"player_{seat}":
            moves.append((action, env.legal_actions()[0], len(env.legal_actions())))
        env.step(action)
    return moves


# --- human play --------------------------------------------------------------------------------------
def test_human_plays_to_the_end_with_an_invalid_entry_and_an_undo(tmp_path):
    """Seat 0 always types 1 (its lowest legal move) against random agents; 'x' is refused, 'u' undoes."""
    path = tmp_path / "game.json"
    typed = "x\n1\n1\nu\n" + "1\n" * 2000  # more than enough: the game ends long before
    result = runner.invoke(
        app,
        ["play", "irish_gauge", "--players", "3", "--seed", "1", "--human", "0", "--save-replay", str(path)],
        input=typed,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "'x' is not a move: enter a number from 1 to" in flat(out) and "u (undo your last move) or q (quit)" in flat(
        out
    )
    assert "undone: your last move and the" in out
    assert "final scores" in out and "human" in out
    replay = load_replay(path)  # verified: it reproduces the final state
    assert replay.finished and replay.agents == ["human", "random", "random"]
    human_moves = lowest_legal_moves_of(replay, 0)
    assert all(played == lowest for played, lowest, _ in human_moves)  # '1' always chose the first listed move
    # one turn ended with the undone move and one with the 'u' itself; every other turn made a kept move,
    # except the forced ones (a single legal move), which are played without asking
    forced = sum(n == 1 for _, _, n in human_moves)
    # (a forced move undone with the move before it is played again, so it may be reported twice)
    assert out.count("(the only legal move)") >= forced
    assert out.count(HUMAN_TURN) == len(human_moves) - forced + 2


def test_human_quit_and_closed_input_save_the_unfinished_game(tmp_path):
    for typed, message in (("1\nq\n", "quit after"), ("1\n", "input closed")):
        path = tmp_path / "partial.json"
        result = runner.invoke(
            app,
            ["play", "irish_gauge", "--players", "3", "--seed", "4", "--human", "1", "--save-replay", str(path)],
            input=typed,
        )
        assert result.exit_code == 0, result.output
        assert message in result.output and "unfinished game" in result.output
        replay = load_replay(path)
        assert not replay.finished and replay.rewards is None
        assert [seat for seat in _movers(replay)].count(1) == 1  # exactly the one move typed


def _movers(replay):
    env = replay.make_env()
    for action in replay.actions:
        yield int(env.agent_selection.removeprefix("player_"))
        env.step(action)


def test_undo_with_nothing_to_undo_and_hot_seat(tmp_path):
    result = runner.invoke(
        app,
        ["play", "irish_gauge", "--players", "3", "--seed", "2", "--human", "0", "--human", "1", "--human", "2"],
        input="u\n" + "1\n" * 3000,
    )
    assert result.exit_code == 0, result.output
    assert "nothing to undo: no human move yet" in result.output
    assert "final scores" in result.output and "random" not in result.output


def test_skip_forced_human_play_is_the_same_game_with_fewer_prompts():
    """A human who always types 1 plays the same game with or without skip_forced: a forced move is the
    first (only) listed move anyway; skip_forced only stops asking for it."""
    from rich.console import Console

    from tabletop_zoo.human import HumanGame

    outcomes = {}
    for skip in (False, True):
        env = tabletop_zoo.make_env("french_revolution_1789", num_players=3, render_mode="ansi")
        prompts = []
        game = HumanGame(
            env,
            [None, RandomAgent(seed=1), RandomAgent(seed=2)],
            seed=6,
            console=Console(file=io.StringIO()),
            ask=lambda text, asked=prompts: asked.append(text) or "1",
            skip_forced=skip,
        )
        assert game.run()
        outcomes[skip] = (env.get_state().tobytes(), list(env.history), len(prompts))
    assert outcomes[True][:2] == outcomes[False][:2]
    assert outcomes[True][2] < outcomes[False][2]


def test_human_play_rejects_bad_seats_and_agent_counts():
    for args, message in (
        (["--human", "3"], "--human seat 3 does not exist: seats are 0..2"),
        (
            ["--human", "0", "--agents", "random,random,random"],
            "3 players with 1 human seat(s) need 1 or 2 agents, got 3",
        ),
    ):
        result = runner.invoke(app, ["play", "irish_gauge", "--players", "3", *args], input="q\n")
        assert result.exit_code != 0 and message in flat(result.output), result.output


# --- replays reproduce --------------------------------------------------------------------------------
def _random_game(game: str, seed: int = 3, stop_after: int | None = None):
    k = registry.kernel(game)
    env = tabletop_zoo.make_env(game, num_players=k.MIN_PLAYERS)
    if stop_after is None:
        play_game(env, [RandomAgent(seed=i) for i in range(env.num_players)], seed=seed)
        return env
    env.reset(seed=seed)
    agent = RandomAgent(seed=0)
    for _ in range(stop_after):
        obs = env.observe(env.agent_selection)
        env.step(agent.act(obs["observation"], obs["action_mask"]))
    return env


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_replay_reproduces_the_final_state_bytes(game, tmp_path):
    env = tabletop_zoo.make_env(game, num_players=registry.kernel(game).MIN_PLAYERS)
    result = play_game(env, [RandomAgent(seed=i) for i in range(env.num_players)], seed=3)
    saved = save_replay(env, tmp_path / "r.json", agents=["random"] * env.num_players)
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["game"] == game and data["env_version"] == f"{game}_v0" and data["seed"] == 3
    assert (
        data["kernel_version"] == registry.kernel(game).VERSION and data["package_version"] == tabletop_zoo.__version__
    )
    assert data["actions"] == env.history and data["options"] == env.options and data["finished"]
    replay = load_replay(tmp_path / "r.json")
    assert replay == saved
    assert replay.final_state().tobytes() == env.get_state().tobytes()
    assert replay.scores == [result[a]["score"] for a in env.possible_agents]
    assert replay.rewards == [result[a]["reward"] for a in env.possible_agents]
    positions = list(replay.steps())
    assert len(positions) == len(env.history) + 1 and positions[0].action is None
    assert positions[-1].state.tobytes() == env.get_state().tobytes()
    assert [p.action for p in positions[1:]] == env.history


def test_replay_of_an_unfinished_game_and_of_a_restored_env(tmp_path):
    env = _random_game("irish_gauge", stop_after=12)
    replay = save_replay(env, tmp_path / "part.json")
    assert not replay.finished and len(replay.actions) == 12
    assert load_replay(tmp_path / "part.json").final_state().tobytes() == env.get_state().tobytes()
    restored = tabletop_zoo.make_env("irish_gauge", num_players=3)
    restored.set_state(env.get_state())
    with pytest.raises(ValueError, match="restored with set_state"):
        replay_of(restored)
    with pytest.raises(ValueError, match="call reset"):
        replay_of(tabletop_zoo.make_env("irish_gauge"))


# --- corrupted replays --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def finished():
    env = _random_game("irish_gauge", seed=5)
    return env, replay_of(env).to_dict()


def _changed(data: dict, **fields) -> dict:
    return {**json.loads(json.dumps(data)), **fields}


def _illegal_action_at(data: dict, step: int) -> int:
    env = parse_replay(_changed(data)).make_env()
    for action in data["actions"][:step]:
        env.step(action)
    return int(np.flatnonzero(env.action_mask() == 0)[0])


def test_truncated_json_is_not_a_replay(finished, tmp_path):
    _, data = finished
    text = json.dumps(data)
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2])
    with pytest.raises(ReplayError, match="is not a replay: not valid JSON .* may be truncated"):
        load_replay(path)
    with pytest.raises(ReplayError, match="cannot read replay"):
        load_replay(tmp_path / "missing.json")


def test_changed_actions_do_not_reproduce(finished):
    _, data = finished
    actions = list(data["actions"])
    illegal = _illegal_action_at(data, 5)
    with pytest.raises(ReplayError, match=rf"does not reproduce its game .*action {illegal} .* at step 6 is illegal"):
        parse_replay(_changed(data, actions=actions[:5] + [illegal] + actions[6:]))
    with pytest.raises(ReplayError, match="the game is over after .* actions, but the replay has"):
        parse_replay(_changed(data, actions=actions + [actions[-1]]))
    with pytest.raises(ReplayError, match="the game is still running, but the file says finished=True"):
        parse_replay(_changed(data, actions=actions[:-1]))
    with pytest.raises(ReplayError, match="does not reproduce the recorded final state"):
        parse_replay(_changed(data, final_state_sha256="0" * 64))
    with pytest.raises(ReplayError, match="does not reproduce the recorded outcome"):
        parse_replay(_changed(data, scores=[s + 1 for s in data["scores"]]))


def test_a_replay_of_another_version_is_refused_naming_both(finished):
    _, data = finished
    with pytest.raises(
        ReplayError,
        match=r"recorded with irish_gauge_v0 \(kernel version 7, tabletop-zoo 9.9.9\), "
        r"but the installed game is irish_gauge_v0 \(kernel version 0",
    ):
        parse_replay(_changed(data, kernel_version=7, package_version="9.9.9"))
    with pytest.raises(ReplayError, match="recorded with irish_gauge_v1 .* installed game is irish_gauge_v0"):
        parse_replay(_changed(data, env_version="irish_gauge_v1"))


def test_malformed_fields_are_named(finished):
    _, data = finished
    broken = _changed(data)
    del broken["seed"]
    for bad, message in (
        (broken, r"missing replay field\(s\) \['seed'\]"),
        (_changed(data, seed="5"), "field 'seed' must be an int, got '5'"),
        (_changed(data, actions=[1, "2"]), "'actions' must hold int action ids, got '2'"),
        (_changed(data, finished="yes"), "field 'finished' must be true or false"),
        (_changed(data, num_players=True), "field 'num_players' must be an int"),
        (_changed(data, game="chess"), "unknown game 'chess'"),
        (_changed(data, agents=["random"]), "'agents' must be a list of 3 strings"),
        (_changed(data, format="something"), "is not a replay: its 'format'"),
        (_changed(data, format_version=2), "reads version 1"),
        (_changed(data, num_players=9), "cannot set up the game"),
        (_changed(data, options={"ruleset": "house"}), "ruleset must be one of"),
        ([1, 2], "expected a JSON object, got list"),
    ):
        with pytest.raises(ReplayError, match=message):
            parse_replay(bad)


# --- the replay command -------------------------------------------------------------------------------
def test_cli_replay_prints_every_move_and_rejects_corrupt_files(finished, tmp_path):
    env, data = finished
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path), "--every", "1000"])
    assert result.exit_code == 0, result.output
    assert f"{len(data['actions'])} decisions (replay verified)" in result.output
    assert result.output.count("\nstep ") == len(data["actions"])
    assert f"step 1: player_0 {env.kernel.action_name(env.kernel.new_state(3, 5), data['actions'][0])}" in result.output
    assert result.output.count("Irish Gauge - ") == 2  # the start and the end (--every 1000 > game length)
    stepped = runner.invoke(app, ["replay", str(path), "--step", "--every", "5"], input="\nq\n")
    assert stepped.exit_code == 0, stepped.output  # Enter after the start, q after position 5
    assert "\nstep 5: " in stepped.output and "\nstep 6: " not in stepped.output
    path.write_text(json.dumps(data)[:100])
    bad = runner.invoke(app, ["replay", str(path)])
    assert bad.exit_code != 0 and "not valid JSON" in flat(bad.output)


def test_cli_replays_an_arena_game(tmp_path):
    out = tmp_path / "run"
    arena.run(
        "irish_gauge", ["random", "heuristic"], num_players=3, games=2, seed=1, out=out, workers=1, progress=False
    )
    saved = tmp_path / "game1.json"
    result = runner.invoke(
        app, ["replay", str(out / "games.jsonl"), "--game-index", "1", "--save", str(saved), "--every", "1000"]
    )
    assert result.exit_code == 0, result.output
    record = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()][1]
    replay = load_replay(saved)
    assert list(replay.actions) == record["actions"] and replay.scores == record["scores"]
    assert replay.agents == record["agents"] and replay.seed == record["seed"]
    missing = runner.invoke(app, ["replay", str(out / "games.jsonl"), "--game-index", "5"])
    assert missing.exit_code != 0 and "has no game 5; games recorded: 0..1" in flat(missing.output)
    need_index = runner.invoke(app, ["replay", str(out / "games.jsonl")])
    assert need_index.exit_code != 0 and "choose one with --game-index" in flat(need_index.output)


# --- GIFs ---------------------------------------------------------------------------------------------
def test_frame_positions_keep_the_ends_and_respect_the_cap():
    assert frame_positions(10) == list(range(11))
    assert frame_positions(10, every=4) == [0, 4, 8, 10]
    assert frame_positions(10, max_frames=3) == [0, 5, 10]
    assert all(len(frame_positions(n, 1, m)) <= m for n in (1, 7, 99, 500) for m in (2, 3, 10, 200))
    with pytest.raises(ValueError, match="every must be an int >= 1"):
        frame_positions(10, every=0)
    with pytest.raises(ValueError, match="max_frames must be an int >= 2"):
        frame_positions(10, max_frames=1)


def test_gif_has_one_frame_per_chosen_position(tmp_path):
    """Depends on the game's rgb_array renderer (uint8[800, 1280, 3])."""
    replay = replay_of(_random_game("irish_gauge", stop_after=6))
    for every, max_frames, expected in ((1, None, 7), (1, 3, 3)):
        path = tmp_path / f"g{every}_{max_frames}.gif"
        assert write_gif(replay, path, fps=5, every=every, max_frames=max_frames) == expected
        with Image.open(path) as gif:
            assert gif.format == "GIF" and gif.n_frames == expected and gif.is_animated
            assert gif.size == (1280, 830)  # the board plus the caption strip
    saved = tmp_path / "part.json"
    replay.save(saved)
    result = runner.invoke(app, ["replay", str(saved), "--to-gif", str(tmp_path / "cli.gif"), "--every", "4"])
    assert result.exit_code == 0, result.output
    with Image.open(tmp_path / "cli.gif") as gif:
        assert gif.n_frames == 3  # positions 0, 4 and 6


def test_mp4_through_imageio_and_video_errors(tmp_path):
    import imageio.v2 as imageio

    replay = replay_of(_random_game("kremlin", stop_after=5))
    assert write_video(replay, tmp_path / "k.mp4", fps=4, max_frames=3) == 3
    with imageio.get_reader(tmp_path / "k.mp4", format="FFMPEG") as video:
        assert video.count_frames() == 3 and video.get_data(0).shape == (830, 1280, 3)
    with pytest.raises(ValueError, match="must end in .gif or .mp4"):
        write_video(replay, tmp_path / "k.avi")
    with pytest.raises(ValueError, match="fps must be a number > 0"):
        write_video(replay, tmp_path / "k.mp4", fps=0)
    saved = tmp_path / "k.json"
    replay.save(saved)
    result = runner.invoke(app, ["replay", str(saved), "--to-mp4", str(tmp_path / "cli.mp4"), "--max-frames", "2"])
    assert result.exit_code == 0, result.output
    assert "cli.mp4: 2 frames of 5 decisions" in result.output
    bad = runner.invoke(app, ["replay", str(saved), "--to-mp4", str(tmp_path / "cli.gif")])
    assert bad.exit_code != 0 and "--to-mp4 needs a file name ending in .mp4" in flat(bad.output)


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_game_films_a_gif(game, tmp_path):
    """Every game renders rgb_array frames (uint8[800, 1280, 3]), so any replay can be filmed."""
    replay = replay_of(_random_game(game, stop_after=4))
    assert write_gif(replay, tmp_path / "g.gif", max_frames=2) == 2
    with Image.open(tmp_path / "g.gif") as gif:
        assert gif.format == "GIF" and gif.n_frames == 2 and gif.size == (1280, 830)
