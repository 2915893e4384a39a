"""The Imperial state record: one numpy structured value is the whole game.

Field table (seat = player 0..5, unused seats stay zero; nation n = AH, IT, FR, GB, GE, RU; region r 0..53,
home province h 0..29; bond k stored at index k-1):

| field           | dtype, shape   | meaning (rule IDs)                                                   |
|-----------------|----------------|----------------------------------------------------------------------|
| rng             | uint64 (1,)    | the game's own SplitMix64 counter (flag deal, IMP-SET-3)             |
| ruleset         | int8           | RULESET_SEED 0 / RULESET_PUBLISHED 1 (IMP-OPT-0)                     |
| home_tax_chips  | int8           | IMP-OPT-1: own home provinces are taxable (chips)                    |
| chips_per_nation| int8           | IMP-OPT-2: 10 (seed) / 15 (published)                                |
| factory_topup   | int8           | IMP-OPT-4: flag holder pays a factory shortfall                      |
| optional_destroy| int8           | IMP-OPT-5: factory destruction is the mover's choice                 |
| chip_update_all | int8           | IMP-OPT-6: chip update covers every nation                           |
| hidden_cash     | int8           | IMP-OPT-3: other players' cash is masked in observations             |
| max_turns       | int32          | IMP-END-2: nation turns before truncation                            |
| reward_mode     | int8           | REWARD_WIN_SHARE 0 / REWARD_SCORE_MARGIN 1 (spec §6 rewards option)  |
| num_players     | int8           | 2..6                                                                 |
| phase           | int8           | PH_* below (the pending decision)                                    |
| nation          | int8           | nation whose turn it is (IMP-TURN-1)                                 |
| turn            | int32          | nation turns completed                                               |
| decisions       | int32          | decisions taken so far (incl. forced ones, bounded by MAX_GAME_LENGTH)|
| truncated       | int8           | 1 if the game stopped by IMP-END-2                                   |
| cash            | int32 (6,)     | money per seat (IMP-SET-2)                                           |
| bond_owner      | int8 (6, 9)    | seat holding bond k of nation n, -1 available (IMP-BND-1)            |
| flag            | int8 (6,)      | flag holder seat per nation, -1 = bank (IMP-SET-5, IMP-BND-2)        |
| investor_card   | int8           | seat holding the investor card (IMP-SET-6, IMP-INV-5)                |
| treasury        | int32 (6,)     | nation treasuries                                                    |
| power           | int8 (6,)      | power track 0..25 (IMP-TAX-4)                                        |
| tax_pos         | int8 (6,)      | tax chart position 5..15 (IMP-TAX-2)                                 |
| rondel_pos      | int8 (6,)      | rondel space 0..7, -1 = centre (IMP-RON-*)                           |
| factory         | uint8 (30,)    | 1 where a factory stands (type = FACTORY_TYPE, owner = h // 5)       |
| armies, fleets  | int8 (6, 54)   | units per nation and region; fleets in a home province are docked    |
| hostile         | uint8 (6, 30)  | stance of nation n's armies in home province h (IMP-STN-1)           |
| chip            | int8 (54,)     | nation owning the tax chip on a region, -1 none (IMP-CHP-*)          |
| chips_left      | int8 (6,)      | tax chips in each nation's supply                                    |
| bank_in/out     | int32          | money paid to / by the bank so far (ledger for conservation tests)   |
| passed_investor | int8           | the current move passed Investor (IMP-INV-4)                         |
| imp_count       | int8           | units imported in this Import action (IMP-IMP-1)                     |
| moved_army/fleet| int8 (54,)     | acted units of the maneuvering nation per region (IMP-MAN-3)         |
| carried         | int8 (9,)      | fleets per sea that transported an army this maneuver (IMP-ARM-4)    |
| fleets_locked   | int8           | an army moved/toggled: no more fleet moves (IMP-MAN-2)               |
| mv_origin       | int8           | selected origin region, -1 none                                      |
| mv_dest         | int8           | chosen destination of an army needing sea transport                  |
| mv_chain        | uint64         | seas (region bits) already used by the pending transport chain       |
| mv_last         | int8           | last sea of the pending chain, -1 none                               |
| mv_region       | int8           | region where the current arrival/toggle resolves                     |
| cmb_asked       | uint8          | nations (bits) already asked or excluded in the declaration (IMP-CMB-2)|
| cmb_defender    | int8           | nation asked to answer                                               |
| inv_buyer       | int8           | seat whose bond purchase is due (IMP-INV-5)                          |
| inv_next        | int8           | offset from the card holder of the next flagless candidate           |
"""

import numpy as np

from .tables import N_BONDS
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import N_SEAS

MAX_SEATS = 6

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

STATE_FIELDS = [
    ("rng", np.uint64, (1,)),
    ("ruleset", np.int8, ()),
    ("home_tax_chips", np.int8, ()),
    ("chips_per_nation", np.int8, ()),
    ("factory_topup", np.int8, ()),
    ("optional_destroy", np.int8, ()),
    ("chip_update_all", np.int8, ()),
    ("hidden_cash", np.int8, ()),
    ("max_turns", np.int32, ()),
    ("reward_mode", np.int8, ()),
    ("num_players", np.int8, ()),
    ("phase", np.int8, ()),
    ("nation", np.int8, ()),
    ("turn", np.int32, ()),
    ("decisions", np.int32, ()),
    ("truncated", np.int8, ()),
    ("cash", np.int32, (MAX_SEATS,)),
    ("bond_owner", np.int8, (N_NATIONS, N_BONDS)),
    ("flag", np.int8, (N_NATIONS,)),
    ("investor_card", np.int8, ()),
    ("treasury", np.int32, (N_NATIONS,)),
    ("power", np.int8, (N_NATIONS,)),
    ("tax_pos", np.int8, (N_NATIONS,)),
    ("rondel_pos", np.int8, (N_NATIONS,)),
    ("factory", np.uint8, (N_HOME,)),
    ("armies", np.int8, (N_NATIONS, N_REGIONS)),
    ("fleets", np.int8, (N_NATIONS, N_REGIONS)),
    ("hostile", np.uint8, (N_NATIONS, N_HOME)),
    ("chip", np.int8, (N_REGIONS,)),
    ("chips_left", np.int8, (N_NATIONS,)),
    ("bank_in", np.int32, ()),
    ("bank_out", np.int32, ()),
    ("passed_investor", np.int8, ()),
    ("imp_count", np.int8, ()),
    ("moved_army", np.int8, (N_REGIONS,)),
    ("moved_fleet", np.int8, (N_REGIONS,)),
    ("carried", np.int8, (N_SEAS,)),
    ("fleets_locked", np.int8, ()),
    ("mv_origin", np.int8, ()),
    ("mv_dest", np.int8, ()),
    ("mv_chain", np.uint64, ()),
    ("mv_last", np.int8, ()),
    ("mv_region", np.int8, ()),
    ("cmb_asked", np.uint8, ()),
    ("cmb_defender", np.int8, ()),
    ("inv_buyer", np.int8, ()),
    ("inv_next", np.int8, ()),
]
STATE = np.dtype([(name, t, shape) for name, t, shape in STATE_FIELDS])
STATE_ITEMSIZE = STATE.itemsize  # pinned by tests/imperial/test_layout.py
