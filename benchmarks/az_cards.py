"""Write the model card of each shipped az network (docs/models/az_<game>.md) from what made and measured it, and the
strength table of agents/az/weights/README.md.

    python benchmarks/az_cards.py --commit REV [GAME ...]
    python benchmarks/az_cards.py --commit REV --measure [--fresh-seed S] [GAME ...]   # play what is missing first

Reads what ``scripts/ship_az`` leaves in the folder of each game's last round of Expert Iteration
(benchmarks/training/az_exitN/<game> for round N > 1, az_exit/<game> for the first): log.json (the imitation run: teacher, samples, games,
held-out agreement, losses per epoch), every vs_*.json (``benchmarks/az_strength.py``: seat-rotated games at the
agent's default budget, wins, exact one-sided binomial p, seconds per move of every agent, its seed and line-up) and
the network itself (agents/az/weights/<game>.pt). REV is the commit the networks were made with. An earlier round's
network (the next round's teacher, az.pt in its folder) is not versioned (#49): its sha256 is read from the file when
a run of ``scripts/ship_az`` left it there, else from the az.pt.sha256 recorded beside it.

Every strength figure names its command and seed, and a card sets the development seeds (``DEVELOPMENT_SEEDS``: the
ones that chose which rounds and sizes ship) beside the fresh seed (``--fresh-seed``, default ``FRESH_SEED``: chosen
after the networks were frozen, used for nothing else). ``--measure`` plays the headline where the fresh seed lacks
it (az against three heuristics, 4 players, 40 seat-rotated games; ``HEADLINE``) with ``az_strength.py`` into the
round's folder, so a new network's cards are one command: pick a seed never used, run with ``--measure``.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import pathlib
import re
import shlex
import subprocess
import sys

import torch

from tabletop_zoo import registry
from tabletop_zoo.agents.az.agent import AZAgent
from tabletop_zoo.agents.mcts.agent import DEFAULT_ROLLOUT_DEPTH

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAMES = ("imperial", "kremlin", "veld_railroads", "french_revolution_1789", "irish_gauge")
TITLES = {
    "imperial": "Imperial",
    "kremlin": "Kremlin (Magne!)",
    "veld_railroads": "Veld Railroads",
    "french_revolution_1789": "French Revolution 1789",
    "irish_gauge": "Irish Gauge",
}


DEVELOPMENT_SEEDS = (12345, 2027)  # the suite's seeds: which round and which size ship was chosen on them
FRESH_SEED = 61206  # chosen on 2026-12-06 (#48) after the shipped networks were frozen; used for nothing else
# A game whose search changed after FRESH_SEED was played is measured again, its fresh figure on a seed of its own:
# Imperial's and Kremlin's rollouts follow a rollout policy (kernels/<game>/rollout.py) for 40 and 60 decisions
# (ROLLOUT_DEPTH, #48), and French Revolution's estimate scores the regime the votes would set (#48): each chosen on
# the development seeds only. (Imperial's seed 70607 measured its 80-decision uniform rollouts in between.)
# Imperial's network changed after 80701 was played (the long run's, LONG_RUNS): 81208, reserved before it existed.
FRESH_SEEDS = {"imperial": 81208, "kremlin": 80611, "french_revolution_1789": 80811}
HEADLINE = ("heuristic", 4, 40)  # az against three of these, at 4 players, over 40 seat-rotated games
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def results(run: pathlib.Path) -> dict[str, dict[int, dict]]:
    """The run's ``az_strength.py`` results: {opponents' line-up: {seed: result}}, the most games where a seed
    was played twice."""
    found: dict[str, dict[int, dict]] = {}
    for path in sorted(run.glob("vs_*.json")):
        r = json.loads(path.read_text()) | {"file": path}
        by_seed = found.setdefault(r["lineup"].split(";", 1)[1], {})
        if r["seed"] not in by_seed or r["games"] > by_seed[r["seed"]]["games"]:
            by_seed[r["seed"]] = r
    return found


def opponents(lineup: str) -> str:
    """``heuristic;heuristic;heuristic`` as "three heuristic seats" (with the player count when it is not 4)."""
    seats = lineup.split(";")
    kinds = sorted(set(seats), key=seats.index)
    words = " and ".join(f"{NUMBERS[seats.count(k)]} `{k}`" for k in kinds) + (" seat" if len(seats) == 1 else " seats")
    return words if len(seats) + 1 == HEADLINE[1] else f"{words} ({len(seats) + 1} players)"


def fresh_seed(game: str, given: int | None = None) -> int:
    """The fresh seed of ``game``'s figures: the one given, else its own (``FRESH_SEEDS``), else ``FRESH_SEED``."""
    return given if given is not None else FRESH_SEEDS.get(game, FRESH_SEED)


