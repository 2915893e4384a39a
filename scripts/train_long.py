"""Expert Iteration rounds for az's networks, long enough to span sessions: started, killed and resumed by one
command (#48). ``scripts/train_long`` runs this in the background; see benchmarks/AZ.md for why this recipe.

    python scripts/train_long.py [GAMES...] [--run DIR] [--samples N] [--workers K] [--start GAME=PATH] [--status]

Per game, in the run folder ``DIR/GAME/``:
- ``round0.pt``: the network shipped when the run began, or the one ``--start GAME=PATH`` names (copied once: the
  run never depends on what ships or is written there later);
- ``roundR/``: round R, ``train_imitate`` in chunks (resumable) of ``--samples`` samples (120,000 by default),
  collected by ``--workers`` processes: the best network so far searching with a budget above MCTS(1000)'s strength
  (``az:simulations=TEACHER_SIMULATIONS``) plays every seat, each game at a player count drawn from every count the
  game supports, and a network of the shipped widths learns its visit counts and the outcomes;
- ``gateR/candidate/`` and ``gateR/teacher/``: two resumable arenas at 4 players with the same seed, round R's
  network and then its teacher, each at az's default budget in one seat against three ``mcts:simulations=1000``
  (40 seat-rotated games); round R's network teaches the next round if it wins outright at least as many games as
  the teacher did (ties go to the candidate). MCTS(1000) is the yardstick that moves: against three copies of the
  teacher, a candidate stronger than the teacher against MCTS could still fall short of the equal share (Imperial's
  round 1: 10 of 40 against its teacher, rejected, but 54 of 120 against MCTS(1000), where the teacher won 25 of 80).
  An arena already played is read back, never played again.
Rounds go game by game in the order given (round 1 of every game, then round 2, ...). Every step reads what is
already saved first, so a killed run (even kill -9) continues from its last chunk, epoch or game, with any number of
workers (they collect the same chunks). The run's samples per round are recorded (``settings.json``): a run
continued with another ``--samples`` is refused.
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
from tabletop_zoo.arena import parse_agent_spec, seating
from tabletop_zoo.arena import run as arena
from tabletop_zoo.arena.files import GAMES_FILE, RUN_FILE, read_games
from tabletop_zoo.files import atomic_write, replaced_on_success
from tabletop_zoo.training.imitate import CHUNKS, FIT, saved_chunks, train_imitate

GAMES = ("imperial", "kremlin", "french_revolution_1789")  # the weakest first (benchmarks/AZ.md)
ROUNDS = 4
SAMPLES = 120_000  # a round by default: twice the shipped rounds' samples, spread over every player count
CHUNK = 2_048  # samples a saved chunk: what a kill can lose
TEACHER_SIMULATIONS = 2_000  # az with the shipped network at 2,000 simulations: the teacher (benchmarks/AZ.md)
GATE_GAMES, GATE_PLAYERS = 40, 4
GATE_OPPONENT = "mcts:simulations=1000"  # the three other seats of both gate arenas
GATE_SIDES = ("candidate", "teacher")  # gateR/'s two arenas
SEED = 48_000  # round R's collection and fit are seeded SEED + R, its gate arenas SEED + 100 + R
SETTINGS = "settings.json"  # the run's samples per round
QUIET = {"progress": False, "console": False}  # the gate arenas write their files and log only the decision

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


def train_round(folder: pathlib.Path, game: str, r: int, teacher: pathlib.Path, samples: int, workers: int):
    """Round ``r`` taught by ``teacher`` searching (started or continued); its network."""
    _, blob = load_az(teacher, game)
    log.info("%s round %d: teacher %s at %d simulations", game, r, teacher, TEACHER_SIMULATIONS)
    result = train_imitate(
        game,
        "all",
        samples,
        f"az:path={teacher},simulations={TEACHER_SIMULATIONS}",
        hidden=tuple(blob["hidden"]),
        seed=SEED + r,
        out=folder / f"round{r}",
        torch_threads=1,
        chunk=CHUNK,
        resume=True,
        workers=workers,
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


def gate_lineup(network: pathlib.Path) -> list[str]:
    """A gate arena's line-up, as the arena labels it: ``network`` at az's default budget, then the opponents."""
    return [parse_agent_spec(f"az:path={network}", None).label, *[GATE_OPPONENT] * (GATE_PLAYERS - 1)]


def gate_wins(out: pathlib.Path, game: str, network: pathlib.Path, seed: int, workers: int) -> int:
    """The games ``network`` won outright in the gate arena in ``out`` (played, continued, or read back when all
    its games are saved: never played again)."""
    lineup = gate_lineup(network)

    def seated(g: int) -> list[str]:
        return [lineup[j] for j in seating(lineup, GATE_PLAYERS, g)]

    if len(read_games(out / GAMES_FILE, GATE_PLAYERS, seated)) < GATE_GAMES:  # a file of another line-up: refused
        started = (out / RUN_FILE).exists()  # the arena's settings, written before its first game
        arena(game, lineup, GATE_PLAYERS, GATE_GAMES, seed, out, workers=workers, resume=started, **QUIET)
    records = read_games(out / GAMES_FILE, GATE_PLAYERS, seated).values()
    return sum(1 for rec in records if outright_winner(rec) == lineup[0])


def outright_winner(record: dict) -> str | None:
    """The agent alone in first place in an arena's game record; None when first place is shared."""
    firsts = [agent for agent, rank in zip(record["agents"], record["ranks"], strict=True) if rank == 1]
    return firsts[0] if len(firsts) == 1 else None


