"""The playground as a table a person comes back to, in headless Chromium at a desktop's
1280x800 and a phone's 390x844, against a real served service:

- on every turn of a whole match of every ruleset, the hand, the legal-move controls
  (and a prompt's choices), the open ends (or open half, or lake) and the last move lie
  inside the window with no scrolling, under the sticky status line; on the phone, every
  tile of the hand and of the open ends is 32 px or more on its short side;
- the status speaks plain words (no IN_PROGRESS, HAND_OVER or MATCH_OVER to read), seats
  carry their bot's level, the rules link leads to the ruleset's part of /how-to-play, the log
  is a live region, and the focus is on the first legal move whenever the turn comes back;
- a hand's end shows how it was decided (the service's reason), every hand and a running
  table of scores; the match's end offers Rematch, which deals the same match again with a
  new seed, and New match, the form set as the match was;
- a reload resumes the same token, and the match can be abandoned; Undo restores the hand
  before the person's move and the record holds the take-back; a laid tile slides in,
  except with prefers-reduced-motion;
- axe-core finds no serious or critical violation on the start page, mid-match and at the
  match's end.

Screenshots of start, mid-match and match over at both sizes go to the directory the
``artifacts`` fixture prints; the axe counts are printed at the end of the run.
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By

from ..support.servers import Servers
from .page import MOVES, Match, Playground, post, set_viewport
from .test_playground import MATCHES

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = [pytest.mark.slow, pytest.mark.serial("chromium")]

#: The window's inner size: a desktop and a phone.
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
#: The statuses as the service names them: never what a person reads.
STATUS_NAMES = ("IN_PROGRESS", "HAND_OVER", "MATCH_OVER")
#: The smallest short side of a tile a person acts with or on, on a phone (CSS px).
PHONE_TILE = 32
#: A rulebook tag, as the service's sentences cite the rules ("[BLK-10]"), with its space.
RULE_TAG = re.compile(r"\s*\[[A-Z][A-Z0-9]*-\d+[a-z]?\]")
#: The move after which a match's mid-match screenshot (and axe run) is taken.
MID = 4

#: One turn as the person sees it: the boxes that must be on screen, the tiles' sizes,
#: what the page says in words, and where the focus is. Waits for animations to end.
TURN = """
const done = arguments[arguments.length - 1];
Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))).then(() => {
  const shown = (e) => e.getClientRects().length > 0 && !e.closest("[hidden]");
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  // a tile's size as drawn: its face, and the face's outline around it
  const faces = (e) => [...e.querySelectorAll(".face")].map((f) => {
    const r = f.getBoundingClientRect();
    const outline = parseFloat(getComputedStyle(f).strokeWidth) * (r.width / f.width.baseVal.value);
    return [r.width + outline, r.height + outline];
  });
  const boxes = [["the hand", box(document.getElementById("hand"))]];
  const moves = arguments[0].flatMap((selector) => [...document.querySelectorAll(selector)])
    .filter((b) => shown(b) && !b.disabled);
  for (const b of moves) {
    boxes.push([`the move "${b.getAttribute("aria-label") || b.textContent.trim()}"`, box(b)]);
  }
  const ends = [...document.querySelectorAll("#table [data-open-end]")];
  for (const e of ends) boxes.push([`the open end "${e.dataset.openEnd}"`, box(e)]);
  const last = document.getElementById("last-move");
  if (shown(last)) boxes.push(["the last move", box(last)]);
  const tiles = faces(document.getElementById("hand")).map((s) => ["a hand tile", ...s]);
  for (const b of moves) tiles.push(...faces(b).map((s) => ["a tile on a move's button", ...s]));
  for (const e of ends) {
    tiles.push(...faces(e).map((s) => [`an open-end tile (${e.dataset.openEnd})`, ...s]));
  }
  const focused = document.activeElement;
  done({
    width: innerWidth,
    height: innerHeight,
    top: document.getElementById("status-line").getBoundingClientRect().bottom,
    scroll: scrollY,
    boxes,
    tiles,
    ends: ends.length,
    text: document.body.innerText,
    turn: document.getElementById("turn").textContent,
    focusFirst: moves.length > 0 && focused === moves[0],
    focused: focused ? focused.outerHTML.slice(0, 120) : null,
    live: document.getElementById("log").getAttribute("aria-live"),
  });
});
"""
#: The controls checked on a turn: the prompt's choices first (when it is open).
CONTROLS = ["#prompt [data-move]", *MOVES.split(", ")]


def check_turn(page: Playground, phone: bool, where: str) -> dict[str, Any]:
    """Everything the person acts with or on is inside the window, below the status line;
    tiles are big enough on a phone; the page speaks words; the focus is on the first
    legal move. Returns what was measured."""
    seen = page.driver.execute_async_script(TURN, CONTROLS)
    assert isinstance(seen, dict)
    outside = [
        f"{name} at {[round(x) for x in (left, top, right, bottom)]}"
        for name, (left, top, right, bottom) in seen["boxes"]
        if left < -0.5
        or right > seen["width"] + 0.5
        or top < seen["top"] - 0.5
        or bottom > seen["height"] + 0.5
    ]
    assert not outside, (
        f"{where}: off screen in a {seen['width']}x{seen['height']} window scrolled to "
        f"{seen['scroll']} (the status line ends at {round(seen['top'])}): {outside}"
    )
    sideways = page.driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    if sideways > 0:
        wide = page.driver.execute_script(
            """return [...document.querySelectorAll("body *")].filter((e) =>
              e.getBoundingClientRect().right > innerWidth + 0.5 && e.getClientRects().length)
              .slice(0, 5).map((e) => e.tagName + "#" + e.id + "." + e.className.baseVal
                + (typeof e.className === "string" ? e.className : ""))"""
        )
        raise AssertionError(f"{where}: the page scrolls sideways by {sideways} px: {wide}")
    if phone:
        small = [
            f"{name} {round(w)}x{round(h)}"
            for name, w, h in seen["tiles"]
            if min(w, h) < PHONE_TILE - 0.5
        ]
        assert not small, f"{where}: tiles under {PHONE_TILE} px on a phone: {small}"
    named = [name for name in STATUS_NAMES if name in seen["text"]]
    assert not named, f"{where}: the page shows {named} to the person"
    assert seen["live"] == "polite", f"{where}: the log is not a live region"
    assert seen["focusFirst"], f"{where}: the focus is on {seen['focused']}, not the first move"
    return seen


def assert_how_to_play(url: str, ruleset: str) -> None:
    """The how-to-play page at ``url`` has the ruleset's section. While the page is not
    served (it is built apart from the playground), only the link itself is checked."""
    try:
        with urllib.request.urlopen(url) as answer:
            text = answer.read().decode()
    except urllib.error.HTTPError as error:
        assert error.code == 404, error
        return
    assert f'id="{ruleset}"' in text, f"{url} has no section for {ruleset}"


def record_axe(page: Playground, script: str, report: list[str], name: str) -> dict[str, int]:
    """Run axe-core on the page; add a line to the report; return the counts by impact."""
    found = page.axe(script)
    counts = {impact: len(found.get(impact, [])) for impact in ("critical", "serious")}
    others = {k: len(v) for k, v in found.items() if k not in counts}
    report.append(
        f"{name}: {counts['critical']} critical, {counts['serious']} serious"
        + (f" (and {others})" if others else "")
    )
    print(report[-1])
    grave = found.get("critical", []) + found.get("serious", [])
    assert not grave, f"{name}: axe-core finds {grave}"
    return counts


def reduce_motion(driver: Chrome, reduce: bool) -> None:
    """Set the browser's prefers-reduced-motion as a person who asks for it (or not)."""
    features = [{"name": "prefers-reduced-motion", "value": "reduce"}] if reduce else []
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Chrome) -> Iterator[tuple[str, Chrome]]:
    """The browser at one of the two sizes. Motion is reduced: the boxes are measured
    where the tiles come to rest, with no animation to wait for on every turn."""
    width, height = SIZES[request.param]
    set_viewport(browser, width, height)
    reduce_motion(browser, True)
    try:
        yield request.param, browser
    finally:
        reduce_motion(browser, False)


