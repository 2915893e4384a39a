"""Per-seat text views of the hidden-information games (Kremlin, French Revolution 1789): a seat's view
shows its own secrets and nothing the kernel's ``determinize`` may resample for it (spec §7 of each
game), agents' secret moves are named without their secret part, and terminal play never prints
another seat's secret before the game is over."""

import re

import numpy as np
import pytest
from typer.testing import CliRunner

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.agents import RandomAgent
from tabletop_zoo.cli import app
from tabletop_zoo.kernels._common.record import copy_record
from tabletop_zoo.kernels.french_revolution_1789.state import LOC_PILE
from tabletop_zoo.kernels.kremlin.state import PH_ASSIGN
from tabletop_zoo.replay import load_replay

HIDDEN_GAMES = ("kremlin", "french_revolution_1789")
# Decisions played before looking: Kremlin mid-allocation (the last seat half done), and in turn 1;
# French Revolution in the first auction, and later in the game.
CHECKPOINTS = {"kremlin": lambda n: (10 * n - 5, 10 * n + 40), "french_revolution_1789": lambda n: (6, 120)}
RESAMPLES = 4


def played_env(game: str, n: int, decisions: int, seed: int = 7):
    """An env after ``decisions`` random decisions (fewer if the game ends first)."""
    env = tabletop_zoo.make_env(game, num_players=n, render_mode="ansi")
    env.reset(seed=seed)
    agent = RandomAgent(seed=seed)
    for _ in range(decisions):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        obs = env.observe(env.agent_selection)
        env.step(agent.act(obs["observation"], obs["action_mask"]))
    return env


def render(game: str):
    return registry.env_module(game).render_ansi


@pytest.mark.parametrize("n", (3, 5))
@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_seat_view_is_unchanged_when_what_it_cannot_see_is_resampled(game, n):
    """KRM §7 / FR §7: determinize(s, p) changes only what p cannot see, so p's view stays the same,
    while the privileged full view shows the change."""
    kernel, render_ansi = registry.kernel(game), render(game)
    for decisions in CHECKPOINTS[game](n):
        s = played_env(game, n, decisions).record
        for p in range(n):
            view, full = render_ansi(s, p), render_ansi(s)
            full_changed = False
            for seed in range(RESAMPLES):
                t = copy_record(s)
                kernel.determinize(t, p, seed)
                assert render_ansi(t, p) == view, f"{game} {n}p after {decisions}: player_{p}'s view leaks"
                full_changed |= render_ansi(t) != full
            assert full_changed, f"{game} {n}p after {decisions}: the full view should show the resampled secrets"


def _swap_own_kremlin_sheet(s, p: int) -> None:
    """Exchange two values on p's secret sheet (KRM-INF-1)."""
    sheet = s[0]["assigned"][p]
    g1, g2 = np.flatnonzero(sheet)[:2]
    sheet[g1], sheet[g2] = sheet[g2], sheet[g1]


def _swap_own_intrigue_card(s, p: int) -> None:
    """Exchange a card of p's intrigue hand known to p alone with a pile card nobody knows."""
    r = s[0]
    mine = [j for j in np.flatnonzero(r["intr_loc"] == p) if r["intr_known"][j] == 1 << p]
    i = next(i for i in range(int(r["pile_n"])) if r["intr_known"][r["pile"][i]] == 0)
    j, k = mine[0], int(r["pile"][i])
    r["intr_loc"][j], r["intr_known"][j], r["pile"][i] = LOC_PILE, 0, j
    r["intr_loc"][k], r["intr_known"][k] = p, 1 << p


@pytest.mark.parametrize("n", (3, 5))
@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_seat_view_shows_its_own_secret_and_only_its_own(game, n):
    """Changing p's own secret (Kremlin: its sheet; FR: its hand) changes p's view and the full view,
    and no other seat's view."""
    render_ansi = render(game)
    swap = _swap_own_kremlin_sheet if game == "kremlin" else _swap_own_intrigue_card
    s = played_env(game, n, CHECKPOINTS[game](n)[0]).record
    for p in range(n):
        t = copy_record(s)
        swap(t, p)
        assert render_ansi(t, p) != render_ansi(s, p)
        assert render_ansi(t) != render_ansi(s)
        for q in set(range(n)) - {p}:
            assert render_ansi(t, q) == render_ansi(s, q), f"{game}: player_{p}'s secret shows in player_{q}'s view"


