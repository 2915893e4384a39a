"""The web app is safe by default: one regression test per attack. A client cannot name a file (only models of
the server's --models folder, by name), a foreign Host header is refused, bodies and searches are bounded,
games in play are kept by last use and expire when idle, run listings stay inside their folders, and no input
gets a 500."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading

import pytest

from tabletop_zoo.serve import app as serve_app
from tabletop_zoo.serve import guard, seats

from .conftest import LOCAL, new_game

IG_SEATS = ["human", "random", "random"]


def _play(client, seats_, **extra):
    body = {"game": "irish_gauge", "players": 3, "seed": 1, "seats": seats_, **extra}
    return client.post("/api/play", json=body)


def _refused(r, status: int = 400) -> str:
    """The response is ``status`` with a one-line JSON detail; returns the detail."""
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail, detail
    return detail


@pytest.fixture()
def secure(run_dir, models_dir):
    from fastapi.testclient import TestClient

    with TestClient(serve_app.create_app([run_dir], models=models_dir), base_url=LOCAL) as c:
        yield c


# --- files: only the models the server was started with, by name ---------------------------------
@pytest.mark.parametrize("agent", ["policy", "az", "mcts"])
def test_a_seat_naming_a_file_is_refused_even_when_the_file_exists(secure, models_dir, agent):
    before = len(secure.app.state.games)
    detail = _refused(_play(secure, ["human", f"{agent}:path={models_dir / 'ig.pt'}", "random"]))
    assert detail.startswith("seat 1: path= names a file, which a client may not do") and "model=NAME" in detail
    assert "(ig.pt, junk.pt, junk.zip, sub/ig2.pt)" in detail  # what may be played instead
    assert len(secure.app.state.games) == before  # no game was made


def test_no_parameter_but_model_takes_text(secure):
    detail = _refused(_play(secure, ["human", "mcts:c=/etc/passwd", "random"]))
    assert "c='/etc/passwd': a seat's parameters are numbers or true/false" in detail


def test_a_model_of_the_models_folder_plays_by_name(secure, models_dir):
    cat = secure.get("/api/catalogue").json()
    assert cat["models"] == [
        {"name": "ig.pt", "agents": ["policy", "az"]},
        {"name": "junk.pt", "agents": ["policy", "az"]},
        {"name": "junk.zip", "agents": ["policy"]},
        {"name": "sub/ig2.pt", "agents": ["policy", "az"]},
    ]  # not notes.txt (no model suffix), not link.pt nor linked/ (they lead outside)
    assert "path" not in cat["agents"]["policy"] and "model" in cat["agents"]["policy"]
    assert "path" not in cat["agents"]["az"] and "model" in cat["agents"]["az"]
    view = new_game(secure, "irish_gauge", seats=["policy:model=ig.pt", "az:model=sub/ig2.pt,simulations=4", "random"])
    assert view["labels"] == ["policy:model=ig.pt", "az:model=sub/ig2.pt,simulations=4", "random"]
    for _ in range(3):
        r = secure.post(f"/api/play/{view['id']}/advance")
        assert r.status_code == 200, r.text
    assert str(models_dir) not in r.text  # the server's paths never reach the client
    game = secure.app.state.games[view["id"]]
    assert game.agents[1].seconds == seats.MAX_SECONDS


@pytest.mark.parametrize(
    "model, words",
    [
        ("../outside/secret.pt", "not a path"),
        ("sub/../ig.pt", "not a path"),
        ("/etc/passwd", "not a path"),
        ("link.pt", "no model 'link.pt' on this server"),  # a link out of the folder
        ("linked/secret.pt", "no model 'linked/secret.pt' on this server"),  # through a linked folder
        ("notes.txt", "no model 'notes.txt' on this server"),
        ("missing.pt", "no model 'missing.pt' on this server; models: ig.pt, junk.pt, junk.zip, sub/ig2.pt"),
    ],
)
def test_model_names_that_leave_the_folder_are_refused(secure, outside, model, words):
    if model.startswith("/etc"):
        model = str(outside / "secret.pt")  # an absolute path to a real model
    detail = _refused(_play(secure, ["human", f"az:model={model}", "random"]))
    assert detail.startswith("seat 1: ") and words in detail, detail


@pytest.mark.parametrize(
    "seat, words",
    [
        ("policy:model=junk.pt", "seat 1 (policy:model=junk.pt): "),
        ("policy:model=junk.zip", "seat 1 (policy:model=junk.zip): "),  # SB3's own error
        ("az:model=junk.zip", "model 'junk.zip' cannot be played by az (only by policy)"),
        ("policy", "(this server takes model=NAME instead of path=; models: ig.pt, junk.pt, junk.zip, sub/ig2.pt)"),
    ],
)
def test_a_model_file_its_loader_refuses_is_a_400(secure, models_dir, seat, words):
    detail = _refused(_play(secure, ["human", seat, "random"]))
    assert words in detail and str(models_dir) not in detail, detail


def test_without_models_no_model_is_offered(client):
    assert client.get("/api/catalogue").json()["models"] == []
    detail = _refused(_play(client, ["human", "policy:model=ig.pt", "random"]))
    assert "this server offers no models: start it with --models DIR" in detail
    detail = _refused(_play(client, ["human", "policy:path=/etc/passwd", "random"]))
    assert "none: the server was started without --models" in detail


# --- the Host header --------------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1", "127.0.0.1:1234", "[::1]:8000", "LocalHost"])
def test_loopback_hosts_are_served(client, host):
    assert client.get("/api/catalogue", headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "localhost.evil.example", "[::1", "", "10.0.0.1"]
)
def test_a_foreign_host_is_refused(client, host):
    detail = _refused(client.get("/api/catalogue", headers={"host": host}))
    assert "is not this server's: it answers only Host 127.0.0.1, [::1], localhost (any port)" in detail


def test_the_bound_address_is_served(run_dir):
    from fastapi.testclient import TestClient

    with TestClient(serve_app.create_app([run_dir], host="192.168.1.5"), base_url="http://192.168.1.5:8000") as c:
        assert c.get("/api/catalogue").status_code == 200
        assert c.get("/api/catalogue", headers={"host": "localhost"}).status_code == 200
        assert c.get("/api/catalogue", headers={"host": "192.168.1.6"}).status_code == 400
    assert "[fe80::1]" in guard.host_names("fe80::1")


def test_loopback_addresses():
    assert all(guard.is_loopback(h) for h in ("localhost", "127.0.0.1", "127.0.0.2", "::1", "[::1]"))
    assert not any(guard.is_loopback(h) for h in ("0.0.0.0", "::", "192.168.1.5", "example.com"))


# --- bounded requests ----------------------------------------------------------------------------------
def test_an_oversized_body_is_refused_before_it_is_parsed(client):
    big = b'{"replay": "' + b"x" * serve_app.MAX_BODY_BYTES + b'"}'
    r = client.post("/api/watch", content=big, headers={"content-type": "application/json"})
    assert (
        _refused(r, 413) == f"the request body is larger than this server's limit of {serve_app.MAX_BODY_BYTES} bytes"
    )
    chunked = client.post("/api/watch", content=iter([big]), headers={"content-type": "application/json"})
    assert "content-length" not in chunked.request.headers and chunked.status_code == 413
    assert serve_app.MAX_BODY_BYTES > serve_app.MAX_REPLAY_BYTES  # a replay of the largest size fits


def test_a_chunked_body_is_cut_off_at_the_limit():
    """Chunks without Content-Length: refused (413) once the limit is passed, without reading the rest."""
    reads, sent = [], []

    async def receive():
        reads.append(1)
        return {"type": "http.request", "body": b"x" * 400, "more_body": True}  # an endless body

    async def send(message):
        sent.append(message)

    async def never_called(scope, receive, send):
        raise AssertionError("the app must not see an oversized body")

    scope = {"type": "http", "method": "POST", "path": "/api/watch", "headers": [(b"host", b"localhost")]}
    # a thread of its own: the browser tests leave playwright's event loop running in this one
    thread = threading.Thread(
        target=asyncio.run, args=(guard.BodyLimit(never_called, limit=1000)(scope, receive, send),)
    )
    thread.start()
    thread.join()
    assert len(reads) == 3 and sent[0]["status"] == 413
    assert json.loads(sent[1]["body"]) == {
        "detail": "the request body is larger than this server's limit of 1000 bytes"
    }


@pytest.mark.parametrize(
    "seat, words",
    [
        ("mcts:simulations=300000", "mcts simulations (this server's limit) must be in 1..200000, got 300000"),
        ("mcts:threads=64", f"mcts threads (this server's limit) must be in 1..{seats.MAX_THREADS}, got 64"),
        ("mcts:seconds=600", "seconds must be a number in 0..10.0 (this server's limit), got 600"),
        ("mcts:seconds=-1", "seconds must be a number in 0..10.0"),
        ("az:simulations=50000", "az simulations (this server's limit) must be in 1..10000, got 50000"),
    ],
)
def test_searches_are_bounded(client, seat, words):
    detail = _refused(_play(client, ["human", seat, "random"]))
    assert detail.startswith("seat 1") and words in detail, detail


def test_every_search_gets_a_time_limit(client):
    view = new_game(client, "irish_gauge", seats=["human", "mcts:simulations=50", "mcts:simulations=50,seconds=2"])
    game = client.app.state.games[view["id"]]
    assert [game.agents[1].seconds, game.agents[2].seconds] == [seats.MAX_SECONDS, 2]
    assert view["labels"][1:] == ["mcts:simulations=50", "mcts:seconds=2,simulations=50"]


# --- games kept ------------------------------------------------------------------------------------
def test_the_game_in_play_survives_70_new_games(client):
    played = new_game(client, "irish_gauge", seats=["random"] * 3)
    first_other = None
    for i in range(70):
        other = new_game(client, "irish_gauge", seats=IG_SEATS, seed=i)
        first_other = first_other or other["id"]
        r = client.post(f"/api/play/{played['id']}/advance")
        assert r.status_code == 200, r.text
    assert len(r.json()["log"]) == 70
    assert len(client.app.state.games) == serve_app.MAX_GAMES
    assert client.get(f"/api/play/{first_other}").status_code == 404  # the least recently used went


def test_az_trees_kept_between_moves_are_bounded_across_games(client):
    """Each az seat keeps its tree between moves: the kept games' az simulations stay within the budget, the
    least recently used games going first."""
    az = "az:simulations=10000"
    per_game = 3 * 10_000
    ids = [new_game(client, "irish_gauge", seats=[az] * 3, seed=i)["id"] for i in range(4)]
    assert 4 * per_game > serve_app.MAX_KEPT_SIMULATIONS >= 3 * per_game
    assert [client.get(f"/api/play/{gid}").status_code for gid in ids] == [404, 200, 200, 200]
    store = client.app.state.store
    assert store._kept_simulations() == 3 * per_game


def test_an_idle_game_expires_after_an_hour(client):
    store = client.app.state.store
    now = [1000.0]
    store.clock = lambda: now[0]
    kept, idle = new_game(client, "irish_gauge"), new_game(client, "irish_gauge")
    now[0] += serve_app.IDLE_SECONDS - 1
    assert client.get(f"/api/play/{kept['id']}").status_code == 200  # use: an hour more from now
    now[0] += 2
    detail = _refused(client.get(f"/api/play/{idle['id']}"), 404)
    assert "each until 3600 s unused" in detail
    assert client.get(f"/api/play/{kept['id']}").status_code == 200
    assert serve_app.IDLE_SECONDS == 3600


# --- run folders -----------------------------------------------------------------------------------
def test_runs_ignore_links_out_of_their_folder(tmp_path, run_dir):
    from fastapi.testclient import TestClient

    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "own.json").write_text((run_dir / "game1.json").read_text())
    os.symlink(run_dir / "game1.json", runs / "stolen.json")
    os.symlink(run_dir / "irish_gauge-run", runs / "linked-run")
    with TestClient(serve_app.create_app([runs]), base_url=LOCAL) as c:
        listed = c.get("/api/runs").json()["runs"][0]
        assert listed["arena"] == [] and [r["file"] for r in listed["replays"]] == ["own.json"]
        for file in ("stolen.json", "linked-run/games.jsonl"):
            detail = _refused(c.post("/api/watch", json={"run": 0, "file": file, "game_index": 0}))
            assert "is not a file inside run folder 0" in detail


# --- no input gets a 500 ------------------------------------------------------------------------------
NUL = "\0"


@pytest.mark.parametrize(
    "body",
    [
        {"game": f"irish{NUL}gauge", "seats": IG_SEATS},
        {"game": "irish_gauge", "players": 3, "seats": ["human", f"random{NUL}", "random"]},
        {"game": "irish_gauge", "players": 3, "seats": ["human", f"mcts:simulations=5{NUL}", "random"]},
        {"game": "irish_gauge", "players": 3, "seats": ["human", f"policy:model=ig{NUL}.pt", "random"]},
        {"game": "irish_gauge", "players": 3, "seats": ["human", f"az:path=/tmp/{NUL}x", "random"]},
        {"game": "irish_gauge", "players": 3, "options": {f"rule{NUL}set": "seed"}, "seats": IG_SEATS},
        {"game": "irish_gauge", "players": 3, "options": {"ruleset": f"seed{NUL}"}, "seats": IG_SEATS},
    ],
)
def test_a_nul_byte_in_a_new_game_is_a_400(secure, body):
    _refused(secure.post("/api/play", json=body))


@pytest.mark.parametrize(
    "body",
    [
        {"run": 0, "file": f"game1{NUL}.json"},
        {"run": 0, "file": f"irish_gauge-run/games.jsonl{NUL}", "game_index": 0},
        {"replay": {"format": f"tabletop-zoo{NUL} replay"}},
    ],
)
def test_a_nul_byte_in_a_watch_request_is_a_400(client, body):
    _refused(client.post("/api/watch", json=body))


def test_a_nul_byte_in_an_uploaded_replay_is_a_400(client, run_dir):
    data = json.loads((run_dir / "game1.json").read_text())
    for field in ("game", "env_version", "final_state_sha256"):
        _refused(client.post("/api/watch", json={"replay": {**data, field: f"x{NUL}"}}))
    _refused(client.post("/api/watch", json={"replay": {**data, "options": {f"a{NUL}": 1}}}))


@pytest.mark.parametrize(
    "method, url",
    [
        ("GET", "/api/play/g1%00"),
        ("POST", "/api/play/g1%00/advance"),
        ("GET", "/api/watch/g1%00"),
        ("GET", "/api/watch/g1?at=%00"),
        ("GET", "/%00"),
        ("GET", "/index.html%00.js"),
    ],
)
def test_a_nul_byte_in_the_url_is_a_400(client, method, url):
    assert "NUL byte" in _refused(client.request(method, url))


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        '{"game": "irish_gauge", "seats": ["human", "random", "random"], "players": 3.5}',
        '{"action": "\\u0000"}',
        "[1, 2, 3]",
    ],
)
def test_malformed_bodies_get_one_line(client, body):
    view = new_game(client, "irish_gauge")
    for url in ("/api/play", f"/api/play/{view['id']}/move", "/api/watch"):
        _refused(client.post(url, content=body, headers={"content-type": "application/json"}), 422)


def test_an_unexpected_error_is_one_json_line_and_logged(client, monkeypatch, caplog):
    def crash(shelf):
        raise RuntimeError("a bug\nwith a second line")

    monkeypatch.setattr(serve_app, "_catalogue", crash)
    with caplog.at_level(logging.ERROR, logger="tabletop_zoo.serve"):
        detail = _refused(client.get("/api/catalogue"), 500)
    assert detail == "internal error (RuntimeError); the server's log has the details"
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)
