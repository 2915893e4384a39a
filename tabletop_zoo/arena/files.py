"""The run folder: one writer at a time, and strict reading of finished games.

``games.jsonl`` (and ``times.jsonl``, each game's seconds of play) is an append-only log while games finish (one fsync'd line per game, so a kill loses at most
the line being written); every other file, and the final sorted ``games.jsonl``, is written to a temporary
file, fsync'd and renamed over the old one, so a reader never sees half a file.
"""

from __future__ import annotations

import fcntl
import json
import os
import pathlib

from ..files import atomic_write, read_text

GAMES_FILE = "games.jsonl"
TIMES_FILE = "times.jsonl"  # {"game", "seconds", "thinking"} per finished game: what it cost, kept apart so that
# games.jsonl stays the same file on every backend and machine
RUN_FILE = "run.json"
LOCK_FILE = ".lock"
RECORD_KEYS = ("game", "seed", "agents", "scores", "returns", "ranks", "length", "actions")


class RunLock:
    """An exclusive lock on a run folder (``flock`` on ``OUT/.lock``): a second run into the same folder is
    refused at once. The kernel drops the lock when the holder dies, even by kill -9, so it never goes stale."""

    def __init__(self, folder: pathlib.Path) -> None:
        self.path = pathlib.Path(folder) / LOCK_FILE
        self._fd: int | None = None

    def __enter__(self) -> RunLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise ValueError(
                f"{self.path.parent} is in use by another arena run (pid {holder}); wait for it to "
                "finish or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _check_record(rec, path: pathlib.Path, lineno: int, num_players: int, expected_agents) -> None:
    where = f"{path}, line {lineno}"
    if not isinstance(rec, dict):
        raise ValueError(f"{where}: a game record must be a JSON object, got {type(rec).__name__}")
    missing = [k for k in RECORD_KEYS if k not in rec]
    if missing:
        raise ValueError(
            f"{where}: the game record lacks {', '.join(missing)} (written by another version of the "
            "arena?); move the file away or choose another --out"
        )
    g = rec["game"]
    if isinstance(g, bool) or not isinstance(g, int) or g < 0:
        raise ValueError(f"{where}: 'game' must be an int >= 0, got {g!r}")
    for key in ("agents", "scores", "returns", "ranks"):
        if not isinstance(rec[key], list) or len(rec[key]) != num_players:
            raise ValueError(f"{where}: {key!r} must list one value per seat ({num_players}), got {rec[key]!r}")
    if expected_agents is not None and rec["agents"] != expected_agents(g):
        raise ValueError(
            f"{where}: game {g} seats {rec['agents']}, but this run's rotation seats "
            f"{expected_agents(g)}; the file belongs to another run"
        )
    if not isinstance(rec["actions"], list) or not all(isinstance(a, int) for a in rec["actions"]):
        raise ValueError(f"{where}: 'actions' must be a list of ints")


def read_games(path: pathlib.Path, num_players: int, expected_agents=None) -> dict[int, dict]:
    """Finished games by index from a results log. A torn last line (a run killed mid-write: no newline at
    its end) is dropped and the file rewritten without it; any other bad line is a ValueError naming the file
    and the line. ``expected_agents(game)`` gives the seating a record must have."""
    path = pathlib.Path(path)
    done: dict[int, dict] = {}
    if not path.exists():
        return done
    text = read_text(path)
    lines = text.split("\n")
    torn = lines and lines[-1] != ""
    body = lines[:-1]
    if torn:
        try:
            json.loads(lines[-1])
        except json.JSONDecodeError:
            pass  # the line being written when the run died
        else:
            body.append(lines[-1])
        torn = True
    good = []
    for lineno, line in enumerate(body, 1):
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}, line {lineno}: not valid JSON ({e.msg}); fix or remove that line") from None
        _check_record(rec, path, lineno, num_players, expected_agents)
        if rec["game"] in done:
            if rec != done[rec["game"]]:
                raise ValueError(f"{path}, line {lineno}: game {rec['game']} is recorded twice, differently")
            continue
        done[rec["game"]] = rec
        good.append(line)
    if torn or len(good) != len(body):
        atomic_write(path, "".join(g + "\n" for g in good))
    return done


def _costs(path: pathlib.Path) -> dict[int, dict]:
    """Each game's last line in ``times.jsonl`` (a line cut by a kill is skipped: that game's time is lost, not
    its result)."""
    costs: dict[int, dict] = {}
    if path.exists():
        for line in read_text(path).splitlines():
            try:
                rec = json.loads(line)
                costs[int(rec["game"])] = rec
            except (ValueError, KeyError, TypeError):
                continue
    return costs


def seconds_per_move(path: pathlib.Path, records: list[dict]) -> dict[str, float | None]:
    """Each agent's mean wall time choosing a move over ``records``' games (``times.jsonl``'s ``thinking``; None
    for an agent with no timed move, e.g. in a run written before moves were timed)."""
    costs, spent, moves = _costs(path), {}, {}
    for rec in records:
        for label, (seconds, count) in zip(rec["agents"], costs.get(rec["game"], {}).get("thinking", ())):
            spent[label] = spent.get(label, 0.0) + float(seconds)
            moves[label] = moves.get(label, 0) + int(count)
    labels = {label for rec in records for label in rec["agents"]}
    return {label: spent[label] / moves[label] if moves.get(label) else None for label in labels}


def play_seconds(path: pathlib.Path, games) -> float:
    """Seconds of play summed over ``games`` (their last line in ``times.jsonl``; a game without one counts 0):
    the run's cost across every resume and worker, which the clock time of its last invocation is not."""
    costs = _costs(path)
    return sum(float(costs[g].get("seconds", 0.0)) if g in costs else 0.0 for g in games)
