"""Rollout throughput of every registered game, with PettingZoo connect_four_v3 measured alongside.

    python benchmarks/rollouts.py [--seconds 2] [--out benchmarks/results]

Writes ``rollouts.json`` and ``rollouts.txt`` to the output folder and prints the table.
"""

from __future__ import annotations

import argparse
import json
import pathlib

from tabletop_zoo import GAMES
from tabletop_zoo.benchmark import format_table, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measured figure")
    parser.add_argument("--games", nargs="*", default=sorted(GAMES), help="game ids (default: all)")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).parent / "results")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results = [run(g, args.seconds) for g in args.games]
    text = "\n\n".join(format_table(r) for r in results)
    print(text)
    (args.out / "rollouts.json").write_text(json.dumps(results, indent=1))
    (args.out / "rollouts.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
