"""Every notebook in notebooks/ runs top to bottom (quick mode: TABLETOP_ZOO_QUICK=1 shrinks the long cells)."""

import base64
import pathlib

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((pathlib.Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
TIMEOUT = 600  # seconds per cell: a cold numba cache compiles the kernels inside the first cells


def test_the_notebooks_are_there():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_quickstart.ipynb", "02_training.ipynb", "03_tournament.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_valid_and_stored_without_outputs(path):
    book = nbformat.read(path, as_version=4)
    nbformat.validate(book)
    assert book.nbformat == 4 and book.metadata["kernelspec"]["name"] == "python3"
    assert all(
        not cell.get("outputs") and cell.get("execution_count") is None
        for cell in book.cells
        if cell.cell_type == "code"
    ), f"{path.name} is stored with outputs; clear them before committing"


# Each notebook takes 5-30 s in quick mode (a kernel start, imports, numba cache loads); the kernels are
# compiled by then, because the game tests run first and the notebooks share numba's on-disk cache.
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch):
    book = nbformat.read(path, as_version=4)
    # The kernel inherits this process's environment; run in a scratch folder so nothing lands in the repo.
    monkeypatch.setenv("TABLETOP_ZOO_QUICK", "1")
    client = NotebookClient(
        book, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError naming the failing cell and its traceback
    for index, cell in enumerate(book.cells):
        if cell.cell_type == "code" and _shows_a_figure(cell.source):
            images = [o["data"]["image/png"] for o in cell.outputs if "image/png" in o.get("data", {})]
            assert images, f"{path.name} cell {index} shows a figure but produced no image (a backend switched?)"
            png = base64.b64decode(images[-1])
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000, f"{path.name} cell {index}: blank image"


def _shows_a_figure(source: str) -> bool:
    return "plt.show()" in source or "display(Image(" in source
