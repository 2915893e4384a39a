"""The old spelling ``tabletop-zoo train GAME --algo X ...``, kept as an alias for one release.

The ``train`` group reads a command line that does not start with a trainer's name as the old spelling and
rewrites it to the new one (``train X GAME ...``, ``--algo`` removed, default ``maskable_ppo``) before typer parses
it, so both spellings run the same command with the same options; a note on stderr names the new spelling. The old
command accepted a few options that a trainer did not use (``--opponents`` with selfplay, ...): the rewrite drops
exactly those, so every command line that ran before runs as before, and any other option of another trainer is
refused by the trainer's own command, as in the new spelling.
"""

from __future__ import annotations

import typer
from typer.core import TyperGroup

# What the old `train --algo X` accepted without using it, dropped from the old spelling (None: with any value).
IGNORED: dict[str, dict[str, str | None]] = {
    "maskable_ppo": {"--workers": None, "--address": None, "--backend": "local"},
    "selfplay": {"--opponents": None},
    "az": {"--opponents": None},
    "imitate": {"--opponents": None, "--address": None, "--eval-games": None, "--backend": "local"},
}


class TrainGroup(TyperGroup):
    """``train``'s sub-commands (one per trainer, named as the trainer with ``-`` for ``_``) and the old spelling."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        """Rewrite the old spelling to the new one, then parse as usual."""
        first = args[0].replace("_", "-") if args else ""
        if first in self.commands:
            args = [first, *args[1:]]  # `train maskable_ppo GAME` names the trainer as the library does
        elif first != "--help":
            args = self.new_spelling(ctx, args)
        return super().parse_args(ctx, args)

    def new_spelling(self, ctx: typer.Context, args: list[str]) -> list[str]:
        """``GAME --algo X ...`` as ``X GAME ...``, with a deprecation note on stderr naming the new spelling."""
        parsed = list(_split(args, self._options()))
        algos = [name.replace("-", "_") for name in self.commands]
        algo = next((value for name, value, _ in reversed(parsed) if name == "--algo"), "maskable_ppo")
        if algo not in algos:
            raise typer.BadParameter(f"--algo must be one of {', '.join(algos)}, got {algo!r}", ctx=ctx)
        ignored, kept, dropped = IGNORED.get(algo, {}), [], []
        for name, value, tokens in parsed:
            if name in ignored and ignored[name] in (None, value):
                dropped.append(name)
            elif name != "--algo":
                kept += tokens
        command = algo.replace("_", "-")
        note = (
            f"note: 'train GAME --algo {algo}' is deprecated and goes in the next release: use 'train {command} GAME'"
        )
        typer.echo(note + (f" (it ignores {', '.join(dropped)}, as it did)" if dropped else ""), err=True)
        return [command, *kept]

    def _options(self) -> dict[str, tuple[str, bool]]:
        """Every trainer's option names (and ``--algo``) -> (the option's first long name, whether it takes a value)."""
        table = {"--algo": ("--algo", True)}
        for command in self.commands.values():
            for param in command.params:
                if param.param_type_name == "option":
                    names = param.opts + param.secondary_opts
                    long = next(n for n in names if n.startswith("--"))
                    table.update({n: (long, not param.is_flag) for n in names})
        return table


def _split(args: list[str], options: dict[str, tuple[str, bool]]):
    """``(option's long name or None, its value, its tokens)`` for each option or argument of a command line, read as
    click reads it (``--name value``, ``--name=value``, ``-n value``, ``-nvalue``; after ``--`` only arguments)."""
    i = 0
    while i < len(args):
        token = args[i]
        if token == "--":
            yield None, None, args[i:]
            return
        name, value = token, None
        if token.startswith("--"):
            name, eq, value = token.partition("=")
            value = value if eq else None
        elif token.startswith("-") and len(token) > 2:
            name, value = token[:2], token[2:]
        long, takes_value = options.get(name, (None, False))
        if long is None:
            yield None, None, [token]
            i += 1
            continue
        n = 2 if takes_value and value is None and i + 1 < len(args) else 1
        yield long, args[i + 1] if n == 2 else value, args[i : i + n]
        i += n
