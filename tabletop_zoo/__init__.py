"""tabletop-zoo: board games as fast multi-agent research environments.

    import tabletop_zoo
    env = tabletop_zoo.make_env("irish_gauge", num_players=4)

``GAMES`` maps game ids to env modules; every game is a PettingZoo AEC env over a numba rules
kernel (``tabletop_zoo.kernels.<game>``).
"""

from ._numba_cache import configure as _configure_numba_cache

NUMBA_CACHE_DIR = _configure_numba_cache()  # before any kernel module is imported

from .registry import GAMES, env_module, kernel, make_env, player_counts, _register_with_pettingzoo

__version__ = "0.1.0"
__all__ = ["GAMES", "make_env", "env_module", "kernel", "player_counts", "__version__"]

_register_with_pettingzoo()
