"""The Irish Gauge state record: one numpy structured value is the whole game.

``FIELDS`` below is the record's field table and its one source: ``STATE`` is made from it, in table order.
Axes: S seats = players 0..4 (unused seats stay zero); C companies CBSC, WLW, BCD, GSW, MGW; M certificates
per company; K cube colours; H hexes 0..138; T rows of the drawn-cube track.
"""

from .._common.layout import record_from_table
from .tables import MAX_CERTS
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import N_HEX
from .tables import TRACK_ROWS

MAX_SEATS = 5

FIELDS = """
| field            | dtype, shape | meaning (rule IDs)                                             |
|------------------|--------------|----------------------------------------------------------------|
| rng              | uint64 (1,)  | the game's own SplitMix64 counter (every chance event)         |
| ruleset          | int8         | RULESET_SEED 0 / RULESET_PUBLISHED 1 (IG-AUC-2, IG-DIV-6)      |
| major_city_bonus | int16        | IG-DIV-6 bonus, 0 under seed, 12 under published               |
| num_players      | int8         | 3..5                                                           |
| phase            | int8         | PH_* below                                                     |
| active           | int8         | seat whose main turn it is (IG-TURN-1/2)                       |
| start_player     | int8         | random start player (IG-SETUP-6)                               |
| turn             | int32        | main turns completed                                           |
| decisions        | int32        | decisions taken so far (bounded by MAX_GAME_LENGTH)            |
| cash             | int32 (S,)   | pounds per seat (IG-SETUP-5)                                   |
| held             | int8 (S, C)  | certificates held [seat, company] (IG-AUC-6)                   |
| cert_owner       | int8 (C, M)  | seat holding [company, stack position], -1 unsold (IG-SCORE-1) |
| next_cert        | int8 (C,)    | stack position of each company's top certificate (IG-SETUP-2)  |
| supply           | int8 (C,)    | locomotives left per company (IG-BLD-8)                        |
| loco             | uint8 (C, H) | 1 where a company has a locomotive (IG-BLD-5)                  |
| cube             | int8 (H,)    | cube colour on a hex, -1 none (IG-SETUP-3, IG-SI-2)            |
| bag              | int8 (K,)    | cubes per colour in the bag (IG-SETUP-4)                       |
| drawn            | int8 (T, 3)  | drawn-cube track, colour or -1 (IG-DIV-2)                      |
| drawn_rows       | int8         | rows of the track in use                                       |
| last_draw        | int8 (K,)    | cubes per colour drawn by the latest dividend call             |
| last_income      | int32 (C,)   | each company's income in the latest dividend call (IG-DIV-5)   |
| last_payout      | int32 (S,)   | pounds each seat received in the latest dividend call          |
| bank_in          | int32        | pounds paid to the bank so far (auctions); a ledger for tests  |
| bank_out         | int32        | pounds paid by the bank so far (dividends)                     |
| auc_company      | int8         | company being auctioned, -1 none                               |
| auc_opener       | int8         | seat that opened the auction                                   |
| auc_bidder       | int8         | seat whose bid decision is due                                 |
| auc_high_bid     | int16        | current high bid (0 before any bid)                            |
| auc_high_bidder  | int8         | seat holding the high bid, -1 none                             |
| auc_passed       | uint8 (S,)   | seats out of this auction (IG-INIT-2, IG-AUC-3)                |
| bld_company      | int8         | company being built, -1 none                                   |
| bld_budget       | int8         | build half-points left (IG-BLD-7: budget 6)                    |
| bld_placed       | int8         | locomotives placed in this action                              |
"""
STATE = record_from_table(FIELDS, S=MAX_SEATS, C=N_COMPANIES, M=MAX_CERTS, K=N_COLOURS, H=N_HEX, T=TRACK_ROWS)
STATE_ITEMSIZE = 1025  # checked by tests: a layout change must bump the env version

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
