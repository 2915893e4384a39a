"""``tabletop-zoo evaluate``: one agent rated against the frozen reference pool (tabletop_zoo/arena/evaluate.py)."""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest

from tabletop_zoo.arena import evaluate as ev
from tabletop_zoo.arena import run
from tabletop_zoo.arena.ratings import ELO, fit_ratings

GAME, N = "irish_gauge", 3  # the quickest heuristic games
MEMBERS = ["random", "heuristic"]


@pytest.fixture(scope="module")
def mini_pool(tmp_path_factory):
    """A two-member pool measured here, as the pool script measures the real one (a seat-rotated run)."""
    out = tmp_path_factory.mktemp("ladder")
    summary = run(GAME, MEMBERS, num_players=N, games=12, seed=3, out=out, workers=1, progress=False, console=False)
    return ev.build_pool({GAME: {str(N): ev.pool_entry_of(summary, MEMBERS, "test ladder")}})


def _sample_ranks(rng, thetas):
    """One Plackett-Luce ranking of seats with strengths ``thetas`` (natural units): ranks per seat."""
    left, ranks = list(range(len(thetas))), [0] * len(thetas)
    for place in range(1, len(thetas) + 1):
        w = np.exp([thetas[s] for s in left])
        seat = left.pop(rng.choice(len(left), p=w / w.sum()))
        ranks[seat] = place
    return ranks


def test_a_newcomer_with_a_members_games_gets_its_published_rating():
    """Identical newcomer: give the newcomer exactly a pool member's games (the member's label replaced) and the
    fit, the others held at their published values, returns that member's published rating."""
    rng = np.random.default_rng(0)
    labels = ["random", "a", "b", "c"]
    truth = {"random": 0.0, "a": 1.0, "b": 2.0, "c": 2.5}
    records = []
    for g in range(300):
        agents = [labels[(i + g) % 4] for i in range(3)]
        records.append({"agents": agents, "ranks": _sample_ranks(rng, [truth[a] for a in agents])})
    published = fit_ratings(records, labels, bootstrap=0)
    twin = [{**r, "agents": ["new:b" if a == "b" else a for a in r["agents"]]} for r in records]
    pool = {lab: published[lab][0] for lab in labels if lab != "b"} | {"b": published["b"][0]}
    rating = ev.fit_newcomer(twin, "new:b", pool, bootstrap=0)
    assert rating[0] == pytest.approx(published["b"][0], abs=1e-3)


def test_the_fit_recovers_a_known_rating_within_its_interval():
    """Games simulated from Plackett-Luce with the pool at known ratings: the newcomer's true rating lies in its
    95% interval, and the interval narrows with more games."""
    rng = np.random.default_rng(1)
    pool = {"random": 0.0, "heuristic": 300.0, "mcts": 600.0}
    true_new = 450.0
    records = []
    for g in range(400):
        agents = ["new:x"] + [list(pool)[(g + k) % 3] for k in range(2)]
        thetas = [true_new / ELO] + [pool[a] / ELO for a in agents[1:]]
        records.append({"agents": agents, "ranks": _sample_ranks(rng, thetas)})
    rating = ev.fit_newcomer(records, "new:x", pool, bootstrap=100)
    assert rating[1] < true_new < rating[2]
    few = ev.fit_newcomer(records[:40], "new:x", pool, bootstrap=100)
    assert few[2] - few[1] > rating[2] - rating[1]


def test_games_needed_scales_as_one_over_the_square_root():
    """A half-width of 100 after 100 games: a half-width of 50 needs 400 (whole blocks of 15)."""
    assert ev.games_needed(100, (0.0, -100.0, 100.0), 50.0, 15) == 405
    assert ev.games_needed(100, (0.0, -10.0, 10.0), 50.0, 15) == 15