def command(r: dict) -> str:
    """The command that played ``r``: ``az_strength.py`` with its game, line-up, games, seed, players and file."""
    out = r["file"].relative_to(ROOT)
    words = ["python", "benchmarks/az_strength.py", r["game"], r["lineup"], "--games", str(r["games"])]
    return shlex.join([*words, "--seed", str(r["seed"]), "--players", str(r["players"]), "--out", str(out)])


def _cell(r: dict | None) -> str:
    if r is None:
        return "not measured"
    won = f"{r['wins']} of {r['candidate_seats']}"
    return f"**{won}** (p = {r['p_value']:.2g})" if r["p_value"] < 0.01 else f"{won} (p = {r['p_value']:.2g})"


def strength(run: pathlib.Path, fresh: int) -> str:
    """The strength table (opponents by row; the development seeds, then the fresh one, by column), then every
    figure's command and times per move."""
    found = results(run)
    if not found:
        return "Not measured yet.\n"
    seeds = sorted({s for by_seed in found.values() for s in by_seed if s != fresh}, key=_dev_first)
    head = [
        f"development seed {s}" if s in DEVELOPMENT_SEEDS else f"fresh seed {s}" for s in seeds
    ]  # any other seed came after the networks froze
    lines = [
        "| against | " + " | ".join([*head, f"fresh seed {fresh}"]) + " |",
        "|---" * (len(seeds) + 2) + "|",
    ]
    order = sorted(found, key=lambda lineup: (lineup != ";".join([HEADLINE[0]] * (HEADLINE[1] - 1)), lineup))
    for lineup in order:
        cells = [_cell(found[lineup].get(s)) for s in [*seeds, fresh]]
        lines.append(f"| {opponents(lineup)} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Each figure's command (the seed is the game schedule's: game seeds, seat rotation, agent seeds):",
        "",
    ]
    for lineup in order:
        for seed in sorted(found[lineup], key=_dev_first):
            r = found[lineup][seed]
            times = ", ".join(f"{label} {1e3 * t:.1f} ms" for label, t in r["seconds_per_move"].items())
            load = ", ".join(f"{x:.1f}" for x in r["load_average"])
            lines += [
                f"- seed {seed}, {r['games']} games against {opponents(lineup)}: {r['wins']} won (equal share "
                f"{1 / r['players']:.2f}), p = {r['p_value']:.2g}; time per move {times} (load average {load})",
                "",
                f"      {command(r)}",
                "",
            ]
    return "\n".join(lines)


def _dev_first(seed: int) -> tuple[int, int]:
    """Development seeds first, in their order, then any other seed but the fresh one."""
    return (DEVELOPMENT_SEEDS.index(seed), seed) if seed in DEVELOPMENT_SEEDS else (len(DEVELOPMENT_SEEDS), seed)


def _measured_as(run: pathlib.Path, weights: pathlib.Path) -> str:
    """A line naming the copy the evaluations played, when they named the network by a path (the run's own copy,
    before ``scripts/ship_az`` moved it into the package) instead of as ``az``."""
    path = run / "vs_heuristics.json"
    candidate = json.loads(path.read_text())["candidate"] if path.exists() else "az"
    if not candidate.startswith("az:path="):
        return ""
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()[:16]
    return (
        f"\n(Measured on the development seeds as `{candidate}`, the run's own copy of this network: the same "
        f"sha256, {digest}...; `scripts/ship_az` and the fresh seed measure it as `az`.)\n"
    )


ROUNDS = tuple(ROOT / "benchmarks" / "training" / f"az_exit{n}" for n in ("", 2, 3, 4, 5))


