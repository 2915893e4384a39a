"""The FastAPI app: a JSON API over ``sessions`` plus the static page (``static/``, plain JS and SVG).

    GET  /api/catalogue                      games (player counts, options, rulesets) and agents
    POST /api/play                           {game, players, seed, options, seats} -> a new game's view
    GET  /api/play/{id}                      the game's view
    POST /api/play/{id}/advance              the agent to move makes one decision
    POST /api/play/{id}/move                 {action}: the human to move plays it
    POST /api/play/{id}/undo                 take back the last human move (and the agents' after it)
    GET  /api/runs                           the run folders given to the server: arena games, replay files
    POST /api/watch                          {run, file[, game_index]} or {replay: <replay JSON>} -> a watch id
    GET  /api/watch/{id}?at=K                the position after K decisions

Only the folders passed to ``create_app(runs=...)`` are read, and only by (folder number, path inside
it). Every request is checked (game id, options, agent specs, action ids, positions) and answered with a
4xx and a one-line ``detail`` saying what was wrong; an agent or rules failure inside one game answers
500 for that game, marks it broken, and leaves the server and every other game running.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import threading
from collections import OrderedDict
from importlib import resources
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from .. import registry
from .sessions import HUMAN, PlayGame, ServeError, WatchGame

MAX_GAMES = 64  # live and watched games kept; the oldest is dropped beyond that
MAX_REPLAY_BYTES = 20_000_000  # a replay or games.jsonl larger than this is refused
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
    """Games by id, oldest dropped past ``MAX_GAMES``."""

    def __init__(self):
        self.games: OrderedDict[str, Any] = OrderedDict()
        self.ids = itertools.count(1)
        self.lock = threading.Lock()

    def add(self, game) -> str:
        with self.lock:
            gid = f"g{next(self.ids)}"
            self.games[gid] = game
            while len(self.games) > MAX_GAMES:
                self.games.popitem(last=False)
            return gid

    def get(self, gid: str, kind: type):
        game = self.games.get(gid)
        if not isinstance(game, kind):
            raise HTTPException(
                404,
                f"no {'game' if kind is PlayGame else 'watched game'} {gid!r} on this server "
                f"(games are kept in memory, at most {MAX_GAMES}; start a new one)",
            )
        return game


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
    path = (root / file).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise ServeError(f"{file!r} is not a file inside run folder {run}; see /api/runs for what it holds")
    if path.stat().st_size > MAX_REPLAY_BYTES:
        raise ServeError(f"{file} is larger than {MAX_REPLAY_BYTES} bytes; refusing to load it")
    return path


def _list_run(root: pathlib.Path) -> dict:
    """Arena runs (folders with games.jsonl, the folder itself or one level down) and replay files."""
    arena, replays = [], []
    for games in sorted([root / ARENA_GAMES, *root.glob(f"*/{ARENA_GAMES}")]):
        if games.is_file() and games.stat().st_size <= MAX_REPLAY_BYTES:
            indexes = []
            for line in games.read_text().splitlines():
                try:
                    indexes.append(int(json.loads(line)["game"]))
                except (ValueError, KeyError, TypeError):
                    continue  # a torn line: arena_replay reports it if that game is asked for
            arena.append({"file": str(games.relative_to(root)), "games": sorted(indexes)})
    for path in sorted([*root.glob("*.json"), *root.glob("*/*.json")]):
        if path.stat().st_size > MAX_REPLAY_BYTES:
            continue
        try:
            head = json.loads(path.read_text())
        except (ValueError, OSError):
            continue
        if isinstance(head, dict) and head.get("format") == "tabletop-zoo replay":
            replays.append(
                {
                    "file": str(path.relative_to(root)),
                    "game": head.get("game"),
                    "decisions": len(head.get("actions") or []),
                }
            )
    return {"arena": arena, "replays": replays}


def create_app(runs: list[str | pathlib.Path] = ()) -> FastAPI:
    """The web app; ``runs`` are the only folders it reads (arena run folders and replay files)."""
    run_dirs = []
    for d in runs:
        path = pathlib.Path(d).resolve()
        if not path.is_dir():
            raise ValueError(f"--runs {d}: not a folder (give arena run folders or folders of replay files)")
        run_dirs.append(path)
    app = FastAPI(title="tabletop-zoo", docs_url="/api/docs", openapi_url="/api/openapi.json")
    store = _Store()
    app.state.games = store.games  # id -> PlayGame / WatchGame, for inspection

    @app.exception_handler(ServeError)
    async def _bad_request(request: Request, exc: ServeError):
        return JSONResponse({"detail": str(exc)}, status_code=400)

    def _run(game, action, viewing: bool = False):
        """Call ``action()`` under the game's lock; a crash inside breaks only this game (500)."""
        with game.lock:
            if game.broken and not viewing:
                raise HTTPException(409, f"this game broke earlier and cannot continue: {game.broken}")
            try:
                return action()
            except ServeError:
                raise
            except Exception as e:  # an agent's or the rules' bug: stop this game, keep serving the others
                game.broken = f"{type(e).__name__}: {e}"
                raise HTTPException(500, f"this game broke: {game.broken}") from e

    @app.get("/api/catalogue")
    def catalogue() -> dict:
        from ..agents import AGENTS, agent_parameters

        games = []
        for gid in sorted(registry.GAMES):
            k = registry.kernel(gid)
            games.append(
                {
                    "id": gid,
                    "min_players": k.MIN_PLAYERS,
                    "max_players": k.MAX_PLAYERS,
                    "default_players": registry.kernel(gid).DEFAULT_PLAYERS,
                    "options": dict(k.OPTIONS),
                    "rulesets": list(k.RULESETS) if "ruleset" in k.OPTIONS else [],
                    "hidden_information": k.INFORMATION == "imperfect",
                }
            )
        agents = {name: agent_parameters(name) for name in sorted(AGENTS)}
        return {"games": games, "agents": agents, "human": HUMAN}

    @app.post("/api/play")
    def new_game(req: NewGame) -> dict:
        game = PlayGame(req.game, req.players, req.seed, req.options, req.seats)
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
        from ..replay import ReplayError, arena_replay, load_replay, parse_replay

        try:
            if req.replay is not None:
                if req.run is not None or req.file is not None:
                    raise ServeError("give either 'replay' (a replay's content) or 'run' and 'file', not both")
                replay, source = parse_replay(req.replay, source="uploaded replay"), "uploaded replay"
            else:
                path = _run_within(run_dirs, req.run, req.file)
                source = f"{run_dirs[req.run].name}/{req.file}"
                if path.name.endswith(".jsonl"):
                    if req.game_index is None:
                        raise ServeError(f"{req.file} holds many arena games: choose one with 'game_index'")
                    replay = arena_replay(path, req.game_index)
                    source += f" game {req.game_index}"
                else:
                    replay = load_replay(path)
        except ReplayError as e:
            raise ServeError(str(e)) from None
        game = WatchGame(replay, source)
        gid = store.add(game)
        return {"id": gid, **_run(game, lambda: game.view(0))}

    @app.get("/api/watch/{gid}")
    def watch_view(gid: str, at: int = 0) -> dict:
        game = store.get(gid, WatchGame)
        return {"id": gid, **_run(game, lambda: game.view(at))}

    static = resources.files("tabletop_zoo.serve").joinpath("static")
    app.mount("/", StaticFiles(directory=str(static), html=True), name="static")
    return app
