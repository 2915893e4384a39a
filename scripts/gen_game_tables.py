#!/usr/bin/env python
"""Write each game page's observation and action tables from the kernel, so the docs cannot drift from the code.

    python scripts/gen_game_tables.py              # rewrite the generated sections of docs/games/<game>.md
    python scripts/gen_game_tables.py --check      # exit 1, naming the pages whose tables differ from the kernels'
    python scripts/gen_game_tables.py --pictures   # also render docs/assets/games/<game>.png (a fixed position)

The offsets, shapes, sizes, units, divisors, maxima and per-seat marks come from the kernel's observation layout (``OBS_PIECES``,
declared once in ``kernels/<game>/observe.py``); the action ids, counts and families from its action layout
(``kernels/<game>/actions.py``). Only the one-line meanings below are written by hand, and every piece and family
must have exactly one: a new piece without a meaning fails the check (``tests/docs/test_game_pages.py``), and so does
a meaning left behind by a piece that went away.

A page holds each table between the markers ``<!-- generated: observation -->`` and ``<!-- end generated -->``
(``action`` likewise); everything outside them is the page's own text.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import re
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = ROOT / "docs" / "games"
PICTURES = ROOT / "docs" / "assets" / "games"
GAMES = ("irish_gauge", "imperial", "veld_railroads", "kremlin", "french_revolution_1789")
SECTION = re.compile(r"(<!-- generated: (\w+) -->\n)(.*?)(<!-- end generated -->)", re.S)

# --- what each observation piece means (the layout gives everything else) --------------------------------------
OBSERVATION = {
    "irish_gauge": {
        "phase_onehot": "the pending decision",
        "seat_present": "seats at the table (a 3- or 4-player game leaves the last seats empty)",
        "to_move_onehot": "the seat whose decision it is",
        "active_onehot": "the seat whose main turn it is (an auction asks other seats while it runs)",
        "cash_by_seat": "each seat's cash",
        "held_by_seat": "certificates each seat holds, per company (CBSC, WLW, BCD, GSW, MGW)",
        "certs_left": "certificates left in each company's stack",
        "top_cert_value": "printed value of the certificate on top of each stack (its minimum bid)",
        "shares_sold": "certificates of each company in players' hands (IG-DIV-4 divides income by it)",
        "supply": "locomotives each company still has in supply",
        "loco": "which company has a locomotive on which hex (139 hexes in map order)",
        "cube_colour": "the colour of the dividend cube on each hex (black, pink, white), if any",
        "bag": "cubes of each colour left in the bag",
        "potential_income": "what each company's network would earn now (the dividend disk, IG-DISK-1)",
        "last_draw": "cubes of each colour drawn by the latest dividend call",
        "last_income": "each company's income at the latest dividend call",
        "auction_company": "the company whose certificate is being auctioned",
        "auction_high_bid": "the current high bid",
        "auction_min_bid": "the lowest bid the seat to move may make",
        "auction_high_bidder": "the seat holding the high bid",
        "auction_passed": "seats that have passed in this auction",
        "build_company": "the company building",
        "build_budget": "build points left in this build (counted in halves)",
        "build_placed": "locomotives placed in this build",
        "ruleset_published": '1 under `ruleset="published"`',
        "major_city_bonus": "the major-city bonus in force (IG-DIV-6)",
    },
    "imperial": {
        "phase_onehot": "the pending decision",
        "nation_onehot": "the nation whose turn it is (AH, IT, FR, GB, GE, RU)",
        "to_move": "the seat whose decision it is",
        "seat_present": "seats at the table",
        "cash": "each seat's cash (hidden from others with `hidden_cash=True`)",
        "bonds": "which bonds (1-9) of which nation each seat holds",
        "flags": "which nations each seat controls (holds the flag of)",
        "investor_card": "the seat holding the investor card",
        "buyer": "the seat whose bond purchase is due",
        "flag_in_bank": "nations nobody controls yet",
        "bond_available": "bonds still in the bank, per nation and bond",
        "treasury": "each nation's treasury",
        "power": "each nation's power points",
        "tax_pos": "each nation's position on the tax chart",
        "tax_now": "what each nation would collect if it taxed now",
        "rondel": "each nation's rondel space (8 = not yet placed, the centre)",
        "factory": "factories on the 30 home provinces",
        "blocked": "home provinces occupied by a hostile foreign army (no production or factory there)",
        "armies": "armies of each nation in each of the 54 regions",
        "fleets": "fleets of each nation in each region (a fleet in a home province is docked)",
        "hostile": "which nations' armies stand hostile in which home province",
        "chip": "which nation's tax chip lies in which region",
        "chips_left": "tax chips each nation has left",
        "supply": "armies and fleets each nation has left in supply",
        "moved": "units of the maneuvering nation that already acted, per region",
        "carried": "fleets in each sea that already carried an army this maneuver",
        "fleets_locked": "1 once the maneuvering nation's fleets may no longer move (armies have started)",
        "mv_origin": "the region a unit is moving from",
        "mv_dest": "the region it is moving to",
        "mv_chain": "the seas of the transport chain chosen so far",
        "mv_region": "where the arrival resolves (combat, stance, factory)",
        "cmb_asked": "the nation asked whether it fights",
        "cmb_defender": "the nation defending",
        "imp_count": "units imported so far in this import",
        "passed_investor": "1 once the investor space was passed this turn",
        "options": "the rules options in force",
        "turn": "nation turns played, against the truncation limit",
    },
    "veld_railroads": {
        "phase_onehot": "the pending decision",
        "seat_present": "seats at the table",
        "to_move": "the seat whose decision it is",
        "active": "the seat whose regular turn it is",
        "cash": "each seat's cash",
        "holdings": "shares each seat holds, per railroad",
        "controls": "which railroads each seat controls (its largest shareholder, VR-GEN-4)",
        "loco_box": "which of the four action boxes each seat's locomotive stands on",
        "last_payout": "what each seat received at the latest dividend",
        "treasury_shares": "shares left in each railroad's treasury",
        "treasury_cash": "each railroad's treasury cash",
        "opened": "railroads that have been floated",
        "reached_johannesburg": "railroads whose network reaches Johannesburg",
        "free_section_owed": "railroads owed a free section",
        "sections_built": "sections each railroad has built",
        "income": "each railroad's income (VR-GEN-6)",
        "valuation": "each railroad's valuation (VR-GEN-5)",
        "section_owner": "which railroad owns which of the 59 track sections",
        "settlement_level": "each settlement's development level",
        "settlement_income": "each settlement's income",
        "settlement_tracked": "settlements on the income track",
        "row": "the current row of the action track (1-8)",
        "position": "boxes filled in the current row",
        "zasm_trigger": "1 once the ZASM auction has been triggered",
        "build_railroad": "the railroad building",
        "build_builder": "the seat building for it",
        "build_first_leg": "the section built first in this build",
        "build_costs": "the current cost of a single and of a double section",
        "develop_picked": "settlements picked in this develop action",
        "develop_counts": "picks made and free picks in this develop action",
        "free_section_railroad": "the railroad taking a free section",
        "free_section_player": "the seat choosing it",
        "auction_railroad": "the railroad whose share is auctioned",
        "auction_kind": "the auction's kind: setup, treasury share, own share, ZASM",
        "auction_seller": "the seat selling (an own-share auction)",
        "auction_bidder": "the seat whose bid it is",
        "auction_high_bidder": "the seat holding the high bid",
        "auction_passed": "seats that have passed in this auction",
        "auction_bids": "minimum bid, high bid, and whether the opener must bid",
        "repeat_metropolis_pick": "the `repeat_metropolis_pick` option",
    },
    "kremlin": {
        "phase_onehot": "the pending decision",
        "window_cont_onehot": "what follows the open declaration window",
        "seat_present": "seats at the table",
        "to_move_onehot": "the seat whose decision it is",
        "start_player_onehot": "this turn's start player",
        "speeches": "year-end speeches each seat's chairman has given",
        "declared": "influence points each seat has declared on each gamer (public)",
        "burned": "declared points each seat has lost, per gamer",
        "controls": "which gamers each seat controls",
        "values_assigned": "how much of its allocation each seat has given out",
        "gamer_location": "where each of the 26 gamers is: posts P00-P12, civilians, other circles, retired",
        "experience": "each gamer's experience",
        "sp": "each gamer's SP",
        "age_room": "how much experience and SP each gamer may still take before retiring",
        "broke": "broke markers on each gamer",
        "suspicion": "gamers under suspicion",
        "trial_eligible": "gamers whose marker was placed in an earlier turn (they may be tried)",
        "part_time": "part-time gamers",
        "phase_flag": "gamers toggled by a rumour or moved by personnel A this phase",
        "opposer": "gamers who opposed in the latest vote",
        "uncontrolled": "gamers no seat controls",
        "traits": "each gamer's personality traits (the optional `traits` rules)",
        "actor": "the gamer using the current power",
        "target": "the pending target, defendant, nominee or personnel source",
        "my_assigned": "the observer's own secret influence on each gamer",
        "my_remaining": "the observer's points still declarable on each gamer",
        "all_assigned": "every seat's secret influence: only in the table's own view (`state()`), zero for a seat",
        "context": "turn against the limit, oppose votes, window passes, nominations, d20 roll, rumours, traits on",
    },
    "french_revolution_1789": {
        "phase_onehot": "the pending decision",
        "turn_onehot": "the game turn (1-5)",
        "regime_onehot": "the regime in power",
        "votes": "vote markers on each regime box",
        "seat_present": "seats at the table",
        "to_move": "the seat whose decision it is",
        "start_player": "this turn's start player",
        "rp": "each seat's RP",
        "vp": "each seat's VP",
        "supply": "support markers each seat has left",
        "hand_size": "intrigue cards in each seat's hand",
        "support": "which seat's support marker lies in which of the 12 cities",
        "cards": "history cards each seat owns, and whether each is free, imprisoned, exiled or tilted (used)",
        "auction_passed": "seats that have passed in this auction",
        "auction_high_bidder": "the seat holding the high bid",
        "action_passed": "seats that have passed for the rest of the action phase",
        "city_army": "which army stands in each city: French, coalition, royalist",
        "city_strength": "the strength of the army in each city",
        "cups": "units of each strength left in the three cups",
        "dead": "history cards executed or assassinated",
        "in_deck": "history cards not yet revealed",
        "auction_card": "the history card being auctioned",
        "auction_high_bid": "the current high bid",
        "auction_opened": "1 once the auction has an opening bid",
        "markers_free": "imprisoned and exiled markers left",
        "pile_size": "cards in the intrigue draw pile",
        "played_intrigue": "intrigue cards already played",
        "my_hand": "the observer's own intrigue cards (private)",
        "move_card": "the history card selected in this move",
        "move_intrigue": "the intrigue card being played",
        "move_effect": "the effect row being resolved",
        "move_decision": "the sub-decision pending: regime, city, person, player or army",
        "move_city": "the city chosen in this move",
        "last_draw": "the strength of the last unit drawn",
        "last_success": "1 if the latest troop instigation or dispatch succeeded",
    },
}

# --- what each action family does (the layout gives the ids) --------------------------------------------------------
ACTIONS = {
    "irish_gauge": {
        "AUCTION": "auction the top certificate of company c (CBSC, WLW, BCD, GSW, MGW) (IG-AUC-1)",
        "BUILD": "start building for company c (IG-BLD-1)",
        "SPECIAL_INTEREST": "place a special interest: town t = i // 3, cube colour k = i % 3 (IG-SI-1)",
        "CALL_DIVIDENDS": "call for dividends (IG-DIV-1)",
        "PLACE": "place the building company's locomotive on hex h (map order)",
        "END_BUILD": "end the build",
        "PASS": "pass in an auction",
        "BID": "bid the minimum next bid + j (IG-AUC-5)",
    },
    "imperial": {
        "RONDEL": "move the nation's marker to rondel space s: factory, production, maneuver, investor, import, production, maneuver, taxation (IMP-RON-1)",
        "PASS": "pass, or done: ends the current decision (IMP-FAC-3, a maneuver, a purchase, ...)",
        "BUILD_FACTORY": "build a factory on home province h",
        "IMPORT_ARMY": "import an army into home province h",
        "IMPORT_FLEET": "import a fleet into home province h",
        "SELECT_ORIGIN": "pick the region r a unit moves from",
        "SELECT_DEST": "pick the region r it moves to",
        "SELECT_SEA": "add sea k (region 45 + k) to an army's transport chain",
        "TOGGLE_STANCE": "toggle an army's stance in foreign home province h",
        "HOSTILE": "the army that just entered a foreign home province stands hostile (IMP-STN-1)",
        "FRIENDLY": "it stands friendly",
        "FIGHT": "fight nation n (the mover), or accept the fight (the asked defender)",
        "ASK": "ask nation n whether it fights next (IMP-CMB-2)",
        "DESTROY_FACTORY": "destroy the factory (`optional_factory_destruction` only, IMP-DST-1)",
        "BUY": "buy bond k of nation n, trading in own bond t (0 = none): id = 261 + 90 n + 10 (k - 1) + t (IMP-BND-1)",
    },
    "veld_railroads": {
        "BOX": "move the locomotive to an action box: build, offer, develop, pay dividends (VR-LOCO-1)",
        "BUILD_RAILROAD": "choose railroad r to build for (CFM, CSAR, Natal, CTR&D, Cape Midland, ZASM)",
        "OFFER_TREASURY": "offer a treasury share of railroad r at auction",
        "OFFER_OWN": "offer one of your own shares of railroad r",
        "SECTION": "build track section s (s00-s58), a leg or a free first section (VR-BUILD-2)",
        "SETTLEMENT": "develop settlement i (VR-DEV-1)",
        "DONE": "stop after the first leg, or stop developing",
        "PASS": "pass in an auction",
        "BID": "bid $k (VR-AUC-4)",
    },
    "kremlin": {
        "SELECT_GAMER": "choose gamer g: an allocation, a part-timer, a target, a nominee, a defendant, a move's source",
        "SELECT_POST": "choose post P00-P12 (a personnel move's destination)",
        "DECLARE": "declare influence v (1-10) on gamer g: id = 39 + 10 g + v - 1 (KRM-INF-2)",
        "DONE": "pass, stop or decline (a window, a power, a list of moves)",
        "VOTE_OPPOSE": "oppose (a trial's verdict or a nominee)",
        "VOTE_SUPPORT": "do not oppose",
        "RUMOUR_A": "rumour A: send a member away (KRM-RUM-2)",
        "RUMOUR_B": "rumour B: put an officer on trial (KRM-RUM-2)",
    },
    "french_revolution_1789": {
        "PASS": "pass in bidding, or for the rest of the action phase",
        "BID": "bid k RP (FR-AUC-3 keeps a bid below the bidder's RP, so 60 is never legal)",
        "SELECT_CARD": "activate own history card i (FR-ACT-1)",
        "PLAY_INTRIGUE": "play intrigue card j (FR-ACT-9)",
        "REGIME_ACTION": "regime action a: vote 0 ... assassin 12 (FR-ACT-5)",
        "USE_ABILITY": "use the selected card's ability (FR-ACT-8)",
        "TARGET_CITY": "target city c",
        "TARGET_PERSON": "target history card i (only persons are ever legal)",
        "TARGET_REGIME": "target regime r",
        "TARGET_PLAYER": "target seat p",
        "TARGET_ARMY": "the army to draw: coalition or royalist",
    },
}


TYPE_MAX = {t: float(np.iinfo(t).max) for t in ("int8", "int16", "int32", "uint8", "uint16", "uint32")}


def kernel(game: str):
    return importlib.import_module(f"tabletop_zoo.kernels.{game}")


def action_layout(game: str):
    """The kernel's ``ActionLayout`` (the one in its ``actions.py``)."""
    from tabletop_zoo.kernels._common.actions import ActionLayout

    module = importlib.import_module(f"tabletop_zoo.kernels.{game}.actions")
    (layout,) = [v for v in vars(module).values() if isinstance(v, ActionLayout)]
    return layout