def test_french_revolution_view_names_cards_the_seat_knows_elsewhere():
    """FR §7: the victim of Police Network knows the card the taker now holds (intr_known), so its view
    names that card in the taker's hand, and determinize keeps it there; a third seat sees '?'."""
    render_ansi = render("french_revolution_1789")
    s = played_env("french_revolution_1789", 3, 6).record
    r = s[0]
    j = int(np.flatnonzero(r["intr_loc"] == 0)[0])  # player_0's card, taken by player_1
    name = registry.kernel("french_revolution_1789").tables.INTRIGUE_NAMES[j]
    r["intr_loc"][j], r["intr_known"][j] = 1, (1 << 0) | (1 << 1)
    victim, third = render_ansi(s, 0), render_ansi(s, 2)
    taker_line = lambda view: next(line for line in view.splitlines() if line.startswith("player_1:"))
    assert name in taker_line(victim) and name not in taker_line(third) and "?" in taker_line(third)
    for seed in range(RESAMPLES):
        t = copy_record(s)
        registry.kernel("french_revolution_1789").determinize(t, 0, seed)
        assert int(t[0]["intr_loc"][j]) == 1 and render_ansi(t, 0) == victim


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_render_for_is_the_seat_view_for_hidden_games_and_the_table_otherwise(game):
    env = played_env(game, registry.kernel(game).MIN_PLAYERS, 12)
    seat_view = registry.env_module(game).render_ansi(env.record, 1) if game in HIDDEN_GAMES else env.render()
    assert env.render_for(1) == seat_view
    with pytest.raises(ValueError, match=r"seat must be an int in 0\.\."):
        env.render_for(env.num_players)


def test_kremlin_allocation_moves_are_named_without_the_gamer():
    """KRM-SET-4: another seat's allocation choice shows its value, not the gamer; the mover sees it."""
    env = played_env("kremlin", 3, 12)  # seat 1 is allocating, value 8
    r = env.record[0]
    assert int(r["phase"]) == PH_ASSIGN and int(r["assign_seat"]) == 1
    action = env.legal_actions()[0]
    full = env.action_name(action)
    assert full.startswith("SELECT_GAMER G")
    assert env.action_name_for(action, 1) == full
    for viewer in (0, 2, None):
        hidden = env.action_name_for(action, viewer)
        assert hidden == "SELECT_GAMER (secret: influence 8 on a hidden gamer)"
    assert played_env("french_revolution_1789", 3, 0).action_name_for(0, 2) == "PASS"  # no secret moves


def _other_sheet_entries(record, human: int) -> set[str]:
    """Every 'Gxx=v' entry of another seat's final sheet that the human's own sheet does not share."""
    r = record[0]
    entries = lambda p: {f"G{g + 1:02d}={int(r['assigned'][p, g])}" for g in np.flatnonzero(r["assigned"][p])}
    others = set().union(*(entries(p) for p in range(int(r["num_players"])) if p != human))
    return others - entries(human)


