"""Monte Carlo tree search over any rules kernel: UCT and IS-MCTS in numba, root-parallel."""

from .agent import MCTSAgent, search_root
from .uct import search

__all__ = ["MCTSAgent", "search_root", "search"]
