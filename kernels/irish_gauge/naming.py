"""``action_name``: an Irish Gauge action id in words, for a record (a bid shows its pound amount, which the
auction in progress decides). Above ``actions`` and ``auction``, so neither imports the other."""

from .actions import action_family
from .auction import current_min_bid
from .tables import COLOUR_NAMES
from .tables import COMPANY_IDS
from .tables import HEX_IDS
from .tables import HEX_NAMES
from .tables import N_COLOURS
from .tables import TOWN_HEX


def _hex_label(h: int) -> str:
    return f"{HEX_IDS[h]} {HEX_NAMES[h]}" if HEX_NAMES[h] else HEX_IDS[h]


def action_name(s, action: int) -> str:
    """Human-readable name of an action id in record ``s`` (bids show the pound amount)."""
    family, arg = action_family(int(action))
    if family in ("AUCTION", "BUILD"):
        return f"{family} {COMPANY_IDS[arg]}"
    if family == "SPECIAL_INTEREST":
        t, k = divmod(arg, N_COLOURS)
        return f"SPECIAL_INTEREST {_hex_label(int(TOWN_HEX[t]))} {COLOUR_NAMES[k]}"
    if family == "PLACE":
        return f"PLACE {_hex_label(arg)}"
    if family == "BID":
        if s is not None and s[0]["auc_company"] >= 0:
            return f"BID £{int(current_min_bid(s)) + arg}"
        return f"BID min+{arg}"
    return family
