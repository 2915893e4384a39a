"""A supervised start for az's network: a teacher agent's moves (AlphaGo's first stage, and Expert Iteration's
step when the teacher is a search).

    tabletop-zoo train imitate GAME [--teacher SPEC] [--players N] [--timesteps SAMPLES] [--seed S] [--out DIR]

Games are played by the teacher (default: the game's heuristic) in every seat; at each non-forced decision the
mover's observation, legal mask and the teacher's policy are a sample, and the game's final returns
(seat-relative: entry k is seat ``mover + k``) its value target. The policy target is the teacher's choice, or,
for a searching teacher (``mcts``, ``az``), its root visit counts normalised (Anthony et al. 2017, "Thinking Fast
and Slow with Deep Learning and Tree Search": the apprentice learns the expert search's move distribution, which
says more than its one move). With probability ``explore`` the move played is a random legal one instead (the
sample keeps the teacher's policy as its label), so the positions are not only the teacher's own lines. The
``AZNet`` then learns the policy (cross-entropy over the legal actions) and the returns (squared error), the loss of
az's self-play, for ``epochs`` passes; the last tenth of the games, held out, measures how often the network's
favourite legal action is the teacher's choice. The result is an ``az.pt``: ``az:path=DIR/az.pt`` plays it, and
``--teacher az:path=DIR/az.pt`` makes the next expert of an iteration.

Long runs (``chunk``): the games are collected in chunks of about ``chunk`` samples, each seeded by its index and
saved whole (``chunks/NNNN.npz``) as soon as it is played, and the fit saves its state after every epoch
(``fit.pt``); ``resume=True`` continues such a folder from its last saved chunk or epoch and ends with the network
an uninterrupted run makes, bit for bit (one torch thread). ``workers`` processes collect the chunks side by side
(``Chunks``: the chunks after the next one are collected ahead at full size and used only where the one-process run
would collect them so), with the same chunks, network and figures as one process (but the seconds); the number of
workers may change between sessions.

``num_players`` may list several counts (or be ``"all"``, every count the game supports): each game then draws its
count, so one network learns every table. The count needs no input of its own: every game's observation marks the
seats at the table (``seat_present``).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import multiprocessing
import os
import pathlib
import shutil
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import torch

from .. import registry
from ..agents._params import check_bool, check_int
from ..agents.az.network import AZNet, az_blob, load_plain, masked_log_softmax
from ..agents.registry import agent_parameters
from ..agents.search_agent import SearchAgent
from ..agents.spec import AgentSpec, check_agent_spec
from ..arena.files import atomic_write
from ..arena.tournament import exit_with_parent, warm_cache
from ..files import replaced_on_success
from ..kernels._common import dispatch
from .run import SampleProgress, prepare_out, save_torch

logger = logging.getLogger(__name__)
CHUNKS = "chunks"  # a long run's saved games, one file per chunk
FIT = "fit.pt"  # a long run's fit, saved after every epoch


def collect(
    game: str,
    num_players: int | Sequence[int],
    samples: int,
    explore: float,
    seed: int | Sequence[int],
    teacher: str = "heuristic",
    progress: bool = False,
) -> dict[str, np.ndarray]:
    """``samples`` non-forced decisions of ``teacher`` (an agent spec) in every seat: observations, masks, the
    teacher's choices and policies (one-hot, or a search's root visits normalised), the seat-relative final
    returns of their games (padded with 0 to the largest count) and each sample's player count (the last game
    is played to its end). Given several counts, each game draws its own."""
    k = registry.kernel(game)
    counts = (num_players,) if isinstance(num_players, int) else tuple(num_players)
    spec = teacher_spec(teacher, game)
    dispatch.register(k)  # a searching teacher looks its kernel up by the record's dtype
    rng = np.random.default_rng(seed)
    obs, masks, choices, policies, values, game_of, players = [], [], [], [], [], [], []
    mask, view, out = np.zeros(k.NUM_ACTIONS, np.uint8), np.zeros(k.OBS_SIZE, np.float32), np.zeros(k.MAX_PLAYERS)
    games, bar, start = 0, SampleProgress(samples, 0, progress), time.perf_counter()
    while len(obs) < samples:
        n = counts[0] if len(counts) == 1 else int(rng.choice(counts))  # one count draws nothing: seeds as before
        s = k.new_state(n, int(rng.integers(2**63)))
        teachers = [spec.build(game, seed=int(rng.integers(2**31))) for _ in range(n)]
        movers = []
        while not k.is_over(s):
            seat = int(k.to_move(s))
            k.legal_mask(s, mask)
            k.observe(s, seat, view)
            searching = isinstance(teachers[seat], SearchAgent)
            forced = mask.sum() == 1
            if searching:  # a search is not asked about a forced move: there is nothing to learn from it
                choice = int(np.argmax(mask)) if forced else teachers[seat].act_for_seat(s)
            else:
                choice = teachers[seat].act(view, mask)
            played = choice
            if not forced:
                obs.append(view.copy())
                masks.append(mask.copy())
                choices.append(choice)
                policies.append(teacher_policy(teachers[seat], choice, k.NUM_ACTIONS, searching))
                movers.append(seat)
                if rng.random() < explore:
                    played = int(rng.choice(np.flatnonzero(mask)))
            k.step(s, played)
        k.returns(s, out)
        for seat in movers:
            values.append([out[(seat + j) % n] if j < n else 0.0 for j in range(max(counts))])
            game_of.append(games)
            players.append(n)
        games += 1
        bar.update(min(len(obs), samples), len(obs) / (time.perf_counter() - start), games)
    bar.stop()
    return {
        "obs": np.array(obs, np.float32),
        "mask": np.array(masks, np.uint8),
        "choice": np.array(choices, np.int64),
        "policy": np.array(policies, np.float32),
        "value": np.array(values, np.float32),
        "game": np.array(game_of, np.int64),
        "players": np.array(players, np.int64),
    }


def teacher_spec(teacher: str, game: str) -> AgentSpec:
    """The teacher's spec, checked. A search's root visits are its labels, so an az teacher searches its whole
    budget (``early_stop=false``: stopping once the move is settled would label fewer visits, more peaked)."""
    spec = check_agent_spec(teacher, game)
    if "early_stop" not in agent_parameters(spec.name, game):
        return spec
    if check_bool("early_stop", spec.params.get("early_stop", False)):
        raise ValueError(
            f"teacher {teacher!r}: its root visits are the labels, so it must search its whole budget; "
            "drop early_stop (or set early_stop=false)"
        )
    return AgentSpec(spec.name, {**spec.params, "early_stop": False})


def teacher_policy(teacher, choice: int, num_actions: int, searching: bool) -> np.ndarray:
    """A sample's policy label: a search's root visits normalised, else the teacher's choice one-hot."""
    policy = np.zeros(num_actions, np.float32)
    if searching:
        policy[:] = teacher.last_visits
        policy /= policy.sum()
    else:
        policy[choice] = 1.0
    return policy


