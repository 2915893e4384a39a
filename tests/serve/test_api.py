"""The web app's HTTP API through FastAPI's test client: games, validation, undo, hidden information,
a broken game, watching arena runs and replays, and the ``serve`` command's defaults."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tabletop_zoo import registry
from tabletop_zoo.serve.boards import SVG_TAGS, board_json, place_of

from .conftest import SHORT_GAMES, new_game, require_chromium


def _play_to_end(client, view, pick=None):
    """Human moves drawn at random from the listed legal ones (seeded), agents advanced, to the end."""
    rng = np.random.default_rng(0)
    pick = pick or (lambda legal: legal[int(rng.integers(len(legal)))]["action"])
    gid = view["id"]
    while view["waiting"] != "over":
        if view["waiting"] == "human":
            r = client.post(f"/api/play/{gid}/move", json={"action": pick(view["legal"])})
        else:
            r = client.post(f"/api/play/{gid}/advance")
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def _until_human(client, view):
    """Advance the agents until a human is to move (or the game is over)."""
    while view["waiting"] == "agent":
        r = client.post(f"/api/play/{view['id']}/advance")
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def test_catalogue_lists_every_game_and_agent(client):
    cat = client.get("/api/catalogue").json()
    assert [g["id"] for g in cat["games"]] == sorted(registry.GAMES)
    ig = next(g for g in cat["games"] if g["id"] == "irish_gauge")
    assert (ig["min_players"], ig["max_players"], ig["rulesets"]) == (3, 5, ["seed", "published"])
    assert {"random", "heuristic", "mcts", "policy"} <= set(cat["agents"])
    assert "simulations" in cat["agents"]["mcts"]


def test_full_game_through_the_api_matches_the_env(client):
    """A whole Irish Gauge game: every human move from the listed legal ones, agents advanced one decision
    at a time; the log and final scores are those of the same game re-played in a plain env."""
    view = new_game(client, "irish_gauge", seats=["human", "mcts:simulations=20,rollout_depth=5", "heuristic"])
    view = _until_human(client, view)
    assert view["legal"] and view["waiting"] == "human" and view["to_move"] == 0
    end = _play_to_end(client, view, pick=lambda legal: legal[len(legal) // 2]["action"])
    game = client.app.state.games[view["id"]]
    env = registry.make_env("irish_gauge", num_players=3)
    env.reset(seed=1)
    names = []
    for a in game.env.history:
        names.append(env.action_name(a))
        env.step(a)
    assert [e["name"] for e in end["log"]] == names
    assert end["outcome"]["scores"] == [env.infos[a]["score"] for a in env.possible_agents]
    assert end["legal"] == [] and end["over"]


def test_legal_moves_name_their_map_places(client):
    """Irish Gauge PLACE moves target their hex; every target is drawn on the board as data-place."""
    kernel = registry.kernel("irish_gauge")
    from tabletop_zoo.kernels.irish_gauge.actions import A_PLACE

    assert place_of("irish_gauge", A_PLACE + 3) == kernel.tables.HEX_IDS[3]
    assert place_of("irish_gauge", 0) is None  # AUCTION names a company, not a place
    for game in sorted(registry.GAMES):
        view = _until_human(client, new_game(client, game))
        assert view["legal"]
        places = {item[1].get("data-place") for item in view["board"]["items"]}
        assert {m["place"] for m in view["legal"] if m["place"]} <= places
        assert {item[0] for item in view["board"]["items"]} <= set(SVG_TAGS)


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": "chess", "seats": ["human"]}, ["unknown game 'chess'", "irish_gauge"]),
        ({"game": "irish_gauge", "players": 9, "seats": ["human"] * 9}, ["players must be in 3..5"]),
        ({"game": "irish_gauge", "players": 3, "seats": ["human", "random"]}, ["seats must list 3 strings"]),
        (
            {"game": "irish_gauge", "players": 3, "seats": ["human", "genius", "random"]},
            ["seat 1", "unknown agent 'genius'"],
        ),
        (
            {"game": "irish_gauge", "players": 3, "seats": ["human", "mcts:sims=5", "random"]},
            ["unknown parameter(s) ['sims']", "simulations"],
        ),
        (
            {"game": "irish_gauge", "players": 3, "options": {"colour": 1}, "seats": ["human", "random", "random"]},
            ["unknown option(s) ['colour']"],
        ),
        (
            {"game": "irish_gauge", "players": 3, "options": {"ruleset": "house"}, "seats": ["human"] * 3},
            ["ruleset must be one of"],
        ),
        ({"game": "irish_gauge", "players": 3, "seed": -1, "seats": ["human"] * 3}, ["seed must be in"]),
    ],
)
def test_bad_new_game_requests_say_what_is_allowed(client, body, words):
    r = client.post("/api/play", json=body)
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert all(w in detail for w in words), detail


def test_bad_types_are_rejected_before_any_game(client):
    r = client.post("/api/play", json={"game": "irish_gauge", "players": "three", "seats": []})
    assert r.status_code == 422
    r = client.post("/api/play", json={"game": "irish_gauge", "seats": ["human"] * 4, "colour": "red"})
    assert r.status_code == 422  # unknown request fields are refused, not ignored


def test_moves_are_validated(client):
    view = _until_human(client, new_game(client, "irish_gauge", seats=["human", "random", "random"]))
    gid = view["id"]
    legal = {m["action"] for m in view["legal"]}
    illegal = next(a for a in range(registry.kernel("irish_gauge").NUM_ACTIONS) if a not in legal)
    r = client.post(f"/api/play/{gid}/move", json={"action": illegal})
    assert r.status_code == 400 and "is not legal for player_0" in r.json()["detail"]
    r = client.post(f"/api/play/{gid}/move", json={"action": 10**6})
    assert r.status_code == 400 and "action must be in 0..221" in r.json()["detail"]
    assert client.post(f"/api/play/{gid}/move", json={"action": "5"}).status_code == 422
    r = client.post(f"/api/play/{gid}/advance")
    assert r.status_code == 400 and "human seat" in r.json()["detail"]
    r = client.post(f"/api/play/{gid}/undo")
    assert r.status_code == 400 and "nothing to undo" in r.json()["detail"]
    assert client.get("/api/play/nope").status_code == 404
    assert client.get(f"/api/play/{gid}").json()["log"] == view["log"]  # nothing above changed the game


def test_undo_takes_back_the_human_move_and_the_agents_replies(client):
    view = _until_human(client, new_game(client, "irish_gauge", seats=["human", "random", "random"]))
    gid = view["id"]
    first = client.post(f"/api/play/{gid}/move", json={"action": view["legal"][0]["action"]}).json()
    first = _until_human(client, first)
    assert len(first["log"]) >= 1 and first["can_undo"]
    second = client.post(f"/api/play/{gid}/move", json={"action": first["legal"][-1]["action"]}).json()
    undone = client.post(f"/api/play/{gid}/undo").json()
    assert undone["log"] == first["log"] and undone["legal"] == first["legal"]
    assert undone["board"] == first["board"] and len(second["log"]) > len(undone["log"])


def test_agent_moves_one_decision_per_advance(client):
    view = new_game(client, "veld_railroads", seats=["random", "heuristic", "random"])
    assert view["waiting"] == "agent" and view["legal"] == []
    after = client.post(f"/api/play/{view['id']}/advance").json()
    assert len(after["log"]) == 1 and after["log"][0]["seat"] == view["to_move"]
    r = client.post(f"/api/play/{view['id']}/move", json={"action": 0})
    assert r.status_code == 400 and "advance the game instead" in r.json()["detail"]
    env = client.app.state.games[view["id"]].env
    assert after["table"] == type(env).render_ansi(env.record)  # no human seat: the full table


def test_hidden_information_stays_hidden_until_the_end(client):
    """Kremlin, human seat 0: the table is player_0's view, the other seats' secret allocations are named
    as secret (KRM-SET-4), and the board does not change when another seat's secret sheet does."""
    view = new_game(client, "kremlin", seats=["human", "random", "random"], seed=3)
    game = client.app.state.games[view["id"]]
    gid = view["id"]
    secret_seen = False
    while view["waiting"] != "over" and not secret_seen:
        assert view["table"] == game.env.render_for(0)
        assert view["table"] != type(game.env).render_ansi(game.env.record)
        secret_seen = any(e["seat"] != 0 and "secret" in e["name"] for e in view["log"])
        if view["waiting"] == "human":
            view = client.post(f"/api/play/{gid}/move", json={"action": view["legal"][0]["action"]}).json()
        else:
            view = client.post(f"/api/play/{gid}/advance").json()
    assert secret_seen
    # a secret move's place is never flashed on the board
    last = game.log[-1]
    if last["public"] != last["full"]:
        assert view["last_place"] is None
    s = game.env.get_state()
    other = s.copy()
    other[0]["assigned"][1:] = np.roll(other[0]["assigned"][1:], 1, axis=-1)  # the other seats' secret sheets
    assert not np.array_equal(other[0]["assigned"], s[0]["assigned"])
    assert board_json("kremlin", other, 0) == board_json("kremlin", s, 0)
    assert view["board"] == board_json("kremlin", s, 0)  # the board is player_0's view
    end = _play_to_end(client, view)
    assert end["table"] == type(game.env).render_ansi(game.env.record)  # the full table once it is over
    assert not any("secret" in e["name"] for e in end["log"])