def new_spelling(command: str) -> str:
    """A run's recorded ``tabletop-zoo train GAME --algo NAME ...`` as today's ``train NAME GAME ...`` (the same call;
    the old spelling is deprecated)."""
    return re.sub(r"tabletop-zoo train (\S+) --algo (\S+)", lambda m: f"tabletop-zoo train {m[2]} {m[1]}", command)


def _sha256(network: pathlib.Path) -> str:
    """A round's network's sha256: of the file, or as recorded in ``az.pt.sha256`` once the file left the tree."""
    if network.exists():
        return hashlib.sha256(network.read_bytes()).hexdigest()
    return network.with_name(network.name + ".sha256").read_text().split()[0]


# A game whose shipped network came from the resumable long runs (``scripts/train_long``, then ``train imitate``
# taught by a round of them; benchmarks/AZ.md) instead of ``scripts/ship_az``: its folder holds the last run's
# log.json and evaluations, and provenance.md, the chain of networks that taught it (commands and sha256).
LONG_RUNS = {"imperial": ROOT / "benchmarks" / "training" / "az_long" / "imperial"}


def last_round(game: str) -> pathlib.Path:
    """The folder of the run whose network ships: the game's long run, else its last round of ``scripts/ship_az``."""
    if game in LONG_RUNS and (LONG_RUNS[game] / "log.json").exists():
        return LONG_RUNS[game]
    return [r / game for r in ROUNDS if (r / game / "log.json").exists()][-1]


def counts(num_players) -> str:
    """A run's player counts: 4, or [2, 3, 4, 5, 6] as "2 to 6"."""
    if isinstance(num_players, list):
        return f"{num_players[0]} to {num_players[-1]}" if len(num_players) > 1 else str(num_players[0])
    return str(num_players)


def how_made(game: str, run: pathlib.Path, meta: dict, commit: str) -> str:
    """The command block of "How it was made": the run's own command for a long run, else ``scripts/ship_az``."""
    if run == LONG_RUNS.get(game):
        return f"    {new_spelling(meta['command'])} --workers 2 --torch-threads 1        # at commit {commit}"
    return (
        f"    scripts/ship_az {game}        # at commit {commit}\n"
        f"    # = {new_spelling(meta['command'])} --torch-threads 1 --out {run.relative_to(ROOT)}"
    )


def card(game: str, commit: str, fresh: int) -> str:
    """The model card of ``game``'s shipped network (Markdown), its strength at the development and fresh seeds."""
    run = last_round(game)
    log = json.loads((run / "log.json").read_text())
    meta, epochs = log["meta"], log["epochs"]
    weights = ROOT / "agents" / "az" / "weights" / f"{game}.pt"
    blob = torch.load(weights, map_location="cpu", weights_only=True)
    params = sum(v.numel() for v in blob["state_dict"].values())
    defaults = {k: v.default for k, v in inspect.signature(AZAgent.__init__).parameters.items()}
    sims, c, mix = defaults["simulations"], defaults["c"], defaults["mix"]
    depth = getattr(registry.kernel(game), "ROLLOUT_DEPTH", DEFAULT_ROLLOUT_DEPTH)
    last = epochs[-1]
    teacher = meta.get("teacher", "heuristic")
    if teacher == "heuristic":
        how = f"""A supervised start (`tabletop_zoo/training/imitate.py`): {meta["games"]:,} games of the heuristic in every seat
at {counts(meta["num_players"])} players, a random legal move played instead of the heuristic's with probability
{meta["explore"]}; every non-forced decision is a sample labelled with the heuristic's choice and the game's
final returns (seat-relative). {meta["epochs"]} epochs of Adam (policy cross-entropy + value squared error)."""
    else:
        how = f"""Expert Iteration's step (`tabletop_zoo/training/imitate.py` with `--teacher '{teacher}'`): {meta["games"]:,}
games of that search in every seat at {counts(meta["num_players"])} players, a random legal move played instead of the
search's with probability {meta["explore"]}; every non-forced decision is a sample labelled with the search's root
visit counts (normalised) and the game's final returns (seat-relative). {meta["epochs"]} epochs of Adam (policy
cross-entropy against the visit distribution + value squared error)."""
        if run == LONG_RUNS.get(game):
            how += "\n\n" + (run / "provenance.md").read_text().strip()
        elif teacher.startswith("az:"):
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
valued by rollouts of the kernel's rollout policy, {depth} decisions long (the game's `ROLLOUT_DEPTH`) and then
scored by the kernel's evaluation (`mix` = {mix}; `az:mix=0` values them by the network alone).

