"""The FastAPI app: a JSON API over ``sessions`` plus the static page (``static/``, plain JS and SVG).

    GET  /api/catalogue                      games (player counts, options, rulesets), agents, models, limits
    POST /api/play                           {game, players, seed, options, seats} -> a new game's view
    GET  /api/play/{id}                      the game's view
    POST /api/play/{id}/advance              the agent to move makes one decision
    POST /api/play/{id}/move                 {action}: the human to move plays it
    POST /api/play/{id}/undo                 take back the last human move (and the agents' after it)
    GET  /api/runs                           the run folders given to the server: arena games, replay files
    POST /api/watch                          {run, file[, game_index]} or {replay: <replay JSON>} -> a watch id
    GET  /api/watch/{id}?at=K                the position after K decisions

Safe by default: a client names no file. A seat is ``human`` or an agent spec with number or true/false
parameters (``mcts:simulations=200,seconds=5``); a trained model is played by name, ``policy:model=NAME`` or
``az:model=NAME``, NAME one of the files of the folder given as ``create_app(models=DIR)`` (``serve --models
DIR``) as ``/api/catalogue`` lists them; ``path=`` is refused (``seats.py``). Run folders
(``create_app(runs=...)``) are read only by (folder number, path inside it), and nothing whose real path
leaves them is listed or read. The limits:

- Host header: a loopback name (``localhost``, ``127.0.0.1``, ``[::1]``) or the address bound (``host``),
  any port; else 400 (``guard.py``). There is no authentication: ``serve`` warns when bound elsewhere.
- Request body: at most ``MAX_BODY_BYTES`` (a replay of ``MAX_REPLAY_BYTES``, 20 MB, plus the request
  around it), else 413 before it is parsed.
- Searching seats: at most ``seats.MAX_SECONDS`` (10 s) of wall time a move, ``seats.MAX_THREADS`` threads,
  200,000 mcts and 10,000 az simulations a move.
- Games: the ``MAX_GAMES`` (64) most recently used are kept, and fewer when their az seats' kept search trees
  pass ``MAX_KEPT_SIMULATIONS`` (100,000 simulations, about 420 MB in Imperial); a game untouched for
  ``IDLE_SECONDS`` (1 hour) expires. Viewing, moving or advancing a game counts as use.

Every request is checked (game id, options, agent specs, action ids, positions) and answered with a 4xx and a
one-line ``detail`` saying what was wrong; an agent or rules failure inside one game answers 409 for that
game, marks it broken (logged with its traceback), and leaves the server and every other game running. An
error nothing expected is logged and answered as one JSON line (500).
"""

from __future__ import annotations

import itertools
import json
import logging
import pathlib
import threading
import time
from collections import OrderedDict
from importlib import resources
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from .. import registry
from . import guard, seats
from .checks import ServeError, check_text, one_line
from .sessions import HUMAN, PlayGame, WatchGame

log = logging.getLogger("tabletop_zoo.serve")

MAX_GAMES = 64  # live and watched games kept; the least recently used is dropped beyond that
# az seats keep their search tree between moves (about 4.2 KB a simulation in Imperial): the kept games' az
# simulations are bounded too (about 420 MB of trees at most), dropping the least recently used games first
MAX_KEPT_SIMULATIONS = 100_000
IDLE_SECONDS = 3600.0  # a game untouched this long expires
MAX_REPLAY_BYTES = 20_000_000  # a replay or games.jsonl larger than this is refused
MAX_BODY_BYTES = MAX_REPLAY_BYTES + 65_536  # the largest request: a posted replay inside {"replay": ...}
ARENA_GAMES = "games.jsonl"


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    players: StrictInt | None = None
    seed: StrictInt = 0
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[str]


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: StrictInt


class Watch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run: StrictInt | None = None
    file: str | None = None
    game_index: StrictInt | None = None
    replay: dict[str, Any] | None = None


class _Store:
    """Games by id, in order of last use: the least recently used is dropped past ``MAX_GAMES``, and a game
    unused for ``IDLE_SECONDS`` expires. ``clock`` (seconds, monotonic) can be replaced to test expiry."""

    def __init__(self, clock=time.monotonic):
        self.games: OrderedDict[str, Any] = OrderedDict()
        self.used: dict[str, float] = {}
        self.ids = itertools.count(1)
        self.lock = threading.Lock()
        self.clock = clock

    def add(self, game) -> str:
        with self.lock:
            self._expire()
            gid = f"g{next(self.ids)}"
            self.games[gid] = game
            self.used[gid] = self.clock()
            while len(self.games) > MAX_GAMES or self._kept_simulations() > MAX_KEPT_SIMULATIONS:
                self._drop(next(iter(self.games)))  # the new game alone always fits (seats.MAX_SIMULATIONS)
            return gid

    def _kept_simulations(self) -> int:
        return sum(getattr(game, "kept_simulations", 0) for game in self.games.values())

    def get(self, gid: str, kind: type):
        with self.lock:
            self._expire()
            game = self.games.get(gid)
            if not isinstance(game, kind):
                raise HTTPException(
                    404,
                    f"no {'game' if kind is PlayGame else 'watched game'} {gid!r} on this server (games are kept "
                    f"in memory: the {MAX_GAMES} last used, each until {IDLE_SECONDS:.0f} s unused; start a new one)",
                )
            self.games.move_to_end(gid)
            self.used[gid] = self.clock()
            return game

    def _expire(self) -> None:
        now = self.clock()
        for gid in [g for g, t in self.used.items() if now - t > IDLE_SECONDS]:
            self._drop(gid)

    def _drop(self, gid: str) -> None:
        del self.games[gid], self.used[gid]