def _check(what: str, game: str, names: list[str], meanings: dict[str, str]) -> None:
    lacking, stale = [n for n in names if n not in meanings], [n for n in meanings if n not in names]
    if lacking or stale:
        raise SystemExit(
            f"scripts/gen_game_tables.py: {game}'s {what} table needs a meaning for {lacking or 'nothing'} "
            f"and has meanings for {stale or 'nothing'} that the kernel no longer has"
        )


def _number(x: float | tuple[float, ...]) -> str:
    """A divisor or max for the page: ``50``, ``int32`` (a record field's limit), ``100, 100, 1`` (one per item),
    ``1 to 8`` (one per item, many)."""
    if isinstance(x, tuple):
        if len(set(x)) == 1:
            return _number(x[0])
        return ", ".join(_number(v) for v in x) if len(x) <= 8 else f"{_number(min(x))} to {_number(max(x))}"
    names = {v: k for k, v in TYPE_MAX.items()}
    return names.get(x) or (f"{x:g}" if x == round(x, 6) else f"{x:.6g}")


def observation_table(game: str) -> str:
    """Markdown: one row per observation piece, in vector order."""
    k = kernel(game)
    _check("observation", game, [p.name for p in k.OBS_PIECES], OBSERVATION[game])
    rows = [
        f"`float32[{k.OBS_SIZE}]`, seat-relative: a piece marked *per seat* has the observer first (row 0), then the "
        "seats after it in turn order. An entry is its raw quantity (in the *unit*) divided by the *divisor*, so it "
        "lies between 0 and *max* / *divisor* (the observation space's bounds); a *max* that names an integer type "
        "is that record field's limit, where no rule caps the quantity (an unlimited bank). "
        "`tabletop_zoo.kernels._common.layout.decode(OBS_PIECES, obs)[piece]` gives the raw quantity.",
        "",
        "| piece | offset | shape | size | per seat | unit | divisor | max | meaning |",
        "|---|---:|---|---:|---|---|---:|---:|---|",
    ]
    for p in k.OBS_PIECES:
        meaning = OBSERVATION[game][p.name]
        if p.name == "phase_onehot":  # the phases by name, from the kernel (the observation shows the first ones)
            names = importlib.import_module(f"tabletop_zoo.kernels.{game}.state").PHASE_NAMES[: p.size]
            meaning += ", one of " + ", ".join(f"`{n}`" for n in names)
        shape = "(" + ", ".join(str(n) for n in p.shape) + ("," if len(p.shape) == 1 else "") + ")"
        unit = p.unit.replace("|", "\\|")
        seat = "yes" if p.per_seat else ""
        rows.append(
            f"| `{p.name}` | {p.offset} | {shape} | {p.size} | {seat} | {unit} | {_number(p.divisor)} | "
            f"{_number(p.most)} | {meaning} |"
        )
    return "\n".join(rows) + "\n"


