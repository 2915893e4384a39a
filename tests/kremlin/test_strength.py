"""Strength (slow) of the Kremlin heuristic and of MCTS: what each must win, and how it is judged, is in
``tests/_strength.strength_tests``."""

from .._strength import strength_tests

test_heuristic_beats_random, test_mcts_beats_three_heuristics = strength_tests("kremlin")