def gate(folder: pathlib.Path, game: str, r: int, candidate: pathlib.Path, teacher: pathlib.Path, workers: int = 1):
    """Whether round ``r``'s network teaches the next round: its outright wins against three MCTS(1000) at least
    the teacher's, in two arenas with the same seed (``gateR/candidate/``, ``gateR/teacher/``)."""
    out, seed = folder / f"gate{r}", SEED + 100 + r
    wins = {
        side: gate_wins(out / side, game, network, seed, workers)
        for side, network in zip(GATE_SIDES, (candidate, teacher), strict=True)
    }
    passed = wins["candidate"] >= wins["teacher"]  # a tie goes to the candidate: the newer network learned more
    log.info(
        "%s gate %d: against three %s, round %d won %d of %d, its teacher %d: %s",
        game,
        r,
        GATE_OPPONENT,
        r,
        wins["candidate"],
        GATE_GAMES,
        wins["teacher"],
        "teaches next" if passed else "the teacher stays",
    )
    return passed


def best_teacher(
    folder: pathlib.Path, game: str, rounds: int, samples: int, workers: int, start: pathlib.Path | None = None
) -> pathlib.Path:
    """Play (or read back) rounds 1..``rounds`` and their gates; the teacher of the round after."""
    teacher = round_zero(folder, game, start)
    for r in range(1, rounds + 1):
        network = train_round(folder, game, r, teacher, samples, workers)
        if gate(folder, game, r, network, teacher, workers):
            teacher = network
    return teacher


def run_samples(run: pathlib.Path, samples: int | None = None) -> int:
    """The run's samples per round: recorded in ``settings.json`` when the run begins (a run folder from before it
    was recorded: its first round's); ``samples`` other than the recorded ones is refused in one line."""
    path = run / SETTINGS
    configs = sorted(run.glob("*/round*/config.json"))
    if path.exists():
        recorded = json.loads(path.read_text())["samples"]
    elif configs:
        recorded = json.loads(configs[0].read_text())["timesteps"]
    else:
        recorded = None
    if samples is None:
        return SAMPLES if recorded is None else recorded
    if recorded is not None and recorded != samples:
        raise SystemExit(
            f"{run} trains rounds of {recorded} samples (now --samples {samples}): continue it with --samples "
            f"{recorded}, or use a new run folder"
        )
    if not path.exists():
        atomic_write(path, json.dumps({"samples": samples}) + "\n")
    return samples


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
    samples = run_samples(run)
    for game in games:
        if not (run / game / "round1").exists():
            print(f"{game}: not started")
        for r in range(1, ROUNDS + 1):
            out, gate_folder = run / game / f"round{r}", run / game / f"gate{r}"
            if not out.exists():
                break
            chunks = len(saved_chunks(out / CHUNKS))
            if (out / "log.json").exists():
                fitted = f"done ({json.loads((out / 'log.json').read_text())['meta']['samples']:,} samples)"
            else:
                fitted = "epochs saved" if (out / FIT).exists() else "not started"
            played = [games_played(gate_folder / side / GAMES_FILE) for side in GATE_SIDES]
            print(
                f"{game} round {r}: {chunks} chunks of ~{CHUNK:,} samples saved (a round: {samples:,} samples), "
                f"fit {fitted}, gate games: candidate {played[0]}/{GATE_GAMES}, teacher {played[1]}/{GATE_GAMES}"
            )


def games_played(path: pathlib.Path) -> int:
    """Games an arena has saved, counted without rewriting its file (the run may be appending to it)."""
    return len(path.read_text().splitlines()) if path.exists() else 0


def main(
    games: Annotated[list[str] | None, typer.Argument(help="games, in the order to train")] = None,
    run: Annotated[pathlib.Path, typer.Option(help="the run folder")] = pathlib.Path("train_runs/exit_long"),
    show: Annotated[bool, typer.Option("--status", help="print where the run stands and exit")] = False,
    start: Annotated[
        list[str] | None,
        typer.Option(help="GAME=PATH: start GAME from this az network instead of the shipped one (read once)"),
    ] = None,
    samples: Annotated[
        int, typer.Option(min=1, help="samples a round (recorded when the run begins; a resume must keep them)")
    ] = SAMPLES,
    workers: Annotated[
        int, typer.Option(min=1, help="processes collecting a round's chunks and playing its gate games")
    ] = 1,
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
    samples = run_samples(run, samples)
    logging.basicConfig(format="%(asctime)s %(message)s", stream=sys.stdout, force=True)
    for name in ("train_long", "tabletop_zoo.training.imitate"):  # the run's steps, not every library's notes
        logging.getLogger(name).setLevel(logging.INFO)
    for rounds in range(1, ROUNDS + 1):  # round-major: every game gets its next round before any its one after
        for game in games:
            best_teacher(run / game, game, rounds, samples, workers, starts.get(game))
    log.info("all rounds done")


if __name__ == "__main__":
    typer.run(main)