def action_table(game: str) -> str:
    """Markdown: one row per action family, in id order."""
    layout = action_layout(game)
    _check("action", game, [f[0] for f in layout.families], ACTIONS[game])
    rows = [
        f"`Discrete({layout.size})`; the mask says which ids are legal now.",
        "",
        "| ids | family | count | argument (id - first id + first argument) | what it does |",
        "|---|---|---:|---|---|",
    ]
    for name, start, count, first_arg in layout.families:
        ids = str(start) if count == 1 else f"{start}-{start + count - 1}"
        argument = "" if count == 1 else f"{first_arg}-{first_arg + count - 1}"
        rows.append(f"| {ids} | `{name}` | {count} | {argument} | {ACTIONS[game][name]} |")
    return "\n".join(rows) + "\n"


TABLES = {"observation": observation_table, "action": action_table}


def regenerate(text: str, game: str) -> str:
    """The page with every generated section rewritten from the kernel."""
    found = set()

    def fill(match: re.Match) -> str:
        found.add(match.group(2))
        return match.group(1) + "\n" + TABLES[match.group(2)](game) + "\n" + match.group(4)

    text = SECTION.sub(fill, text)
    if found != set(TABLES):
        raise SystemExit(f"docs/games/{game}.md: needs the generated sections {sorted(set(TABLES) - found)}")
    return text