def test_the_board_is_the_viewers_picture(client):
    """Kremlin hot seat (two humans, one agent): on a human's turn the board is that human's picture, while the
    agent moves a spectator's (no secret sheet), and once the game is over the privileged picture."""
    from tabletop_zoo.envs.render.scene import SPECTATOR

    view = new_game(client, "kremlin", seats=["human", "random", "human"], seed=2)
    game = client.app.state.games[view["id"]]
    seen = set()
    while view["waiting"] != "over":
        s = game.env.get_state()
        viewer = view["to_move"] if view["waiting"] == "human" else SPECTATOR
        assert view["board"] == board_json("kremlin", s, viewer)
        assert view["board"]["title"] and ("privileged" not in json.dumps(view["board"]))
        seen.add(viewer)
        if view["waiting"] == "human":
            view = client.post(f"/api/play/{view['id']}/move", json={"action": view["legal"][0]["action"]}).json()
        else:
            view = client.post(f"/api/play/{view['id']}/advance").json()
    assert seen == {0, 2, SPECTATOR}
    assert view["board"] == board_json("kremlin", game.env.get_state(), None)
    assert "privileged view" in json.dumps(view["board"])


def test_boards_show_only_public_pieces(client):
    """A board never depends on what player_0 cannot see: resampling the others' secrets
    (kernel ``determinize`` for seat 0) leaves the scene unchanged, in both hidden-information games."""
    for game in ("kremlin", "french_revolution_1789"):
        view = _play_some(client, game, 40)
        s = client.app.state.games[view["id"]].env.get_state()
        k = registry.kernel(game)
        other = s.copy()
        k.determinize(other, 0, 12345)
        assert other.tobytes() != s.tobytes()
        assert board_json(game, other, 0) == board_json(game, s, 0)


