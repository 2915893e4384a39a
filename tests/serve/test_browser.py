"""End to end in a real headless browser (Debian's chromium, driven by playwright): a full game of every
game played by clicking moves (map targets where a move has one), undo, and watching an arena game; the
board's screenshot must not be blank."""

from __future__ import annotations

import io
import json

import numpy as np
from PIL import Image

from .conftest import SHORT_GAMES

STATUS = "#status"


def _set_range(page, selector: str, value: int, event: str) -> None:
    page.eval_on_selector(
        selector, "(el, [v, ev]) => { el.value = v; el.dispatchEvent(new Event(ev)); }", [str(value), event]
    )


def _settled(page, before: int) -> None:
    """Wait until the view shows more (or fewer) decisions than ``before`` and no agent is to move."""
    page.wait_for_function(
        "(before) => { const s = document.querySelector('#status');"
        " return s.dataset.decisions !== String(before) && s.dataset.waiting !== 'agent'; }",
        arg=before,
        timeout=180_000,
    )


def _decisions(page) -> int:
    return int(page.get_attribute(STATUS, "data-decisions"))


def _waiting(page) -> str:
    return page.get_attribute(STATUS, "data-waiting")


def _click_a_move(page, turn: int) -> None:
    """Every other turn click a map target if there is one (several moves there: then pick among those
    buttons); otherwise click a move button, spread over the list."""
    targets = page.locator("#board [data-place].target")
    if turn % 2 and targets.count():
        targets.nth(turn % targets.count()).click(force=True)
        if page.locator("#place-filter").inner_text():
            page.locator("#moves button.move:not(.dim)").first.click()
        return
    buttons = page.locator("#moves button.move")
    buttons.nth((7 * turn) % buttons.count()).click()


def assert_not_blank(png: bytes) -> None:
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).reshape(-1, 3)
    colours, counts = np.unique(pixels, axis=0, return_counts=True)
    assert len(colours) >= 16, f"board screenshot has only {len(colours)} colours"
    # Veld's sparse map leaves ~94% of the board background; a blank or text-only board is >= 99%.
    share = counts.max() / counts.sum()
    assert share < 0.97, f"board screenshot is {share:.1%} one colour"


def test_play_a_full_game_by_clicking(page, game_id):
    n, options = SHORT_GAMES[game_id]
    _set_range(page, "#pace", 0, "input")
    page.select_option("#game", game_id)
    page.fill("#players", str(n))
    page.dispatch_event("#players", "change")
    page.fill("#options", json.dumps(options))
    page.fill("#seat-0", "human")
    for i in range(1, n):
        page.fill(f"#seat-{i}", "random")
    page.click("#start")
    page.wait_for_selector(f"{STATUS}[data-waiting='human'], {STATUS}[data-waiting='over']")
    turn = 0
    while _waiting(page) == "human":
        before = _decisions(page)
        _click_a_move(page, turn)
        _settled(page, before)
        if turn == 0 and _waiting(page) == "human":  # undo the first move once, then go on
            after = _decisions(page)
            page.click("#undo")
            _settled(page, after)
            assert _decisions(page) == before
        turn += 1
    assert _waiting(page) == "over", page.inner_text(STATUS)
    assert "final scores: player_0" in page.inner_text(STATUS)
    assert page.locator("#log li").count() == _decisions(page) > turn
    assert_not_blank(page.locator("#board").screenshot())


def test_watch_an_arena_game_play_pause_scrub(page):
    _set_range(page, "#pace", 0, "input")
    page.click("#tab-watch")
    page.select_option("select.arena-game", "1")
    page.click("button.watch-arena")
    page.wait_for_selector(f"{STATUS}[data-waiting='watching']")
    total = int(page.get_attribute("#scrub", "max"))
    assert total > 20 and page.locator("#log li").count() == 0
    page.click("#w-next")
    page.wait_for_function("() => document.querySelector('#w-pos').textContent.startsWith('1/')")
    _set_range(page, "#scrub", total - 3, "change")  # scrub near the end, then play the rest
    page.wait_for_function(f"() => document.querySelector('#w-pos').textContent.startsWith('{total - 3}/')")
    page.click("#w-play")  # plays to the end at the chosen pace
    page.wait_for_selector(f"{STATUS}[data-waiting='end']", timeout=180_000)
    assert "final scores" in page.inner_text(STATUS)
    assert page.locator("#log li").count() == total
    _set_range(page, "#scrub", 10, "change")
    page.wait_for_function("() => document.querySelector('#w-pos').textContent.startsWith('10/')")
    assert page.locator("#log li").count() == 10
    page.click("#w-prev")
    page.wait_for_function("() => document.querySelector('#w-pos').textContent.startsWith('9/')")
    assert_not_blank(page.locator("#board").screenshot())


def test_models_are_offered_by_name_and_paths_refused(page):
    """The seat choices list the server's models (as policy:model=NAME, and az:model=NAME for .pt networks); a
    game starts with them, and a seat naming a file shows the server's one-line refusal."""
    choices = page.eval_on_selector_all("#agent-list option", "els => els.map((e) => e.value)")
    assert {"policy:model=ig.pt", "az:model=sub/ig2.pt", "policy:model=junk.zip"} <= set(choices)
    assert "az:model=junk.zip" not in choices and "ig.pt" in page.inner_text("#model-names")
    _set_range(page, "#pace", 0, "input")
    page.select_option("#game", "irish_gauge")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    page.fill("#seat-0", "human")
    page.fill("#seat-1", "policy:path=/etc/passwd")
    page.fill("#seat-2", "random")
    page.click("#start")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").startswith("seat 1: path= names a file, which a client may not do")
    page.fill("#seat-1", "policy:model=ig.pt")
    page.fill("#seat-2", "az:model=sub/ig2.pt,simulations=4")
    page.click("#start")
    page.wait_for_selector(f"{STATUS}[data-waiting='human']")
    assert page.locator("#error").is_hidden()
