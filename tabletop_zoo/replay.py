"""Replays: a finished (or unfinished) game saved as JSON, checked when loaded, stepped through or filmed.

A game is fully determined by (game, options, num_players, seed, actions): chance is drawn from the RNG
inside the state record, seeded by ``reset(seed)``. A replay file stores exactly that, plus what the game
ended with (rewards, scores and the sha256 of the final state bytes) so loading it proves it still
reproduces::

    {"format": "tabletop-zoo replay", "format_version": 1,
     "game": "irish_gauge", "env_version": "irish_gauge_v0", "kernel_version": 0, "package_version": "0.1.0",
     "num_players": 3, "options": {"ruleset": "seed", "major_city_bonus": 0}, "seed": 7,
     "actions": [0, 185, ...], "agents": ["human", "random", "random"],
     "finished": true, "rewards": [1.0, 0.0, 0.0], "scores": [131, 97, 88],
     "final_state_sha256": "9f2c..."}

``load_replay`` refuses a file recorded with another game version (``env_version`` / ``kernel_version``;
the package version is informative only, since most releases leave the rules alone) and re-plays every
action, so a changed, illegal or truncated action list, or a rules change that alters the outcome, is a
``ReplayError`` saying what does not reproduce.

    from tabletop_zoo.replay import load_replay, save_replay, write_gif, write_video
    save_replay(env, "game.json")               # any env played from reset(seed)
    replay = load_replay("game.json")           # validated
    for step in replay.steps("ansi"): print(step.action_name, step.frame)
    write_gif(replay, "game.gif", every=5)      # rgb_array frames, captioned with the move (imageio)
    write_video(replay, "game.mp4", fps=4)      # MP4 too (the ``video`` extra: imageio-ffmpeg)
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import pathlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from . import registry
from .files import atomic_write, check_writable, read_text, replaced_on_success
from .progress import Progress

if TYPE_CHECKING:
    from .envs.base import KernelAECEnv

FORMAT = "tabletop-zoo replay"
FORMAT_VERSION = 1
CAPTION_HEIGHT = 30  # pixels of the caption strip under each GIF frame

# field -> (accepted JSON types, what it must hold); checked before anything is replayed
_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "format": ((str,), f"the string {FORMAT!r}"),
    "format_version": ((int,), "an int"),
    "game": ((str,), "a game id"),
    "env_version": ((str,), "a string such as 'irish_gauge_v0'"),
    "kernel_version": ((int,), "an int"),
    "package_version": ((str,), "a string"),
    "num_players": ((int,), "an int"),
    "options": ((dict,), "an object of game options"),
    "seed": ((int,), "an int"),
    "actions": ((list,), "a list of action ids"),
    "finished": ((bool,), "true or false"),
    "rewards": ((list, type(None)), "a list of numbers, or null for an unfinished game"),
    "scores": ((list, type(None)), "a list of ints, or null for an unfinished game"),
    "final_state_sha256": ((str,), "64 hex digits"),
}


class ReplayError(ValueError):
    """A replay file that cannot be read, is malformed, or does not reproduce its game."""


def package_version() -> str:
    """The installed tabletop-zoo version (stored in each replay)."""
    from . import __version__

    return __version__


def env_version(game_id: str) -> str:
    """The versioned env name of a game, e.g. ``irish_gauge_v0``."""
    return registry.env_module(game_id).raw_env.metadata["name"]


def state_sha256(record: np.ndarray) -> str:
    """SHA-256 of a record's bytes (hex): a replay's check that it reproduces its game."""
    return hashlib.sha256(record.tobytes()).hexdigest()


def _outcome(kernel, record: np.ndarray, num_players: int) -> tuple[list[float], list[int]]:
    """(rewards, scores) of a finished game, straight from the kernel."""
    ret = np.zeros(kernel.MAX_PLAYERS, np.float64)
    score = np.zeros(kernel.MAX_PLAYERS, np.int64)
    kernel.returns(record, ret)
    kernel.scores(record, score)
    return [float(x) for x in ret[:num_players]], [int(x) for x in score[:num_players]]


# --- the replay -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayStep:
    """One position of a replayed game: after ``index`` actions, the last of them ``action``.

    ``action``/``action_name``/``seat`` describe the move that led here (None at the start); ``state`` is a
    copy of the record; ``frame`` is the env's render (str for ansi, uint8[H, W, 3] for rgb_array) or None.
    """

    index: int
    seat: int | None
    action: int | None
    action_name: str | None
    state: np.ndarray
    frame: object = None

    @property
    def label(self) -> str:
        """``start``, or ``step i: player_k <action name>`` (a frame's caption)."""
        if self.action is None:
            return "start"
        return f"step {self.index}: player_{self.seat} {self.action_name}"


@dataclass(frozen=True)
class Replay:
    game: str
    num_players: int
    options: dict
    seed: int
    actions: tuple[int, ...]
    finished: bool
    rewards: list[float] | None
    scores: list[int] | None
    final_state_sha256: str
    agents: list[str] | None = None
    env_version: str = ""
    kernel_version: int = 0
    package_version: str = field(default_factory=package_version)

    def to_dict(self) -> dict:
        """The replay as the JSON object its file holds (``format`` and ``format_version`` first)."""
        d = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "env_version": self.env_version,
            "kernel_version": self.kernel_version,
            "package_version": self.package_version,
            "num_players": self.num_players,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": list(self.actions),
            "finished": self.finished,
            "rewards": self.rewards,
            "scores": self.scores,
            "final_state_sha256": self.final_state_sha256,
        }
        if self.agents is not None:
            d["agents"] = list(self.agents)
        return d

    def save(self, path: str | os.PathLike) -> pathlib.Path:
        """Write the replay's JSON to ``path`` (atomically); returns the path."""
        path = pathlib.Path(path)
        atomic_write(path, json.dumps(self.to_dict(), indent=1) + "\n")
        return path

    def make_env(self, render_mode: str | None = None) -> KernelAECEnv:
        """A fresh env of this game, reset to the replay's seed (no action applied yet)."""
        env = registry.make_env(self.game, num_players=self.num_players, render_mode=render_mode, **self.options)
        env.reset(seed=self.seed)
        return env

    def steps(self, render_mode: str | None = None, positions=None) -> Iterator[ReplayStep]:
        """Every position from the start to the end (or only ``positions``, sorted indexes 0..len(actions))."""
        env = self.make_env(render_mode)
        wanted = None if positions is None else set(positions)
        seat = action = name = None
        for i in range(len(self.actions) + 1):
            if wanted is None or i in wanted:
                frame = env.render() if render_mode else None
                yield ReplayStep(i, seat, action, name, env.get_state(), frame)
            if i == len(self.actions):
                break
            action = self.actions[i]
            seat = int(env.agent_selection.removeprefix("player_"))
            name = env.action_name(action)
            env.step(action)

    def states(self) -> Iterator[np.ndarray]:
        """Copies of the record at every position, start and end included."""
        return (step.state for step in self.steps())

    def final_state(self) -> np.ndarray:
        """The record after every action of the replay, played from its seed."""
        env = self.make_env()
        for a in self.actions:
            env.step(a)
        return env.get_state()

    def frames(
        self, render_mode: str = "rgb_array", every: int = 1, max_frames: int | None = None
    ) -> Iterator[ReplayStep]:
        """Rendered positions: every ``every``-th one plus the last, thinned further to at most ``max_frames``."""
        return self.steps(render_mode, frame_positions(len(self.actions), every, max_frames))


