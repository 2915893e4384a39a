"""Game registry: ids -> env modules and kernels, ``make_env``."""

from __future__ import annotations

import importlib
from types import ModuleType

# game id -> env module (the kernel is that module's ``raw_env.kernel``)
GAMES: dict[str, str] = {
    "irish_gauge": "tabletop_zoo.envs.irish_gauge_v0",
    "imperial": "tabletop_zoo.envs.imperial_v0",
    "veld_railroads": "tabletop_zoo.envs.veld_railroads_v0",
    "french_revolution_1789": "tabletop_zoo.envs.french_revolution_1789_v0",
    "kremlin": "tabletop_zoo.envs.kremlin_v0",
}


def _canonical(game_id: str) -> str:
    """Accept ``irish_gauge``, ``irish_gauge_v0`` and ``tabletop_zoo/irish_gauge-v0``."""
    if not isinstance(game_id, str):
        raise TypeError(f"game id must be a string, got {game_id!r}")
    gid = game_id.removeprefix("tabletop_zoo/").replace("-v0", "").removesuffix("_v0")
    if gid not in GAMES:
        raise ValueError(f"unknown game {game_id!r}; available games: {', '.join(sorted(GAMES))}")
    return gid


def env_module(game_id: str) -> ModuleType:
    return importlib.import_module(GAMES[_canonical(game_id)])


def kernel(game_id: str) -> ModuleType:
    """The rules kernel module of a game (numba functions over state records)."""
    return env_module(game_id).raw_env.kernel


def make_env(game_id: str, num_players: int | None = None, render_mode: str | None = None, **options):
    """A PettingZoo AEC env of a registered game, e.g. ``make_env("irish_gauge", num_players=4)``."""
    return env_module(game_id).env(num_players=num_players, render_mode=render_mode, **options)


def player_counts(game_id: str) -> range:
    k = kernel(game_id)
    return range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1)


def _register_with_pettingzoo() -> None:
    """Expose games as ``tabletop_zoo/<game>-v0`` in PettingZoo's registry where it has one (>= 1.27)."""
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
