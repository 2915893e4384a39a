"""The Veld Railroads state record: one numpy structured value is the whole game.

``FIELDS`` below is the record's field table and its one source: ``STATE`` is made from it, in table order.
Axes: S seats = players 0..5 (unused seats stay zero); R railroads CFM, CSAR, Natal, CTR&D, Cape Midland,
ZASM; T settlements (map.json index 0..46); E sections s00..s58; P developments picked in one develop action.
"""

from .._common.layout import record_from_table
from .tables import MAX_PICKS
from .tables import N_RAILROADS
from .tables import N_SECTIONS
from .tables import N_SETTLEMENTS

MAX_SEATS = 6

FIELDS = """
| field           | dtype, shape | meaning (rule IDs)                                                   |
|-----------------|--------------|----------------------------------------------------------------------|
| rng             | uint64 (1,)  | the game's own SplitMix64 counter (setup die rolls only, spec §7)    |
| ruleset         | int8         | RULESET_SEED 0 (the only ruleset: the spec lists no published diffs) |
| repeat_metro    | uint8        | option repeat_metropolis_pick (VR-DEV-5)                             |
| num_players     | int8         | 3..6                                                                 |
| phase           | int8         | PH_* below (the pending decision)                                    |
| active          | int8         | seat whose regular turn it is (the acting player)                    |
| setup_k         | int8         | initial auction in progress 0..4; 5 once setup is over (§3)          |
| row             | int8         | action-track row 1..8 (VR-TRACK-1)                                   |
| position        | int8         | boxes filled in the row, 0..41 (VR-TRACK-2/3)                        |
| payouts         | int8         | row-end payouts made so far (VR-END-1: the 8th ends the game)        |
| turn            | int32        | regular turns completed                                              |
| decisions       | int32        | decisions taken so far (bounded by MAX_GAME_LENGTH)                  |
| cash            | int32 (S,)   | dollars per seat (§3 step 2)                                         |
| holdings        | int8 (S, R)  | shares held [seat, railroad] (VR-GEN-4)                              |
| treasury_shares | int8 (R,)    | unsold shares in each treasury (§3 step 3)                           |
| treasury_cash   | int32 (R,)   | each railroad's treasury (VR-GEN-1)                                  |
| treasury_start  | int32 (R,)   | the setup die roll (ZASM doubled) put in each treasury (§3 step 4)   |
| opened          | uint8 (R,)   | railroad opened (VR-GEN-3, VR-ZASM-1)                                |
| reached_jo      | uint8 (R,)   | has built into Johannesburg (VR-DIV-5 paid once)                     |
| free_pending    | uint8 (R,)   | free first section still owed to the next buyer (VR-AUC-2 edge)      |
| zasm_trigger    | uint8        | a section touching Johannesburg was built while ZASM was unopened    |
| section_owner   | int8 (E,)    | railroad owning each section, -1 unbuilt (VR-GEN-7)                  |
| touch           | uint8 (R, T) | 1 where railroad r has a section ending at settlement s (cache)      |
| n_sections      | int8 (R,)    | sections built per railroad (cache; valuation = 5 x, VR-GEN-5)       |
| dev_level       | int8 (T,)    | developments of each settlement (VR-DEV-1, income = ladder[level])   |
| loco_box        | int8 (S,)    | box holding each seat's locomotive, -1 none (VR-LOCO-1..4)           |
| bld_railroad    | int8         | railroad building, -1 none (VR-BUILD-4)                              |
| bld_builder     | int8         | seat choosing the sections (acting player or a controller)           |
| bld_leg1        | int8         | first leg's section, -1 none (VR-DBL-4)                              |
| bld_far         | int8         | first leg's far end B (a double continues from it)                   |
| bld_single_cost | int16        | price of a single for this build, judged before it (VR-ZASM-4)       |
| bld_double_cost | int16        | price of a double for this build                                     |
| dev_picks       | int8         | developments picked in this develop action (VR-DEV-3..5)             |
| dev_picked      | int8 (P,)    | the settlements picked, -1 unused                                    |
| auc_railroad    | int8         | railroad whose share is auctioned, -1 none                           |
| auc_kind        | int8         | AUC_SETUP / AUC_TREASURY / AUC_OWN / AUC_ZASM                        |
| auc_seller      | int8         | seller of an own share (VR-AUC-3), else -1                           |
| auc_bidder      | int8         | seat whose bid decision is due                                       |
| auc_must_bid    | uint8        | the bidder due is the obliged opener (VR-AUC-2)                      |
| auc_min         | int16        | minimum bid (VR-SHARE-3)                                             |
| auc_high_bid    | int16        | current high bid (0 before any bid)                                  |
| auc_high_bidder | int8         | seat holding the high bid, -1 none                                   |
| auc_passed      | uint8 (S,)   | seats out of this auction for good (VR-AUC-1)                        |
| fs_railroad     | int8         | railroad making a free first section, -1 none (§3 step 6, VR-ZASM-3) |
| fs_player       | int8         | seat choosing that section                                           |
| bank_in         | int32        | dollars paid to the bank (builds, paid developments, end treasuries) |
| bank_out        | int32        | dollars paid by the bank (dividends)                                 |
| last_payout     | int32 (S,)   | dollars each seat received at the latest payout (row end / special)  |
"""
STATE = record_from_table(FIELDS, S=MAX_SEATS, R=N_RAILROADS, T=N_SETTLEMENTS, E=N_SECTIONS, P=MAX_PICKS)
STATE_ITEMSIZE = 620  # checked by tests: a layout change must bump the env version
assert STATE.itemsize == STATE_ITEMSIZE

# Phases (the pending decision). PH_END_OF_TURN and PH_SETUP_NEXT are transient: step() resolves them
# before it returns, so no decision is ever asked in them.
PH_SETUP_AUCTION = 0
PH_FIRST_SECTION = 1
PH_CHOOSE_BOX = 2
PH_BUILD_CHOOSE_RAILROAD = 3
PH_BUILD_FIRST_LEG = 4
PH_BUILD_SECOND_LEG = 5
PH_OFFER_CHOOSE = 6
PH_AUCTION_BID = 7
PH_DEVELOP_PICK = 8
PH_ZASM_AUCTION_BID = 9
PH_GAME_OVER = 10
PH_END_OF_TURN = 11
PH_SETUP_NEXT = 12
PHASE_NAMES = (
    "SETUP_AUCTION",
    "FIRST_SECTION",
    "CHOOSE_BOX",
    "BUILD_CHOOSE_RAILROAD",
    "BUILD_FIRST_LEG",
    "BUILD_SECOND_LEG",
    "OFFER_CHOOSE",
    "AUCTION_BID",
    "DEVELOP_PICK",
    "ZASM_AUCTION_BID",
    "GAME_OVER",
    "END_OF_TURN",
    "SETUP_NEXT",
)
N_VISIBLE_PHASES = 11  # phases a record can be in between steps

# Auction kinds.
AUC_SETUP = 0
AUC_TREASURY = 1
AUC_OWN = 2
AUC_ZASM = 3
AUC_KIND_NAMES = ("setup", "treasury", "own", "zasm")

RULESET_SEED = 0
RULESETS = ("seed",)