def render_picture(game: str, path: pathlib.Path, moves: int = 60, seed: int = 3) -> None:
    """The board after ``moves`` random decisions of a seeded game, halved and palette-quantised (a small PNG)."""
    from PIL import Image

    import tabletop_zoo
    from tabletop_zoo.agents import RandomAgent

    env = tabletop_zoo.make_env(game, render_mode="rgb_array")
    env.reset(seed=seed)
    agent = RandomAgent(seed=seed)
    for _ in range(moves):
        if not env.agents:
            break
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else agent.act(obs["observation"], obs["action_mask"]))
    frame = Image.fromarray(env.render())
    frame = frame.resize((frame.width // 2, frame.height // 2), Image.LANCZOS).quantize(colors=64)
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a page's tables are stale")
    parser.add_argument("--pictures", action="store_true", help="also render docs/assets/games/<game>.png")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    stale = []
    for game in args.games:
        page = PAGES / f"{game}.md"
        text = page.read_text(encoding="utf-8")
        new = regenerate(text, game)
        if new != text:
            stale.append(str(page.relative_to(ROOT)))
            if not args.check:
                page.write_text(new, encoding="utf-8")
        if args.pictures and not args.check:
            render_picture(game, PICTURES / f"{game}.png")
    if args.check and stale:
        print("stale generated tables (run python scripts/gen_game_tables.py):", ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
