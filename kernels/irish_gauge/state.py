"""The Irish Gauge state record: one numpy structured value is the whole game.

Field table (seat = player index 0..4, unused seats stay zero; company c = CBSC, WLW, BCD, GSW, MGW):

| field            | dtype, shape    | meaning (rule IDs)                                             |
|------------------|-----------------|----------------------------------------------------------------|
| rng              | uint64 (1,)     | the game's own SplitMix64 counter (every chance event)        |
| ruleset          | int8            | RULESET_SEED 0 / RULESET_PUBLISHED 1 (IG-AUC-2, IG-DIV-6)     |
| major_city_bonus | int16           | IG-DIV-6 bonus, 0 under seed, 12 under published               |
| num_players      | int8            | 3..5                                                           |
| phase            | int8            | PH_* below                                                     |
| active           | int8            | seat whose main turn it is (IG-TURN-1/2)                       |
| start_player     | int8            | random start player (IG-SETUP-6)                               |
| turn             | int32           | main turns completed                                           |
| decisions        | int32           | decisions taken so far (bounded by MAX_GAME_LENGTH)            |
| cash             | int32 (5,)      | pounds per seat (IG-SETUP-5)                                   |
| held             | int8 (5, 5)     | certificates held [seat, company] (IG-AUC-6)                   |
| cert_owner       | int8 (5, 4)     | seat holding [company, stack position], -1 unsold (IG-SCORE-1) |
| next_cert        | int8 (5,)       | stack position of each company's top certificate (IG-SETUP-2) |
| supply           | int8 (5,)       | locomotives left per company (IG-BLD-8)                        |
| loco             | uint8 (5, 139)  | 1 where a company has a locomotive (IG-BLD-5)                  |
| cube             | int8 (139,)     | cube colour on a hex, -1 none (IG-SETUP-3, IG-SI-2)            |
| bag              | int8 (3,)       | cubes per colour in the bag (IG-SETUP-4)                       |
| drawn            | int8 (8, 3)     | drawn-cube track, colour or -1 (IG-DIV-2)                      |
| drawn_rows       | int8            | rows of the track in use                                       |
| last_draw        | int8 (3,)       | cubes per colour drawn by the latest dividend call             |
| last_income      | int32 (5,)      | each company's income in the latest dividend call (IG-DIV-5)   |
| last_payout      | int32 (5,)      | pounds each seat received in the latest dividend call          |
| bank_in          | int32           | pounds paid to the bank so far (auctions); a ledger for tests  |
| bank_out         | int32           | pounds paid by the bank so far (dividends)                     |
| auc_company      | int8            | company being auctioned, -1 none                               |
| auc_opener       | int8            | seat that opened the auction                                   |
| auc_bidder       | int8            | seat whose bid decision is due                                 |
| auc_high_bid     | int16           | current high bid (0 before any bid)                            |
| auc_high_bidder  | int8            | seat holding the high bid, -1 none                             |
| auc_passed       | uint8 (5,)      | seats out of this auction (IG-INIT-2, IG-AUC-3)                |
| bld_company      | int8            | company being built, -1 none                                   |
| bld_budget       | int8            | build half-points left (IG-BLD-7: budget 6)                    |
| bld_placed       | int8            | locomotives placed in this action                              |
"""

import numpy as np

from .tables import MAX_CERTS
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import N_HEX
from .tables import TRACK_ROWS

MAX_SEATS = 5

# Phases (the pending decision). PH_DIVIDEND_DRAW is a chance node: the bag is about to be drawn.
PH_INITIAL_AUCTION = 0
PH_MAIN = 1
PH_AUCTION = 2
PH_BUILD = 3
PH_DIVIDEND_DRAW = 4
PH_GAME_OVER = 5
PHASE_NAMES = ("INITIAL_AUCTION", "MAIN", "AUCTION", "BUILD", "DIVIDEND_DRAW", "GAME_OVER")
N_PHASES = len(PHASE_NAMES)

RULESET_SEED = 0
RULESET_PUBLISHED = 1
RULESETS = ("seed", "published")

STATE_FIELDS = [
    ("rng", np.uint64, (1,)),
    ("ruleset", np.int8, ()),
    ("major_city_bonus", np.int16, ()),
    ("num_players", np.int8, ()),
    ("phase", np.int8, ()),
    ("active", np.int8, ()),
    ("start_player", np.int8, ()),
    ("turn", np.int32, ()),
    ("decisions", np.int32, ()),
    ("cash", np.int32, (MAX_SEATS,)),
    ("held", np.int8, (MAX_SEATS, N_COMPANIES)),
    ("cert_owner", np.int8, (N_COMPANIES, MAX_CERTS)),
    ("next_cert", np.int8, (N_COMPANIES,)),
    ("supply", np.int8, (N_COMPANIES,)),
    ("loco", np.uint8, (N_COMPANIES, N_HEX)),
    ("cube", np.int8, (N_HEX,)),
    ("bag", np.int8, (N_COLOURS,)),
    ("drawn", np.int8, (TRACK_ROWS, 3)),
    ("drawn_rows", np.int8, ()),
    ("last_draw", np.int8, (N_COLOURS,)),
    ("last_income", np.int32, (N_COMPANIES,)),
    ("last_payout", np.int32, (MAX_SEATS,)),
    ("bank_in", np.int32, ()),
    ("bank_out", np.int32, ()),
    ("auc_company", np.int8, ()),
    ("auc_opener", np.int8, ()),
    ("auc_bidder", np.int8, ()),
    ("auc_high_bid", np.int16, ()),
    ("auc_high_bidder", np.int8, ()),
    ("auc_passed", np.uint8, (MAX_SEATS,)),
    ("bld_company", np.int8, ()),
    ("bld_budget", np.int8, ()),
    ("bld_placed", np.int8, ()),
]
STATE = np.dtype([(name, t, shape) for name, t, shape in STATE_FIELDS])
STATE_ITEMSIZE = 1025  # checked by tests: a layout change must bump the env version