def fresh_page(driver: Chrome, url: str) -> Playground:
    """The page with no match kept from an earlier one: the storage is cleared from another
    page of the same origin, where no playground can save its match again meanwhile."""
    parts = urllib.parse.urlsplit(url)
    driver.get(f"{parts.scheme}://{parts.netloc}/v1/rulesets")
    driver.execute_script("localStorage.clear()")
    return Playground(driver, url)


def choose(page: Playground, rng: random.Random, phone: bool, where: str) -> dict[str, Any]:
    """Make one of the moves on offer (through the prompt when the tile opens one, whose
    choices are checked on screen too); the move made."""
    buttons = page.move_buttons()
    assert buttons, f"{where}: the person is to act, and no move is offered"
    choice = rng.choice(buttons)
    move = json.loads(str(choice.get_attribute("data-move")))
    prompts = choice.get_attribute("aria-haspopup") == "dialog"
    choice.click()
    if prompts:
        choices = page.wait(lambda _: page.move_buttons("#prompt [data-move]"), "the prompt")
        check_turn(page, phone, f"{where}, the prompt")
        pick = rng.choice(choices)
        move = json.loads(str(pick.get_attribute("data-move")))
        pick.click()
    assert isinstance(move, dict)
    return move


def check_hand_end(page: Playground, servers: Servers, players: int, where: str) -> None:
    """At a hand's end: the service's reason for it, every seat's hand as the service
    shows it (the person's own at least), and a row per hand in the running table."""
    state = page.state()
    assert state is not None
    status, score = post(servers, "/v1/games:score", {"state": state["token"]})
    assert status == 200, score
    last = score["hands"][-1]
    reason = page.by_id("hand-reason").text
    if last.get("reason"):
        # the service's sentence, without the rulebook's tags ("[BLK-10]")
        assert reason == RULE_TAG.sub("", last["reason"]), where
        assert not RULE_TAG.search(reason), f"{where}: a rule tag shown to players"
    else:
        assert reason, f"{where}: the hand's end is not explained"
    status, view = post(servers, "/v1/games:view", {"state": state["token"], "seat": state["seat"]})
    assert status == 200, view
    shown = page.driver.execute_script(
        """
        return [...document.querySelectorAll("#result .shown-hands li[data-seat]")].map((li) =>
          [...li.querySelectorAll("svg[role=img]")].map((s) => s.getAttribute("aria-label")));
        """
    )
    assert len(shown) == players, f"{where}: {len(shown)} hands shown for {players} seats"
    names = [
        [f"{t.get('high', 0)}-{t.get('low', 0)}" for t in hand.get("tiles", [])]
        for hand in view.get("shown_hands", [])
    ]
    if names:
        assert shown == names, f"{where}: the hands shown are not the service's"
    else:  # a service that shows no hands: the person's own tiles at least
        own = [f"{t.get('high', 0)}-{t.get('low', 0)}" for t in view["hand"]]
        assert shown[state["seat"]] == own, where
    rows = page.driver.find_elements(By.CSS_SELECTOR, "#result table.history tbody tr")
    assert len(rows) == len(score["hands"]), f"{where}: the running table misses a hand"