def frame_positions(n_actions: int, every: int = 1, max_frames: int | None = None) -> list[int]:
    """Positions 0, k, 2k, ... and the final one; k grows from ``every`` until at most ``max_frames`` remain."""
    if isinstance(every, bool) or not isinstance(every, int) or every < 1:
        raise ValueError(f"every must be an int >= 1, got {every!r}")
    if max_frames is not None and (isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 2):
        raise ValueError(f"max_frames must be an int >= 2 (the first and the last position), got {max_frames!r}")
    stride = every
    if max_frames is not None and n_actions > 0:
        stride = max(every, math.ceil(n_actions / (max_frames - 1)))
    positions = list(range(0, n_actions + 1, stride))
    if positions[-1] != n_actions:
        positions.append(n_actions)
    return positions


# --- saving -----------------------------------------------------------------------------------------
def replay_of(env, agents: list[str] | None = None) -> Replay:
    """The replay of the game an env is playing (finished or not); ``agents`` labels the seats."""
    if getattr(env, "record", None) is None:
        raise ValueError("the env has no game yet: call reset(seed=...) and play before saving a replay")
    if env.history is None or env.seed_used is None:
        raise ValueError(
            "this game was restored with set_state(), so its start is unknown and it cannot be "
            "saved as a replay; play it from reset(seed=...) instead"
        )
    k = env.kernel
    if agents is not None and len(agents) != env.num_players:
        raise ValueError(f"agents must label each of the {env.num_players} seats, got {len(agents)}")
    record = env.get_state()
    finished = bool(k.is_over(record))
    rewards, scores = _outcome(k, record, env.num_players) if finished else (None, None)
    return Replay(
        game=k.GAME_ID,
        num_players=env.num_players,
        options=dict(env.options),
        seed=int(env.seed_used),
        actions=tuple(int(a) for a in env.history),
        finished=finished,
        rewards=rewards,
        scores=scores,
        final_state_sha256=state_sha256(record),
        agents=list(agents) if agents is not None else None,
        env_version=env_version(k.GAME_ID),
        kernel_version=int(k.VERSION),
    )


