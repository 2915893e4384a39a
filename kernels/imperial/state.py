"""The Imperial state record: one numpy structured value is the whole game.

``FIELDS`` below is the record's field table and its one source: ``STATE`` is made from it, in table order.
Axes: S seats = players 0..5 (unused seats stay zero); N nations AH, IT, FR, GB, GE, RU; B bonds per nation
(bond k at index k-1); H home provinces 0..29; R regions 0..53; W seas 0..8.
"""

from .._common.layout import record_from_table
from .tables import N_BONDS
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import N_SEAS

MAX_SEATS = 6

FIELDS = """
| field                   | dtype, shape | meaning (rule IDs)                                                      |
|-------------------------|--------------|-------------------------------------------------------------------------|
| rng                     | uint64 (1,)  | the game's own SplitMix64 counter (flag deal, IMP-SET-3)                |
| ruleset                 | int8         | RULESET_SEED 0 / RULESET_PUBLISHED 1 (IMP-OPT-0)                        |
| home_tax_chips          | int8         | IMP-OPT-1: own home provinces are taxable (chips)                       |
| chips_per_nation        | int8         | IMP-OPT-2: 10 (seed) / 15 (published)                                   |
| factory_topup           | int8         | IMP-OPT-4: flag holder pays a factory shortfall                         |
| optional_destroy        | int8         | IMP-OPT-5: factory destruction is the mover's choice                    |
| chip_update_all         | int8         | IMP-OPT-6: chip update covers every nation                              |
| hidden_cash             | int8         | IMP-OPT-3: other players' cash is masked in observations                |
| max_turns               | int32        | IMP-END-2: nation turns before truncation                               |
| reward_mode             | int8         | REWARD_WIN_SHARE 0 / REWARD_SCORE_MARGIN 1 (spec §6 rewards option)     |
| num_players             | int8         | 2..6                                                                    |
| phase                   | int8         | PH_* below (the pending decision)                                       |
| nation                  | int8         | nation whose turn it is (IMP-TURN-1)                                    |
| turn                    | int32        | nation turns completed                                                  |
| decisions               | int32        | decisions taken so far (incl. forced ones, bounded by MAX_GAME_LENGTH)  |
| truncated               | int8         | 1 if the game stopped by IMP-END-2                                      |
| cash                    | int32 (S,)   | money per seat (IMP-SET-2)                                              |
| bond_owner              | int8 (N, B)  | seat holding bond k of nation n, -1 available (IMP-BND-1)               |
| flag                    | int8 (N,)    | flag holder seat per nation, -1 = bank (IMP-SET-5, IMP-BND-2)           |
| investor_card           | int8         | seat holding the investor card (IMP-SET-6, IMP-INV-5)                   |
| treasury                | int32 (N,)   | nation treasuries                                                       |
| power                   | int8 (N,)    | power track 0..25 (IMP-TAX-4)                                           |
| tax_pos                 | int8 (N,)    | tax chart position 5..15 (IMP-TAX-2)                                    |
| rondel_pos              | int8 (N,)    | rondel space 0..7, -1 = centre (IMP-RON-*)                              |
| factory                 | uint8 (H,)   | 1 where a factory stands (type = FACTORY_TYPE, owner = h // 5)          |
| armies, fleets          | int8 (N, R)  | units per nation and region; fleets in a home province are docked       |
| hostile                 | uint8 (N, H) | stance of nation n's armies in home province h (IMP-STN-1)              |
| chip                    | int8 (R,)    | nation owning the tax chip on a region, -1 none (IMP-CHP-*)             |
| chips_left              | int8 (N,)    | tax chips in each nation's supply                                       |
| bank_in, bank_out       | int32        | money paid to / by the bank so far (ledger for conservation tests)      |
| passed_investor         | int8         | the current move passed Investor (IMP-INV-4)                            |
| imp_count               | int8         | units imported in this Import action (IMP-IMP-1)                        |
| moved_army, moved_fleet | int8 (R,)    | acted units of the maneuvering nation per region (IMP-MAN-3)            |
| carried                 | int8 (W,)    | fleets per sea that transported an army this maneuver (IMP-ARM-4)       |
| fleets_locked           | int8         | an army moved/toggled: no more fleet moves (IMP-MAN-2)                  |
| mv_origin               | int8         | selected origin region, -1 none                                         |
| mv_dest                 | int8         | chosen destination of an army needing sea transport                     |
| mv_chain                | uint64       | seas (region bits) already used by the pending transport chain          |
| mv_last                 | int8         | last sea of the pending chain, -1 none                                  |
| mv_region               | int8         | region where the current arrival/toggle resolves                        |
| cmb_asked               | uint8        | nations (bits) already asked or excluded in the declaration (IMP-CMB-2) |
| cmb_defender            | int8         | nation asked to answer                                                  |
| inv_buyer               | int8         | seat whose bond purchase is due (IMP-INV-5)                             |
| inv_next                | int8         | offset from the card holder of the next flagless candidate              |
"""
STATE = record_from_table(FIELDS, S=MAX_SEATS, N=N_NATIONS, B=N_BONDS, H=N_HOME, R=N_REGIONS, W=N_SEAS)
STATE_ITEMSIZE = STATE.itemsize  # pinned by tests/imperial/test_layout.py

PH_RONDEL = 0
PH_FACTORY = 1
PH_IMPORT = 2
PH_MOVE = 3
PH_DEST = 4
PH_SEA = 5
PH_STANCE = 6
PH_FIGHT = 7
PH_ASK = 8
PH_ANSWER = 9
PH_DESTROY = 10
PH_BUY = 11
PH_GAME_OVER = 12
PHASE_NAMES = (
    "RONDEL",
    "FACTORY",
    "IMPORT",
    "MOVE_SELECT",
    "DEST",
    "SEA",
    "STANCE",
    "FIGHT",
    "ASK",
    "ANSWER",
    "DESTROY",
    "BUY",
    "GAME_OVER",
)
N_PHASES = len(PHASE_NAMES)

RULESET_SEED = 0
RULESET_PUBLISHED = 1
RULESETS = ("seed", "published")
REWARD_WIN_SHARE = 0  # 1/k to each of k tied winners
REWARD_SCORE_MARGIN = 1  # final score minus the table's mean score
REWARDS = ("win_share", "score_margin")
