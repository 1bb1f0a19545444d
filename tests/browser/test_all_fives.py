"""All Fives in the playground (ruleset ``all_fives``, drawn as the layout CROSS), in
headless Chromium against a real served service:

- the setup offers the ruleset's profiles as "Rules variant", the first chosen at first;
  choosing one sets every option as the profile says, an option changed under it shows
  "Your own options", and the match is dealt with the options the form shows;
- a match of each profile is played to its end, the person's seat playing the moves the
  GREEDY bot suggests for it (found among the page's buttons and clicked); every score made
  during play is told with its count ("Count 15: seat 1 scores 15"), in the last moves and
  in the log, and the score of each side is the service's;
- at a phone's 390x844 and a desktop's 1280x800, after many plays, the cross (the line
  through the spinner, UP above it, DOWN below) lies inside the window with no sideways
  scroll, its open ends labelled with the service's numbers and the count;
- a match that ends the moment a side reaches the target says so in its banner;
- axe-core finds no violation at all on the setup with all_fives chosen and mid-match.

Screenshots of the cross at both sizes go to the directory the ``artifacts`` fixture
prints: ``all_fives-cross-phone.png`` and ``all_fives-cross-desktop.png``.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from domino_rules import games
from domino_rules.rules.errors import UnknownRulesetError

from ..support.servers import Servers
from .page import Match, Playground, post, set_viewport
from .test_playground_ux import SIZES, check_turn, fresh_page, reduce_motion

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = [pytest.mark.slow, pytest.mark.serial("chromium")]

RULESET = "all_fives"


def _profiles() -> list[str]:
    try:
        return [profile.id for profile in games.get(RULESET).ruleset.profiles]
    except UnknownRulesetError:
        return []  # test_all_fives_is_served_drawn_as_a_cross says what is missing


#: The profiles the catalogue serves for all_fives, in its order.
PROFILES = _profiles()
#: A score told with its count, as the page words it.
PEG_WORDS = re.compile(r"Count (\d+): (you score|seat \d scores) (\d+)")
#: The most moves of the person's a match may take before the test gives up.
MAX_TURNS = 400


def catalogue_entry(servers: Servers) -> dict[str, Any]:
    """The catalogue's entry of all_fives, as ListRulesets serves it."""
    with urllib.request.urlopen(f"{servers.http_base}/v1/rulesets") as answer:
        rulesets = json.loads(answer.read())["rulesets"]
    found = [info for info in rulesets if info["id"] == RULESET]
    assert found, f"{RULESET} is not served: {[info['id'] for info in rulesets]}"
    entry = found[0]
    assert isinstance(entry, dict)
    return entry


def profile_values(info: dict[str, Any], profile: dict[str, Any]) -> dict[str, str]:
    """Every option's value under ``profile`` as the form writes it ("true", "NONE", "61"):
    an option the profile leaves unset (or at an enum's ..._UNSPECIFIED) at its default."""
    own = profile.get("options", {}).get(info["id"], {})
    values = {}
    for option in info["options"]:
        value = own.get(option["name"])
        if value is None or (isinstance(value, str) and value.endswith("_UNSPECIFIED")):
            values[option["name"]] = option["default"]
        elif isinstance(value, bool):
            values[option["name"]] = "true" if value else "false"
        else:
            values[option["name"]] = str(value)
    return values


def form_values(page: Playground) -> dict[str, str]:
    """The option fields' values as the form holds them (a number field left empty shows
    "default" and stands for 0, the value the rules read as their default)."""
    found = page.driver.execute_script(
        """
        const fields = [...document.querySelectorAll("#options [data-option]")];
        return Object.fromEntries(fields.map((input) => [input.dataset.option,
          input.dataset.type === "bool" ? String(input.checked)
            : input.value === "" && input.placeholder === "default" ? "0" : input.value]));
        """
    )
    assert isinstance(found, dict)
    return {str(k): str(v) for k, v in found.items()}


def view_of(page: Playground, servers: Servers) -> dict[str, Any]:
    """The person's view of the match on the page, from the service."""
    state = page.state()
    assert state is not None
    status, view = post(servers, "/v1/games:view", {"state": state["token"], "seat": state["seat"]})
    assert status == 200, view
    return view


