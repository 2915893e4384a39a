"""scripts/train_long.py, the long Expert Iteration run (#48): the gate's decision from its two arenas' files (the
candidate and its teacher, each in one seat against three MCTS(1000), same seed), arenas read back and never played
again, the run's samples per round recorded and kept, ``--start`` refusals and ``--status``."""

import importlib.util
import json
import pathlib
import shutil

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

pytest.importorskip("torch")

from tabletop_zoo.agents.az.agent import shipped_network  # noqa: E402
from tabletop_zoo.arena import game_seed, seating  # noqa: E402
from tabletop_zoo.training import imitate  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_script():
    spec = importlib.util.spec_from_file_location("train_long", ROOT / "scripts" / "train_long.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


train_long = load_script()
G = train_long.GATE_GAMES


@pytest.fixture
def no_arena(monkeypatch):
    """Every arena below is complete on disk: playing one is a failure."""
    monkeypatch.setattr(train_long, "arena", lambda *a, **k: pytest.fail("a finished gate arena was played again"))


def write_arena(out: pathlib.Path, network, seed: int, wins: int, shared: int = 0, games: int = G) -> None:
    """A gate arena's files as the arena writes them (``arena/files.py``): ``games`` seat-rotated games in which
    ``network`` wins the first ``wins`` alone, shares first place in the next ``shared`` and loses the rest."""
    lineup = train_long.gate_lineup(network)
    out.mkdir(parents=True)
    config = {"game": "imperial", "players": 4, "agents": lineup, "games": G, "seed": seed, "options": {}}
    (out / "run.json").write_text(json.dumps(config))
    lines = []
    for g in range(games):
        agents = [lineup[j] for j in seating(lineup, 4, g)]
        mine = agents.index(lineup[0])
        ranks = [2, 3, 3, 4]
        first = mine if g < wins + shared else (mine + 1) % 4
        ranks[first], ranks[0] = ranks[0], ranks[first]
        ranks[first] = 1
        if wins <= g < wins + shared:
            ranks[(mine + 1) % 4] = 1  # first place shared: no outright win
        record = {"game": g, "seed": game_seed(seed, g), "agents": agents, "scores": [0.0] * 4}
        record.update(returns=[float(r == 1) for r in ranks], ranks=ranks, length=1, actions=[0])
        lines.append(json.dumps(record) + "\n")
    (out / "games.jsonl").write_text("".join(lines))


@pytest.mark.parametrize(
    "candidate_wins,teacher_wins,teaches",
    [(12, 12, True), (11, 12, False), (13, 12, True), (0, 0, True), (10, 30, False)],
)
def test_the_candidate_teaches_next_if_it_wins_as_often_as_its_teacher(
    tmp_path, no_arena, candidate_wins, teacher_wins, teaches
):
    """Both arenas are read from their files (ties go to the candidate; fewer wins keep the teacher)."""
    candidate, teacher, r = tmp_path / "round1" / "az.pt", tmp_path / "round0.pt", 1
    seed = train_long.SEED + 100 + r
    write_arena(tmp_path / "gate1" / "candidate", candidate, seed, candidate_wins, shared=3)
    write_arena(tmp_path / "gate1" / "teacher", teacher, seed, teacher_wins, shared=2)
    assert train_long.gate(tmp_path, "imperial", r, candidate, teacher) is teaches


def test_a_shared_first_place_is_no_win(tmp_path):
    write_arena(tmp_path / "a", tmp_path / "n.pt", 7, wins=5, shared=9)
    assert train_long.gate_wins(tmp_path / "a", "imperial", tmp_path / "n.pt", 7, workers=1) == 5


def test_an_unfinished_arena_is_continued_with_its_seed_and_workers(tmp_path, monkeypatch):
    out, network, seed = tmp_path / "gate2" / "teacher", tmp_path / "round0.pt", train_long.SEED + 102
    write_arena(out, network, seed, wins=4, games=10)
    calls = []

    def finishes(game, lineup, players, games, seed, out, **kwargs):
        calls.append((game, lineup, players, games, seed, kwargs))
        shutil.rmtree(out)
        write_arena(out, network, seed, wins=9)

    monkeypatch.setattr(train_long, "arena", finishes)
    assert train_long.gate_wins(out, "imperial", network, seed, workers=2) == 9
    [(game, lineup, players, games, used_seed, kwargs)] = calls
    assert (game, players, games, used_seed) == ("imperial", 4, 40, seed)
    assert lineup == [f"az:path={network}", *["mcts:simulations=1000"] * 3]
    assert kwargs["resume"] is True and kwargs["workers"] == 2


def test_an_arena_of_another_line_up_is_refused(tmp_path, no_arena):
    write_arena(tmp_path / "a", tmp_path / "other.pt", 7, wins=5)
    with pytest.raises(ValueError, match="belongs to another run"):
        train_long.gate_wins(tmp_path / "a", "imperial", tmp_path / "n.pt", 7, workers=1)


def test_the_samples_of_a_round_are_recorded_and_kept(tmp_path):
    assert train_long.run_samples(tmp_path) == 120_000  # nothing recorded: the default
    assert train_long.run_samples(tmp_path, 30_000) == 30_000
    assert json.loads((tmp_path / "settings.json").read_text()) == {"samples": 30_000}
    with pytest.raises(SystemExit, match=r"trains rounds of 30000 samples \(now --samples 20000\): continue it"):
        train_long.run_samples(tmp_path, 20_000)
    assert train_long.run_samples(tmp_path) == 30_000 and train_long.run_samples(tmp_path, 30_000) == 30_000


def test_a_run_from_before_the_record_keeps_its_first_rounds_samples(tmp_path):
    (tmp_path / "imperial" / "round1").mkdir(parents=True)
    (tmp_path / "imperial" / "round1" / "config.json").write_text(json.dumps({"timesteps": 120_000}))
    with pytest.raises(SystemExit, match="trains rounds of 120000 samples"):
        train_long.run_samples(tmp_path, 4_000)


class Killed(Exception):
    """The round stops once its settings are written."""


def test_a_round_resumed_with_other_samples_is_refused_in_one_line(tmp_path, monkeypatch):
    teacher = train_long.round_zero(tmp_path, "irish_gauge")

    def killed(*args, **kwargs):
        raise Killed

    monkeypatch.setattr(imitate, "collect_chunks", killed)
    with pytest.raises(Killed):
        train_long.train_round(tmp_path, "irish_gauge", 1, teacher, 3_000, 1)
    with pytest.raises(ValueError, match=r"other settings: timesteps=3000 \(now 5000\); resume it") as refused:
        train_long.train_round(tmp_path, "irish_gauge", 1, teacher, 5_000, 2)
    assert "\n" not in str(refused.value)


def test_start_refuses_what_is_not_an_az_network_of_a_game_of_the_run(tmp_path):
    games = ["imperial", "kremlin"]
    with pytest.raises(typer.BadParameter, match="--start takes GAME=PATH, got 'imperial'"):
        train_long.start_networks(["imperial"], games)
    with pytest.raises(typer.BadParameter, match=r"names irish_gauge, which this run does not train \(imperial"):
        train_long.start_networks([f"irish_gauge={shipped_network('irish_gauge')}"], games)
    with pytest.raises(typer.BadParameter, match="--start imperial="):
        train_long.start_networks([f"imperial={tmp_path / 'none.pt'}"], games)
    with pytest.raises(typer.BadParameter, match="--start kremlin="):
        train_long.start_networks([f"kremlin={shipped_network('imperial')}"], games)  # another game's network
    assert train_long.start_networks([f"imperial={shipped_network('imperial')}"], games) == {
        "imperial": pathlib.Path(shipped_network("imperial")).resolve()
    }


def test_a_run_begun_from_one_network_refuses_another_start(tmp_path):
    train_long.round_zero(tmp_path, "imperial")  # the shipped network
    other = tmp_path / "other.pt"
    other.write_bytes(pathlib.Path(shipped_network("imperial")).read_bytes() + b"\0")
    with pytest.raises(SystemExit, match="began from another network than --start imperial="):
        train_long.round_zero(tmp_path, "imperial", other)


def status(run: pathlib.Path, *extra: str) -> str:
    app = typer.Typer()
    app.command()(train_long.main)
    result = CliRunner().invoke(app, ["imperial", "kremlin", "--run", str(run), "--status", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_status_of_an_empty_run_folder(tmp_path):
    assert status(tmp_path) == "imperial: not started\nkremlin: not started\n"
    assert not any(tmp_path.iterdir())  # --status writes nothing


def test_status_of_a_partial_run(tmp_path):
    round1, gate1 = tmp_path / "imperial" / "round1", tmp_path / "imperial" / "gate1"
    (round1 / "chunks").mkdir(parents=True)
    for i in range(3):
        np.savez(round1 / "chunks" / f"{i:04d}.npz", obs=np.zeros(1))
    (round1 / "chunks" / ".0003.123.tmp.npz").write_bytes(b"")  # a chunk being written: not counted
    (round1 / "fit.pt").write_bytes(b"")
    (gate1 / "candidate").mkdir(parents=True)
    (gate1 / "candidate" / "games.jsonl").write_text("{}\n" * 7)
    (tmp_path / "settings.json").write_text(json.dumps({"samples": 8_000}))
    assert status(tmp_path) == (
        "imperial round 1: 3 chunks of ~2,048 samples saved (a round: 8,000 samples), fit epochs saved, gate games: "
        "candidate 7/40, teacher 0/40\nkremlin: not started\n"
    )
