"""Network-guided search (AlphaZero-style PUCT) for N-player games with chance and hidden information."""

from .search import Trees, search_batch, uniform_evaluator

__all__ = ["Trees", "search_batch", "uniform_evaluator"]