def collect_chunk(game: str, counts, target: int, explore: float, seed: int, index: int, teacher: str) -> dict:
    """Chunk ``index`` of a long run: ``collect`` of ``target`` samples seeded ``(seed, index)``, with the target
    and the seconds it took (runs in this process or in a worker)."""
    start = time.perf_counter()
    part = collect(game, counts, target, explore, [seed, index], teacher)
    part["seconds"] = np.array(time.perf_counter() - start)
    part["target"] = np.array(target)  # a chunk collected ahead at full size is of use only where the run wants that
    return part


class Chunks:
    """A long run's chunks, joined in order by the serial rule: chunk i targets ``min(chunk, samples - total)``, the
    total being the samples of chunks 0..i-1, and the run stops once ``total >= samples``. Chunk i is read from
    ``folder/NNNN.npz``; a saved chunk is used only if it was collected for the target the rule gives it (a file
    without a target was saved by a one-process run, which always collects for the rule's target)."""

    def __init__(self, folder: pathlib.Path, samples: int, chunk: int) -> None:
        self.folder, self.samples, self.chunk = folder, samples, chunk
        self.index, self.total, self.games, self.seconds = 0, 0, 0, 0.0  # the next chunk to join; what came before
        self.parts: list[dict] = []

    @property
    def done(self) -> bool:
        return self.total >= self.samples  # a chunk holds >= 1 sample, so this comes

    def target(self) -> int:
        """The next chunk's target: a full chunk, or what the run still lacks (its tail)."""
        return min(self.chunk, self.samples - self.total)

    def path(self, index: int) -> pathlib.Path:
        return self.folder / f"{index:04d}.npz"

    def join_saved(self) -> None:
        """Join the saved chunks that come next and fit the rule."""
        while not self.done and self.path(self.index).exists():
            with np.load(self.path(self.index)) as saved:
                part = {key: saved[key] for key in saved.files}
            if int(part.pop("target", self.target())) != self.target():
                return  # collected ahead at full size where the run's tail is smaller: collected again
            self.seconds += float(part.pop("seconds"))
            part["game"] = part["game"] + self.games
            self.games = int(part["game"][-1]) + 1
            self.total += len(part["obs"])
            self.parts.append(part)
            self.index += 1

    def wanted(self, in_flight: set[tuple[int, int]], workers: int) -> list[tuple[int, int]]:
        """(index, target) of the chunks to start: the next chunk for its target, and while fewer than ``workers``
        are in flight, the chunks after it at full size, as long as each can still be a full chunk of the run (the
        chunks before it in flight or saved ahead count at their least, a full chunk each)."""
        start = []
        if (self.index, self.target()) not in in_flight:
            start.append((self.index, self.target()))
        if self.target() < self.chunk:
            return start  # the tail: nothing after it is needed
        busy = len(in_flight) + len(start)
        for index in itertools.count(self.index + 1):
            if busy >= workers or self.total + (index - self.index + 1) * self.chunk > self.samples:
                return start
            if (index, self.chunk) not in in_flight and not self.path(index).exists():
                start.append((index, self.chunk))
                busy += 1

    def keep(self, index: int, target: int) -> bool:
        """Whether a chunk just collected may still be joined as it is (else it is dropped, unsaved)."""
        if index == self.index:
            return target == self.target()
        return index > self.index and target == self.target() == self.chunk

    def save(self, index: int, part: dict) -> None:
        """Save a chunk whole (a kill loses only the chunks still being collected)."""
        with replaced_on_success(self.path(index)) as tmp:
            np.savez_compressed(tmp, **part)
        games = part["game"][-1] + 1
        logger.info("chunk %d: %d samples, %d games, %.0f s", index, len(part["obs"]), games, part["seconds"])

    def drop_unused(self) -> None:
        """Remove chunks saved ahead that the run did not need: a folder holds the chunks of its run only."""
        for index in saved_chunks(self.folder):
            if index >= self.index:
                self.path(index).unlink()

    def joined(self) -> dict[str, np.ndarray]:
        return {key: np.concatenate([p[key] for p in self.parts]) for key in self.parts[0]}


