"""Seeded games replay exactly as recorded (see playthroughs.py for how to regenerate on purpose)."""

import pytest

from .playthroughs import path, trace


def test_golden_playthrough(game_n):
    game, n = game_n
    golden = path(game, n)
    if not golden.exists():
        pytest.fail(f"no golden playthrough {golden.name}; run python -m tests.contract.playthroughs")
    assert trace(game, n) == golden.read_text(), (
        f"{golden.name} changed: if the rules change was intended, bump the env VERSION and regenerate"
    )
