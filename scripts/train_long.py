"""Expert Iteration rounds for az's networks, long enough to span sessions: started, killed and resumed by one
command (#48). ``scripts/train_long`` runs this in the background; see benchmarks/AZ.md for why this recipe.

    python scripts/train_long.py [GAMES...] [--run DIR] [--status]

Per game, in the run folder ``DIR/GAME/``:
- ``round0.pt``: the network shipped when the run began, or the one ``--start GAME=PATH`` names (copied once: the
  run never depends on what ships or is written there later);
- ``roundR/``: round R, ``train_imitate`` in chunks (resumable): the best network so far searching with a budget
  above MCTS(1000)'s strength (``az:simulations=TEACHER_SIMULATIONS``) plays every seat, each game at a player
  count drawn from every count the game supports, and a network of the shipped widths learns its visit counts
  and the outcomes;
- ``gateR/``: a resumable arena at 4 players, round R's network against three of the teacher's network, both at
  az's default budget; round R's network teaches the next round only if it wins more than the equal share.
Rounds go game by game in the order given (round 1 of every game, then round 2, ...). Every step reads what is
already saved first, so a killed run (even kill -9) continues from its last chunk, epoch or game.
"""

from __future__ import annotations

import fcntl
import json
import logging
import pathlib
import shutil
import sys
from typing import Annotated

import typer

from tabletop_zoo import registry
from tabletop_zoo.agents.az.agent import shipped_network
from tabletop_zoo.agents.az.network import load_az
from tabletop_zoo.arena import run as arena
from tabletop_zoo.arena.files import GAMES_FILE, RUN_FILE, read_games
from tabletop_zoo.files import replaced_on_success
from tabletop_zoo.training.imitate import CHUNKS, FIT, train_imitate

GAMES = ("imperial", "kremlin", "french_revolution_1789")  # the weakest first (benchmarks/AZ.md)
ROUNDS = 4
SAMPLES = 120_000  # a round: twice the shipped rounds' samples, spread over every player count
CHUNK = 2_048  # samples a saved chunk: what a kill can lose
TEACHER_SIMULATIONS = 2_000  # az with the shipped network at 2,000 simulations: the teacher (benchmarks/AZ.md)
GATE_GAMES, GATE_PLAYERS = 40, 4
SEED = 48_000  # round R's collection and fit are seeded SEED + R, its gate SEED + 100 + R

log = logging.getLogger("train_long")


def round_zero(folder: pathlib.Path, game: str, start: pathlib.Path | None = None) -> pathlib.Path:
    """The network the run starts ``game`` from (``start``, else the one shipped), copied into the run folder once."""
    path = folder / "round0.pt"
    if start is not None and path.exists() and path.read_bytes() != start.read_bytes():
        raise SystemExit(f"{path} began from another network than --start {game}={start}: use a new run folder")
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        with replaced_on_success(path) as tmp:
            shutil.copyfile(start or shipped_network(game), tmp)
    return path


def train_round(folder: pathlib.Path, game: str, r: int, teacher: pathlib.Path) -> pathlib.Path:
    """Round ``r`` taught by ``teacher`` searching (started or continued); its network."""
    _, blob = load_az(teacher, game)
    log.info("%s round %d: teacher %s at %d simulations", game, r, teacher, TEACHER_SIMULATIONS)
    result = train_imitate(
        game,
        "all",
        SAMPLES,
        f"az:path={teacher},simulations={TEACHER_SIMULATIONS}",
        hidden=tuple(blob["hidden"]),
        seed=SEED + r,
        out=folder / f"round{r}",
        torch_threads=1,
        chunk=CHUNK,
        resume=True,
    )
    meta = result["meta"]
    log.info(
        "%s round %d: %d samples, %d games, held-out agreement %s, %.0f s",
        game,
        r,
        meta["samples"],
        meta["games"],
        meta["held_out_agreement"],
        meta["wall_s"],
    )
    return pathlib.Path(result["network"])


