"""The release wheel (``tabletop_zoo/release.py``, ``scripts/build_release``): tagged for what its shipped machine code
runs on, derived from the code's manifest, and refused (nothing written to ``dist/``) unless it carries the shipped
code of exactly its own sources."""

from __future__ import annotations

import base64
import hashlib
import json
import platform
import subprocess
import sys
import zipfile

import pytest

from tabletop_zoo import _numba_cache as c
from tabletop_zoo import release as r

X86_LINUX = "x86_64-unknown-linux-gnu"  # llvmlite's process triple on Linux x86-64


@pytest.mark.parametrize(
    "python, triple, tags",
    [
        ("3.11", X86_LINUX, ("cp311", "cp311", "manylinux_2_17_x86_64")),
        ("3.12", "x86_64-pc-linux-gnu", ("cp312", "cp312", "manylinux_2_17_x86_64")),  # the vendor does not matter
        ("3.13t", X86_LINUX, ("cp313", "cp313t", "manylinux_2_17_x86_64")),  # free-threaded: its ABI flag
    ],
)
def test_the_tags_come_from_the_manifest(python, triple, tags):
    assert r.wheel_tags({"numba": "0.68.1", "python": python, "triple": triple, "cpu": "x86-64-v3"}) == tags


@pytest.mark.parametrize(
    "python, triple, error",
    [
        ("3.11", "aarch64-unknown-linux-gnu", "triples x86_64-\\*-linux-gnu only, got 'aarch64"),
        ("3.11", "x86_64-unknown-linux-musl", "got 'x86_64-unknown-linux-musl'"),  # manylinux means glibc
        ("3.11", "x86_64-apple-darwin23.6.0", "got 'x86_64-apple-darwin"),
        ("3.11", "x86_64-pc-windows-msvc", "got 'x86_64-pc-windows-msvc'"),
        ("3", X86_LINUX, "MAJOR.MINOR"),
        ("2.7", X86_LINUX, "MAJOR.MINOR"),
        (None, X86_LINUX, "MAJOR.MINOR"),
    ],
)
def test_no_tags_for_code_built_for_another_platform_or_python(python, triple, error):
    with pytest.raises(r.ReleaseError, match=error):
        r.wheel_tags({"python": python, "triple": triple})


@pytest.mark.skipif(platform.machine() != "x86_64" or not sys.platform.startswith("linux"), reason="Linux x86-64")
def test_this_interpreter_s_shipped_code_gets_a_tag_pip_installs_here_and_not_elsewhere():
    """Checked against packaging's own tags for this interpreter (pip's): the shipped code's tag is one of them, of
    this CPython version and ABI, and not one any other interpreter accepts."""
    from packaging import tags

    ours = tags.Tag(*r.wheel_tags(c.build_manifest()))
    here = list(tags.sys_tags())
    assert ours in here
    assert ours.interpreter == f"cp{sys.version_info.major}{sys.version_info.minor}" == here[0].interpreter
    assert ours.abi == here[0].abi and ours.abi != "none" and ours.platform != "any"


# --- build_release's refusals ----------------------------------------------------------------------------------

DIGEST = "0123456789abcdef"


