"""Files the library writes and reads back: written whole or not at all, read with one clear error.

Every file a command writes (run folders, models, replays, pictures, benchmark results) goes through
``replaced_on_success``: it is written to a temporary file beside its place, flushed to disk, then renamed over
the old one, so a kill, a full disk or a folder turned read-only never leaves half a file or destroys the
previous one. Reading is the other half: ``read_text`` names a damaged file instead of failing deep inside.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
from collections.abc import Iterator


@contextlib.contextmanager
def replaced_on_success(path: str | os.PathLike) -> Iterator[pathlib.Path]:
    """A temporary path beside ``path`` to write; renamed over ``path`` when the block succeeds, removed when it
    fails. The temporary name keeps the suffix, so writers that choose the format by it (imageio, matplotlib)
    still do."""
    path = pathlib.Path(path)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix}")
    try:
        yield tmp
        _fsync(tmp, os.O_RDONLY)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync(path.parent, os.O_RDONLY)  # the rename itself survives a power cut


def atomic_write(path: str | os.PathLike, text: str | bytes) -> None:
    """Write ``path`` whole or not at all (``replaced_on_success``)."""
    with replaced_on_success(path) as tmp:
        tmp.write_bytes(text.encode() if isinstance(text, str) else text)


def _fsync(path: pathlib.Path, flags: int) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def check_writable(path: str | os.PathLike, what: str = "") -> pathlib.Path:
    """Refuse an output file that cannot be written, before any work: the folder must exist and take a new file
    (tried for real: permission bits say nothing for root or a read-only mount). The file itself is untouched."""
    target = pathlib.Path(path)
    folder = target.parent
    label = f"{what} {path}" if what else str(path)
    if target.is_dir():
        raise ValueError(f"cannot write {label}: it is a folder")
    if not folder.is_dir():
        raise ValueError(f"cannot write {label}: folder {folder} does not exist")
    probe = folder / f".{target.name}.{os.getpid()}.probe"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise ValueError(f"cannot write {label}: {e.strerror or e}") from None
    return target


def read_text(path: str | os.PathLike) -> str:
    """A text file the library wrote, read as UTF-8; a damaged one (bytes that are not UTF-8) is a one-line
    ValueError naming the file, not a UnicodeDecodeError from deep inside a loader."""
    try:
        return pathlib.Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path} is damaged: byte {e.start} is not UTF-8 text; restore or remove the file") from None