@pytest.mark.parametrize("match", MATCHES, ids=[m.ruleset for m in MATCHES])
def test_everything_to_act_on_is_on_screen_on_every_turn_then_a_rematch(
    sized: tuple[str, Chrome],
    servers: Servers,
    artifacts: Path,
    axe_script: str,
    axe_report: list[str],
    match: Match,
    request: pytest.FixtureRequest,
) -> None:
    size, driver = sized
    phone = size == "phone"
    page = Playground(driver, f"{servers.http_base}/play?delay=0")
    page.set_up(match)
    rng = random.Random(match.seed)  # the moves test_playground makes: two hands at least
    version, turns, hand_ends = "", 0, 0
    while page.await_person(version) == "you":
        version = page.version()
        where = f"{size} {match.ruleset}, turn {turns} (version {version})"
        seen = check_turn(page, phone, where)
        if page.status() == "HAND_OVER":
            hand_ends += 1
            check_hand_end(page, servers, match.players, where)
        else:
            assert seen["turn"] == "Your turn", f"{where}: {seen['turn']!r}"
        if turns == MID:
            driver.save_screenshot(str(artifacts / f"{size}-{match.ruleset}-mid-match.png"))
            record_axe(page, axe_script, axe_report, f"{size} {match.ruleset} mid-match")
        choose(page, rng, phone, where)
        turns += 1
    assert turns > MID and hand_ends >= 1, (turns, hand_ends)

    # the match's end, in words, with Rematch and New match in the window
    assert page.status() == "MATCH_OVER"
    turn = page.by_id("turn").text
    assert turn.startswith("Match over — ") and ("win" in turn or "share" in turn), turn
    rematch, new = page.by_id("rematch"), page.by_id("new-match")
    outside = driver.execute_script(
        "return arguments[0].every((b) => { const r = b.getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })",
        [rematch, new],
    )
    assert outside, "Rematch and New match are not in the window at the match's end"
    assert driver.switch_to.active_element == rematch, "the focus is not on Rematch"
    level = match.level.capitalize()
    assert page.by_id("seats").text.count(f"{level} bot") == match.players - 1
    link = page.by_id("rules-link")
    assert str(link.get_attribute("href")).endswith(f"/how-to-play#{match.ruleset}")
    assert_how_to_play(str(link.get_attribute("href")), match.ruleset)
    page.wait(
        lambda d: d.find_element(By.CSS_SELECTOR, "#seed-check[data-verified]"), "the seed check"
    )
    driver.save_screenshot(str(artifacts / f"{size}-{match.ruleset}-match-over.png"))
    record_axe(page, axe_script, axe_report, f"{size} {match.ruleset} match over")
    assert page.severe_console_messages() == []

    # Rematch: the same ruleset, options and seats, a new seed (so a new game and commitment)
    before = page.state()
    assert before is not None
    rematch.click()
    page.await_person()
    after = page.state()
    assert after is not None
    for key in ("ruleset", "players", "seat", "level", "options"):
        assert after[key] == before[key], key
    assert after["game_id"] != before["game_id"]
    assert after["seed_commitment"] != before["seed_commitment"]
    record = page.record()
    assert "seed" not in record and record["game_id"] == after["game_id"]
    assert all(m["move"].get("seat", 0) != match.seat for m in record["moves"]), (
        "a move was made for you"
    )
    check_turn(page, phone, f"{size} {match.ruleset}, the rematch's first turn")
    print(f"{size} {match.ruleset}: {turns} turns, {hand_ends} hands ended, then a rematch")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_start_page(
    browser: Chrome,
    servers: Servers,
    artifacts: Path,
    axe_script: str,
    axe_report: list[str],
    size: str,
) -> None:
    set_viewport(browser, *SIZES[size])
    page = fresh_page(browser, f"{servers.http_base}/play")
    assert not page.by_id("game").is_displayed()
    assert page.by_id("setup-box").get_attribute("open") is not None
    text = str(browser.execute_script("return document.body.innerText"))
    assert not [name for name in STATUS_NAMES if name in text]
    levels = [o.text for o in page.by_id("level").find_elements(By.TAG_NAME, "option")]
    assert levels and not [text for text in levels if text.split(":")[0].isupper()], levels
    browser.save_screenshot(str(artifacts / f"{size}-start.png"))
    record_axe(page, axe_script, axe_report, f"{size} start page")
    assert page.severe_console_messages() == []


