"""Pass-and-play: two people share one device with two bots, in a partnership Block match
(4 players, people at seats 0 and 2, partners; bots at 1 and 3) played to its end in
headless Chromium at a desktop's 1280x800 and a phone's 390x844, against a real served
service:

- between the turns of different people a pass screen names the seat to hand the device
  to; while it shows, no tile of any hand is in the page (the DOM, not only what is
  visible), nor the log, nor the table; axe-core finds nothing on it;
- after "I am seat N, show my hand", the page shows seat N's view: its hand is exactly
  what the service's GetView gives that seat through the REST door;
- Undo never crosses another person's turn: once the other person has moved since, it is
  off and says why in words; a reload on the pass screen, or on a person's turn, brings
  the pass screen back for the person to act;
- each person keeps a record of their own seat, which replays VALID once the match is
  over.

With one pass-and-play match of One Arm Joe (people at seats 0 and 1, a bot at 2), a
person's move followed by their own turn again can be taken back, with no pass screen
between.

Screenshots: ``pass-<size>.png`` (the pass screen) and ``pass-sides-<size>.png`` (a
person's turn, the sides shown), in the directory the ``artifacts`` fixture prints.
"""

from __future__ import annotations

import json
import random
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from ..support.servers import Servers
from .page import Match, Playground, post, set_viewport
from .test_playground_ux import SIZES, fresh_page
from .test_sides import check_seats

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = [pytest.mark.slow, pytest.mark.serial("chromium")]

#: People at seats 0 and 2 (partners), bots at 1 and 3.
MATCH = Match(
    "block",
    4,
    0,
    "RANDOM",
    "pass the device",
    {"partnership": "true", "target_score": "60"},
    people=(2,),
)
#: A tile as the page may name it: "6-4" (a label, a data attribute) or "[6-4]" (words).
TILE_NAME = re.compile(r"\b\d+-\d+\b")

#: What the page holds of tiles: every element naming one, and every tile drawn.
TILES_IN_PAGE = r"""
const game = document.getElementById("game");
const found = "[data-tile], [data-move], #game [aria-label], #game svg";
const named = [...document.querySelectorAll(found)]
  .filter((e) => e.tagName.toLowerCase() === "svg" || !e.hasAttribute("aria-label")
    || /\d-\d/.test(e.getAttribute("aria-label")))
  .map((e) => e.outerHTML.slice(0, 120));
return {
  named,
  text: game.textContent + " " + document.getElementById("status-line").textContent,
  html: game.innerHTML,
  hand: document.getElementById("hand").childElementCount,
  log: document.getElementById("log").childElementCount,
  table: document.getElementById("table").childElementCount,
};
"""


def view(servers: Servers, token: str, seat: int) -> dict[str, Any]:
    status, answer = post(servers, "/v1/games:view", {"state": token, "seat": seat})
    assert status == 200, answer
    return answer


def names(tiles: list[dict[str, int]]) -> list[str]:
    return sorted(f"{t.get('high', 0)}-{t.get('low', 0)}" for t in tiles)


def state_of(page: Playground) -> dict[str, Any]:
    state = page.state()
    assert state is not None
    return state


def await_turn(page: Playground, after: tuple[str, str]) -> str:
    """Wait until a person is to act (``"you"``), the device is to be passed (``"pass"``)
    or the match is over, at a (version, waiting) other than ``after``."""

    def ready(_: Chrome) -> str | None:
        waiting = page.waiting()
        if waiting in ("you", "pass", "over") and (page.version(), waiting) != after:
            return waiting
        return None

    return str(page.wait(ready, f"a person's turn or the pass screen after {after}"))