def saved_chunks(folder: pathlib.Path) -> list[int]:
    """The indexes of the chunks saved in ``folder`` (not a temporary file being written)."""
    return sorted(int(path.stem) for path in folder.glob("*.npz") if path.stem.isdigit())


def collect_chunks(
    folder: pathlib.Path,
    game: str,
    counts,
    samples: int,
    chunk: int,
    explore: float,
    seed: int,
    teacher: str,
    workers: int = 1,
) -> tuple[dict[str, np.ndarray], float]:
    """``collect`` in chunks of about ``chunk`` samples (``Chunks``: chunk i seeded ``(seed, i)``), each saved whole
    to ``folder/NNNN.npz`` once played and read back on resume, so a killed run gathers the same samples. With
    ``workers`` > 1 that many processes collect the next chunks side by side (``Chunks.wanted``); the chunks joined
    are the same with any ``workers``. The chunks joined (games numbered across them) and their collection seconds
    (summed over the chunks: with several workers, more than the time on the clock)."""
    folder.mkdir(exist_ok=True)
    run = Chunks(folder, samples, chunk)
    run.join_saved()
    if not run.done:
        start = time.perf_counter()
        with chunk_pool(workers, game, counts, teacher) as pool:
            collect_missing(run, pool, workers, (game, counts, explore, seed, teacher))
        logger.info("%d chunks with %d workers in %.0f s", run.index, workers, time.perf_counter() - start)
    run.drop_unused()
    return run.joined(), run.seconds


