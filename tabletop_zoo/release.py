"""The release wheel: checked to carry the machine code of its own sources, and tagged for what that code runs on.

``scripts/build_release`` ships the env path's machine code into the package (``tabletop-zoo precompile --ship``:
numba's cache files in ``compiled/<digest>/`` with their manifest ``shipped.json``), builds the wheel with pip
(setuptools tags it ``py3-none-any``: the package has no extension module) and hands it to ``release``, which
refuses it unless it carries the shipped code of exactly its own sources, and writes it to ``dist/`` retagged by
``wheel tags`` with the interpreter, ABI and platform the manifest names (``cp311-cp311-manylinux_2_17_x86_64``). A
wheel without shipped code (``pip wheel .`` of a checkout) keeps ``py3-none-any``: its Python runs anywhere and
numba compiles on first use.

    python -m tabletop_zoo.release WHEEL [--dist DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

from . import _numba_cache

SHIPPED = f"{_numba_cache.PACKAGE}/{_numba_cache.SHIPPED.name}/"  # the shipped code's folder inside a wheel
MANIFEST = _numba_cache.MANIFEST
# The platform tag for each target triple (architecture, system) that shipped code is built for.
# manylinux_2_17_x86_64, not linux_x86_64: the shipped files are numba cache files, machine code that numba's own
# linker (llvmlite's) loads into the running process, not ELF objects for the system's loader, so they need of the
# system only what numba and llvmlite need, whose x86-64 wheels are manylinux2014 (= manylinux_2_17): a machine
# that installs numba's wheel can load them. PyPI refuses linux_* wheels. No tag names the CPU level (x86-64-v3) or
# the numba version: the manifest keeps the code from loading without them, and numba then compiles as before.
PLATFORMS = {("x86_64", "linux-gnu"): "manylinux_2_17_x86_64"}


class ReleaseError(RuntimeError):
    """A wheel that must not be released, and why."""


def wheel_tags(manifest: dict) -> tuple[str, str, str]:
    """The (python, abi, platform) tags of a wheel carrying machine code built as ``manifest`` says: the CPython
    version and ABI flags it was built by (``"python": "3.11"`` -> ``cp311``, ``cp311``; ``"3.13t"`` -> ``cp313``,
    ``cp313t``) and the platform of its target triple (``x86_64-unknown-linux-gnu`` -> ``manylinux_2_17_x86_64``)."""
    version = re.fullmatch(r"3\.(\d+)([a-z]*)", str(manifest.get("python")))
    if version is None:
        raise ReleaseError(
            f"the manifest's python must be MAJOR.MINOR[ABIFLAGS] of CPython 3, got {manifest.get('python')!r}"
        )
    arch, _vendor, *system = str(manifest.get("triple")).split("-")
    platform = PLATFORMS.get((arch, "-".join(system)))
    if platform is None:
        known = ", ".join(f"{a}-*-{s}" for a, s in PLATFORMS)
        raise ReleaseError(f"shipped code is released for the triples {known} only, got {manifest.get('triple')!r}")
    python = f"cp3{version[1]}"  # numba, and so its machine code, runs on CPython only
    return python, python + version[2], platform


def shipped_code(wheel: pathlib.Path) -> tuple[str, dict]:
    """The source digest and manifest of the shipped machine code ``wheel`` carries; raises ``ReleaseError`` unless it
    carries exactly one digest's folder, with its manifest."""
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist() if n.startswith(SHIPPED)]
        digests = sorted({n.removeprefix(SHIPPED).split("/")[0] for n in names})
        if not digests:
            raise ReleaseError(f"{wheel.name} carries no shipped machine code ({SHIPPED}): run precompile --ship first")
        if len(digests) > 1:
            raise ReleaseError(f"{wheel.name} carries shipped code of several source digests {digests}: delete build/")
        try:
            return digests[0], json.loads(z.read(f"{SHIPPED}{digests[0]}/{MANIFEST}"))
        except (KeyError, ValueError) as e:
            raise ReleaseError(
                f"{wheel.name}: the shipped code of {digests[0]} has no readable {MANIFEST} ({e})"
            ) from None


def own_source_digest(wheel: pathlib.Path) -> str:
    """The source digest the wheel's own package computes (``_numba_cache.source_digest``, which names the shipped
    folder it loads), run from a copy of the wheel unpacked in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="tabletop_zoo_release_") as unpacked:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(unpacked)
        code = "from tabletop_zoo import _numba_cache as c; print(c.__file__); print(c.source_digest())"
        env = {**os.environ, "PYTHONPATH": unpacked, "NUMBA_CACHE_DIR": os.path.join(unpacked, ".numba")}
        proc = subprocess.run([sys.executable, "-c", code], env=env, cwd=unpacked, capture_output=True, text=True)
        if proc.returncode:
            raise ReleaseError(f"{wheel.name}'s own package did not import:\n{proc.stderr[-2000:]}")
        where, digest = proc.stdout.splitlines()[-2:]
        if not where.startswith(unpacked):  # the environment's own tabletop_zoo was imported instead
            raise ReleaseError(f"{wheel.name}: computing its digest imported {where}, not the wheel's copy")
        return digest


def release(wheel: pathlib.Path, dist: pathlib.Path) -> pathlib.Path:
    """Check ``wheel`` (a wheel of this package carrying shipped machine code) and move it into ``dist`` retagged for
    what its machine code runs on; returns the released file. Raises ``ReleaseError`` (and writes nothing to ``dist``)
    unless its shipped code is of exactly its own sources and built for a platform ``PLATFORMS`` names."""
    if importlib.util.find_spec("wheel") is None:
        raise ReleaseError("retagging needs the wheel package: pip install 'tabletop-zoo[release]'")
    digest, manifest = shipped_code(wheel)
    python, abi, platform = wheel_tags(manifest)
    own = own_source_digest(wheel)
    if digest != own:
        raise ReleaseError(
            f"{wheel.name} carries shipped code of sources {digest} but its own sources are {own}: a source changed "
            "after precompile --ship, or one is not in the wheel; ship and build again"
        )
    tags = ["--python-tag", python, "--abi-tag", abi, "--platform-tag", platform]
    cmd = [sys.executable, "-m", "wheel", "tags", *tags, "--remove", str(wheel)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        raise ReleaseError(f"wheel tags could not retag {wheel.name}: {proc.stderr.strip()}")
    name = proc.stdout.split()[-1]
    if not name.endswith(f"-{python}-{abi}-{platform}.whl"):
        raise ReleaseError(f"wheel tags wrote {name}, not a {python}-{abi}-{platform} wheel")
    dist.mkdir(parents=True, exist_ok=True)
    return pathlib.Path(shutil.move(wheel.parent / name, dist / name))


def main(argv: list[str] | None = None) -> None:
    """``python -m tabletop_zoo.release WHEEL [--dist DIR]``: release one built wheel (``scripts/build_release``)."""
    parser = argparse.ArgumentParser(prog="python -m tabletop_zoo.release", description=main.__doc__)
    parser.add_argument("wheel", type=pathlib.Path, help="the wheel pip built, carrying tabletop_zoo/compiled/")
    parser.add_argument("--dist", type=pathlib.Path, default=pathlib.Path("dist"), help="where the release goes")
    args = parser.parse_args(argv)
    try:
        print(release(args.wheel, args.dist))
    except ReleaseError as e:
        sys.exit(f"release refused: {e}")


if __name__ == "__main__":
    main()
