"""Write the model card of each shipped az network (docs/models/az_<game>.md) from its training run.

    python benchmarks/az_cards.py --commit REV [--runs benchmarks/training/az_ship] [GAME ...]

Reads what ``scripts/ship_az`` leaves in RUNS/<game>: config.json, curve.csv (its evaluations) and the
arena runs arena_random/ and arena_heuristic/ of the packaged network, and the run's totals saved with the
network (agents/az/weights/<game>.pt); the strength lines are exact one-sided binomial tests (``strength_check.py``). REV is the commit the
networks were trained with.
"""

from __future__ import annotations

import argparse
import csv
import json
import pathlib

import torch
from strength_check import check

from tabletop_zoo import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = ("imperial", "kremlin", "veld_railroads", "french_revolution_1789", "irish_gauge")
TITLES = {
    "imperial": "Imperial",
    "kremlin": "Kremlin (Magne!)",
    "veld_railroads": "Veld Railroads",
    "french_revolution_1789": "French Revolution 1789",
    "irish_gauge": "Irish Gauge",
}


def _rows(path: pathlib.Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _strength(run: pathlib.Path, opponent: str) -> str:
    games = run / f"arena_{opponent}" / "games.jsonl"
    if not games.exists():
        return f"- against {opponent} seats: not measured yet"
    r = check(str(games), "az")
    others = r["players"] - 1
    return (
        f"- against {others} {opponent} seat{'s' if others > 1 else ''}: **{r['wins']} of {r['games']}** games won "
        f"outright (equal share {r['null_win_rate']:.2f}), exact one-sided binomial p = {r['p_value']:.2g}"
    )


def card(game: str, runs: pathlib.Path, commit: str) -> str:
    run = runs / game
    cfg = json.loads((run / "config.json").read_text())
    curve = _rows(run / "curve.csv")
    blob = torch.load(ROOT / "agents" / "az" / "weights" / f"{game}.pt", map_location="cpu", weights_only=True)
    params = sum(v.numel() for v in blob["state_dict"].values())
    size = (ROOT / "agents" / "az" / "weights" / f"{game}.pt").stat().st_size
    meta = blob["meta"]  # the run's totals when the network was saved
    points = sorted({int(r["samples"]) for r in curve})
    table = ["| samples | " + " | ".join(f"{p:,}" for p in points) + " |", "|---" * (len(points) + 1) + "|"]
    for opponent in cfg["eval_opponents"]:
        share = {int(r["samples"]): float(r["win_share"]) for r in curve if r["opponent"] == opponent}
        table.append(f"| vs {opponent} | " + " | ".join(f"{share[p]:.2f}" for p in points) + " |")
    players = cfg["num_players"]
    pool = cfg.get("pool", "self=1")
    defaults = registry.kernel(game).resolve_options()
    given = " ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in cfg["options"].items() if defaults[k] != v
    )  # the --option settings of the training games
    env = "".join(
        f"{name}={value} "
        for name, value, default in (
            ("TIMESTEPS", cfg["timesteps"], 60000),
            ("POOL", pool, "self=1"),
            ("OPTIONS", f'"{given}"', '""'),
        )
        if value != default
    )
    seats = (
        "every seat played by the search"
        if pool == "self=1"
        else f"seats drawn from the pool `{pool}` (one always searched)"
    )
    opponents = ";".join(["random"] * (players - 1))
    return f"""# az network: {TITLES[game]}

`make_agent("az", "{game}")` (or `--agents az` in `play`, `arena` and `ladder`) loads this network from
`agents/az/weights/{game}.pt`; `az:simulations=N` sets the search budget (64 by default: ~40 ms a move here).

## How it was made
    {env}scripts/ship_az {game}        # at commit {commit}

Search-guided self-play (`tabletop-zoo train {game} --algo az`): {players} players, {seats}, the search with the current network, {cfg["simulations"]} simulations a decision, {cfg["num_envs"]} games in flight,
Dirichlet root noise (alpha {cfg["dirichlet_alpha"]}, weight {cfg["noise"]}), visit-sampled moves for the first
{cfg["explore_moves"]} searched decisions; targets: visit shares and each seat's final win share, seat-relative;
replay of {cfg["replay"]:,} samples, {cfg["updates"]} Adam updates of {cfg["minibatch"]} every {cfg["train_every"]}
samples (lr {cfg["lr"]}, weight decay {cfg["weight_decay"]}); seed {cfg["seed"]}; options {cfg["options"]}.

- samples: {meta["samples"]:,} searched decisions in {meta["games"]:,} finished games
- wall time: {meta["wall_s"]:,.0f} s of the trainer's clock (search and training, 2-core machine
  shared with other runs, one torch thread), evaluations besides
- network: `AZNet` ({blob["format"]}), a ReLU trunk of {" x ".join(str(h) for h in cfg["hidden"])}, a policy head
  over {blob["num_actions"]} actions and a value head of {blob["max_players"]} seat-relative returns (one network for
  every player count); {params:,} parameters, {size / 2**20:.1f} MiB

## Learning curve (the trainer's evaluations: {cfg["eval_games"]} seat-rotated games each, 32 simulations)
{chr(10).join(table)}

## Strength of the shipped network (64 simulations, 30 seat-rotated games, arena seed 12345)
    tabletop-zoo arena {game} --players {players} --agents "az;{opponents}" --games 30 --seed 12345
{_strength(run, "random")}
{_strength(run, "heuristic")}

A game counts as won when az alone has the best rank (ties count as losses). #21's goal for a shipped
network is to beat three heuristics at p < 0.01; the lines above say where this one stands.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--runs", default=str(ROOT / "benchmarks" / "training" / "az_ship"))
    parser.add_argument("--commit", required=True)
    args = parser.parse_args()
    out = ROOT / "docs" / "models"
    out.mkdir(parents=True, exist_ok=True)
    for game in args.games:
        (out / f"az_{game}.md").write_text(card(game, pathlib.Path(args.runs), args.commit))
        print(out / f"az_{game}.md")


if __name__ == "__main__":
    main()
