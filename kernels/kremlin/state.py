"""The Kremlin / "Magne!" state record: one numpy structured value is the whole game.

Field table (seat = player 0..5, unused seats stay zero; g = gamer 0..25; k = post 0..12):

| field          | dtype, shape   | meaning (rule IDs)                                                  |
|----------------|----------------|---------------------------------------------------------------------|
| rng            | uint64 (1,)    | the game's own SplitMix64 counter (every d20)                       |
| ruleset        | int8           | 0 = seed (the only ruleset: the spec lists no published variant)    |
| theme          | int8           | 0 magne / 1 kremlin: labels of action_name and render_ansi          |
| traits         | int8           | 1 = optional personalities on (KRM-OPT-*)                           |
| random_placement | int8         | 1 = KRM-SET-1 variant                                               |
| ranking        | int8           | 1 = turn_limit_ranking (KRM-END-3 option)                           |
| num_players    | int8           | 3..6                                                                |
| phase          | int8           | pending decision PH_* (or PH_CHANCE / PH_GAME_OVER)                 |
| turn           | int16          | turn t, 1-based (KRM-SET-6)                                         |
| turn_limit     | int16          | KRM-END-3                                                           |
| start_player   | int8           | P((t-1) mod N) (KRM-SET-5)                                          |
| decisions      | int32          | decisions taken so far (bounded by MAX_GAME_LENGTH)                 |
| loc            | int8 (26,)     | gamer location: post 0..12, 13 CIV, 14 OTH, 15 RET                  |
| holder         | int8 (13,)     | gamer in each post, -1 vacant                                       |
| sp             | int16 (26,)    | stress points (KRM-GEN-1)                                           |
| broke          | int8 (26,)     | broke markers (KRM-GEN-4)                                           |
| susp_turn      | int16 (26,)    | turn the suspicion marker was placed, 0 = no marker (KRM-RUM-1)     |
| part_time      | uint8 (26,)    | on part-time this turn (KRM-PT-*)                                   |
| flag           | uint8 (26,)    | per-phase flag: toggled (rumour) / moved (personnel A)              |
| opposer        | uint8 (26,)    | opposed in the latest vote (KRM-ELE-4)                              |
| midway_done    | uint8 (26,)    | midway_break trait already fired (KRM-OPT-6)                        |
| assigned       | int8 (6, 26)   | SECRET influence sheet (KRM-INF-1, KRM-SET-4)                       |
| declared       | int8 (6, 26)   | public declarations (KRM-INF-2)                                     |
| burned         | int8 (6, 26)   | declared points lost by sending away (KRM-INF-3)                    |
| stamp          | int32 (6, 26)  | counter value of the latest raise (KRM-INF-4 tie-break)             |
| counter        | int32          | global declaration counter                                          |
| controller     | int8 (26,)     | controlling seat, -1 none (KRM-INF-4), kept in sync                 |
| speeches       | int8 (6,)      | successful speeches (KRM-YEP-3)                                     |
| winner         | int8           | winning seat; -1 none yet; -2 draw; -3 truncated (KRM-END-*)        |
| assign_seat    | int8           | seat assigning (PH_ASSIGN)                                          |
| assign_count   | int8           | values assigned by assign_seat so far (value = 10 - count)          |
| dw_seat        | int8           | seat visited by the declaration window (KRM-DW-2)                   |
| dw_passes      | int8           | consecutive passes in the window                                    |
| dw_cont        | int8           | C_* continuation run when the window closes                         |
| seat_cursor    | int8           | seat choosing part-time jobs                                        |
| seats_done     | int8           | seats finished with part-time choices                               |
| actor          | int8           | gamer using the current power, -1 none                              |
| target         | int8           | pending target / defendant / nominee / personnel source, -1 none    |
| post_cursor    | int8           | voter post / finance post / recalling officer post                  |
| oppose_count   | int8           | OPPOSE votes so far                                                 |
| nominations    | int8           | election nominations made (KRM-ELE-4)                               |
| rumour_mode    | int8           | 1 = A, 2 = B (KRM-RUM-2)                                            |
| chance_kind    | int8           | CH_* pending d20 (PH_CHANCE)                                        |
| last_roll      | int8           | latest d20 face, 0 none                                             |
"""

import numpy as np

from .tables import MAX_PLAYERS
from .tables import N_GAMERS
from .tables import N_POSTS

MAX_SEATS = MAX_PLAYERS

