"""Irish Gauge action ids: one ``Discrete(222)`` space for every seat (spec §6).

| ids     | name                  | meaning                                                    |
|---------|-----------------------|------------------------------------------------------------|
| 0-4     | AUCTION[c]            | auction company c's top certificate (IG-AUC-1)             |
| 5-9     | BUILD[c]              | start building for company c (IG-BLD-1)                    |
| 10-39   | SPECIAL_INTEREST[t,k] | 10 + 3*t + k: cube of colour k on town t (IG-SI-1)         |
| 40      | CALL_DIVIDENDS        | draw cubes and pay (IG-DIV-1)                              |
| 41-179  | PLACE[h]              | 41 + hex index: place a locomotive (IG-BLD-3..6)           |
| 180     | END_BUILD             | stop building after >= 1 placement (IG-BLD-9)              |
| 181     | PASS                  | pass in the current auction (IG-INIT-2, IG-AUC-3)          |
| 182-221 | BID[j]                | bid exactly min_bid + j pounds, j = 0..39 (IG-AUC-5)       |
"""

from .._common.actions import ActionLayout
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import N_HEX
from .tables import N_TOWNS

_ACTIONS = ActionLayout()
A_AUCTION = _ACTIONS.add("AUCTION", N_COMPANIES)
A_BUILD = _ACTIONS.add("BUILD", N_COMPANIES)
N_SPECIAL_INTEREST = N_TOWNS * N_COLOURS
A_SPECIAL_INTEREST = _ACTIONS.add("SPECIAL_INTEREST", N_SPECIAL_INTEREST)
A_CALL_DIVIDENDS = _ACTIONS.add("CALL_DIVIDENDS")
A_PLACE = _ACTIONS.add("PLACE", N_HEX)
A_END_BUILD = _ACTIONS.add("END_BUILD")
A_PASS = _ACTIONS.add("PASS")
N_BID = 40  # a single bid may jump at most 39 above the minimum (spec §6, chosen)
A_BID = _ACTIONS.add("BID", N_BID)
NUM_ACTIONS = _ACTIONS.size
assert (A_CALL_DIVIDENDS, A_END_BUILD, A_PASS, NUM_ACTIONS) == (40, 180, 181, 222)
# (family name, argument) of an action id, e.g. ("PLACE", hex index); ValueError outside 0..221
action_family = _ACTIONS.family