def check_pass_screen(page: Playground, servers: Servers, where: str) -> int:
    """The pass screen names the person to act, and nothing of any hand is in the page;
    returns the seat named."""
    state = state_of(page)
    seat = state["to_act"]
    assert state["passing"] and seat in state["people"], (
        where,
        {k: v for k, v in state.items() if k not in ("token", "options", "seed_commitment")},
        page.by_id("pass").text,
    )
    assert page.by_id("pass").is_displayed(), where
    assert page.by_id("pass-title").text == f"Pass the device to seat {seat}", where
    button = page.by_id("pass-show")
    assert button.text == f"I am seat {seat}, show my hand", where
    assert page.driver.switch_to.active_element == button, f"{where}: the focus is on the button"
    assert f"Pass the device to seat {seat}" in page.by_id("turn").text, where
    assert not page.by_id("hand-area").is_displayed(), where
    found = page.driver.execute_script(TILES_IN_PAGE)
    assert found["named"] == [], f"{where}: tiles or moves in the page: {found['named']}"
    assert found["hand"] == 0 and found["log"] == 0 and found["table"] == 0, (where, found)
    # no tile of any seat's hand is named anywhere in the match's part of the page
    hands = set()
    for person in range(MATCH.players):
        hands |= set(names(view(servers, state["token"], person)["hand"]))
    assert not TILE_NAME.search(found["text"]), f"{where}: {found['text']!r}"
    assert not (hands & set(TILE_NAME.findall(found["html"]))), where
    return int(seat)


def check_own_view(page: Playground, servers: Servers, where: str) -> int:
    """The person to act sees their own seat's view: the hand GetView gives that seat."""
    state = state_of(page)
    seat = state["seat"]
    assert not state["passing"] and seat in state["people"], (where, state)
    assert not page.by_id("pass").is_displayed(), where
    if state["status"] == "IN_PROGRESS":
        assert state["to_act"] == seat, (where, state)
        assert page.by_id("turn").text.startswith(f"Your turn, seat {seat}"), where
    own = view(servers, state["token"], seat)
    assert sorted(page.hand_tiles()) == names(own["hand"]), where
    for other in state["people"]:
        if other != seat:
            theirs = set(names(view(servers, state["token"], other)["hand"]))
            assert not theirs & set(page.hand_tiles()), f"{where}: seat {other}'s tiles shown"
    assert f"(seat {seat})" in page.by_id("hand-title").text, where
    return int(seat)


def check_undo(page: Playground, last_person: int | None, seat: int, where: str) -> None:
    """Undo, after a person's move this hand: on for that person's own, off (with why, in
    words) when another person moved last."""
    undo = page.driver.find_elements(By.ID, "undo")
    if last_person is None:
        assert not undo, f"{where}: Undo with no move of a person's this hand"
        return
    assert undo, f"{where}: no Undo shown after seat {last_person}'s move"
    if last_person == seat:
        assert undo[0].is_enabled(), where
        return
    assert not undo[0].is_enabled(), f"{where}: Undo across another person's turn"
    why = page.by_id("undo-why").text.replace("\u2019", "'")
    assert undo[0].get_attribute("aria-describedby") == "undo-why"
    assert f"seat {last_person}'s" in why and "another person's turn" in why, why
    assert not re.search(r"\b[A-Z]{2,}_[A-Z_]+\b", why), why


def make_a_move(page: Playground, rng: random.Random) -> dict[str, Any]:
    buttons = page.move_buttons()
    assert buttons, "a person is to act, and no move is offered"
    choice = rng.choice(buttons)
    move: dict[str, Any] = json.loads(str(choice.get_attribute("data-move")))
    opens = choice.get_attribute("aria-haspopup") == "dialog"
    choice.click()
    if opens:
        choices = page.wait(lambda _: page.move_buttons("#prompt [data-move]"), "a prompt")
        pick = rng.choice(choices)
        move = json.loads(str(pick.get_attribute("data-move")))
        pick.click()
    return move


