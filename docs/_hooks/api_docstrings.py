"""MkDocs hook: every object the API reference renders has a docstring of its own.

mkdocstrings shows an undocumented function as a bare signature and says nothing. This hook reads each
``::: dotted.path`` block of a page (and its ``members:`` list, when the block names one), imports the object and
warns for each one without a docstring; ``mkdocs build --strict`` turns the warning into a failed build, so a
public function added without a docstring to a documented module fails CI.
"""

from __future__ import annotations

import atexit
import importlib
import inspect
import logging
import pathlib
import re
import shutil
import tempfile

from mkdocs.plugins import event_priority

log = logging.getLogger("mkdocs.plugins.api_docstrings")
BLOCK = re.compile(r"^::: *([\w.]+)[ \t]*\n((?:[ \t]+.*\n?)*)", re.M)
MEMBERS = re.compile(r"^\s+members:\s*\n((?:\s+- .*\n?)+)|^\s+members:\s*\[(.*?)\]", re.M)


def resolve(path: str):
    """The object at a dotted path: the longest importable module prefix, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            obj = importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:  # the module exists but something it imports does not
                raise
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(path)


def own_doc(obj) -> str:
    """The object's own docstring (inherited ones do not count: the static reference shows none)."""
    target = obj.fget if isinstance(obj, property) else getattr(obj, "__func__", obj)
    doc = target.__dict__.get("__doc__") if isinstance(target, type) else getattr(target, "__doc__", None)
    return (doc or "").strip()


def listed_members(options: str) -> list[str] | None:
    if re.search(r"^\s+members:\s*false\s*$", options, re.M):
        return []
    match = MEMBERS.search(options)
    if not match:
        return None
    if match.group(1):
        return [line.strip()[2:].strip() for line in match.group(1).splitlines() if line.strip()]
    return [name.strip().strip("'\"") for name in match.group(2).split(",") if name.strip()]


def public_members(obj) -> list[str]:
    """What the reference shows without a ``members:`` list: public names defined by the object itself."""
    if inspect.ismodule(obj):
        names = getattr(obj, "__all__", None) or vars(obj)
        return [
            n
            for n in names
            if not n.startswith("_")
            and (inspect.isfunction(getattr(obj, n, None)) or inspect.isclass(getattr(obj, n, None)))
            and getattr(getattr(obj, n), "__module__", None) == obj.__name__
        ]
    if inspect.isclass(obj):
        return [
            n
            for n, v in vars(obj).items()
            if not n.startswith("_") and (inspect.isfunction(v) or isinstance(v, (property, classmethod, staticmethod)))
        ]
    return []


def missing(path: str, options: str) -> list[str]:
    obj = resolve(path)
    lacking = [] if own_doc(obj) else [path]
    names = listed_members(options)
    for name in public_members(obj) if names is None else names:
        member = inspect.getattr_static(obj, name) if inspect.isclass(obj) else getattr(obj, name)
        if not own_doc(member):
            lacking.append(f"{path}.{name}")
        if inspect.isclass(member) and names is not None:
            lacking += [f"{path}.{name}.{m}" for m in public_members(member) if not own_doc(vars(member)[m])]
    return lacking


@event_priority(100)  # before mkdocstrings reads its handler's options
def on_config(config):
    """Point mkdocstrings at a tree shaped like the installed package.

    ``envs/``, ``kernels/`` and ``agents/`` install as ``tabletop_zoo.envs`` and so on (setuptools' package-dir),
    but griffe finds a package's modules by walking its folder, where they are not: a temporary folder holds a copy
    of the package's Python files laid out as installed, and the handler reads that.
    """
    root = pathlib.Path(config.config_file_path).parent
    tree = pathlib.Path(tempfile.mkdtemp(prefix="tabletop_zoo_api_"))
    atexit.register(shutil.rmtree, tree, ignore_errors=True)
    sources = {"tabletop_zoo": root / "tabletop_zoo"} | {
        f"tabletop_zoo/{m}": root / m for m in ("envs", "kernels", "agents")
    }
    for target, source in sources.items():  # copies, not links: griffe resolves a link to where it points
        for path in source.rglob("*.py"):
            copy = tree / target / path.relative_to(source)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
    python = config.plugins["mkdocstrings"].config["handlers"].setdefault("python", {})
    python["paths"] = [str(tree)]
    return config


def on_page_markdown(markdown: str, page, config, files) -> str:
    for match in BLOCK.finditer(markdown):
        for name in missing(match.group(1), match.group(2)):
            log.warning(
                "%s: %s has no docstring (the API reference would show a bare signature)", page.file.src_uri, name
            )
    return markdown
