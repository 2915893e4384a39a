"""Labels shared by the text table (``envs/french_revolution_1789_v0.py``) and the picture
(``envs/render/french_revolution_1789.py``): plain Python over the record, no numba, nothing from the layers
above the kernel."""

from __future__ import annotations

from .state import CH_ARMY
from .state import CH_STEAL
from .tables import ARMY_NAMES
from .tables import CARD_NAMES
from .tables import EFF_NAMES
from .tables import INTRIGUE_NAMES
from .tables import MAP
from .tables import REGIME_IDS

CITY_NAMES = tuple(c["name_en"] for c in sorted(MAP["cities"], key=lambda c: c["index"]))


def resolution_lines(r) -> list[str]:
    """The card, intrigue and effect being resolved, with the targets chosen so far (``r``: a record row)."""
    parts = []
    if int(r["mv_card"]) >= 0:
        parts.append(f"card {CARD_NAMES[int(r['mv_card'])]}")
    if int(r["mv_intr"]) >= 0:
        parts.append(f"intrigue {INTRIGUE_NAMES[int(r['mv_intr'])]}")
    if int(r["mv_eff"]) >= 0:
        parts.append(f"effect {EFF_NAMES[int(r['mv_eff'])]}")
    targets = [
        (f"regime {REGIME_IDS[int(r['mv_regime'])]}" if r["mv_regime"] >= 0 else ""),
        (f"city {CITY_NAMES[int(r['mv_city'])]}" if r["mv_city"] >= 0 else ""),
        (f"person {CARD_NAMES[int(r['mv_person'])]}" if r["mv_person"] >= 0 else ""),
        (f"player_{int(r['mv_player'])}" if r["mv_player"] >= 0 else ""),
        (f"army {ARMY_NAMES[int(r['mv_army'])]}" if r["mv_army"] >= 0 else ""),
    ]
    lines = ["resolving " + ", ".join(parts)] if parts else []
    if any(targets):
        lines.append("targets: " + ", ".join(t for t in targets if t))
    if int(r["ch_kind"]) in (CH_ARMY, CH_STEAL):
        lines.append("chance: " + ("unit draw" if int(r["ch_kind"]) == CH_ARMY else "intrigue steal") + " pending")
    return lines
