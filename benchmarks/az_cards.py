"""Write the model card of each shipped az network (docs/models/az_<game>.md) from what made and measured it.

    python benchmarks/az_cards.py --commit REV [GAME ...]

Reads what ``scripts/ship_az`` leaves in the folder of each game's last round of Expert Iteration
(benchmarks/training/az_exitN/<game> for round N > 1, az_exit/<game> for the first): log.json (the imitation run: teacher, samples, games,
held-out agreement, losses per epoch), vs_heuristics.json and vs_mcts.json (``benchmarks/az_strength.py``: seat-rotated
games at the agent's default budget, wins, exact one-sided binomial p, seconds per move of every agent), and
the network itself (agents/az/weights/<game>.pt). REV is the commit the networks were made with. An earlier round's
network (the next round's teacher, az.pt in its folder) is not versioned (#49): its sha256 is read from the file when
a run of ``scripts/ship_az`` left it there, else from the az.pt.sha256 recorded beside it.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import pathlib

import torch

from tabletop_zoo.agents.az.agent import AZAgent

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = ("imperial", "kremlin", "veld_railroads", "french_revolution_1789", "irish_gauge")
TITLES = {
    "imperial": "Imperial",
    "kremlin": "Kremlin (Magne!)",
    "veld_railroads": "Veld Railroads",
    "french_revolution_1789": "French Revolution 1789",
    "irish_gauge": "Irish Gauge",
}


def _strength(path: pathlib.Path, against: str) -> str:
    if not path.exists():
        return f"- against {against}: not measured yet"
    r = json.loads(path.read_text())
    times = ", ".join(f"{label} {1e3 * s:.1f} ms" for label, s in r["seconds_per_move"].items())
    load = ", ".join(f"{x:.1f}" for x in r["load_average"])
    return (
        f"- against {against}: **{r['wins']} of {r['candidate_seats']}** games won outright (equal share "
        f"{1 / r['players']:.2f}), exact one-sided binomial p = {r['p_value']:.2g}; time per move: {times} "
        f"(load average {load} when it ended)\n\n      {r['command']}"
    )


def _second_seed(run: pathlib.Path) -> str:
    """The MCTS games at a second untuned seed, where they were played."""
    path = run / "vs_mcts_seed2027.json"
    if not path.exists():
        return ""
    return "\nAt a second seed (2027):\n" + _strength(path, "three mcts:simulations=1000 seats") + "\n"


def _measured_as(run: pathlib.Path, weights: pathlib.Path) -> str:
    """A line naming the copy the evaluations played, when they named the network by a path (the run's own copy,
    before ``scripts/ship_az`` moved it into the package) instead of as ``az``."""
    path = run / "vs_heuristics.json"
    candidate = json.loads(path.read_text())["candidate"] if path.exists() else "az"
    if not candidate.startswith("az:path="):
        return ""
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()[:16]
    return (
        f"\n(Measured as `{candidate}`, the run's own copy of this network: the same sha256, {digest}...; "
        "`scripts/ship_az` measures it as `az`.)\n"
    )


ROUNDS = tuple(ROOT / "benchmarks" / "training" / f"az_exit{n}" for n in ("", 2, 3, 4, 5))


def _sha256(network: pathlib.Path) -> str:
    """A round's network's sha256: of the file, or as recorded in ``az.pt.sha256`` once the file left the tree."""
    if network.exists():
        return hashlib.sha256(network.read_bytes()).hexdigest()
    return network.with_name(network.name + ".sha256").read_text().split()[0]


def last_round(game: str) -> pathlib.Path:
    """The folder of the game's last round: the one whose network ships."""
    return [r / game for r in ROUNDS if (r / game / "log.json").exists()][-1]


