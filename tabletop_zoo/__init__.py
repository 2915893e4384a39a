"""tabletop-zoo: board games as fast multi-agent research environments.

    import tabletop_zoo
    env = tabletop_zoo.make_env("irish_gauge", num_players=4)

``GAMES`` maps game ids to env modules; every game is a PettingZoo AEC env over a numba rules
kernel (``tabletop_zoo.kernels.<game>``).

Importing this package (which every ``import tabletop_zoo.kernels.<game>`` does) loads neither the
registry nor PettingZoo nor Gymnasium: the registry's names load on first use, and the games join
PettingZoo's and Gymnasium's registries as soon as either is imported (now, if it already is).
"""

import importlib
import importlib.abc
import importlib.util
import sys

from ._numba_cache import configure as _configure_numba_cache

NUMBA_CACHE_DIR = _configure_numba_cache()  # before any kernel module is imported

__version__ = "0.1.0"
__all__ = ["GAMES", "make_env", "make_vec", "env_module", "kernel", "player_counts", "__version__"]
_REGISTRY_NAMES = ("GAMES", "make_env", "make_vec", "env_module", "kernel", "player_counts", "registry")


def __getattr__(name):
    """The registry's names, loaded on first use (PEP 562) so that kernels import nothing above them."""
    if name in _REGISTRY_NAMES:
        registry = importlib.import_module(".registry", __name__)
        value = registry if name == "registry" else getattr(registry, name)
        globals()[name] = value  # later look-ups skip this function
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _register_with(module) -> None:
    """Our games join the registry of ``module`` (PettingZoo: the AEC envs; Gymnasium: the single-seat view)."""
    registry = importlib.import_module(".registry", __name__)
    if module.__name__ == "pettingzoo":
        registry._register_with_pettingzoo(module)
    else:
        registry._register_with_gymnasium(module)


class _WhenImported(importlib.abc.MetaPathFinder):
    """Registers our games right after ``name`` finishes importing (a one-shot post-import hook)."""

    def __init__(self, name: str):
        self.name = name

    def find_spec(self, name, path=None, target=None):
        if name != self.name:
            return None
        sys.meta_path.remove(self)  # one shot; also lets the real finders below answer
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_register(module):
            exec_module(module)
            _register_with(module)

        spec.loader.exec_module = exec_then_register
        return spec


for _name in ("pettingzoo", "gymnasium"):
    if _name in sys.modules:
        _register_with(sys.modules[_name])
    elif not any(isinstance(f, _WhenImported) and f.name == _name for f in sys.meta_path):
        sys.meta_path.insert(0, _WhenImported(_name))
