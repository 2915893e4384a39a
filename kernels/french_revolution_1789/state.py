"""The French Revolution 1789 state record: one numpy structured value is the whole game.

``FIELDS`` below is the record's field table and its one source: ``STATE`` is made from it, in table order.
Axes: S seats = players 0..4 (unused seats stay zero); C history cards 0..31; Y cities 0..11; I intrigue cards
0..13; V regimes 0..6; A unit strengths 0..4.
"""

from .._common.layout import record_from_table
from .tables import MAX_STRENGTH
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_INTRIGUE
from .tables import N_REGIMES

MAX_SEATS = 5

FIELDS = """
| field           | dtype, shape | meaning (rule IDs)                                                  |
|-----------------|--------------|---------------------------------------------------------------------|
| rng             | uint64 (1,)  | the game's SplitMix64 counter (every chance event)                  |
| person_marks    | int8         | option FR-OPT-1 (0 default)                                         |
| num_players     | int8         | 2..5                                                                |
| phase           | int8         | PH_* below (the pending decision or chance node)                    |
| turn            | int8         | 0..4 = turns I..V (FR-GEN-1)                                        |
| decisions       | int32        | decisions taken so far (bounded by MAX_GAME_LENGTH)                 |
| start_player    | int8         | holder of the start player card (FR-AUC-6, FR-ACT-4)                |
| rp, vp          | int16 (S,)   | resource / victory points (FR-GEN-3/4)                              |
| supply          | int8 (S,)    | support markers in each player's supply (8 at setup)                |
| city_owner      | int8 (Y,)    | seat whose support marker is in the city, -1 none (FR-GEN-6)        |
| city_army       | int8 (Y,)    | army of the unit in the city: 0 French, 1 coalition, 2 royalist     |
| city_str        | int8 (Y,)    | strength of that unit                                               |
| cup             | int8 (3, A)  | units in each army's cup by strength (FR-ARMY-1)                    |
| regime          | int8         | regime in force (FR-REG-1)                                          |
| votes           | int16 (V,)   | vote markers on each regime box (FR-RA-VOTE)                        |
| deck            | int8 (C,)    | shuffled deck order, deck d in positions DECK_START[d].. (FR-AUC-1) |
| deck_pos        | int8         | cards revealed so far (the top card is deck[deck_pos])              |
| card_owner      | int8 (C,)    | seat owning the card, -1 not yet sold (stays set when dead)         |
| card_status     | int8 (C,)    | ST_FREE / ST_IMPRISONED / ST_EXILED / ST_DEAD (FR-GEN-5)            |
| card_tilted     | uint8 (C,)   | used this action phase (FR-ACT-3)                                   |
| intr_loc        | int8 (I,)    | seat holding an intrigue card, LOC_PILE or LOC_PLAYED               |
| intr_known      | uint8 (I,)   | bit s set: seat s knows where the card is (determinize keeps it)    |
| pile            | int8 (I,)    | intrigue pile, pile[pile_n - 1] is the top card                     |
| pile_n          | int8         | cards in the pile                                                   |
| auc_card        | int8         | card being auctioned, -1 none                                       |
| auc_bidder      | int8         | seat whose bid decision is due                                      |
| auc_high        | int8         | current high bid, -1 before the opening bid                         |
| auc_high_bidder | int8         | seat holding it, -1 none                                            |
| auc_passed      | uint8 (S,)   | seats out of this card's bidding (FR-AUC-2)                         |
| act_player      | int8         | seat whose action turn it is (FR-ACT-1)                             |
| act_passed      | uint8 (S,)   | seats that passed this action phase (FR-ACT-2)                      |
| last_passer     | int8         | last seat to pass (FR-ACT-4)                                        |
| mv_eff          | int16        | effect row being resolved, -1 none                                  |
| mv_card         | int8         | acting history card (selected card), -1 none                        |
| mv_intr         | int8         | intrigue card being played, -1 none                                 |
| mv_stage        | int8         | index of the next sub-decision of mv_eff                            |
| mv_regime       | int8         | chosen regime target, -1 not chosen                                 |
| mv_city         | int8         | chosen city target, -1 not chosen                                   |
| mv_person       | int8         | chosen person (history card) target, -1 not chosen                  |
| mv_player       | int8         | chosen player target, -1 not chosen                                 |
| mv_army         | int8         | chosen army target, -1 not chosen                                   |
| ch_kind         | int8         | pending chance: CH_NONE / CH_ARMY (unit draw) / CH_STEAL            |
| ch_army         | int8         | cup drawn from                                                      |
| ch_draws        | int8         | units drawn (the strongest counts, FR-ARMY-5)                       |
| ch_dispatch     | int8         | 1 dispatch (FR-ARMY-2), 0 instigation (FR-RA-INSTIGATE)             |
| ch_bonus        | int8         | dispatch strength bonus                                             |
| last_draw       | int8         | strength of the last unit drawn (public), 0 none                    |
| last_success    | int8         | 1 if the last instigation/dispatch succeeded                        |
"""
STATE = record_from_table(FIELDS, S=MAX_SEATS, C=N_CARDS, Y=N_CITIES, I=N_INTRIGUE, V=N_REGIMES, A=MAX_STRENGTH + 1)
STATE_ITEMSIZE = STATE.itemsize

RULESETS = ("seed",)  # the spec lists no published-game differences

PH_AUCTION = 0  # bidding decision
PH_ACTION = 1  # action turn, step 1 (pass / select card / play intrigue)
PH_CHOOSE = 2  # step 2 after SELECT_CARD: regime action or ability
PH_TARGET = 3  # sub-decisions of the chosen effect
PH_CHANCE = 4  # a unit draw or a Police Network steal is pending
PH_GAME_OVER = 5
PHASE_NAMES = ("AUCTION", "ACTION", "CHOOSE", "TARGET", "CHANCE", "GAME_OVER")
N_PHASES = len(PHASE_NAMES)

ST_FREE, ST_IMPRISONED, ST_EXILED, ST_DEAD = 0, 1, 2, 3
STATUS_NAMES = ("free", "imprisoned", "exiled", "dead")
LOC_PILE, LOC_PLAYED = -1, -2
CH_NONE, CH_ARMY, CH_STEAL = 0, 1, 2