def _run_within(run_dirs: list[pathlib.Path], run: int | None, file: str | None) -> pathlib.Path:
    """The file ``file`` inside run folder number ``run``; nothing outside the folders given is reachable."""
    if run is None or file is None:
        raise ServeError(
            "watch needs 'run' (a folder number from /api/runs) and 'file' (a path inside it), "
            "or 'replay' (the content of a replay file)"
        )
    if not 0 <= run < len(run_dirs):
        raise ServeError(
            f"run must be a folder number 0..{len(run_dirs) - 1} (see /api/runs), got {run}"
            if run_dirs
            else "this server was started without --runs folders: nothing to watch there"
        )
    root = run_dirs[run]
    path = (root / check_text(file, "file")).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise ServeError(f"{file!r} is not a file inside run folder {run}; see /api/runs for what it holds")
    if path.stat().st_size > MAX_REPLAY_BYTES:
        raise ServeError(f"{file} is larger than {MAX_REPLAY_BYTES} bytes; refusing to load it")
    return path


def _read_inside(path: pathlib.Path, root: pathlib.Path) -> str | None:
    """The text of ``path`` if it is a file whose real path is inside ``root`` (no symlink out) and not over
    ``MAX_REPLAY_BYTES``; else None."""
    real = path.resolve()
    if not real.is_relative_to(root) or not real.is_file() or real.stat().st_size > MAX_REPLAY_BYTES:
        return None
    try:
        return real.read_text()
    except (OSError, ValueError):
        return None


def _list_run(root: pathlib.Path) -> dict:
    """Arena runs (folders with games.jsonl, the folder itself or one level down) and replay files."""
    arena, replays = [], []
    for games in sorted([root / ARENA_GAMES, *root.glob(f"*/{ARENA_GAMES}")]):
        text = _read_inside(games, root)
        if text is not None:
            arena.append({"file": games.relative_to(root).as_posix(), "games": _arena_indexes(text)})
    for path in sorted([*root.glob("*.json"), *root.glob("*/*.json")]):
        text = _read_inside(path, root)
        try:
            head = json.loads(text) if text is not None else None
        except ValueError:
            continue
        if isinstance(head, dict) and head.get("format") == "tabletop-zoo replay":
            actions = head.get("actions")
            replays.append(
                {
                    "file": path.relative_to(root).as_posix(),
                    "game": head.get("game"),
                    "decisions": len(actions) if isinstance(actions, list) else 0,
                }
            )
    return {"arena": arena, "replays": replays}


def _arena_indexes(text: str) -> list[int]:
    indexes = []
    for line in text.splitlines():
        try:
            indexes.append(int(json.loads(line)["game"]))
        except (ValueError, KeyError, TypeError):
            continue  # a torn line: arena_replay reports it if that game is asked for
    return sorted(indexes)