def test_the_schedule_seats_the_newcomer_everywhere_against_every_member():
    """Within a block of N games the newcomer sits every seat once; over len(pool) blocks every member meets it
    equally often."""
    members = ["random", "heuristic", "m100", "m1000", "az"]
    n = 4
    seats, met = set(), {m: 0 for m in members}
    for g in range(len(members) * n):
        order = ev.lineup(members, n, g)
        seated = [order[(i + g) % n] for i in range(n)]
        seats.add((g // n, seated.index(ev.NEWCOMER)))
        for m in seated[:]:
            met[m] = met.get(m, 0) + 1
    assert seats == {(b, s) for b in range(len(members)) for s in range(n)}
    assert {met[m] for m in members} == {n * (n - 1)}


def test_evaluate_rates_the_heuristic_as_its_published_self_and_records_the_pool(mini_pool, tmp_path):
    """End to end on a fresh seed: the heuristic, rated against a pool holding it, gets an interval that contains
    its published rating; the pool's version is in every result file."""
    r = ev.evaluate("heuristic", GAME, N, games=12, seed=11, out=tmp_path / "ev", pool=mini_pool)
    published = mini_pool["games"][GAME][str(N)]["ratings"]["heuristic"][0]
    assert r["rating"][1] <= published <= r["rating"][2]
    assert r["games"] == 12 and r["agent"] == "heuristic"
    for name in ("result.json", "run.json"):
        assert json.loads((tmp_path / "ev" / name).read_text())["pool_version"] == mini_pool["version"]
    records = [json.loads(line) for line in (tmp_path / "ev" / "games.jsonl").read_text().splitlines()]
    assert {a for r in records for a in r["agents"]} == {"new:heuristic", "random", "heuristic"}
    assert {r["pool_version"] for r in records} == {mini_pool["version"]}


def test_a_class_path_agent_is_loaded_and_a_non_agent_refused(mini_pool, tmp_path, monkeypatch):
    """``module:Class`` with act(observation, action_mask) plays; a class without act, a missing class and a
    module that cannot be imported are refused in one line before any game."""
    (tmp_path / "my_agents_48.py").write_text(
        textwrap.dedent(
            """
            import numpy as np

            class FirstLegal:
                def __init__(self, seed=None):
                    self.seed = seed

                def act(self, observation, action_mask):
                    return int(np.flatnonzero(action_mask)[0])

            class NotAnAgent:
                pass
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    r = ev.evaluate("my_agents_48:FirstLegal", GAME, N, games=3, seed=5, out=tmp_path / "ev", pool=mini_pool)
    assert r["agent"] == "my_agents_48:FirstLegal" and r["games"] == 3
    with pytest.raises(ValueError, match=r"^my_agents_48:NotAnAgent is not an agent: it has no act\("):
        ev.newcomer_spec("my_agents_48:NotAnAgent", GAME)
    with pytest.raises(ValueError, match="has no class 'Missing'"):
        ev.newcomer_spec("my_agents_48:Missing", GAME)
    with pytest.raises(ValueError, match="cannot import module 'no_such_module_48'"):
        ev.newcomer_spec("no_such_module_48:Agent", GAME)
    assert not (tmp_path / "refused").exists()


def test_refusals_name_what_is_wrong(mini_pool, tmp_path):
    """No published pool at that count, games not a multiple of the players, other game options, an unknown agent
    spec: one line each, before anything is written."""
    with pytest.raises(
        ValueError, match=r"no published reference pool for irish_gauge at 4 players .* has player counts: 3"
    ):
        ev.evaluate("heuristic", GAME, 4, out=tmp_path / "a", pool=mini_pool)
    with pytest.raises(ValueError, match="games must be a positive multiple of the players"):
        ev.evaluate("heuristic", GAME, N, games=10, out=tmp_path / "b", pool=mini_pool)
    with pytest.raises(ValueError, match="measured under options the defaults"):
        ev.evaluate("heuristic", GAME, N, options={"ruleset": "published"}, out=tmp_path / "c", pool=mini_pool)
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        ev.evaluate("nosuch", GAME, N, out=tmp_path / "d", pool=mini_pool)
    assert not any((tmp_path / d).exists() for d in "abcd")


def test_the_version_follows_the_ratings_and_an_edited_file_is_refused(mini_pool, tmp_path):
    """Any change to a published rating changes the version; a file whose version does not match is refused."""
    entries = json.loads(json.dumps(mini_pool["games"]))
    entries[GAME][str(N)]["ratings"]["heuristic"][0] += 1.0
    assert ev.pool_version(entries) != mini_pool["version"]
    edited = dict(mini_pool, games=entries)
    (tmp_path / "pool.json").write_text(json.dumps(edited))
    with pytest.raises(ValueError, match="does not match its entries"):
        ev.load_pool(tmp_path / "pool.json")
    (tmp_path / "ok.json").write_text(json.dumps(mini_pool))
    assert ev.load_pool(tmp_path / "ok.json") == mini_pool


def test_changed_az_weights_are_refused(mini_pool):
    """A pool whose az was measured with another network is not the scale of the shipped one."""
    entry = dict(mini_pool["games"][GAME][str(N)], az_weights_sha256="0" * 64)
    entry["ratings"] = dict(entry["ratings"], az=[500.0, 400.0, 600.0])
    pool = ev.build_pool({GAME: {str(N): entry}})
    with pytest.raises(ValueError, match="az network shipped for irish_gauge is not the one pool"):
        ev.pool_entry(pool, GAME, N, {})


def test_the_shipped_pool_loads_and_names_every_member():
    """The package's pool file: its version matches its entries; every entry rates the whole pool line-up."""
    pool = ev.load_pool()
    assert pool["games"], "the shipped pool has no measured entry"
    for counts in pool["games"].values():
        for entry in counts.values():
            assert list(entry["ratings"]) == [
                "random",
                "heuristic",
                "mcts:simulations=100",
                "mcts:simulations=1000",
                "az",
            ]
            assert entry["ratings"]["random"] == [0.0, 0.0, 0.0]


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["heuristic", "mcts:simulations=100"])
def test_reference_agents_get_their_published_ratings_back_on_a_fresh_seed(agent, tmp_path):
    """The protocol against the shipped pool, on a seed the pool's ladder never used: a reference agent rated
    as a newcomer gets an interval that contains its published rating (the best-measured (game, count))."""
    pool = ev.load_pool()
    game, n = max(
        ((g, int(n)) for g, c in pool["games"].items() for n in c),
        key=lambda gn: pool["games"][gn[0]][str(gn[1])]["games"],
    )
    r = ev.evaluate(
        agent,
        game,
        n,
        games=len(ev.load_pool()["games"][game][str(n)]["ratings"]) * n,
        seed=4801,
        out=tmp_path,
        pool=pool,
    )
    published = pool["games"][game][str(n)]["ratings"][agent][0]
    assert r["rating"][1] <= published <= r["rating"][2]


def test_a_run_resumes_without_replaying_and_refuses_another_agent(mini_pool, tmp_path):
    """More games with --resume keep the finished ones byte for byte; a second run into the folder without resume,
    or resumed with another agent, is refused."""
    out = tmp_path / "ev"
    ev.evaluate("heuristic", GAME, N, games=3, seed=2, out=out, pool=mini_pool)
    first = (out / "games.jsonl").read_text()
    with pytest.raises(ValueError, match="already holds a run; pass resume"):
        ev.evaluate("heuristic", GAME, N, games=6, seed=2, out=out, pool=mini_pool)
    with pytest.raises(ValueError, match="resume needs the same agent"):
        ev.evaluate("random", GAME, N, games=6, seed=2, out=out, pool=mini_pool, resume=True)
    r = ev.evaluate("heuristic", GAME, N, games=6, seed=2, out=out, pool=mini_pool, resume=True)
    assert r["games"] == 6 and (out / "games.jsonl").read_text().startswith(first)
