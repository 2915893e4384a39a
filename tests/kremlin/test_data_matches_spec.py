"""The packaged data copy matches the spec's numbers (spec §2, §5)."""

import numpy as np

from tabletop_zoo.kernels.kremlin import tables as T


def test_gamer_experience_and_start_posts():
    assert T.N_GAMERS == 26 and T.N_POSTS == 13
    assert T.EXPERIENCE.tolist() == [
        80,
        75,
        74,
        73,
        72,
        71,
        69,
        68,
        67,
        66,
        65,
        64,
        63,
        62,
        61,
        60,
        59,
        58,
        57,
        56,
        55,
        54,
        53,
        52,
        51,
        50,
    ]
    assert T.START_LOC[:13].tolist() == list(range(13)) and (T.START_LOC[13:] == T.LOC_CIV).all()
    assert T.ASSIGNABLE[0] == 0 and T.ASSIGNABLE[1:].all()  # KRM-SET-4
    assert T.START_BROKE.tolist() == [1] + [0] * 25  # KRM-SET-2


def test_posts_levels_thresholds():
    assert T.LEVEL.tolist() == [0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3]
    assert T.EXPEL_THRESHOLD.tolist() == [18, 14, 14, 14, 10, 10, 10, 10, 6, 6, 6, 6, 6]  # KRM-EXP-2
    assert T.PART_TIME_MOD == -3 and T.OTHER_CIRCLE_MOD == -2


def test_costs_and_limits():
    assert (T.SP_EXP_SUCCESS, T.SP_EXP_FAILURE, T.SP_TOGGLE, T.SP_RUM_A, T.SP_TRIAL) == (1, 3, 1, 2, 3)
    assert (T.SP_ELE_REJECT, T.SP_PER_LEVEL, T.SP_PER_B, T.SP_PER_C, T.SP_RECALL) == (1, 1, 1, 1, 5)
    assert (T.RETIRE_AGE, T.MAX_AGE_AFTER_POWER, T.RETIRE_BROKE, T.SENSITIVE_MULT) == (96, 95, 3, 2)
    assert T.SPEECH_THRESHOLD.tolist() == [0, 7, 14] and T.SPEECH_SP.tolist() == [0, 1, 2]  # KRM-YEP-2/4
    assert T.INFLUENCE_VALUES.tolist() == list(range(10, 0, -1)) and T.TOTAL_INFLUENCE == 55


def test_delegation_orders():
    assert T.DELEGATION_EXPULSION.tolist() == [1, 4, 0, 5]  # KRM-GEN-6
    assert T.DELEGATION_RUMOUR.tolist() == [3, 2, 1, 0]
    assert T.DELEGATION_ELECTION.tolist() == [2, 4, 1, 5, 6, 7, 3, 8, 9, 10, 11, 12]


def test_finance_table_excerpts_of_spec_section_2():
    def row(t, age):
        return T.FINANCE[t, age - 50].tolist()

    # (retire_max, plus2_max, plus1_max, minus1_min); "—" = 0 / 21
    assert row(0, 50) == [0, 1, 4, 14]
    assert row(0, 60) == [0, 3, 6, 18]
    assert row(0, 68) == [0, 3, 9, 19]
    assert row(0, 72) == [1, 3, 10, 20]
    assert row(0, 75) == [1, 4, 11, 21]
    assert row(0, 82) == [1, 5, 13, 21]
    assert row(0, 85) == [3, 6, 14, 21]
    assert row(0, 90) == [3, 7, 15, 21]
    assert row(0, 95) == [4, 9, 17, 21]
    assert [row(0, a)[2] for a in range(91, 96)] == [16, 16, 16, 17, 17]  # KRM-FIN-2 chosen values
    assert row(1, 50) == [0, 0, 2, 7]
    assert row(1, 60) == [0, 0, 2, 9]
    assert row(1, 72) == [0, 1, 3, 12]
    assert row(1, 80) == [0, 2, 4, 14]
    assert row(1, 90) == [0, 3, 6, 16]
    assert row(1, 95) == [0, 4, 9, 20]


def test_traits_default_assignment():
    g = lambda label: int(label[1:]) - 1  # noqa: E731
    assert np.flatnonzero(T.TRAIT[:, T.TR_POOR]).tolist() == [g("G06"), g("G12"), g("G17"), g("G22")]
    assert T.ENEMY[g("G04")] == g("G15") and T.ENEMY[g("G15")] == g("G04")
    assert T.ALLY[g("G03")] == g("G20") and T.ALLY[g("G20")] == -1
    assert np.flatnonzero(T.TRAIT[:, T.TR_SENSITIVE]).tolist() == [g("G09"), g("G18")]
    assert np.flatnonzero(T.TRAIT[:, T.TR_MIDWAY]).tolist() == [g("G05"), g("G18")]
    assert not T.TRAIT[:, T.TR_INCONSPICUOUS].any()