def collect_missing(run: Chunks, pool, workers: int, job: tuple) -> None:
    """Keep ``workers`` chunks in flight in ``pool`` (the ones ``run`` wants next), saving each as it comes, until
    the run has its samples. ``job``: ``collect_chunk``'s arguments but the target and the index."""
    game, counts, explore, seed, teacher = job
    in_flight: dict[Future, tuple[int, int]] = {}
    while not run.done:
        for index, target in run.wanted(set(in_flight.values()), workers):
            in_flight[pool.submit(collect_chunk, game, counts, target, explore, seed, index, teacher)] = index, target
        finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
        for future in sorted(finished, key=in_flight.get):
            index, target = in_flight.pop(future)
            if run.keep(index, target):
                run.save(index, result_of(future))
            else:
                logger.info("chunk %d: collected ahead for %d samples, not the run's target: dropped", index, target)
        run.join_saved()


def result_of(future: Future) -> dict:
    """A worker's chunk; a worker that died (killed, out of memory) as one line that says what is kept."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise RuntimeError(
            "a worker collecting chunks died; the chunks saved so far are kept: resume the run to continue"
        ) from None


class InProcess:
    """One worker: each chunk is collected here, when it is submitted (no process to start, nothing to orphan)."""

    def submit(self, fn, *args) -> Future:
        future = Future()
        future.set_result(fn(*args))
        return future


@contextlib.contextmanager
def chunk_pool(workers: int, game: str, counts, teacher: str) -> Iterator:
    """``InProcess`` for one worker, else ``workers`` spawned processes (one torch thread each, numba's cache shared,
    compiled here first so that they load machine code instead of each compiling it); on leaving, a worker still
    collecting a chunk that is no longer needed is stopped, not waited for."""
    if workers == 1:
        yield InProcess()
        return
    warm_cache(game, counts[0], [check_agent_spec(teacher, game)])
    context = multiprocessing.get_context("spawn")  # not fork: forking after torch or numba threads can deadlock
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=start_worker, initargs=(os.getpid(),))
    try:
        yield pool
    finally:
        for process in list((pool._processes or {}).values()):  # Python 3.14: pool.terminate_workers()
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def start_worker(parent: int) -> None:
    """A chunk worker: one torch thread (one core each), and gone when the run's process is (even by kill -9)."""
    torch.set_num_threads(1)
    exit_with_parent(parent)


def subset(data: dict, rows: np.ndarray) -> dict:
    return {key: value[rows] for key, value in data.items()}


@torch.no_grad()
def agreement(net: AZNet, data: dict) -> float:
    """How often the network's most likely legal action is the teacher's choice."""
    logits, _ = net(torch.from_numpy(data["obs"]))
    legal = torch.from_numpy(data["mask"].astype(bool))
    return float((logits.masked_fill(~legal, -torch.inf).argmax(1).numpy() == data["choice"]).mean())


