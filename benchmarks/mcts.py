"""MCTS speed per game and player count, 1 thread and all cores, next to OpenSpiel's Python MCTSBot.

    python benchmarks/mcts.py [--simulations 1000] [--depth 20] [--out benchmarks/results]

Prints a table and writes ``mcts.json`` / ``mcts.txt``. OpenSpiel (``pip install open_spiel``) is
measured in the same run on its connect_four when it is installed; our games are not in OpenSpiel yet,
so the ratio compares simulations/s of the two searches on their own reference games.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib

from tabletop_zoo import GAMES, player_counts
from tabletop_zoo.benchmark import mcts_speed, openspiel_mcts_reference


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=20, help="rollout depth before evaluate()")
    parser.add_argument("--games", nargs="*", default=sorted(GAMES))
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).parent / "results")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    ref = openspiel_mcts_reference(args.simulations)
    rows = []
    for game in args.games:
        for n in player_counts(game):
            for threads in sorted({1, cores}):
                rows.append(mcts_speed(game, n, args.simulations, args.depth, threads))
    lines = [f"MCTS, {args.simulations} simulations per move, rollouts truncated at {args.depth} decisions + evaluate()",
             "game             players  threads     sims/s   ms/move   vs OpenSpiel Python MCTSBot"]
    for r in rows:
        ratio = f"{r['sims_per_s'] / ref['sims_per_s']:.0f}x" if ref else "n/a"
        lines.append(f"{r['game']:<16} {r['players']:>7}  {r['threads']:>7}  {r['sims_per_s']:>9,.0f}  "
                     f"{r['ms_per_move']:>8.1f}   {ratio}")
    lines.append("reference: " + (f"{ref['game']}: {ref['sims_per_s']:,.0f} sims/s, {ref['ms_per_move']:.0f} ms/move"
                                  if ref else "OpenSpiel not installed (pip install open_spiel)"))
    text = "\n".join(lines)
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "mcts.json").write_text(json.dumps({"rows": rows, "reference": ref}, indent=1))
    (args.out / "mcts.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
