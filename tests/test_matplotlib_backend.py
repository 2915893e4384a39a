"""No library call changes the caller's matplotlib backend: figures are built on Figure + FigureCanvasAgg.

After ``matplotlib.use("Agg")`` inside a library call, every ``plt.show()`` in a notebook shows nothing; so
the package never calls ``matplotlib.use`` nor imports pyplot, and the training curve, arena report and
benchmark plot are checked with a foreign backend set (arena and bench: tests/arena, tests/benchmarks)."""

import ast
import pathlib

import matplotlib

from tabletop_zoo.training import sb3

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE_DIRS = ("tabletop_zoo", "envs", "agents", "kernels")


def _offences(path: pathlib.Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "use"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "matplotlib"
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} calls matplotlib.use")
        names = [a.name for a in node.names] if isinstance(node, (ast.Import, ast.ImportFrom)) else []
        module = node.module if isinstance(node, ast.ImportFrom) else ""
        if (
            "matplotlib.pyplot" in names
            or module == "matplotlib.pyplot"
            or (module == "matplotlib" and "pyplot" in names)
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports pyplot")
    return found


def test_the_package_never_switches_backends_nor_uses_pyplot():
    offences = [o for d in PACKAGE_DIRS for p in sorted((ROOT / d).rglob("*.py")) for o in _offences(p)]
    assert offences == []


def test_the_training_curve_keeps_the_callers_backend(tmp_path):
    before = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        sb3._write_curve([(0, 0.3), (256, 0.5)], tmp_path, "curve", 1 / 3)
        assert matplotlib.get_backend() == "svg"
    finally:
        matplotlib.use(before)
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
