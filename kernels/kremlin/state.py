"""The Kremlin / "Magne!" state record: one numpy structured value is the whole game.

``FIELDS`` below is the record's field table and its one source: ``STATE`` is made from it, in table order.
Axes: S seats = players 0..5 (unused seats stay zero); G gamers 0..25; K posts 0..12.
"""

from .._common.layout import record_from_table
from .tables import MAX_PLAYERS
from .tables import N_GAMERS
from .tables import N_POSTS

MAX_SEATS = MAX_PLAYERS

FIELDS = """
| field            | dtype, shape | meaning (rule IDs)                                               |
|------------------|--------------|------------------------------------------------------------------|
| rng              | uint64 (1,)  | the game's own SplitMix64 counter (every d20)                    |
| ruleset          | int8         | 0 = seed (the only ruleset: the spec lists no published variant) |
| theme            | int8         | 0 magne / 1 kremlin: labels of action_name and render_ansi       |
| traits           | int8         | 1 = optional personalities on (KRM-OPT-*)                        |
| random_placement | int8         | 1 = KRM-SET-1 variant                                            |
| ranking          | int8         | 1 = turn_limit_ranking (KRM-END-3 option)                        |
| num_players      | int8         | 3..6                                                             |
| phase            | int8         | pending decision PH_* (or PH_CHANCE / PH_GAME_OVER)              |
| turn             | int16        | turn t, 1-based (KRM-SET-6)                                      |
| turn_limit       | int16        | KRM-END-3                                                        |
| start_player     | int8         | P((t-1) mod N) (KRM-SET-5)                                       |
| decisions        | int32        | decisions taken so far (bounded by MAX_GAME_LENGTH)              |
| loc              | int8 (G,)    | gamer location: post 0..12, 13 CIV, 14 OTH, 15 RET               |
| holder           | int8 (K,)    | gamer in each post, -1 vacant                                    |
| sp               | int16 (G,)   | stress points (KRM-GEN-1)                                        |
| broke            | int8 (G,)    | broke markers (KRM-GEN-4)                                        |
| susp_turn        | int16 (G,)   | turn the suspicion marker was placed, 0 = no marker (KRM-RUM-1)  |
| part_time        | uint8 (G,)   | on part-time this turn (KRM-PT-*)                                |
| flag             | uint8 (G,)   | per-phase flag: toggled (rumour) / moved (personnel A)           |
| opposer          | uint8 (G,)   | opposed in the latest vote (KRM-ELE-4)                           |
| midway_done      | uint8 (G,)   | midway_break trait already fired (KRM-OPT-6)                     |
| assigned         | int8 (S, G)  | SECRET influence sheet (KRM-INF-1, KRM-SET-4)                    |
| declared         | int8 (S, G)  | public declarations (KRM-INF-2)                                  |
| burned           | int8 (S, G)  | declared points lost by sending away (KRM-INF-3)                 |
| stamp            | int32 (S, G) | counter value of the latest raise (KRM-INF-4 tie-break)          |
| counter          | int32        | global declaration counter                                       |
| controller       | int8 (G,)    | controlling seat, -1 none (KRM-INF-4), kept in sync              |
| speeches         | int8 (S,)    | successful speeches (KRM-YEP-3)                                  |
| winner           | int8         | winning seat; -1 none yet; -2 draw; -3 truncated (KRM-END-*)     |
| assign_seat      | int8         | seat assigning (PH_ASSIGN)                                       |
| assign_count     | int8         | values assigned by assign_seat so far (value = 10 - count)       |
| dw_seat          | int8         | seat visited by the declaration window (KRM-DW-2)                |
| dw_passes        | int8         | consecutive passes in the window                                 |
| dw_cont          | int8         | C_* continuation run when the window closes                      |
| seat_cursor      | int8         | seat choosing part-time jobs                                     |
| seats_done       | int8         | seats finished with part-time choices                            |
| actor            | int8         | gamer using the current power, -1 none                           |
| target           | int8         | pending target / defendant / nominee / personnel source, -1 none |
| post_cursor      | int8         | voter post / finance post / recalling officer post               |
| oppose_count     | int8         | OPPOSE votes so far                                              |
| nominations      | int8         | election nominations made (KRM-ELE-4)                            |
| rumour_mode      | int8         | 1 = A, 2 = B (KRM-RUM-2)                                         |
| chance_kind      | int8         | CH_* pending d20 (PH_CHANCE)                                     |
| last_roll        | int8         | latest d20 face, 0 none                                          |
"""
STATE = record_from_table(FIELDS, S=MAX_SEATS, G=N_GAMERS, K=N_POSTS)
STATE_ITEMSIZE = 1441  # checked by tests: a layout change must bump the env version

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