@pytest.mark.parametrize("size", list(SIZES))
def test_two_people_and_two_bots_play_a_partnership_to_the_end(
    browser: Chrome,
    servers: Servers,
    artifacts: Path,
    axe_script: str,
    axe_report: list[str],
    size: str,
) -> None:
    set_viewport(browser, *SIZES[size])
    page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
    page.set_up(MATCH)
    rng = random.Random(17)
    after, moves, passes, seen_people = ("", ""), 0, 0, set()
    reloaded = {"pass": False, "you": False}
    last_person: int | None = None  # the person who moved last this hand
    while (waiting := await_turn(page, after)) != "over":
        after = (page.version(), waiting)
        if waiting == "pass":
            passes += 1
            seat = check_pass_screen(page, servers, f"pass screen {passes}")
            if passes == 1:
                page.screenshot(artifacts / f"pass-{size}.png")
                page.axe_clean(axe_script, axe_report, f"{size} pass screen")
            if passes == 2 and not reloaded["pass"]:
                reloaded["pass"] = True
                browser.refresh()
                assert await_turn(page, ("", "")) == "pass"
                assert state_of(page)["resumed"]
                assert check_pass_screen(page, servers, "after a reload") == seat
            page.by_id("pass-show").click()
            continue
        seat = check_own_view(page, servers, f"move {moves}")
        seen_people.add(seat)
        check_seats_of(page, seat)
        if page.status() == "HAND_OVER":
            last_person = None
        else:
            check_undo(page, last_person, seat, f"move {moves}")
        if moves == 6 and not reloaded["you"]:
            # a reload on a person's turn: whoever holds the device now says who they are
            reloaded["you"] = True
            browser.refresh()
            assert await_turn(page, ("", "")) == "pass"
            assert check_pass_screen(page, servers, "after a reload on a turn") == seat
            after = (page.version(), "pass")
            page.by_id("pass-show").click()
            continue
        if moves == 4:
            page.screenshot(artifacts / f"pass-sides-{size}.png")
            page.axe_clean(axe_script, axe_report, f"{size} pass-and-play, a person's turn")
        move = make_a_move(page, rng)
        last_person = None if move["kind"] == "NEXT_HAND" else seat
        moves += 1
    state = state_of(page)
    assert state["status"] == "MATCH_OVER"
    assert seen_people == {0, 2}, seen_people
    assert passes >= 4 and all(reloaded.values()), (passes, reloaded)
    # each person's record: their seat's own, VALID once the seed is out
    records = {s: browser.execute_script(f"return window.dominoRecord({s})") for s in (0, 2)}
    for seat, record in records.items():
        assert record["viewpoint"] == "SEAT" and record["seat"] == seat, record
        status, answer = post(servers, "/v1/records:replay", {"record": record})
        assert status == 200, answer
        assert answer["verdict"] == "VALID", (seat, answer.get("divergence"))
    # the same match, move for move, as each saw it (Block lays every tile face up)
    assert records[0]["moves"] == records[2]["moves"]
    assert browser.execute_script("return window.dominoRecord(1)") is None, "a bot's record"
    assert page.severe_console_messages() == []
    print(f"{size}: {moves} moves by people, {passes} pass screens")


def check_seats_of(page: Playground, seat: int) -> None:
    """The seat cards from the person's side: at seat 0 as in a one-person match; the
    other person's card says it is a person's, the bots' their level."""
    if seat == 0:
        check_seats(page)
    cards = page.driver.find_elements(By.CSS_SELECTOR, "#seats [data-seat]")
    text = {int(str(c.get_attribute("data-seat"))): c.text for c in cards}
    other = 2 - seat
    assert "a person" in text[other] and "your partner" in text[other], text
    assert "Random bot" in text[1] and "Random bot" in text[3], text


def taken_back(page: Playground, undos: int, _: Chrome) -> bool:
    """Whether the person is to act again, with ``undos`` moves left to take back."""
    return page.waiting() == "you" and state_of(page)["undo"] == undos


def test_a_person_takes_back_a_move_when_their_own_turn_comes_next(
    browser: Chrome, servers: Servers
) -> None:
    """In One Arm Joe a person may act twice in a row (a double's bonus turn): no pass
    screen comes between, and the person may take their move back; across the other
    person's turn, never."""
    set_viewport(browser, *SIZES["desktop"])
    page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
    page.set_up(Match("one_arm_joe", 3, 0, "GREEDY", "a bonus turn", {}, people=(1,)))
    rng = random.Random(3)
    after: tuple[str, str] = ("", "")
    last_person: int | None = None
    taken = False
    while (waiting := await_turn(page, after)) != "over" and not taken:
        after = (page.version(), waiting)
        if waiting == "pass":
            page.by_id("pass-show").click()
            continue
        state = state_of(page)
        seat = state["seat"]
        if state["status"] == "HAND_OVER":
            last_person = None
        else:
            check_undo(page, last_person, seat, f"version {state['version']}")
        if last_person == seat and state["status"] == "IN_PROGRESS":
            page.by_id("undo").click()
            page.wait(partial(taken_back, page, state["undo"] - 1), "the undo")
            back = state_of(page)
            assert back["version"] < state["version"]
            assert back["seat"] == seat and back["to_act"] == seat and not back["passing"]
            own = view(servers, back["token"], seat)
            assert sorted(page.hand_tiles()) == names(own["hand"])
            assert "You take back your move" in page.by_id("log").text
            record = browser.execute_script(f"return window.dominoRecord({1 - seat})")
            assert record["moves"][-1]["undo"] >= 1
            taken = True
            break
        move = make_a_move(page, rng)
        last_person = None if move["kind"] == "NEXT_HAND" else seat
    assert taken, "no bonus turn came to a person in this match: choose another seed"
    assert page.severe_console_messages() == []