def gate(folder: pathlib.Path, game: str, r: int, candidate: pathlib.Path, teacher: pathlib.Path) -> bool:
    """Round ``r``'s network against three of its teacher's at az's default budget (a resumable arena): whether
    it won more games alone than the equal share."""
    out = folder / f"gate{r}"
    lineup = [f"az:path={candidate}", *[f"az:path={teacher}"] * (GATE_PLAYERS - 1)]
    started = (out / RUN_FILE).exists()  # the arena's settings, written before its first game
    arena(
        game,
        lineup,
        GATE_PLAYERS,
        GATE_GAMES,
        SEED + 100 + r,
        out,
        workers=1,
        resume=started,
        progress=False,
        console=False,
    )
    records = read_games(out / GAMES_FILE, GATE_PLAYERS).values()
    wins = sum(
        1
        for rec in records
        for i, a in enumerate(rec["agents"])
        if a == lineup[0] and rec["ranks"].count(1) == 1 and rec["ranks"][i] == 1
    )
    passed = wins > GATE_GAMES / GATE_PLAYERS
    log.info(
        "%s gate %d: round %d won %d of %d against its teacher: %s",
        game,
        r,
        r,
        wins,
        GATE_GAMES,
        "teaches next" if passed else "the teacher stays",
    )
    return passed


def best_teacher(folder: pathlib.Path, game: str, rounds: int, start: pathlib.Path | None = None) -> pathlib.Path:
    """Play (or read back) rounds 1..``rounds`` and their gates; the teacher of the round after."""
    teacher = round_zero(folder, game, start)
    for r in range(1, rounds + 1):
        network = train_round(folder, game, r, teacher)
        if gate(folder, game, r, network, teacher):
            teacher = network
    return teacher


def start_networks(pairs: list[str], games: list[str]) -> dict[str, pathlib.Path]:
    """``GAME=PATH`` pairs as {game: path}, each an az network of that game; one-line errors otherwise."""
    starts = {}
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not path:
            raise typer.BadParameter(f"--start takes GAME=PATH, got {pair!r}")
        game = registry._canonical(name)
        if game not in games:
            raise typer.BadParameter(f"--start names {game}, which this run does not train ({', '.join(games)})")
        try:
            load_az(path, game)  # refuses a file that is not an az network of this game
        except (OSError, ValueError) as e:
            raise typer.BadParameter(f"--start {pair}: {e}") from None
        starts[game] = pathlib.Path(path).resolve()
    return starts


def status(run: pathlib.Path, games: list[str]) -> None:
    """Where each game's rounds stand: chunks saved, the fit, gate games played."""
    for game in games:
        for r in range(1, ROUNDS + 1):
            out, played = run / game / f"round{r}", run / game / f"gate{r}" / GAMES_FILE
            if not out.exists():
                break
            chunks = len(list((out / CHUNKS).glob("*.npz")))
            if (out / "log.json").exists():
                fitted = f"done ({json.loads((out / 'log.json').read_text())['meta']['samples']:,} samples)"
            else:
                fitted = "epochs saved" if (out / FIT).exists() else "not started"
            gate_games = len(played.read_text().splitlines()) if played.exists() else 0
            print(
                f"{game} round {r}: {chunks} chunks of ~{CHUNK:,} samples saved (a round: {SAMPLES:,} samples), "
                f"fit {fitted}, gate games {gate_games}/{GATE_GAMES}"
            )


def main(
    games: Annotated[list[str] | None, typer.Argument(help="games, in the order to train")] = None,
    run: Annotated[pathlib.Path, typer.Option(help="the run folder")] = pathlib.Path("train_runs/exit_long"),
    show: Annotated[bool, typer.Option("--status", help="print where the run stands and exit")] = False,
    start: Annotated[
        list[str] | None,
        typer.Option(help="GAME=PATH: start GAME from this az network instead of the shipped one (read once)"),
    ] = None,
) -> None:
    """Start or continue the long Expert Iteration run (one process at a time per run folder)."""
    games = [registry._canonical(g) for g in (games or GAMES)]
    starts = start_networks(start or [], games)
    if show:
        status(run, games)
        return
    run.mkdir(parents=True, exist_ok=True)
    lock = open(run / ".lock", "w")  # noqa: SIM115 - held until the process ends (a kill releases it)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit(f"{run} is being trained by another process; wait for it or stop it first")
    logging.basicConfig(format="%(asctime)s %(message)s", stream=sys.stdout, force=True)
    for name in ("train_long", "tabletop_zoo.training.imitate"):  # the run's steps, not every library's notes
        logging.getLogger(name).setLevel(logging.INFO)
    for rounds in range(1, ROUNDS + 1):  # round-major: every game gets its next round before any its one after
        for game in games:
            best_teacher(run / game, game, rounds, starts.get(game))
    log.info("all rounds done")


if __name__ == "__main__":
    typer.run(main)