def _play_some(client, game: str, decisions: int) -> dict:
    view = new_game(client, game, seats=["human"] + ["random"] * (SHORT_GAMES[game][0] - 1))
    while view["waiting"] != "over" and len(view["log"]) < decisions:
        if view["waiting"] == "human":
            view = client.post(f"/api/play/{view['id']}/move", json={"action": view["legal"][0]["action"]}).json()
        else:
            view = client.post(f"/api/play/{view['id']}/advance").json()
    return view


def test_a_broken_game_does_not_take_the_server_down(client):
    class Crashing:
        def act(self, observation, mask):
            raise RuntimeError("agent exploded")

    view = new_game(client, "irish_gauge", seats=["random", "random", "random"])
    game = client.app.state.games[view["id"]]
    game.agents[game.to_move()] = Crashing()
    r = client.post(f"/api/play/{view['id']}/advance")
    assert r.status_code == 409 and r.json()["detail"] == "this game broke: RuntimeError: agent exploded"
    again = client.post(f"/api/play/{view['id']}/advance")
    assert again.status_code == 409 and "broke earlier" in again.json()["detail"]
    assert client.get(f"/api/play/{view['id']}").json()["broken"] == "RuntimeError: agent exploded"
    other = new_game(client, "irish_gauge", seats=["human"] * 3)  # hot seat: a human is always to move
    assert other["legal"], other
    assert client.post(f"/api/play/{other['id']}/move", json={"action": other["legal"][0]["action"]}).status_code == 200


# --- watching -------------------------------------------------------------------------------------
def test_runs_list_only_the_given_folders(client, run_dir):
    runs = client.get("/api/runs").json()["runs"]
    assert len(runs) == 1 and runs[0]["name"] == run_dir.name
    assert runs[0]["arena"] == [{"file": "irish_gauge-run/games.jsonl", "games": [0, 1]}]
    assert [r["file"] for r in runs[0]["replays"]] == ["game1.json"]


