"""Game registry: ids -> kernel module and door (env module), ``make_env``.

Kernels are imported by ``kernel(gid)`` alone; a door (and with it PettingZoo and Gymnasium) only when an
env is asked for (``env_module``, ``make_env``), so the rules never depend on the layers above them.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the env classes import PettingZoo and Gymnasium, which the kernels must not need
    from .envs.base import KernelAECEnv
    from .envs.vector import VecGames

# game id -> its kernel module (the rules) and its door (the PettingZoo env module)
KERNELS: dict[str, str] = {
    "irish_gauge": "tabletop_zoo.kernels.irish_gauge",
    "imperial": "tabletop_zoo.kernels.imperial",
    "veld_railroads": "tabletop_zoo.kernels.veld_railroads",
    "french_revolution_1789": "tabletop_zoo.kernels.french_revolution_1789",
    "kremlin": "tabletop_zoo.kernels.kremlin",
}
GAMES: dict[str, str] = {gid: f"tabletop_zoo.envs.{gid}_v0" for gid in KERNELS}
# the game a command or a trainer plays when none is named: the first registered (the smallest, quickest to learn)
DEFAULT_GAME = next(iter(KERNELS))


def _canonical(game_id: str) -> str:
    """Accept ``irish_gauge``, ``irish_gauge_v0`` and ``tabletop_zoo/irish_gauge-v0``."""
    if not isinstance(game_id, str):
        raise TypeError(f"game id must be a string, got {game_id!r}")
    gid = game_id.removeprefix("tabletop_zoo/").replace("-v0", "").removesuffix("_v0")
    if gid not in GAMES:
        raise ValueError(f"unknown game {game_id!r}; available games: {', '.join(sorted(GAMES))}")
    return gid


def env_module(game_id: str) -> ModuleType:
    """The door of a game: its PettingZoo env module (``env()``, ``raw_env``, ``render_ansi``)."""
    return importlib.import_module(GAMES[_canonical(game_id)])


def kernel(game_id: str) -> ModuleType:
    """The rules kernel module of a game (numba functions over state records); imports no env."""
    return importlib.import_module(KERNELS[_canonical(game_id)])


def make_env(game_id: str, num_players: int | None = None, render_mode: str | None = None, **options) -> KernelAECEnv:
    """A PettingZoo AEC env of a registered game, e.g. ``make_env("irish_gauge", num_players=4)``; ``options``
    are the game's options and the env's (``illegal_action``, ``max_cycles``)."""
    return env_module(game_id).env(num_players=num_players, render_mode=render_mode, **options)


def make_vec(game_id: str, num_envs: int, num_players: int | None = None, seed: int = 0, **options) -> VecGames:
    """A batch of ``num_envs`` games stepped by one numba call, every seat played by the caller
    (``tabletop_zoo.envs.vector.VecGames``: ``reset()``/``step(actions)`` return batch arrays)."""
    from .envs.vector import VecGames

    return VecGames(kernel(game_id), num_envs, num_players, seed, **options)


def player_counts(game_id: str) -> range:
    """The numbers of players a game supports, e.g. ``range(2, 7)``: ``MIN_PLAYERS`` to ``MAX_PLAYERS``."""
    k = kernel(game_id)
    return range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1)


def _register_with_pettingzoo(pettingzoo: ModuleType | None = None) -> None:
    """Expose games as ``tabletop_zoo/<game>-v0`` in PettingZoo's registry where it has one (>= 1.27).

    Entry points are ``"module:env"`` strings, so registering imports no door."""
    if pettingzoo is None:
        try:
            import pettingzoo
        except ImportError:  # pragma: no cover - pettingzoo is a dependency
            return
    register = getattr(pettingzoo, "register", None)
    if register is None:
        return
    for gid, module in GAMES.items():
        env_id = f"tabletop_zoo/{gid}-v0"
        if env_id not in getattr(pettingzoo, "aec_registry", {}):
            register("aec", env_id, entry_point=f"{module}:env")


# What the gymnasium ids default to (``gymnasium.make`` arguments override them). Gymnasium's contract is that
# ``step`` takes any element of the action space (its ``check_env`` steps random ones), so an illegal action ends
# the episode with reward -1 and ``info["illegal_move"]`` (Pgx's convention) instead of raising as the AEC envs do.
GYMNASIUM_DEFAULTS: dict[str, object] = {"illegal_action": "penalize"}


def _register_with_gymnasium(gymnasium: ModuleType | None = None) -> None:
    """Expose each game's single-seat view (``SingleSeatEnv``) as gymnasium id ``tabletop_zoo/<game>-v0``:
    ``gymnasium.make("tabletop_zoo/irish_gauge-v0", num_players=4, opponents="random", render_mode="rgb_array")``,
    with ``GYMNASIUM_DEFAULTS``. Entry points are strings, so registering imports no env."""
    if gymnasium is None:
        import gymnasium

    for gid in GAMES:
        env_id = f"tabletop_zoo/{gid}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="tabletop_zoo.envs.wrappers.single_seat:SingleSeatEnv",
                kwargs={"game": gid, **GYMNASIUM_DEFAULTS},
            )