@pytest.mark.parametrize("ruleset", [m.ruleset for m in MATCHES])
def test_start_is_in_view_on_a_phone_for_every_ruleset(
    browser: Chrome,
    servers: Servers,
    artifacts: Path,
    axe_script: str,
    axe_report: list[str],
    ruleset: str,
) -> None:
    """At 390x844, with the ruleset chosen, "Start the match" lies in the window with no
    scrolling: the game's options wait, folded, under "More options", in words."""
    set_viewport(browser, *SIZES["phone"])
    page = fresh_page(browser, f"{servers.http_base}/play?ruleset={ruleset}")
    assert page.by_id("ruleset").get_attribute("value") == ruleset
    box = browser.execute_script(
        "const r = document.getElementById('start').getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight, scrollY];"
    )
    left, top, right, bottom, width, height, scrolled = box
    print(f"phone {ruleset}: Start at y = {top:.0f}..{bottom:.0f} of {height}")
    assert scrolled == 0
    assert left >= 0 and right <= width and top >= 0 and bottom <= height, (ruleset, box)
    assert not page.by_id("more-options").is_displayed(), "the options are not folded"
    toggle = page.by_id("more-toggle")
    assert toggle.text.endswith("More options") and toggle.get_attribute("aria-expanded") == "false"
    page.open_more_options()
    text = str(page.by_id("setup").text)
    tags = RULE_TAG.findall(text)
    assert not tags, f"rule tags shown to players: {tags}"
    assert not re.findall(r"\b[A-Z]{2,}_[A-Z_]+\b", text), "an option's value in capitals"
    page.screenshot(artifacts / f"phone-{ruleset}-more-options.png")
    found = page.axe(axe_script)
    axe_report.append(f"phone {ruleset} start page, More options open: {found or 0} violations")
    assert not found, f"axe-core finds {found}"