def same_move(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("kind", "seat", "tile", "end", "target")
    return all(a.get(k) == b.get(k) for k in keys)


def play_greedy(page: Playground, servers: Servers) -> dict[str, Any]:
    """Make the move the GREEDY bot suggests for the person: its button, or its tile's
    button and then the prompt's choice. The move made."""
    state = page.state()
    assert state is not None
    status, answer = post(
        servers,
        "/v1/games:suggestMove",
        {"state": state["token"], "seat": state["seat"], "level": "GREEDY"},
    )
    assert status == 200, answer
    move = answer["move"]
    for button in page.move_buttons():
        offered = json.loads(str(button.get_attribute("data-move")))
        if button.get_attribute("aria-haspopup") == "dialog":
            if not all(move.get(k) == v for k, v in offered.items()):
                continue
            button.click()
            choices = page.wait(lambda _: page.move_buttons("#prompt [data-move]"), "the prompt")
            for choice in choices:
                if same_move(json.loads(str(choice.get_attribute("data-move"))), move):
                    choice.click()
                    return dict(move)
            raise AssertionError(f"the prompt offers no button for {move}")
        if same_move(offered, move):
            button.click()
            return dict(move)
    raise AssertionError(f"no button makes the suggested move {move}")


def layout_size(table: dict[str, Any]) -> int:
    return len(table.get("line", [])) + len(table.get("up", [])) + len(table.get("down", []))


def check_words(page: Playground, view: dict[str, Any], seat: int, where: str) -> None:
    """The table's words are the service's numbers: each open end, the count, and every
    score the last move made, told with its count in the last moves and in the log."""
    table = view.get(RULESET, {})
    facts = page.driver.execute_script(
        "return [...document.querySelectorAll('#table p.facts')].map((p) => p.textContent)"
    )
    text = " ".join(str(f) for f in facts)
    for name in ("left", "right", "up", "down"):
        pip = table.get(f"{name}_end")
        if pip is not None:
            assert f"{name.capitalize()} {pip}" in text, f"{where}: {name} {pip} not in {text!r}"
    if table.get("line"):
        assert f"Count {table.get('count', 0)}" in text, f"{where}: count not in {text!r}"
        label = str(
            page.driver.find_element(By.CSS_SELECTOR, "#table svg.cross").get_attribute(
                "aria-label"
            )
        )
        assert f"Count {table.get('count', 0)}." in label, label
    points = view["match_points"]
    hand = table.get("hand_points", [])
    you = f"You: {points[seat]} ({hand[seat] if hand else 0} this hand)"
    if page.driver.find_elements(By.CSS_SELECTOR, "#table .side-scores"):
        assert you in text, f"{where}: {you!r} not in {text!r}"
    else:  # a squeezed window: the seats show the scores
        seats = page.by_id("seats").text
        assert f"{points[seat]} pts · this hand {hand[seat]}" in seats, f"{where}: {seats!r}"
    last = page.by_id("last-move").text
    log = page.by_id("log").text
    for event in view.get("events", []):
        if event["kind"] != "PEG":
            continue
        who = "you score" if event["seat"] == seat else f"seat {event['seat']} scores"
        words = f"Count {event['count']}: {who} {event.get('points', 0)}"
        assert words in last, f"{where}: {words!r} not in the last moves {last!r}"
        assert words in log, f"{where}: {words!r} not in the log"


def test_all_fives_is_served_drawn_as_a_cross(servers: Servers) -> None:
    info = catalogue_entry(servers)
    assert info["drawing"]["layout"] == "CROSS"
    ids = [profile["id"] for profile in info.get("profiles", [])]
    assert ids == PROFILES and ids, ids
    assert {"all_fives", "muggins", "fives_and_threes"} <= set(ids)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_rules_variant_sets_the_options_which_can_still_change(
    browser: Chrome,
    servers: Servers,
    artifacts: Path,
    axe_script: str,
    axe_report: list[str],
    size: str,
) -> None:
    set_viewport(browser, *SIZES[size])
    info = catalogue_entry(servers)
    page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
    Select(page.by_id("ruleset")).select_by_value(RULESET)
    variant = Select(page.by_id("profile"))
    label = browser.find_element(By.CSS_SELECTOR, "label[for=profile]").text
    assert label == "Rules variant"
    assert variant.first_selected_option.get_attribute("value") == info["profiles"][0]["id"]
    assert form_values(page) == profile_values(info, info["profiles"][0])
    for profile in info["profiles"]:
        variant.select_by_value(profile["id"])
        assert form_values(page) == profile_values(info, profile), profile["id"]
        assert page.by_id("profile-help").text == profile["description"]
    browser.save_screenshot(str(artifacts / f"{size}-all_fives-setup.png"))
    found = page.axe(axe_script)
    axe_report.append(f"{size} {RULESET} setup: {sum(len(v) for v in found.values())} violations")
    assert not found, f"axe-core finds {found}"

    # an option changed under a variant: the options are the person's own
    variant.select_by_value(info["profiles"][0]["id"])
    page.open_more_options()
    target = page.by_id("option-target_score")
    target.clear()
    target.send_keys("35\t")
    assert variant.first_selected_option.get_attribute("value") == ""
    assert "match none of the variants" in page.by_id("profile-help").text
    page.by_id("seed").send_keys("a variant changed")
    page.start()
    page.await_person()
    state = page.state()
    assert state is not None
    sent = state["options"][RULESET]
    expected = profile_values(info, info["profiles"][0]) | {"target_score": "35"}
    assert {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in sent.items()} == (
        expected
    )
    assert page.severe_console_messages() == []


@pytest.mark.parametrize("profile", PROFILES)
def test_a_match_of_each_profile_is_played_to_its_end(
    browser: Chrome, servers: Servers, artifacts: Path, profile: str
) -> None:
    set_viewport(browser, *SIZES["desktop"])
    reduce_motion(browser, True)
    try:
        info = catalogue_entry(servers)
        served = next(p for p in info["profiles"] if p["id"] == profile)
        page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
        page.set_up(Match(RULESET, 2, 0, "GREEDY", f"all fives {profile}", profile=profile))
        version, turns, pegs, seen_hands = "", 0, 0, set()
        while page.await_person(version) == "you":
            version = page.version()
            where = f"{profile}, turn {turns} (version {version})"
            view = view_of(page, servers)
            if turns == 0:
                state = page.state()
                assert state is not None
                sent = state["options"][RULESET]
                assert {
                    k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in sent.items()
                } == profile_values(info, served), where
                assert page.by_id("game-title").text.startswith(served["name"])
            if view["status"] == "IN_PROGRESS":
                check_words(page, view, 0, where)
            pegs += sum(1 for e in view.get("events", []) if e["kind"] == "PEG")
            seen_hands.add(view["hand_number"])
            play_greedy(page, servers)
            turns += 1
            assert turns < MAX_TURNS, f"{where}: the match does not end"
        assert page.status() == "MATCH_OVER"
        assert pegs > 0, "no score was made during play"
        state = page.state()
        assert state is not None
        status, score = post(servers, "/v1/games:score", {"state": state["token"]})
        assert status == 200, score
        turn = page.by_id("turn").text
        assert turn.startswith("Match over — "), turn
        last = score["hands"][-1]
        if last["end"] == "TARGET_REACHED":
            assert "reached the target score" in turn, turn
            assert "reached the target score" in page.by_id("result").text
        page.wait(
            lambda d: d.find_element(By.CSS_SELECTOR, "#seed-check[data-verified]"),
            "the seed check",
        )
        assert page.by_id("seed-check").get_attribute("data-verified") == "true"
        page.screenshot(artifacts / f"all_fives-{profile}-match-over.png")
        assert page.severe_console_messages() == []
        print(f"{profile}: {turns} turns, {len(seen_hands)} hands, {pegs} scores, {last['end']}")
    finally:
        reduce_motion(browser, False)


def test_a_match_ends_the_moment_a_side_reaches_the_target(
    browser: Chrome, servers: Servers
) -> None:
    set_viewport(browser, *SIZES["phone"])
    page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
    # the first count that scores reaches a target of 5
    page.set_up(Match(RULESET, 2, 0, "GREEDY", "five to win", {"target_score": "5"}))
    version = ""
    while page.await_person(version) == "you":
        version = page.version()
        play_greedy(page, servers)
    state = page.state()
    assert state is not None
    status, score = post(servers, "/v1/games:score", {"state": state["token"]})
    assert status == 200, score
    assert score["hands"][-1]["end"] == "TARGET_REACHED", score["hands"][-1]
    turn = page.by_id("turn").text
    assert "reached the target score of 5 in the middle of hand 1" in turn, turn
    assert "reached the target score of 5" in page.by_id("result").text
    log = page.by_id("log").text
    assert PEG_WORDS.search(log), log
    assert page.severe_console_messages() == []


@pytest.mark.parametrize("size", list(SIZES))
def test_the_cross_stays_in_the_window_after_many_plays(
    browser: Chrome,
    servers: Servers,
    artifacts: Path,
    axe_script: str,
    axe_report: list[str],
    size: str,
) -> None:
    width, height = SIZES[size]
    phone = size == "phone"
    set_viewport(browser, width, height)
    reduce_motion(browser, True)
    try:
        page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
        page.set_up(Match(RULESET, 2, 0, "GREEDY", "a long cross", profile="all_fives"))
        version, turns, most, crossed, axed = "", 0, 0, 0, False
        best = (0, 0)  # the most tiles in UP and DOWN, then in all: the screenshot's turn
        while page.await_person(version) == "you" and turns < MAX_TURNS:
            version = page.version()
            where = f"{size}, turn {turns} (version {version})"
            view = view_of(page, servers)
            table = view.get(RULESET, {})
            if view["status"] == "IN_PROGRESS":
                check_turn(page, phone, where)
                check_words(page, view, 0, where)
                seen = browser.execute_script(
                    """
                    const cross = document.querySelector("#table svg.cross");
                    const r = cross ? cross.getBoundingClientRect() : null;
                    return {
                      scroll: document.documentElement.scrollWidth, width: innerWidth,
                      height: innerHeight,
                      top: document.getElementById("status-line").getBoundingClientRect().bottom,
                      box: r && [r.left, r.top, r.right, r.bottom],
                    };
                    """
                )
                assert seen["scroll"] <= seen["width"], f"{where}: the page scrolls sideways"
                if table.get("line"):
                    left, top, right, bottom = seen["box"]
                    assert left >= -0.5 and right <= seen["width"] + 0.5, f"{where}: {seen}"
                    assert top >= seen["top"] - 0.5 and bottom <= seen["height"] + 0.5, (
                        f"{where}: the cross is not in the window: {seen}"
                    )
                size_now = layout_size(table)
                arms = len(table.get("up", [])) + len(table.get("down", []))
                if "up_end" in table:
                    crossed += 1
                    most = max(most, size_now)
                if (arms, size_now) > best:
                    best = (arms, size_now)
                    browser.save_screenshot(str(artifacts / f"all_fives-cross-{size}.png"))
                if not axed and size_now >= 8 and "up_end" in table:
                    axed = True
                    found = page.axe(axe_script)
                    axe_report.append(
                        f"{size} {RULESET} mid-match: "
                        f"{sum(len(v) for v in found.values())} violations"
                    )
                    assert not found, f"{where}: axe-core finds {found}"
            play_greedy(page, servers)
            turns += 1
        assert crossed >= 3, "the spinner's UP and DOWN arms were seldom open: another seed"
        assert most >= 12, f"the largest cross seen held {most} tiles: another seed"
        assert best[0] >= 3, f"UP and DOWN held {best[0]} tiles at most: another seed"
        assert axed
        assert page.severe_console_messages() == []
        print(f"{size}: {turns} turns, the largest cross {most} tiles, UP and DOWN {best[0]}")
    finally:
        reduce_motion(browser, False)


def test_a_scoring_play_shows_the_count_and_the_score(browser: Chrome, servers: Servers) -> None:
    """After a play that scores, the last moves say the count and who scored what, and the
    score line the points of each side, this hand's and the match's."""
    set_viewport(browser, *SIZES["phone"])
    page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
    page.set_up(Match(RULESET, 2, 0, "GREEDY", "count and score", profile="all_fives"))
    version, found = "", None
    for _ in range(MAX_TURNS):
        if page.await_person(version) != "you":
            break
        version = page.version()
        view = view_of(page, servers)
        pegs = [e for e in view.get("events", []) if e["kind"] == "PEG"]
        if pegs and view["status"] == "IN_PROGRESS":
            found = (view, pegs)
            break
        play_greedy(page, servers)
    assert found is not None, "no score was made before the match ended: another seed"
    view, pegs = found
    check_words(page, view, 0, "after a scoring play")
    last = page.by_id("last-move").text
    assert PEG_WORDS.search(last), last
    score_line = page.driver.find_element(By.CSS_SELECTOR, "#table .side-scores").text
    points, hand = view["match_points"], view[RULESET]["hand_points"]
    assert score_line.startswith("Score, first to 200"), score_line
    assert f"Seat 1: {points[1]} ({hand[1]})" in score_line, score_line


#: Draws a cross of long arms with tiles.js's crossSvg in the page, within a room, and
#: measures it: its size, its "+n" marks, and the open ends it shows.
LONG_CROSS = """
const [url, width, height, done] = arguments;
import(url).then((m) => {
  const arm = (n, end, pip) => Array.from({ length: n }, (_, i) => ({
    inner: i % 7, outer: i === n - 1 ? pip : (i + 1) % 7, ends: i === n - 1 ? [end] : undefined }));
  const cross = { spinner: 3, spinnerTile: {}, left: arm(9, "left", 1), right: arm(11, "right", 2),
    up: arm(6, "up", 4), down: arm(7, "down", 5) };
  const drawn = m.crossSvg(cross, { size: 33, width, height: height < 0 ? Infinity : height });
  document.body.append(drawn.svg);
  const ends = [...drawn.svg.querySelectorAll("[data-open-end]")].map((g) => g.dataset.openEnd);
  const marks = [...drawn.svg.querySelectorAll(".gap text")].map((t) => t.textContent);
  const box = drawn.svg.getBoundingClientRect();
  const line = arm(20, "right", 3);
  line[0] = { ...line[0], ends: ["left"] };
  const row = m.crossSvg({ row: line }, { size: 33, width });
  done({ width: box.width, height: box.height, hidden: drawn.hidden, ends, marks,
    rowWidth: Number(row.svg.getAttribute("width")), rowHidden: row.hidden });
}).catch((e) => done({ error: String(e) }));
"""


@pytest.mark.parametrize(("width", "height"), [(337, 0), (337, 264), (900, 360), (900, -1)])
def test_long_arms_are_drawn_within_their_room(
    browser: Chrome, servers: Servers, width: int, height: int
) -> None:
    """Each arm too long for its room shows its end and a "+n" mark for the tiles between
    the end and the spinner; the line without a spinner shows both its ends."""
    browser.get(f"{servers.http_base}/play")
    tiles = f"{servers.http_base}/play/tiles.js"
    seen = browser.execute_async_script(LONG_CROSS, tiles, width, height)
    assert "error" not in seen, seen
    assert sorted(seen["ends"]) == ["down", "left", "right", "up"]
    assert seen["width"] <= width + 4, seen
    if height >= 0:
        # the spinner and, in UP and DOWN, the end tile and its mark at least
        assert seen["height"] <= max(height, 2 * 33 + 2 * (2 * 33 + 22)) + 4, seen
    shown = 9 + 11 + 6 + 7 + 1 - seen["hidden"]
    assert seen["hidden"] == sum(int(mark.lstrip("+")) for mark in seen["marks"])
    assert seen["hidden"] > 0 and shown >= 5, seen
    assert seen["rowWidth"] <= width + 4 and seen["rowHidden"] > 0, seen
