"""PPO self-play on ``tabletop_zoo.make_vec``, in one file (CleanRL style): one shared policy plays every seat.

    python examples/ppo_make_vec.py                          # Irish Gauge, 3 players, about 3 minutes here
    python examples/ppo_make_vec.py --game kremlin --players 4 --total-steps 400000
    python examples/ppo_make_vec.py --quick                  # a few seconds: the test suite runs this

The batch steps every lane's game in numba; each step asks the seat to move in each lane for an action, so one
policy (seeing its own seat-relative observation) learns from every seat's decisions. A seat's rewards arrive
when its game ends (win shares), so each decision's return is propagated along that seat's own decisions in
that game: the "next state" of a decision is the same seat's next decision (GAE over per-seat chains). At the end
the greedy policy plays seat-rotated games against uniformly random seats, and the script prints its win share
with an exact binomial test against the equal share (1/players).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from scipy.stats import binomtest
from torch import nn

import tabletop_zoo


# --- flags ---------------------------------------------------------------------------------------------
def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="irish_gauge")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--num-envs", type=int, default=64, help="lanes of the batch")
    p.add_argument("--num-steps", type=int, default=128, help="batch steps per rollout")
    p.add_argument("--total-steps", type=int, default=250_000, help="decisions to learn from")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--eval-games", type=int, default=300, help="games against random seats at the end")
    p.add_argument("--torch-threads", type=int, default=1, help="torch threads (one is fastest for this size)")
    p.add_argument("--quick", action="store_true", help="a tiny run (the test suite's smoke test)")
    args = p.parse_args(argv)
    if args.quick:
        args.num_envs, args.num_steps, args.total_steps, args.eval_games = 8, 16, 512, 6
    return args


# --- the network -----------------------------------------------------------------------------------------
class Agent(nn.Module):
    """Actor and critic MLPs; illegal actions get -inf logits, so the policy samples only legal moves."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int):
        super().__init__()

        def mlp(out: int, gain: float) -> nn.Sequential:
            layers = [nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()]
            head = nn.Linear(hidden, out)
            for layer in [*layers[::2], head]:
                nn.init.orthogonal_(layer.weight, gain if layer is head else np.sqrt(2))
                nn.init.zeros_(layer.bias)
            return nn.Sequential(*layers, head)

        self.actor, self.critic = mlp(num_actions, 0.01), mlp(1, 1.0)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def act(self, obs, mask, action=None):
        logits = self.actor(obs).masked_fill(~mask, -torch.inf)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(obs)


# --- returns along each seat's own decisions ---------------------------------------------------------
def seat_advantages(values, rewards, next_index, ended, gae_lambda):
    """GAE (gamma 1: the games are finite) where a decision's successor is the same seat's next decision in the
    same game (``next_index``; -1 at the end of the seat's game, ``ended``, or where the rollout cut the chain).
    ``rewards[t]`` is what the game paid that seat after decision t: its final reward on its last decision. A
    chain cut by the rollout is bootstrapped with its last decision's own value (advantage 0 there)."""
    advantages = np.zeros_like(values)
    for t in range(len(values) - 1, -1, -1):  # a successor always comes later in the buffer
        nxt = next_index[t]
        if nxt >= 0:
            advantages[t] = rewards[t] + values[nxt] - values[t] + gae_lambda * advantages[nxt]
        elif ended[t]:
            advantages[t] = rewards[t] - values[t]
    return advantages


# --- evaluation against random seats ---------------------------------------------------------------
@torch.no_grad()
def evaluate(agent, args) -> tuple[float, int, int]:
    """Greedy policy in one seat (rotated over the lanes), uniformly random seats elsewhere: its wins
    (win shares summed) out of finished games."""
    vec = tabletop_zoo.make_vec(args.game, args.num_envs, args.players, seed=10_000 + args.seed)
    out, rng = vec.reset(), np.random.default_rng(args.seed)
    learner = np.arange(args.num_envs) % args.players  # seat rotation
    wins, games = 0.0, 0
    while games < args.eval_games:
        masks = torch.as_tensor(out.action_mask.astype(bool))
        greedy = agent.actor(torch.as_tensor(out.observation)).masked_fill(~masks, -torch.inf).argmax(-1).numpy()
        random = (rng.random(out.action_mask.shape) * out.action_mask).argmax(1)
        out = vec.step(np.where(out.current_player == learner, greedy, random))
        for i in np.flatnonzero(out.terminated):
            wins += out.rewards[i, learner[i]]
            games += 1
    return wins, games, args.players