def test_a_reload_resumes_the_same_token_and_the_match_can_be_abandoned(
    browser: Chrome, servers: Servers
) -> None:
    set_viewport(browser, *SIZES["desktop"])
    url = f"{servers.http_base}/play?delay=0"
    page = fresh_page(browser, url)
    page.set_up(Match("one_arm_joe", 3, 1, "GREEDY", "a reload", {"target_score": "200"}))
    rng, version = random.Random(11), ""
    for turn in range(3):
        assert page.await_person(version) == "you"
        version = page.version()
        choose(page, rng, False, f"turn {turn}")
    assert page.await_person(version) == "you"
    state, record, hand = page.state(), page.record(), page.hand_tiles()
    log = page.by_id("log").text
    assert state is not None and record["moves"]
    saved = page.saved_match()
    assert saved is not None and saved["token"] == state["token"]

    browser.refresh()
    page.await_person()
    resumed = page.state()
    assert resumed is not None and resumed["resumed"]
    for key in ("token", "version", "game_id", "seed_commitment", "seat", "options"):
        assert resumed[key] == state[key], key
    assert page.record() == record
    assert page.hand_tiles() == hand
    assert page.by_id("log").text == log
    assert page.by_id("setup-box").get_attribute("open") is None
    check_turn(page, False, "after the reload")
    # and the resumed token plays on
    version = page.version()
    choose(page, rng, False, "after the reload")
    page.await_person(version)
    assert int(page.version()) > int(version)

    page.by_id("abandon").click()
    page.wait(lambda _: page.by_id("abandon-yes").is_displayed(), "the question")
    assert browser.switch_to.active_element == page.by_id("abandon-no")
    page.by_id("abandon-yes").click()
    page.wait(lambda _: not page.by_id("game").is_displayed(), "the match to go")
    assert page.state() is None and page.saved_match() is None
    assert page.by_id("setup-box").get_attribute("open") is not None
    assert browser.switch_to.active_element == page.by_id("ruleset")
    browser.refresh()
    page = Playground(browser, url)
    assert not page.by_id("game").is_displayed() and page.state() is None
    assert page.severe_console_messages() == []