def test_a_reload_while_a_bot_plays_keeps_every_hand_hidden(
    browser: Chrome,
    servers: Servers,
    axe_script: str,
    axe_report: list[str],
) -> None:
    """After a reload nobody knows who holds the device: while the bots play on, every hand
    stays hidden, and then the pass screen names the person to act."""
    set_viewport(browser, *SIZES["phone"])
    page = fresh_page(browser, f"{servers.http_base}/play?delay=4000")
    page.set_up(MATCH)
    # the person who set the match up sees their hand while the bot at seat 1 leads
    page.wait(lambda _: page.hand_tiles(), "seat 0's hand")
    assert state_of(page)["to_act"] == 1 and page.version() == "0"
    browser.refresh()
    page.wait(lambda _: page.by_id("pass").is_displayed(), "the hands hidden")
    assert page.waiting() == "" and state_of(page)["passing"]
    assert page.by_id("pass-title").text == "The hands are hidden"
    assert not browser.find_elements(By.ID, "pass-show"), "a person asked for while a bot plays"
    assert "Seat 1 (Random bot) is thinking" in page.by_id("turn").text
    found = browser.execute_script(TILES_IN_PAGE)
    assert found["named"] == [] and found["hand"] == 0 and found["log"] == 0, found
    page.axe_clean(axe_script, axe_report, "phone pass screen while a bot plays")
    assert await_turn(page, ("", "")) == "pass"
    assert check_pass_screen(page, servers, "after the bot's move") == 2
    assert page.severe_console_messages() == []


def test_the_setup_seats_people_and_bots(
    browser: Chrome, servers: Servers, artifacts: Path, axe_script: str, axe_report: list[str]
) -> None:
    """Under More options each seat is a person's or a bot's; "Your seat" and "Bots play"
    set them the short way; a table of bots only is refused in words."""
    set_viewport(browser, *SIZES["phone"])
    page = fresh_page(browser, f"{servers.http_base}/play?ruleset=block")
    if not page.by_id("setup-box").get_attribute("open"):
        page.driver.find_element(By.CSS_SELECTOR, "#setup-box > summary").click()
    Select(page.by_id("ruleset")).select_by_value("block")
    Select(page.by_id("players")).select_by_value("4")
    Select(page.by_id("seat")).select_by_value("0")
    page.open_more_options()

    def seats() -> list[str]:
        return [
            str(Select(page.by_id(f"who-{s}")).first_selected_option.get_attribute("value"))
            for s in range(4)
        ]

    level = str(Select(page.by_id("level")).first_selected_option.get_attribute("value"))
    assert seats() == ["PERSON", level, level, level]
    labels = [o.text for o in Select(page.by_id("who-1")).options]
    assert labels[0] == "A person" and all(label.endswith(" bot") for label in labels[1:]), labels
    Select(page.by_id("who-2")).select_by_value("PERSON")
    Select(page.by_id("level")).select_by_value("RANDOM")
    assert seats() == ["PERSON", "RANDOM", "PERSON", "RANDOM"], "Bots play sets the bots only"
    Select(page.by_id("seat")).select_by_value("3")
    assert seats() == ["RANDOM", "RANDOM", "PERSON", "PERSON"], "Your seat moves the person"
    width = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the form scrolls sideways: {width}"
    page.screenshot(artifacts / "pass-setup-phone.png")
    page.axe_clean(axe_script, axe_report, "phone setup, who plays each seat")

    for seat in (2, 3):
        Select(page.by_id(f"who-{seat}")).select_by_value("GREEDY")
    assert seats() == ["RANDOM", "RANDOM", "GREEDY", "GREEDY"]
    page.start()
    page.wait(lambda _: page.by_id("error").is_displayed(), "the refusal")
    said = page.by_id("error").text
    assert "choose “A person” for at least one seat" in said, said
    assert page.state() is None and not page.by_id("game").is_displayed()
    assert page.severe_console_messages() == []