# --- the loop ------------------------------------------------------------------------------------------
def main(argv=None) -> dict:
    args = parse_args(argv)
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    vec = tabletop_zoo.make_vec(args.game, args.num_envs, args.players, seed=args.seed, skip_forced=True)
    k = vec.kernel
    agent = Agent(k.OBS_SIZE, k.NUM_ACTIONS, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    B, T = args.num_envs, args.num_steps
    obs_buf = torch.zeros(T * B, k.OBS_SIZE)
    mask_buf = torch.zeros(T * B, k.NUM_ACTIONS, dtype=torch.bool)
    act_buf, logp_buf, val_buf = torch.zeros(T * B, dtype=torch.long), torch.zeros(T * B), torch.zeros(T * B)
    out = vec.reset()
    start, learned, updates = time.time(), 0, 0
    while learned < args.total_steps:
        # rollout: T batch steps; decision t*B + i is lane i's at step t
        rewards = np.zeros(T * B, np.float32)
        next_index = np.full(T * B, -1, np.int64)
        ended = np.zeros(T * B, bool)
        last = np.full((B, args.players), -1, np.int64)  # each seat's latest decision in its lane's game
        for t in range(T):
            rows = slice(t * B, (t + 1) * B)
            obs = torch.as_tensor(out.observation)
            mask = torch.as_tensor(out.action_mask.astype(bool))
            with torch.no_grad():
                action, logp, _, value = agent.act(obs, mask)
            obs_buf[rows], mask_buf[rows], act_buf[rows], logp_buf[rows], val_buf[rows] = obs, mask, action, logp, value
            here = np.arange(t * B, (t + 1) * B)
            prev = last[np.arange(B), out.current_player]
            next_index[prev[prev >= 0]] = here[prev >= 0]  # the seat's previous decision leads here
            last[np.arange(B), out.current_player] = here
            out = vec.step(action.numpy())
            for i in np.flatnonzero(out.terminated | out.truncated):  # each seat's last decision gets its reward
                for seat in range(args.players):
                    j = last[i, seat]
                    if j >= 0:
                        rewards[j], ended[j] = out.rewards[i, seat], True
                last[i] = -1
        values = val_buf.numpy()
        advantages = torch.as_tensor(seat_advantages(values, rewards, next_index, ended, args.gae_lambda))
        returns = advantages + val_buf

        # update: clipped PPO over shuffled minibatches
        order = np.arange(T * B)
        size = T * B // args.minibatches
        for _ in range(args.epochs):
            np.random.default_rng(updates).shuffle(order)
            for m in range(args.minibatches):
                mb = torch.as_tensor(order[m * size : (m + 1) * size])
                _, logp, entropy, value = agent.act(obs_buf[mb], mask_buf[mb], act_buf[mb])
                ratio = (logp - logp_buf[mb]).exp()
                adv = advantages[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                value_loss = 0.5 * (value - returns[mb]).pow(2).mean()
                loss = policy_loss + args.vf_coef * value_loss - args.ent_coef * entropy.mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        learned += T * B
        updates += 1
        print(f"{learned:>8} decisions  {time.time() - start:6.1f} s  value loss {value_loss.item():.3f}", flush=True)

    # evaluation: greedy learner against random seats
    wins, games, players = evaluate(agent, args)
    p = binomtest(round(wins), games, 1 / players, alternative="greater").pvalue
    print(
        f"greedy policy vs {players - 1} random seats: win share {wins / games:.3f} over {games} games "
        f"(equal share {1 / players:.3f}; one-sided binomial p = {p:.2g}); {time.time() - start:.0f} s"
    )
    return {"wins": wins, "games": games, "players": players, "p": p}


if __name__ == "__main__":
    main()