def test_undo_restores_the_hand_and_the_record_holds_the_take_back(
    browser: Chrome, servers: Servers
) -> None:
    set_viewport(browser, *SIZES["phone"])
    page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
    page.set_up(
        Match("block", 3, 0, "GREEDY", "take it back", {"draw": "true", "target_score": "0"})
    )
    page.await_person()
    assert not browser.find_elements(By.ID, "undo"), "Undo before any move of the person's"
    rng = random.Random(5)
    hand, state, version = page.hand_tiles(), page.state(), page.version()
    assert state is not None
    move = choose(page, rng, True, "the first turn")
    page.await_person(version)
    after = page.state()
    assert after is not None and after["status"] == "IN_PROGRESS", "pick a seed that plays on"
    if move.get("tile"):
        assert page.hand_tiles() != hand
    undo = page.by_id("undo")
    assert undo.get_attribute("aria-label") == "Undo your last move"
    taken = after["version"] - state["version"]
    assert taken >= 2, "the bots moved after the person"

    undo.click()
    page.wait(
        lambda _: page.waiting() == "you" and page.version() == str(state["version"]), "the undo"
    )
    back = page.state()
    assert back is not None
    assert back["token"] == state["token"] and back["version"] == state["version"]
    assert page.hand_tiles() == hand
    record = page.record()
    assert record["moves"][-1] == {"undo": taken}
    assert sum(1 for m in record["moves"] if "move" in m) == state["version"] + taken
    assert "You take back your move" in page.by_id("log").text
    check_turn(page, True, "after the undo")  # the focus is back on the first move
    assert not browser.find_elements(By.ID, "undo"), "a second undo of the same move"

    page.play_to_the_end(rng)
    record = page.record()
    assert record["seed"] == "take it back" and {"undo": taken} in record["moves"]

    # New match: the form again, set as this match was; nothing kept for a reload
    page.by_id("new-match").click()
    page.wait(lambda _: not page.by_id("game").is_displayed(), "the form")
    assert page.state() is None and page.saved_match() is None
    assert page.by_id("setup-box").get_attribute("open") is not None
    assert page.by_id("ruleset").get_attribute("value") == "block"
    assert page.by_id("option-draw").is_selected()
    assert page.by_id("players").get_attribute("value") == "3"
    assert browser.switch_to.active_element == page.by_id("ruleset")
    status, answer = post(servers, "/v1/records:replay", {"record": record})
    if status == 400 and "undo" in json.dumps(answer):
        pytest.skip(f"the service does not replay a record's take-back yet: {answer['message']}")
    assert status == 200, answer
    assert answer["verdict"] == "VALID", answer.get("divergence")


def test_a_laid_tile_slides_in_unless_motion_is_reduced(browser: Chrome, servers: Servers) -> None:
    set_viewport(browser, *SIZES["desktop"])

    def moves_animated(page: Playground, turns: int) -> int:
        """Count the animations the page starts over ``turns`` of the person's."""
        browser.execute_script(
            """
            window.animationsStarted = 0;
            const animate = Element.prototype.animate;
            Element.prototype.animate = function (...args) {
              window.animationsStarted += 1;
              return animate.apply(this, args);
            };
            """
        )
        rng, version = random.Random(3), ""
        for turn in range(turns):
            if page.await_person(version) != "you":
                break
            version = page.version()
            choose(page, rng, False, f"turn {turn}")
        page.await_person(version)
        return int(browser.execute_script("return window.animationsStarted"))

    page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
    page.set_up(Match("block", 2, 0, "GREEDY", "slides", {"target_score": "0"}))
    page.await_person()
    assert moves_animated(page, 3) > 0

    reduce_motion(browser, True)
    try:
        page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
        page.set_up(Match("block", 2, 0, "GREEDY", "slides", {"target_score": "0"}))
        page.await_person()
        assert moves_animated(page, 3) == 0
    finally:
        reduce_motion(browser, False)