def test_watch_an_arena_game_step_by_step(client, run_dir):
    r = client.post("/api/watch", json={"run": 0, "file": "irish_gauge-run/games.jsonl", "game_index": 1})
    assert r.status_code == 200, r.text
    start = r.json()
    record = json.loads((run_dir / "irish_gauge-run" / "games.jsonl").read_text().splitlines()[1])
    assert start["at"] == 0 and start["total"] == len(record["actions"]) and start["log"] == []
    assert start["labels"] == record["agents"]
    mid = client.get(f"/api/watch/{start['id']}", params={"at": 10}).json()
    assert len(mid["log"]) == 10 and mid["outcome"] is None
    end = client.get(f"/api/watch/{start['id']}", params={"at": start["total"]}).json()
    assert end["outcome"]["scores"] == record["scores"]
    r = client.get(f"/api/watch/{start['id']}", params={"at": start["total"] + 1})
    assert r.status_code == 400 and f"position must be in 0..{start['total']}" in r.json()["detail"]


def test_watch_a_replay_file_and_an_uploaded_replay(client, run_dir):
    by_file = client.post("/api/watch", json={"run": 0, "file": "game1.json"}).json()
    data = json.loads((run_dir / "game1.json").read_text())
    uploaded = client.post("/api/watch", json={"replay": data}).json()
    assert by_file["total"] == uploaded["total"] == len(data["actions"])
    data["actions"][5] = 221  # tampered: the replay no longer reproduces
    r = client.post("/api/watch", json={"replay": data})
    assert r.status_code == 400 and "does not reproduce" in r.json()["detail"]


@pytest.mark.parametrize(
    "body, words",
    [
        ({"run": 0, "file": "../../etc/passwd"}, ["is not a file inside run folder 0"]),
        ({"run": 0, "file": "/etc/passwd"}, ["is not a file inside run folder 0"]),
        ({"run": 3, "file": "game1.json"}, ["run must be a folder number 0..0"]),
        ({"run": 0, "file": "irish_gauge-run/games.jsonl"}, ["choose one with 'game_index'"]),
        ({"run": 0, "file": "irish_gauge-run/games.jsonl", "game_index": 7}, ["has no game 7"]),
        ({"run": 0, "file": "irish_gauge-run/run.json"}, ["is not a replay"]),
        ({}, ["watch needs 'run'"]),
    ],
)
def test_watch_requests_are_validated(client, body, words):
    r = client.post("/api/watch", json=body)
    assert r.status_code == 400, r.text
    assert all(w in r.json()["detail"] for w in words), r.json()["detail"]


def test_serve_command_binds_localhost_by_default(monkeypatch, run_dir):
    import uvicorn
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda web, **kw: calls.append((web, kw)))
    result = CliRunner().invoke(app, ["serve", "--runs", str(run_dir)])
    assert result.exit_code == 0, result.output
    assert calls[0][1]["host"] == "127.0.0.1" and calls[0][1]["port"] == 8000
    result = CliRunner().invoke(app, ["serve", "--runs", str(run_dir / "missing")])
    message = " ".join(result.output.replace("│", " ").split())  # rich's error box wraps at the terminal width
    assert result.exit_code != 0 and "not a folder" in message, result.output
    assert "no authentication" not in result.output


def test_serve_command_offers_models_and_warns_off_loopback(monkeypatch, run_dir, models_dir):
    """--models reaches the app (its files offered by name); a non-loopback --host warns that the app has no
    authentication, and that host is then a Host header the app answers."""
    import uvicorn
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda web, **kw: calls.append((web, kw)))
    result = CliRunner().invoke(app, ["serve", "--models", str(models_dir), "--host", "0.0.0.0"])
    assert result.exit_code == 0, result.output
    assert "warning: --host 0.0.0.0 is reachable from other machines and the app has no authentication" in result.stderr
    web, kw = calls[0]
    assert kw["host"] == "0.0.0.0"
    with TestClient(web, base_url="http://localhost:8000") as c:
        assert "ig.pt" in [m["name"] for m in c.get("/api/catalogue").json()["models"]]
    result = CliRunner().invoke(app, ["serve", "--host", "192.168.1.5"])
    with TestClient(calls[-1][0], base_url="http://192.168.1.5:8000") as c:
        assert c.get("/api/catalogue").status_code == 200
    result = CliRunner().invoke(app, ["serve", "--models", str(models_dir / "ig.pt")])
    message = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code != 0 and "not a folder" in message, result.output


def test_browser_tests_fail_without_chromium():
    with pytest.raises(pytest.fail.Exception, match="scripts/test"):
        require_chromium("/nonexistent/chromium")