def save_replay(env, path: str | os.PathLike, agents: list[str] | None = None) -> Replay:
    """Write the env's game to ``path`` as replay JSON; returns the replay."""
    replay = replay_of(env, agents)
    replay.save(path)
    return replay


# --- loading and checking ---------------------------------------------------------------------------
def load_replay(path: str | os.PathLike) -> Replay:
    """Read and verify a replay file; raises ``ReplayError`` saying what is wrong."""
    path = pathlib.Path(path)
    text = _read(path, "replay ")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(
            f"{path} is not a replay: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno}); "
            "the file may be truncated"
        ) from None
    return parse_replay(data, source=str(path))


def _read(path: pathlib.Path, kind: str = "", what: str = "") -> str:
    """A replay or arena file's text; unreadable or damaged (not UTF-8) is a ``ReplayError`` naming it."""
    try:
        return read_text(path)
    except OSError as e:
        raise ReplayError(f"cannot read {kind}{path}{what}: {e.strerror or e}") from None
    except ValueError as e:  # not UTF-8
        raise ReplayError(str(e)) from None


def parse_replay(data, source: str = "replay") -> Replay:
    """Verify a replay's dict (as read from JSON) and re-play it; raises ``ReplayError``."""
    _check_fields(data, source)
    game = _check_game(data, source)
    replay = Replay(
        game=game,
        num_players=data["num_players"],
        options=data["options"],
        seed=data["seed"],
        actions=tuple(data["actions"]),
        finished=data["finished"],
        rewards=data["rewards"],
        scores=data["scores"],
        final_state_sha256=data["final_state_sha256"],
        agents=data.get("agents"),
        env_version=data["env_version"],
        kernel_version=data["kernel_version"],
        package_version=data["package_version"],
    )
    _verify(replay, source)
    return replay


