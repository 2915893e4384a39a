"""The checks both trainers' configurations make (``SelfPlayConfig``, ``AZConfig``): each field refused with
one clear line naming it, what it got and what is allowed, before any work starts."""

from __future__ import annotations

from .. import registry
from ..agents._params import check_int
from .evaluate import check_eval_opponent

EVAL_OPPONENTS = ("random", "heuristic")
AZ_EVAL_OPPONENTS = (*EVAL_OPPONENTS, "mcts:simulations=100")  # az's curve also against rollout MCTS


def check_game(cfg) -> None:
    """The game id made canonical, the player count (the game's default when None) and its options resolved."""
    cfg.game = registry._canonical(cfg.game)
    k = registry.kernel(cfg.game)
    cfg.num_players = k.check_num_players(k.DEFAULT_PLAYERS if cfg.num_players is None else cfg.num_players)
    cfg.options = k.resolve_options(**cfg.options)


def check_counts(cfg, names: tuple[str, ...], minimum: int) -> None:
    """Each named field an integer >= minimum."""
    for name in names:
        setattr(cfg, name, check_int(name, getattr(cfg, name), minimum))


def check_numbers(cfg, ranges: tuple[tuple[str, float, float], ...]) -> None:
    """Each (name, low, high): the field a real number in [low, high]; a learning rate ``lr`` also > 0."""
    for name, low, high in ranges:
        value = getattr(cfg, name)
        positive = name == "lr"
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not low <= value <= high
            or (positive and value == 0)
        ):
            raise ValueError(
                f"{name} must be a number in [{low}, {high}]{' and > 0' if positive else ''}, got {value!r}"
            )


def check_evaluation(cfg, evaluations: int) -> None:
    """The curve's opponents valid (random, heuristic, mcts specs), the network widths a tuple, and ``eval_every``
    >= 1 (default: the run's samples over ``evaluations``)."""
    if isinstance(cfg.eval_opponents, str):
        raise ValueError(f"eval_opponents must be a list of agent specs, got the string {cfg.eval_opponents!r}")
    cfg.eval_opponents = tuple(cfg.eval_opponents)
    for opponent in cfg.eval_opponents:
        check_eval_opponent(opponent, cfg.game)
    cfg.hidden = tuple(check_int("hidden layer width", h, 1) for h in cfg.hidden)
    if cfg.eval_every is None:
        cfg.eval_every = max(cfg.timesteps // evaluations, 1)
    cfg.eval_every = check_int("eval_every", cfg.eval_every, 1)
