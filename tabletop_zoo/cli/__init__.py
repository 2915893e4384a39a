"""The ``tabletop-zoo`` command line, one module per command (or small family of commands).

This package only assembles the typer app, from its public modules: a module ``name`` holds the command function
``name`` (``play``, ``replay``, ``bench``, ``precompile``, ``serve``, ...), or a tuple ``COMMANDS`` of several
(``tournaments``: ``arena`` and ``ladder``); a sub-package holds a ``typer.Typer`` ``app`` of sub-commands, the
command of the package's name (``train``: one sub-command per trainer). So a new command is one new module here;
``tabletop-zoo --help`` lists the commands by name.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import typer


class _App(typer.Typer):
    """The command line; a damaged numba cache (any command's first compiled call) is one line, not a traceback."""

    def __call__(self, *args, **kwargs):
        from .._numba_cache import DamagedCacheError
        from ..envs.first_use import announcing
        from ..precompile import spinner

        try:
            with announcing(spinner):  # a game's first compile: a spinner on stderr (one line if not a terminal)
                return super().__call__(*args, **kwargs)
        except DamagedCacheError as e:
            typer.echo(f"Error: {e}", err=True)
            raise SystemExit(1) from None


def _version(show: bool) -> None:
    if show:
        from .. import __version__

        typer.echo(f"tabletop-zoo {__version__}")
        raise typer.Exit()


def main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="print the tabletop-zoo version and exit"
    ),
) -> None:
    """Board games as multi-agent research environments (PettingZoo AEC over numba kernels)."""


def command_modules() -> dict[str, ModuleType]:
    """The public modules of this package (those whose name does not start with ``_``), by name."""
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
    return {name: importlib.import_module(f"{__name__}.{name}") for name in names}


def assemble(app: typer.Typer) -> None:
    """Register every command module's commands (sorted by name) and sub-apps on ``app``."""
    commands, groups = [], []
    for name, module in command_modules().items():
        if isinstance(getattr(module, "app", None), typer.Typer):
            groups.append((name, module.app))
        elif hasattr(module, "COMMANDS"):
            commands += module.COMMANDS
        else:
            commands.append(getattr(module, name))
    for command in sorted(commands, key=lambda f: f.__name__):
        app.command()(command)
    for name, group in groups:
        app.add_typer(group, name=name)


app = _App(
    add_completion=False,
    no_args_is_help=True,
    help="Board games as multi-agent research environments (PettingZoo AEC over numba kernels).",
)
app.callback()(main)
assemble(app)

__all__ = ["app"]