def fit(
    net: AZNet, data: dict, epochs: int, minibatch: int, lr: float, seed: int, checkpoint: pathlib.Path | None = None
) -> list[dict]:
    """Adam on the policy's cross-entropy (against the teacher's policy) and the value's squared error over each
    sample's seats; the mean losses of each epoch. With ``checkpoint``, the network, Adam's moments, the shuffle's
    generator and the log are saved there after every epoch, and a saved fit continues from its last epoch."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-4)
    obs, mask = torch.from_numpy(data["obs"]), torch.from_numpy(data["mask"].astype(bool))
    choice, value = torch.from_numpy(data["choice"]), torch.from_numpy(data["value"])
    seated = torch.from_numpy(np.arange(value.shape[1]) < data["players"][:, None]).float()  # padded seats: 0
    target = torch.from_numpy(data["policy"])
    log = []
    if checkpoint is not None and checkpoint.exists():
        log = resume_fit(checkpoint, net, opt, gen)
    net.train()
    for epoch in range(len(log), epochs):
        order = torch.randperm(len(obs), generator=gen)
        sums, batches = np.zeros(3), 0
        for start in range(0, len(obs), minibatch):
            i = order[start : start + minibatch]
            logits, v = net(obs[i])
            logp = masked_log_softmax(logits, mask[i])
            lp = -torch.where(target[i] > 0, target[i] * logp, 0.0).sum(1).mean()  # 0 * -inf at illegal actions
            lv = (((v[:, : value.shape[1]] - value[i]) ** 2) * seated[i]).sum(1).mean()
            opt.zero_grad()
            (lp + lv).backward()
            opt.step()
            agree = (logits.detach().masked_fill(~mask[i], -torch.inf).argmax(1) == choice[i]).float().mean()
            sums += (lp.item(), lv.item(), agree.item())
            batches += 1
        p, v, a = (float(x) for x in sums / batches)  # plain floats: the checkpoint holds no numpy objects
        log.append({"epoch": epoch + 1, "policy_loss": p, "value_loss": v, "agreement": a})
        if checkpoint is not None:
            state = {"net": net.state_dict(), "opt": opt.state_dict(), "generator": gen.get_state(), "log": log}
            save_torch(checkpoint, state)
            logger.info("epoch %d: policy loss %.4f, value loss %.4f, agreement %.3f", *log[-1].values())
    net.eval()
    return log


def resume_fit(checkpoint: pathlib.Path, net: AZNet, opt: torch.optim.Optimizer, gen: torch.Generator) -> list[dict]:
    """Load a fit saved after an epoch into ``net``, ``opt`` and ``gen``; its log so far."""
    state = load_plain(checkpoint, "a saved imitation fit", "; remove it to fit again from the start")
    net.load_state_dict(state["net"])
    opt.load_state_dict(state["opt"])
    gen.set_state(state["generator"])
    return list(state["log"])


def train_imitate(
    game: str,
    num_players: int | Sequence[int] | str | None = None,
    timesteps: int = 100_000,
    teacher: str = "heuristic",
    epochs: int = 8,
    explore: float = 0.1,
    hidden: tuple[int, ...] = (256, 256),
    minibatch: int = 512,
    lr: float = 1e-3,
    seed: int = 0,
    out="train_runs/imitate",
    torch_threads: int | None = None,
    progress: bool = False,
    overwrite: bool = False,
    chunk: int | None = None,
    resume: bool = False,
    workers: int = 1,
) -> dict:
    """Collect ``timesteps`` samples, fit an ``AZNet`` and save ``out/az.pt`` and ``out/log.json`` (a folder that
    holds a run is refused unless ``overwrite``: ``run.prepare_out``). ``num_players``: one count, several, or
    ``"all"``. With ``chunk`` (samples a saved chunk) the run saves its progress, and ``resume=True`` starts it or
    continues it with the same settings (``config.json``); resuming a finished run returns its result. ``workers``
    processes collect a chunked run's chunks (the same result with any number, so it is not one of the settings a
    resume checks: a run started with one worker may continue with two)."""
    game = registry._canonical(game)
    k = registry.kernel(game)
    settings = check_settings(k, num_players, timesteps, teacher, hidden, chunk, resume)
    workers = check_workers(workers, chunk)
    settings.update(epochs=epochs, explore=explore, minibatch=minibatch, lr=lr, seed=seed)
    counts, hidden = tuple(settings["players"]), tuple(settings["hidden"])
    out = prepare_out(out, resume=resume, overwrite=overwrite)
    if chunk is not None:
        if overwrite:  # the run files went with prepare_out; its saved games and fit go too
            shutil.rmtree(out / CHUNKS, ignore_errors=True)
            (out / FIT).unlink(missing_ok=True)
        check_config(out / "config.json", settings)
        if (out / "log.json").exists():  # written last: the run is finished
            saved = json.loads((out / "log.json").read_text())
            return {"network": str(out / "az.pt"), "log": saved["epochs"], "meta": saved["meta"]}
    if torch_threads is not None:
        torch.set_num_threads(int(torch_threads))
    torch.manual_seed(seed)
    start = time.perf_counter()
    if chunk is None:
        data = collect(game, counts, timesteps, explore, seed, teacher, progress)
        collected = time.perf_counter() - start
    else:  # the seconds of every session that played a chunk
        data, collected = collect_chunks(out / CHUNKS, game, counts, timesteps, chunk, explore, seed, teacher, workers)
    fitting = time.perf_counter()
    games = int(data["game"][-1]) + 1
    held_out = data["game"] >= games - (max(1, games // 10) if games > 1 else 0)  # the last tenth of the games
    train, test = subset(data, np.flatnonzero(~held_out)), subset(data, np.flatnonzero(held_out))
    if chunk is not None:  # the same first weights whether this session played the chunks or read them back
        torch.manual_seed(seed)  # (an az teacher's network draws from torch's generator as it is built)
    net = AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, hidden)
    log = fit(net, train, epochs, minibatch, lr, seed, None if chunk is None else out / FIT)
    meta = {
        "command": command(settings),
        "teacher": teacher,
        "samples": len(data["obs"]),
        "games": games,
        "held_out_samples": len(test["obs"]),
        "held_out_agreement": round(agreement(net, test), 4) if len(test["obs"]) else None,
        "explore": explore,
        "epochs": epochs,
        "wall_s": round(collected + time.perf_counter() - fitting, 1),
        "collect_s": round(collected, 1),
        "num_players": counts[0] if len(counts) == 1 else list(counts),
        "hidden": list(hidden),
    }
    path = out / "az.pt"
    save_torch(path, az_blob(net, game, meta))
    atomic_write(out / "log.json", json.dumps({"meta": meta, "epochs": log}, indent=1) + "\n")
    return {"network": str(path), "log": log, "meta": meta}


def check_settings(k, num_players, timesteps, teacher: str, hidden, chunk, resume: bool) -> dict:
    """The run's checked settings (each refused with one line before the folder is touched)."""
    if isinstance(timesteps, bool) or not isinstance(timesteps, int) or timesteps < 1:
        raise ValueError(f"timesteps (samples) must be an int >= 1, got {timesteps!r}")
    if isinstance(hidden, (str, bytes)) or not hidden:
        raise ValueError(f"hidden must be one or more layer widths, e.g. (256, 256), got {hidden!r}")
    hidden = tuple(check_int("hidden layer width", h, 1) for h in hidden)
    chunk = None if chunk is None else check_int("chunk (samples a saved chunk)", chunk, 1)
    if resume and chunk is None:
        raise ValueError("resume continues a run saved in chunks: pass chunk (samples a saved chunk) too")
    teacher_spec(teacher, k.GAME_ID)
    players = player_counts(k, num_players)
    return {
        "game": k.GAME_ID,
        "players": list(players),
        "timesteps": timesteps,
        "teacher": teacher,
        "hidden": list(hidden),
        "chunk": chunk,
    }