# Pending decision points (spec §6) plus the chance node and the end.
PH_ASSIGN = 0
PH_WINDOW = 1
PH_PT_SELECT = 2
PH_EXP_TARGET = 3
PH_RUM_MARK = 4
PH_RUM_CHOICE = 5
PH_RUM_TARGET = 6
PH_VOTE = 7
PH_NOMINATE = 8
PH_PER_A_SRC = 9
PH_PER_A_DST = 10
PH_PER_B_SRC = 11
PH_PER_B_DST = 12
PH_PER_C_SRC = 13
PH_PER_C_DST = 14
PH_RECALL = 15
PH_CHANCE = 16
PH_GAME_OVER = 17
PHASE_NAMES = (
    "ASSIGN",
    "WINDOW",
    "PT_SELECT",
    "EXP_TARGET",
    "RUM_MARK",
    "RUM_CHOICE",
    "RUM_TARGET",
    "VOTE",
    "NOMINATE",
    "PER_A_SRC",
    "PER_A_DST",
    "PER_B_SRC",
    "PER_B_DST",
    "PER_C_SRC",
    "PER_C_DST",
    "RECALL",
    "CHANCE",
    "GAME_OVER",
)
N_PHASES = len(PHASE_NAMES)

# What runs when a declaration window closes (KRM-DW-1 a..e).
C_PART_TIME = 0
C_EXPULSION = 1
C_EXP_NEXT = 2
C_RUMOUR = 3
C_TRIAL_VOTE = 4
C_ELECTION = 5
C_ELE_VOTE = 6
C_PER_A = 7
C_PER_B = 8
C_PER_C = 9
C_PER_END = 10
C_YEAR_END = 11
CONT_NAMES = (
    "part_time",
    "expulsion",
    "expulsion_next",
    "rumour",
    "trial_vote",
    "election",
    "election_vote",
    "personnel_A",
    "personnel_B",
    "personnel_C",
    "personnel_end_check",
    "year_end",
)
N_CONTS = len(CONT_NAMES)

# Pending chance events (every one is a d20).
CH_NONE = 0
CH_EXPULSION = 1
CH_FINANCE = 2
CH_SPEECH = 3

WIN_NONE = -1
WIN_DRAW = -2
WIN_TRUNCATED = -3

RULESETS = ("seed",)

STATE_FIELDS = [
    ("rng", np.uint64, (1,)),
    ("ruleset", np.int8, ()),
    ("theme", np.int8, ()),
    ("traits", np.int8, ()),
    ("random_placement", np.int8, ()),
    ("ranking", np.int8, ()),
    ("num_players", np.int8, ()),
    ("phase", np.int8, ()),
    ("turn", np.int16, ()),
    ("turn_limit", np.int16, ()),
    ("start_player", np.int8, ()),
    ("decisions", np.int32, ()),
    ("loc", np.int8, (N_GAMERS,)),
    ("holder", np.int8, (N_POSTS,)),
    ("sp", np.int16, (N_GAMERS,)),
    ("broke", np.int8, (N_GAMERS,)),
    ("susp_turn", np.int16, (N_GAMERS,)),
    ("part_time", np.uint8, (N_GAMERS,)),
    ("flag", np.uint8, (N_GAMERS,)),
    ("opposer", np.uint8, (N_GAMERS,)),
    ("midway_done", np.uint8, (N_GAMERS,)),
    ("assigned", np.int8, (MAX_SEATS, N_GAMERS)),
    ("declared", np.int8, (MAX_SEATS, N_GAMERS)),
    ("burned", np.int8, (MAX_SEATS, N_GAMERS)),
    ("stamp", np.int32, (MAX_SEATS, N_GAMERS)),
    ("counter", np.int32, ()),
    ("controller", np.int8, (N_GAMERS,)),
    ("speeches", np.int8, (MAX_SEATS,)),
    ("winner", np.int8, ()),
    ("assign_seat", np.int8, ()),
    ("assign_count", np.int8, ()),
    ("dw_seat", np.int8, ()),
    ("dw_passes", np.int8, ()),
    ("dw_cont", np.int8, ()),
    ("seat_cursor", np.int8, ()),
    ("seats_done", np.int8, ()),
    ("actor", np.int8, ()),
    ("target", np.int8, ()),
    ("post_cursor", np.int8, ()),
    ("oppose_count", np.int8, ()),
    ("nominations", np.int8, ()),
    ("rumour_mode", np.int8, ()),
    ("chance_kind", np.int8, ()),
    ("last_roll", np.int8, ()),
]
STATE = np.dtype([(name, t, shape) for name, t, shape in STATE_FIELDS])
STATE_ITEMSIZE = 1441  # checked by tests: a layout change must bump the env version