def card(game: str, commit: str) -> str:
    run = last_round(game)
    log = json.loads((run / "log.json").read_text())
    meta, epochs = log["meta"], log["epochs"]
    weights = ROOT / "agents" / "az" / "weights" / f"{game}.pt"
    blob = torch.load(weights, map_location="cpu", weights_only=True)
    params = sum(v.numel() for v in blob["state_dict"].values())
    defaults = {k: v.default for k, v in inspect.signature(AZAgent.__init__).parameters.items()}
    sims, c, mix = defaults["simulations"], defaults["c"], defaults["mix"]
    last = epochs[-1]
    teacher = meta.get("teacher", "heuristic")
    if teacher == "heuristic":
        how = f"""A supervised start (`tabletop_zoo/training/imitate.py`): {meta["games"]:,} games of the heuristic in every seat
at {meta["num_players"]} players, a random legal move played instead of the heuristic's with probability
{meta["explore"]}; every non-forced decision is a sample labelled with the heuristic's choice and the game's
final returns (seat-relative). {meta["epochs"]} epochs of Adam (policy cross-entropy + value squared error)."""
    else:
        how = f"""Expert Iteration's step (`tabletop_zoo/training/imitate.py` with `--teacher '{teacher}'`): {meta["games"]:,}
games of that search in every seat at {meta["num_players"]} players, a random legal move played instead of the
search's with probability {meta["explore"]}; every non-forced decision is a sample labelled with the search's root
visit counts (normalised) and the game's final returns (seat-relative). {meta["epochs"]} epochs of Adam (policy
cross-entropy against the visit distribution + value squared error)."""
        if teacher.startswith("az:"):
            number = ROUNDS.index(run.parent) + 1
            before = ROUNDS[number - 2] / game / "az.pt"
            digest = _sha256(before)[:16]
            made = (
                "`--teacher mcts:simulations=1000`" if number == 2 else f"round {number - 2}'s network as the teacher"
            )
            how += f"""

This is round {number} of Expert Iteration: the teacher searched with az's defaults and round {number - 1}'s network,
`{before.relative_to(ROOT)}` (made with {made}; sha256 {digest}..., the file the
teacher path above held; not versioned: `scripts/ship_az {game}` makes it again as round {number - 1})."""
    return f"""# az network: {TITLES[game]}

`make_agent("az", "{game}")` (or `--agents az` in `play`, `arena` and `ladder`) loads this network from
`agents/az/weights/{game}.pt`. The agent searches {sims} simulations a move by default (`az:simulations=N`,
or `az:seconds=S` to stop at a time): PUCT with this network's policy as the prior (c = {c}) and the leaves
valued by rollouts of the kernel's rollout policy (`mix` = {mix}; `az:mix=0` values them by the network alone).

## How it was made
    scripts/ship_az {game}        # at commit {commit}
    # = {meta["command"]} --torch-threads 1 --out {run.relative_to(ROOT)}

{how}

- samples: {meta["samples"]:,} decisions ({meta["held_out_samples"]:,} of them, the last tenth of the games,
  held out)
- agreement with the teacher's choice: {meta["held_out_agreement"]:.1%} on the held-out games ({last["agreement"]:.1%}
  on the training games in the last epoch)
- wall time: {meta["wall_s"]:.0f} s ({meta["collect_s"]:.0f} s of it playing the games), one torch thread,
  2-core machine shared with other runs
- network: `AZNet` (tabletop_zoo.az/1), a ReLU trunk of {" x ".join(str(h) for h in meta["hidden"])}, a policy head
  over {blob["num_actions"]} actions and a value head of {blob["max_players"]} seat-relative returns (one network for
  every player count); {params:,} parameters, {weights.stat().st_size / 2**20:.1f} MiB

## Strength at the default budget ({meta["num_players"]} players, seat-rotated, arena schedule, seed 12345)
{_measured_as(run, weights)}{_strength(run / "vs_heuristics.json", "three heuristic seats")}
{_strength(run / "vs_mcts.json", "three mcts:simulations=1000 seats")}
{_second_seed(run)}
A game counts as won when az alone has the best rank (ties count as losses). #21's goals: beat three
heuristics at p < 0.01 within 0.1 s a move, and beat `mcts:simulations=1000` at equal or less time a move.
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--commit", required=True)
    a = ap.parse_args()
    for game in a.games:
        (ROOT / "docs" / "models" / f"az_{game}.md").write_text(card(game, a.commit))


if __name__ == "__main__":
    main()
