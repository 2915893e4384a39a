"""Reading a game's data files (``kernels/<game>/data/*.json``), which its ``tables.py`` turns into numpy constants."""

from __future__ import annotations

import json
from importlib import resources


def load_json(package: str, name: str) -> dict:
    """The JSON file ``data/<name>`` of the kernel package ``package`` (a tables module passes ``__package__``)."""
    return json.loads(resources.files(package).joinpath("data", name).read_text(encoding="utf-8"))