## How it was made
{how_made(game, run, meta, commit)}

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

## Strength at the default budget

Games won outright by az (it alone ranks first; ties count as losses) of its seat-rotated games at
{HEADLINE[1]} players unless a row says otherwise, arena schedule, with the exact one-sided binomial p against the equal share (in bold
where p < 0.01). The
development seeds chose which round, which network size and which search settings ship; the fresh seed was chosen
after they were frozen and used for nothing else, so its column is the one to quote. #21's goals: beat three heuristics at
p < 0.01 within 0.1 s a move, and beat `mcts:simulations=1000` at equal or less time a move.
{_measured_as(run, weights)}
{strength(run, fresh)}"""


def measure(game: str, fresh: int) -> None:
    """Play the headline at the fresh seed into the game's last round, unless it is there already."""
    kind, players, games = HEADLINE
    run = last_round(game)
    lineup = ";".join(["az", *[kind] * (players - 1)])
    if fresh in results(run).get(lineup.split(";", 1)[1], {}):
        return
    out = run / f"vs_{kind}s_seed{fresh}.json"
    args = [game, lineup, "--games", str(games), "--seed", str(fresh), "--players", str(players), "--out", str(out)]
    subprocess.run(
        [sys.executable, "benchmarks/az_strength.py", *args], cwd=ROOT, check=True, stdout=subprocess.DEVNULL
    )


def summary_table(games: list[str], fresh: int | None) -> str:
    """The weights README's table: each game's headline at the development seeds and the fresh one."""
    kind, players, _ = HEADLINE
    lineup = ";".join([kind] * (players - 1))
    lines = [
        f"| game | development seed {DEVELOPMENT_SEEDS[0]} | fresh seed | model card |",
        "|---|---|---|---|",
    ]
    for game in games:
        by_seed = results(last_round(game)).get(lineup, {})
        seed = fresh_seed(game, fresh)
        cells = [_cell(by_seed.get(DEVELOPMENT_SEEDS[0])), f"{_cell(by_seed.get(seed))}, seed {seed}"]
        lines.append(f"| {TITLES[game]} | " + " | ".join(cells) + f" | `docs/models/az_{game}.md` |")
    return "\n".join(lines) + "\n"


def write_summary(games: list[str], fresh: int | None) -> None:
    """Replace the table between the README's markers (the rest of the file is written by hand)."""
    path = ROOT / "agents" / "az" / "weights" / "README.md"
    text = path.read_text()
    begin, end = "<!-- az_cards.py: begin -->\n", "<!-- az_cards.py: end -->"
    if begin not in text or end not in text:
        raise SystemExit(f"{path} lacks the markers {begin.strip()} and {end}: the table goes between them")
    head, rest = text.split(begin)
    path.write_text(head + begin + summary_table(games, fresh) + end + rest.split(end, 1)[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("--commit", required=True)
    ap.add_argument(
        "--fresh-seed", type=int, help="the seed chosen after the networks froze (default: each game's own)"
    )
    ap.add_argument("--measure", action="store_true", help="play the headline where the fresh seed lacks it")
    a = ap.parse_args()
    if a.fresh_seed in DEVELOPMENT_SEEDS:
        ap.error(f"--fresh-seed {a.fresh_seed} is a development seed ({DEVELOPMENT_SEEDS}); pick one never used")
    unknown = sorted(set(a.games) - set(GAMES))
    if unknown:
        ap.error(f"unknown game(s) {', '.join(unknown)}; the shipped networks are {', '.join(GAMES)}")
    for game in a.games:
        if a.measure:
            measure(game, fresh_seed(game, a.fresh_seed))
        (ROOT / "docs" / "models" / f"az_{game}.md").write_text(card(game, a.commit, fresh_seed(game, a.fresh_seed)))
    write_summary(list(GAMES), a.fresh_seed)


if __name__ == "__main__":
    main()
