"""A supervised start for az's network: a teacher agent's moves (AlphaGo's first stage, and Expert Iteration's
step when the teacher is a search).

    tabletop-zoo train GAME --algo imitate [--teacher SPEC] [--players N] [--timesteps SAMPLES] [--seed S] [--out DIR]

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
"""

from __future__ import annotations

import json
import time

import numpy as np
import torch

from .. import registry
from ..agents._params import check_int
from ..agents.az.network import AZNet, az_blob, masked_log_softmax
from ..agents.search_agent import SearchAgent
from ..agents.spec import check_agent_spec
from ..arena.files import atomic_write
from ..kernels._common import dispatch
from .run import SampleProgress, prepare_out, save_torch


def collect(
    game: str,
    num_players: int,
    samples: int,
    explore: float,
    seed: int,
    teacher: str = "heuristic",
    progress: bool = False,
) -> dict[str, np.ndarray]:
    """``samples`` non-forced decisions of ``teacher`` (an agent spec) in every seat: observations, masks, the
    teacher's choices and policies (one-hot, or a search's root visits normalised) and the seat-relative final
    returns of their games (the last game is played to its end)."""
    k = registry.kernel(game)
    spec = check_agent_spec(teacher, game)
    dispatch.register(k)  # a searching teacher looks its kernel up by the record's dtype
    rng = np.random.default_rng(seed)
    obs, masks, choices, policies, values, game_of = [], [], [], [], [], []
    mask, view, out = np.zeros(k.NUM_ACTIONS, np.uint8), np.zeros(k.OBS_SIZE, np.float32), np.zeros(k.MAX_PLAYERS)
    games, bar, start = 0, SampleProgress(samples, 0, progress), time.perf_counter()
    while len(obs) < samples:
        s = k.new_state(num_players, int(rng.integers(2**63)))
        teachers = [spec.build(game, seed=int(rng.integers(2**31))) for _ in range(num_players)]
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
                policy = np.zeros(k.NUM_ACTIONS, np.float32)
                if searching:
                    policy[:] = teachers[seat].last_visits
                    policy /= policy.sum()
                else:
                    policy[choice] = 1.0
                policies.append(policy)
                movers.append(seat)
                if rng.random() < explore:
                    played = int(rng.choice(np.flatnonzero(mask)))
            k.step(s, played)
        k.returns(s, out)
        for seat in movers:
            values.append([out[(seat + j) % num_players] for j in range(num_players)])
            game_of.append(games)
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
    }


def subset(data: dict, rows: np.ndarray) -> dict:
    return {key: value[rows] for key, value in data.items()}


@torch.no_grad()
def agreement(net: AZNet, data: dict) -> float:
    """How often the network's most likely legal action is the teacher's choice."""
    logits, _ = net(torch.from_numpy(data["obs"]))
    legal = torch.from_numpy(data["mask"].astype(bool))
    return float((logits.masked_fill(~legal, -torch.inf).argmax(1).numpy() == data["choice"]).mean())


def fit(net: AZNet, data: dict, num_players: int, epochs: int, minibatch: int, lr: float, seed: int) -> list[dict]:
    """Adam on the policy's cross-entropy (against the teacher's policy) and the value's squared error; the mean
    losses of each epoch."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-4)
    obs, mask = torch.from_numpy(data["obs"]), torch.from_numpy(data["mask"].astype(bool))
    choice, value = torch.from_numpy(data["choice"]), torch.from_numpy(data["value"])
    target = torch.from_numpy(data["policy"])
    log = []
    net.train()
    for epoch in range(epochs):
        order = torch.randperm(len(obs), generator=gen)
        sums, batches = np.zeros(3), 0
        for start in range(0, len(obs), minibatch):
            i = order[start : start + minibatch]
            logits, v = net(obs[i])
            logp = masked_log_softmax(logits, mask[i])
            lp = -torch.where(target[i] > 0, target[i] * logp, 0.0).sum(1).mean()  # 0 * -inf at illegal actions
            lv = ((v[:, :num_players] - value[i]) ** 2).sum(1).mean()
            opt.zero_grad()
            (lp + lv).backward()
            opt.step()
            agree = (logits.detach().masked_fill(~mask[i], -torch.inf).argmax(1) == choice[i]).float().mean()
            sums += (lp.item(), lv.item(), agree.item())
            batches += 1
        p, v, a = sums / batches
        log.append({"epoch": epoch + 1, "policy_loss": p, "value_loss": v, "agreement": a})
    net.eval()
    return log


def train_imitate(
    game: str,
    num_players: int | None = None,
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
) -> dict:
    """Collect ``timesteps`` samples, fit an ``AZNet`` and save ``out/az.pt`` and ``out/log.json`` (a folder that
    holds a run is refused unless ``overwrite``: ``run.prepare_out``)."""
    game = registry._canonical(game)
    k = registry.kernel(game)
    num_players = k.DEFAULT_PLAYERS if num_players is None else k.check_num_players(num_players)
    if isinstance(timesteps, bool) or not isinstance(timesteps, int) or timesteps < 1:
        raise ValueError(f"timesteps (samples) must be an int >= 1, got {timesteps!r}")
    if isinstance(hidden, (str, bytes)) or not hidden:
        raise ValueError(f"hidden must be one or more layer widths, e.g. (256, 256), got {hidden!r}")
    hidden = tuple(check_int("hidden layer width", h, 1) for h in hidden)
    check_agent_spec(teacher, game)  # a bad teacher is refused before the folder is touched
    out = prepare_out(out, overwrite=overwrite)
    if torch_threads is not None:
        torch.set_num_threads(int(torch_threads))
    torch.manual_seed(seed)
    start = time.perf_counter()
    data = collect(game, num_players, timesteps, explore, seed, teacher, progress)
    collected = time.perf_counter() - start
    games = int(data["game"][-1]) + 1
    held_out = data["game"] >= games - (max(1, games // 10) if games > 1 else 0)  # the last tenth of the games
    train, test = subset(data, np.flatnonzero(~held_out)), subset(data, np.flatnonzero(held_out))
    net = AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, hidden)
    log = fit(net, train, num_players, epochs, minibatch, lr, seed)
    wall = time.perf_counter() - start
    meta = {
        "command": f"tabletop-zoo train {game} --algo imitate --players {num_players} --timesteps {timesteps} "
        f"--seed {seed}"
        + ("" if teacher == "heuristic" else f" --teacher '{teacher}'")
        + ("" if hidden == (256, 256) else f" --hidden {','.join(map(str, hidden))}"),
        "teacher": teacher,
        "samples": len(data["obs"]),
        "games": games,
        "held_out_samples": len(test["obs"]),
        "held_out_agreement": round(agreement(net, test), 4) if len(test["obs"]) else None,
        "explore": explore,
        "epochs": epochs,
        "wall_s": round(wall, 1),
        "collect_s": round(collected, 1),
        "num_players": num_players,
        "hidden": list(hidden),
    }
    path = out / "az.pt"
    save_torch(path, az_blob(net, game, meta))
    atomic_write(out / "log.json", json.dumps({"meta": meta, "epochs": log}, indent=1) + "\n")
    return {"network": str(path), "log": log, "meta": meta}