def test_human_kremlin_game_never_prints_another_seats_secret(tmp_path):
    """Terminal play (seat 0 against random agents) shows the human only its own sheet and the agents'
    allocations without their gamers; the full table, with every sheet, comes once the game is over."""
    path = tmp_path / "game.json"
    result = CliRunner().invoke(
        app,
        ["play", "kremlin", "--players", "3", "--seed", "5", "--human", "0", "--save-replay", str(path)],
        input="1\n" * 1000,
    )
    assert result.exit_code == 0, result.output
    during, marker, after = result.output.partition("--- game over: the full table ---")
    assert marker and "final scores" in after
    assert "privileged" not in during and "player_0's view" in during
    assert re.search(r"^player_0 \(you\): G\d\d=", during, re.MULTILINE)  # its own sheet
    for p in (1, 2):
        assert not re.search(rf"^player_{p}: G\d\d=", during, re.MULTILINE)
        assert re.search(rf"^player_{p}: secret - ", during, re.MULTILINE)
        assert re.search(rf"^player_{p}: G\d\d=", after, re.MULTILINE)  # revealed at the end
        assert during.count(f"player_{p} (random): SELECT_GAMER (secret: influence") == 10
    # the agents' sheets, from the final record: no entry of theirs appears before the end
    replay = load_replay(path)  # verified: it reproduces the final state
    env = replay.make_env()
    for action in replay.actions:
        env.step(action)
    leaks = [e for e in _other_sheet_entries(env.record, 0) if re.search(rf"\b{e}\b", during)]
    assert not leaks, f"other seats' sheet entries printed during the game: {leaks}"


# --- the picture (issue #47): one scene per game, drawn per viewer -----------------------------------------


def scene_of(game: str):
    import importlib

    return importlib.import_module(f"tabletop_zoo.envs.render.{game}").scene


@pytest.mark.parametrize("n", (3, 5))
@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_seat_scene_is_unchanged_when_what_it_cannot_see_is_resampled(game, n):
    """KRM §7 / FR §7: a seat's picture (and the spectator's) never shows what determinize may resample for
    that seat, while the privileged picture shows the change."""
    from tabletop_zoo.envs.render.scene import SPECTATOR

    kernel, scene = registry.kernel(game), scene_of(game)
    for decisions in CHECKPOINTS[game](n):
        s = played_env(game, n, decisions).record
        full = scene(s)
        full_changed = False
        for p in range(n):
            view, spectator = scene(s, p), scene(s, SPECTATOR)
            for seed in range(RESAMPLES):
                t = copy_record(s)
                kernel.determinize(t, p, seed)
                assert scene(t, p) == view, f"{game} {n}p after {decisions}: player_{p}'s picture leaks"
                assert scene(t, SPECTATOR) == spectator, f"{game} {n}p: the spectator's picture leaks"
                full_changed |= scene(t) != full
        assert full_changed, f"{game} {n}p after {decisions}: the privileged picture should show the secrets"


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_seat_scene_shows_its_own_secret_and_only_its_own(game):
    """Changing p's own secret changes p's picture and the privileged one, and no other seat's picture."""
    swap = _swap_own_kremlin_sheet if game == "kremlin" else _swap_own_intrigue_card
    scene = scene_of(game)
    n = 4
    s = played_env(game, n, CHECKPOINTS[game](n)[0]).record
    for p in range(n):
        t = copy_record(s)
        swap(t, p)
        assert scene(t, p) != scene(s, p) and scene(t) != scene(s)
        for q in set(range(n)) - {p}:
            assert scene(t, q) == scene(s, q), f"{game}: player_{p}'s secret shows in player_{q}'s picture"


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_the_privileged_picture_says_so(game):
    scene = scene_of(game)
    s = played_env(game, 3, 10).record
    assert any("privileged view" in t for t in scene(s).texts())
    assert not any("privileged" in t for t in scene(s, 1).texts())
    assert any("player_1's view" in t for t in scene(s, 1).texts())
    with pytest.raises(ValueError, match="viewer must be None"):
        scene(s, 3)


def test_imperial_hidden_cash_shows_a_seat_only_its_own_cash():
    """IMP-OPT-3: with hidden cash, another seat's cash (and score, which counts it) is not on a seat's
    picture; the privileged picture shows it and says so."""
    env = tabletop_zoo.make_env("imperial", num_players=3, hidden_cash=True)
    env.reset(seed=2)
    s = env.record
    scene = scene_of("imperial")
    t = copy_record(s)
    t[0]["cash"][1] += 7
    assert scene(t, 0) == scene(s, 0) and scene(t, 1) != scene(s, 1) and scene(t) != scene(s)
    assert any("cash: all (full view)" in line for line in scene(s).texts())