def create_app(
    runs: list[str | pathlib.Path] = (), models: str | pathlib.Path | None = None, host: str | None = None
) -> FastAPI:
    """The web app. ``runs`` are the only folders it reads games from (arena run folders and replay files),
    ``models`` the folder of the only model files it plays (by name: ``policy:model=NAME``), ``host`` the
    address it is bound to, answered as a Host header besides the loopback names."""
    run_dirs = []
    for d in runs:
        path = pathlib.Path(d).resolve()
        if not path.is_dir():
            raise ValueError(f"--runs {d}: not a folder (give arena run folders or folders of replay files)")
        run_dirs.append(path)
    shelf = seats.ModelFolder(models)
    app = FastAPI(title="tabletop-zoo", docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.add_middleware(guard.CatchAll)
    app.add_middleware(guard.BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(guard.RequestCheck, names=guard.host_names(host))  # the outermost: checked first
    _add_error_handlers(app)
    store = _Store()
    app.state.store = store
    app.state.games = store.games  # id -> PlayGame / WatchGame, for inspection

    @app.get("/api/catalogue")
    def catalogue() -> dict:
        return _catalogue(shelf)

    @app.post("/api/play")
    def new_game(req: NewGame) -> dict:
        game = PlayGame(req.game, req.players, req.seed, req.options, req.seats, shelf)
        gid = store.add(game)
        return {"id": gid, **_run(game, game.view)}

    @app.get("/api/play/{gid}")
    def play_view(gid: str) -> dict:
        game = store.get(gid, PlayGame)
        return {"id": gid, **_run(game, game.view, viewing=True)}

    @app.post("/api/play/{gid}/advance")
    def advance(gid: str) -> dict:
        game = store.get(gid, PlayGame)
        return {"id": gid, **_run(game, lambda: (game.advance(), game.view())[1])}

    @app.post("/api/play/{gid}/move")
    def move(gid: str, req: Move) -> dict:
        game = store.get(gid, PlayGame)
        return {"id": gid, **_run(game, lambda: (game.play(req.action), game.view())[1])}

    @app.post("/api/play/{gid}/undo")
    def undo(gid: str) -> dict:
        game = store.get(gid, PlayGame)
        return {"id": gid, **_run(game, lambda: (game.undo(), game.view())[1])}

    @app.get("/api/runs")
    def list_runs() -> dict:
        return {"runs": [{"run": i, "name": d.name, **_list_run(d)} for i, d in enumerate(run_dirs)]}

    @app.post("/api/watch")
    def watch(req: Watch) -> dict:
        game = _watch_game(req, run_dirs)
        gid = store.add(game)
        return {"id": gid, **_run(game, lambda: game.view(0))}

    @app.get("/api/watch/{gid}")
    def watch_view(gid: str, at: int = 0) -> dict:
        game = store.get(gid, WatchGame)
        return {"id": gid, **_run(game, lambda: game.view(at))}

    static = resources.files("tabletop_zoo.serve").joinpath("static")
    app.mount("/", StaticFiles(directory=str(static), html=True), name="static")
    return app


def _add_error_handlers(app: FastAPI) -> None:
    """A refused request and a malformed body are answered with one line (400 and 422)."""

    @app.exception_handler(ServeError)
    async def _bad_request(request: Request, exc: ServeError):
        return JSONResponse({"detail": one_line(str(exc))}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def _malformed(request: Request, exc: RequestValidationError):
        problems = [f"{'.'.join(str(x) for x in e.get('loc', ()))}: {e.get('msg')}" for e in exc.errors()]
        return JSONResponse({"detail": one_line("; ".join(problems) or "malformed request")}, status_code=422)


def _run(game, action, viewing: bool = False):
    """Call ``action()`` under the game's lock; a crash inside breaks only this game (409, logged)."""
    with game.lock:
        if game.broken and not viewing:
            raise HTTPException(409, f"this game broke earlier and cannot continue: {game.broken}")
        try:
            return action()
        except ServeError:
            raise
        except Exception as e:  # an agent's or the rules' bug: stop this game, keep serving the others
            log.error("a game broke", exc_info=e)
            game.broken = one_line(f"{type(e).__name__}: {e}")
            raise HTTPException(409, f"this game broke: {game.broken}") from None


def _catalogue(shelf: seats.ModelFolder) -> dict:
    from ..agents import AGENTS

    games = []
    for gid in sorted(registry.GAMES):
        k = registry.kernel(gid)
        games.append(
            {
                "id": gid,
                "min_players": k.MIN_PLAYERS,
                "max_players": k.MAX_PLAYERS,
                "default_players": k.DEFAULT_PLAYERS,
                "options": dict(k.OPTIONS),
                "rulesets": list(k.RULESETS) if "ruleset" in k.OPTIONS else [],
                "hidden_information": k.INFORMATION == "imperfect",
            }
        )
    agents = {name: seats.seat_parameters(name, None) for name in sorted(AGENTS)}
    models = [{"name": name, "agents": list(by)} for name, by in shelf.models().items()]
    limits = {
        "seconds": seats.MAX_SECONDS,
        "threads": seats.MAX_THREADS,
        "simulations": seats.MAX_SIMULATIONS,
        "body_bytes": MAX_BODY_BYTES,
    }
    return {"games": games, "agents": agents, "human": HUMAN, "models": models, "limits": limits}


def _watch_game(req: Watch, run_dirs: list[pathlib.Path]) -> WatchGame:
    """The recorded game a watch request names; anything wrong with it is the request's ``ServeError``."""
    from ..replay import ReplayError, arena_replay, load_replay, parse_replay

    try:
        if req.replay is not None:
            if req.run is not None or req.file is not None:
                raise ServeError("give either 'replay' (a replay's content) or 'run' and 'file', not both")
            return WatchGame(parse_replay(req.replay, source="uploaded replay"), "uploaded replay")
        path = _run_within(run_dirs, req.run, req.file)
        source = f"{run_dirs[req.run].name}/{req.file}"
        if not path.name.endswith(".jsonl"):
            return WatchGame(load_replay(path), source)
        if req.game_index is None:
            raise ServeError(f"{req.file} holds many arena games: choose one with 'game_index'")
        return WatchGame(arena_replay(path, req.game_index), f"{source} game {req.game_index}")
    except ServeError:
        raise
    except ReplayError as e:
        raise ServeError(str(e)) from None
    except Exception as e:  # a replay that passed every check and still fails to play: still the client's file
        log.warning("a replay could not be watched", exc_info=e)
        raise ServeError(f"the replay cannot be played: {type(e).__name__}: {e}") from None