def _check_fields(data, source: str) -> None:
    if not isinstance(data, dict):
        raise ReplayError(f"{source} is not a replay: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise ReplayError(f"{source} is not a replay: its 'format' is {data.get('format')!r}, expected {FORMAT!r}")
    missing = [name for name in _FIELDS if name not in data]
    if missing:
        raise ReplayError(f"{source} is missing replay field(s) {missing}")
    for name, (types, meaning) in _FIELDS.items():
        value = data[name]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ReplayError(f"{source}: field {name!r} must be {meaning}, got {value!r}")
    if data["format_version"] != FORMAT_VERSION:
        raise ReplayError(
            f"{source} uses replay format version {data['format_version']}; this tabletop-zoo "
            f"({package_version()}) reads version {FORMAT_VERSION}"
        )
    bad = [a for a in data["actions"] if isinstance(a, bool) or not isinstance(a, int)]
    if bad:
        raise ReplayError(f"{source}: field 'actions' must hold int action ids, got {bad[0]!r}")
    if data["finished"] != (data["rewards"] is not None) or data["finished"] != (data["scores"] is not None):
        raise ReplayError(f"{source}: 'rewards' and 'scores' must be lists for a finished game and null otherwise")
    agents = data.get("agents")
    if agents is not None and (
        not isinstance(agents, list)
        or not all(isinstance(a, str) for a in agents)
        or len(agents) != data["num_players"]
    ):
        raise ReplayError(
            f"{source}: field 'agents' must be a list of {data['num_players']} strings (one label per "
            f"seat), got {agents!r}"
        )


def _check_game(data: dict, source: str) -> str:
    try:
        game = registry._canonical(data["game"])
    except ValueError as e:
        raise ReplayError(f"{source}: {e}") from None
    kernel = registry.kernel(game)
    installed = (env_version(game), int(kernel.VERSION))
    recorded = (data["env_version"], data["kernel_version"])
    if recorded != installed:
        raise ReplayError(
            f"{source} was recorded with {recorded[0]} (kernel version {recorded[1]}, tabletop-zoo "
            f"{data['package_version']}), but the installed game is {installed[0]} (kernel version {installed[1]}, "
            f"tabletop-zoo {package_version()}); a replay only reproduces on the game version that recorded it"
        )
    return game


def _verify(replay: Replay, source: str) -> None:
    """Re-play every action from the seed; the outcome and the final state must match the file."""
    try:
        env = replay.make_env()
    except (ValueError, TypeError) as e:
        raise ReplayError(f"{source}: cannot set up the game: {e}") from None
    n_actions = env.kernel.NUM_ACTIONS
    for i, action in enumerate(replay.actions):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            raise ReplayError(
                f"the replay does not reproduce its game ({source}): the game is over after {i} "
                f"actions, but the replay has {len(replay.actions)}"
            )
        if not 0 <= action < n_actions or not env.action_mask()[action]:
            name = env.action_name(action) if 0 <= action < n_actions else f"outside 0..{n_actions - 1}"
            raise ReplayError(
                f"the replay does not reproduce its game ({source}): action {action} ({name}) at "
                f"step {i + 1} is illegal for {env.agent_selection}; legal there: "
                f"{env._legal_listing()}"
            )
        env.step(action)
    record = env.get_state()
    problems = env.kernel.validate(record)
    if problems:  # the rules left a broken record: a kernel bug, never a replay to trust
        raise ReplayError(f"the replay's final state is invalid ({source}): {'; '.join(problems[:5])}")
    over = bool(env.kernel.is_over(record))
    if over != replay.finished:
        state = "finishes" if over else "is still running"
        raise ReplayError(
            f"the replay does not reproduce its game ({source}): after its {len(replay.actions)} "
            f"actions the game {state}, but the file says finished={replay.finished}"
        )
    digest = state_sha256(record)
    if digest != replay.final_state_sha256:
        raise ReplayError(
            f"the replay does not reproduce the recorded final state ({source}): its sha256 is "
            f"{digest}, the file says {replay.final_state_sha256}"
        )
    if over:
        rewards, scores = _outcome(env.kernel, record, replay.num_players)
        same_rewards = len(rewards) == len(replay.rewards) and all(
            isinstance(r, (int, float)) and math.isclose(r, x, abs_tol=1e-9) for r, x in zip(replay.rewards, rewards)
        )
        if not same_rewards or scores != replay.scores:
            raise ReplayError(
                f"the replay does not reproduce the recorded outcome ({source}): replayed rewards "
                f"{rewards} and scores {scores}, the file says {replay.rewards} and {replay.scores}"
            )


# --- arena games ------------------------------------------------------------------------------------
def arena_replay(games_path: str | os.PathLike, game_index: int) -> Replay:
    """The replay of game ``game_index`` of an arena run (its ``games.jsonl``, with ``run.json`` beside it).

    The arena stores seed, actions, returns and scores per game; re-playing them must give the same
    returns and scores, or a ``ReplayError`` says the record does not reproduce.
    """
    from .arena import RUN_FILE

    games_path = pathlib.Path(games_path)
    run_path = games_path.parent / RUN_FILE
    text = _read(run_path, "", f" (the arena's run settings beside {games_path.name})")
    try:
        config = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"{run_path} is not valid JSON ({e.msg})") from None
    record = _arena_record(games_path, game_index)
    source = f"game {game_index} of {games_path}"
    try:
        env = registry.make_env(config["game"], num_players=config["players"], **config.get("options", {}))
        env.reset(seed=record["seed"])
        for action in record["actions"]:
            env.step(action)
    except (KeyError, ValueError, TypeError) as e:
        raise ReplayError(f"the arena record does not reproduce its game ({source}): {e}") from None
    replay = replay_of(env, record.get("agents"))
    returns = record.get("returns")
    if not isinstance(returns, list) or len(returns) != replay.num_players:
        raise ReplayError(f"the arena record has no 'returns' list of {replay.num_players} numbers ({source})")
    if (
        not replay.finished
        or replay.scores != record["scores"]
        or not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(replay.rewards, returns))
    ):
        raise ReplayError(
            f"the arena record does not reproduce its game ({source}): replayed "
            f"returns {replay.rewards} and scores {replay.scores}, the record says "
            f"{returns} and {record['scores']}"
        )
    return replay