def check_workers(workers, chunk) -> int:
    """The processes collecting chunks: an int >= 1; more than one needs a chunked run."""
    workers = check_int("workers (processes collecting chunks)", workers, 1)
    if workers > 1 and chunk is None:
        raise ValueError(f"workers={workers} collect a run's chunks side by side: pass chunk (samples a saved chunk)")
    return workers


def player_counts(k, num_players) -> tuple[int, ...]:
    """The counts the games are played at: the game's default for None, every supported count for ``"all"``,
    else one count or several (each checked by the game)."""
    if num_players is None:
        return (k.DEFAULT_PLAYERS,)
    if num_players == "all":
        return tuple(range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1))
    if isinstance(num_players, str) or not isinstance(num_players, (int, Sequence)):
        raise ValueError(f"players must be a count, several counts or 'all', got {num_players!r}")
    counts = (num_players,) if isinstance(num_players, int) else tuple(num_players)
    if not counts:
        raise ValueError("players must name at least one player count")
    return tuple(sorted({k.check_num_players(n) for n in counts}))


def check_config(path: pathlib.Path, settings: dict) -> None:
    """Write a new run's settings; check a resumed run's are the same (refused, naming what differs)."""
    if not path.exists():
        atomic_write(path, json.dumps(settings, indent=1) + "\n")
        return
    saved = json.loads(path.read_text())
    changed = sorted(key for key in set(saved) | set(settings) if saved.get(key) != settings.get(key))
    if changed:
        was = ", ".join(f"{key}={saved.get(key)!r} (now {settings.get(key)!r})" for key in changed)
        raise ValueError(f"{path.parent} holds a run with other settings: {was}; resume it with its own settings")


def command(settings: dict) -> str:
    """The command line of a run's settings."""
    players = settings["players"]
    count = players[0] if len(players) == 1 else ",".join(map(str, players))
    hidden = tuple(settings["hidden"])
    return (
        f"tabletop-zoo train imitate {settings['game']} --players {count} --timesteps {settings['timesteps']} "
        f"--seed {settings['seed']}"
        + ("" if settings["teacher"] == "heuristic" else f" --teacher '{settings['teacher']}'")
        + ("" if hidden == (256, 256) else f" --hidden {','.join(map(str, hidden))}")
        + ("" if settings["chunk"] is None else f" --chunk {settings['chunk']} --resume")
    )