def _wheel(folder, files: dict[str, str | bytes]) -> object:
    """A wheel of this package as setuptools names and tags it (``py3-none-any``), holding ``files``."""
    info = "tabletop_zoo-0.1.0.dist-info"
    files = {
        **files,
        f"{info}/METADATA": "Metadata-Version: 2.4\nName: tabletop-zoo\nVersion: 0.1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: setuptools\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [f"{name},sha256={_hash(data)},{len(_bytes(data))}" for name, data in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tabletop_zoo-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def _bytes(data: str | bytes) -> bytes:
    return data.encode() if isinstance(data, str) else data


def _hash(data: str | bytes) -> str:
    """A RECORD hash (PEP 376 / the wheel spec: urlsafe base64 of the sha256, no padding)."""
    return base64.urlsafe_b64encode(hashlib.sha256(_bytes(data)).digest()).rstrip(b"=").decode()


def _shipped(digest: str = DIGEST, manifest: dict | None = None) -> dict[str, str | bytes]:
    manifest = c.build_manifest() if manifest is None else manifest
    return {
        "tabletop_zoo/__init__.py": "",
        f"tabletop_zoo/compiled/{digest}/{c.MANIFEST}": json.dumps(manifest),
        f"tabletop_zoo/compiled/{digest}/tabletop_zoo.kernels.irish_gauge/rules.step-10.py311.nbi": b"index",
        f"tabletop_zoo/compiled/{digest}/compiled/irish_gauge.env": "marker",
    }


@pytest.fixture
def own_digest(monkeypatch):
    """The wheel's own sources digest as ``own_source_digest`` would compute it (tested on its own below)."""
    digests = []
    monkeypatch.setattr(r, "own_source_digest", lambda wheel: digests[0])
    return digests


def _refused(tmp_path, files, error):
    wheel, dist = _wheel(tmp_path / "built", files), tmp_path / "dist"
    with pytest.raises(r.ReleaseError, match=error):
        r.release(wheel, dist)
    assert not dist.exists()  # nothing released
    return wheel


def test_a_wheel_without_shipped_code_is_refused(tmp_path):
    _refused(tmp_path, {"tabletop_zoo/__init__.py": ""}, "carries no shipped machine code")


def test_a_wheel_with_two_digests_of_shipped_code_is_refused(tmp_path):
    _refused(tmp_path, {**_shipped(), **_shipped("fedcba9876543210")}, "several source digests")


def test_shipped_code_without_its_manifest_is_refused(tmp_path):
    files = {k: v for k, v in _shipped().items() if not k.endswith(c.MANIFEST)}
    _refused(tmp_path, files, "has no readable shipped.json")


def test_shipped_code_for_another_platform_is_refused(tmp_path):
    _refused(tmp_path, _shipped(manifest={**c.build_manifest(), "triple": "aarch64-unknown-linux-gnu"}), "aarch64")


def test_shipped_code_of_other_sources_than_the_wheel_s_own_is_refused(tmp_path, own_digest):
    own_digest.append("fedcba9876543210")  # a source edited after precompile --ship, or one left out of the wheel
    wheel = _refused(tmp_path, _shipped(), f"shipped code of sources {DIGEST} but its own sources are fedcba98")
    assert wheel.is_file()  # left as pip built it, never retagged


@pytest.mark.skipif(platform.machine() != "x86_64" or not sys.platform.startswith("linux"), reason="Linux x86-64")
def test_a_wheel_with_its_own_shipped_code_is_released_retagged(tmp_path, own_digest):
    own_digest.append(DIGEST)
    wheel, dist = _wheel(tmp_path / "built", _shipped()), tmp_path / "dist"
    released = r.release(wheel, dist)
    python, abi, plat = r.wheel_tags(c.build_manifest())
    assert released == dist / f"tabletop_zoo-0.1.0-{python}-{abi}-{plat}.whl"
    assert [p.name for p in dist.iterdir()] == [released.name] and not wheel.exists()  # no py3-none-any left
    with zipfile.ZipFile(released) as z:
        metadata = z.read("tabletop_zoo-0.1.0.dist-info/WHEEL").decode()
        assert z.read(f"tabletop_zoo/compiled/{DIGEST}/compiled/irish_gauge.env") == b"marker"
    assert f"Tag: {python}-{abi}-{plat}\n" in metadata and "py3-none-any" not in metadata


def test_the_digest_is_the_one_the_wheel_s_own_package_computes(tmp_path):
    """Computed by the wheel's copy of the package (unpacked), not by the tabletop_zoo this environment imports."""
    files = {
        "tabletop_zoo/__init__.py": "",
        "tabletop_zoo/_numba_cache.py": "def source_digest():\n    return 'the-wheel-s-own'\n",
    }
    assert r.own_source_digest(_wheel(tmp_path, files)) == "the-wheel-s-own"


def test_the_command_says_why_it_refuses_in_one_line(tmp_path):
    wheel = _wheel(tmp_path, {"tabletop_zoo/__init__.py": ""})
    proc = subprocess.run(
        [sys.executable, "-m", "tabletop_zoo.release", str(wheel), "--dist", str(tmp_path / "d")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "release refused: tabletop_zoo-0.1.0-py3-none-any.whl carries no shipped machine code "
        "(tabletop_zoo/compiled/): run precompile --ship first"
    ]