def _arena_record(games_path: pathlib.Path, game_index: int) -> dict:
    lines = _read(games_path).splitlines()
    records = {}
    for number, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            raise ReplayError(f"{games_path} line {number} is not valid JSON") from None
        if not isinstance(rec, dict):
            raise ReplayError(
                f"{games_path} line {number} is not an arena game record: expected a JSON object, "
                f"got {type(rec).__name__}"
            )
        records[rec.get("game")] = rec
    if game_index not in records:
        have = sorted(g for g in records if isinstance(g, int))
        span = f"{have[0]}..{have[-1]}" if have else "none"
        raise ReplayError(f"{games_path} has no game {game_index}; games recorded: {span} ({len(have)} games)")
    return records[game_index]


# --- pictures ---------------------------------------------------------------------------------------
VIDEO_FORMATS = {".gif": "GIF", ".mp4": "MP4"}


def write_video(
    replay: Replay,
    path: str | os.PathLike,
    fps: float = 2.0,
    every: int = 1,
    max_frames: int | None = 200,
    scale: float = 1.0,
    progress: bool = False,
) -> int:
    """Write the replay's ``rgb_array`` frames, each captioned with the move that led to it, as an animated
    GIF or an MP4 (H.264; needs the ``video`` extra, imageio-ffmpeg), chosen by the path's suffix, through
    imageio; ``progress`` shows the frames written on stderr (``tabletop_zoo.progress``). Returns the number of
    frames (positions chosen by ``frame_positions``)."""
    path = pathlib.Path(path)
    kind = VIDEO_FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ValueError(
            f"cannot tell the video format of {path.name!r}: the file name must end in {' or '.join(VIDEO_FORMATS)}"
        )
    if isinstance(fps, bool) or not isinstance(fps, (int, float)) or not fps > 0:
        raise ValueError(f"fps must be a number > 0, got {fps!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 < scale <= 4:
        raise ValueError(f"scale must be in (0, 4], got {scale!r}")
    modes = registry.env_module(replay.game).raw_env.metadata["render_modes"]
    if "rgb_array" not in modes:
        raise ValueError(f"{replay.game} has no rgb_array rendering (render modes: {modes})")
    positions = frame_positions(len(replay.actions), every, max_frames)
    check_writable(path)  # a bad folder fails before any frame is drawn
    with replaced_on_success(path) as tmp:  # a video cut short by a kill never replaces a finished one
        writer, append = _video_writer(tmp, kind, fps)  # no ffmpeg fails here, too, before the frames
        bar = Progress(f"{path.name}: frames", len(positions), "frames", enabled=progress, stderr=True)
        with writer, bar:
            for step in replay.steps("rgb_array", positions):
                append(_captioned(step, len(replay.actions), scale))
                bar.advance()
    return len(positions)


def write_gif(replay: Replay, path: str | os.PathLike, *args, **kwargs) -> int:
    """``write_video`` to a ``.gif`` path (the other arguments are ``write_video``'s: fps, every, max_frames, scale,
    progress)."""
    if pathlib.Path(path).suffix.lower() != ".gif":
        raise ValueError(f"a GIF's file name must end in .gif, got {pathlib.Path(path).name!r}")
    return write_video(replay, path, *args, **kwargs)


def _video_writer(path: pathlib.Path, kind: str, fps: float):
    """(imageio writer as a context manager, append(frame)) for a GIF or an MP4 file."""
    import imageio.v2
    import imageio.v3

    if kind == "GIF":
        # imageio's pillow plugin; a caption that differs per frame keeps Pillow from merging frames.
        gif = imageio.v3.imopen(path, "w", plugin="pillow")
        return gif, lambda frame: gif.write(frame, is_batch=False, duration=round(1000 / fps), loop=0)
    try:
        import imageio_ffmpeg  # noqa: F401 - the ffmpeg binary imageio writes MP4 with
    except ImportError:
        raise ValueError("writing MP4 needs imageio-ffmpeg: pip install 'tabletop-zoo[video]'") from None
    # Frames are 1280 x (800 + caption), both even: yuv420p H.264 without resizing (macro_block_size 2).
    mp4 = imageio.v2.get_writer(
        path,
        format="FFMPEG",
        mode="I",
        fps=fps,
        codec="libx264",
        pixelformat="yuv420p",
        macro_block_size=2,
        ffmpeg_log_level="error",
    )
    return mp4, mp4.append_data


def _captioned(step: ReplayStep, total: int, scale: float) -> np.ndarray:
    """The frame with a caption strip under it (uint8[H + CAPTION_HEIGHT, W, 3], scaled)."""
    from PIL import Image, ImageDraw, ImageFont

    frame = np.asarray(step.frame)
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"rgb_array render must be uint8[H, W, 3], got {frame.dtype}{list(frame.shape)}")
    h, w = frame.shape[:2]
    canvas = Image.new("RGB", (w, h + CAPTION_HEIGHT), "white")
    canvas.paste(Image.fromarray(frame), (0, 0))
    text = f"{step.label}   ({step.index}/{total})"
    ImageDraw.Draw(canvas).text((8, h + 5), text, fill="black", font=ImageFont.load_default(size=18))
    if scale != 1:  # even sizes, as H.264 needs
        canvas = canvas.resize((max(2, 2 * round(w * scale / 2)), max(2, 2 * round((h + CAPTION_HEIGHT) * scale / 2))))
    return np.asarray(canvas)
