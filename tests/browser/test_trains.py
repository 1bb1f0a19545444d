"""The trains games in the playground (layouts TRAINS and FEET: ``mexican_train`` and
``chicken_foot``), in headless Chromium against a real served service, at a phone's
390x844 and a desktop's 1280x800:

- a short match of each is played to its end; on every turn of the person's, nothing
  scrolls sideways, the hand, the moves and the ends the person may lay on lie in the
  window, every train (or arm) the view holds is drawn and named for a player ("Your
  train", "Seat 2's train", "The Mexican train"; "Arm 4"), each PLAY is labelled with its
  train or arm in words ("play [6-5] on the Mexican train", "play [5-4] on arm 4"), a
  marker up is said in words, the double to satisfy and the foot to finish are said in
  words, and no event is told in developer notation;
- axe-core finds no violation mid-match and at the match's end;
- an eight-player Mexican Train table (nine trains) fits a phone with no sideways scroll;
- with either game chosen, Start lies on a phone's first screen;
- a hand that ends on a double, in the record viewer, asks nobody to satisfy it or to
  finish its foot.

Screenshots go to the directory the ``artifacts`` fixture prints: ``trains_390.png``,
``trains_1280.png``, ``feet_390.png``, ``feet_1280.png`` (the turn with the most tiles on
the table) and ``trains_8_390.png``.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from domino_rules import records, rules
from domino_rules.api import RulesService
from domino_rules.state.codec import options_to_pb
from domino_rules.v1 import domino_rules_pb2 as pb

from ..support.servers import Servers
from .page import Match, Playground, post, set_viewport

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = [pytest.mark.slow, pytest.mark.serial("chromium")]

#: The window's inner size: a phone and a desktop.
SIZES = {"390": (390, 844), "1280": (1280, 800)}
#: Each trains game, its layout, a short match of it and its screenshots' name.
GAMES = {
    "mexican_train": ("TRAINS", {"set_max_pip": "9", "hands": "1"}, "trains"),
    "chicken_foot": ("FEET", {"hands": "1"}, "feet"),
}
#: The lowest the top of Start may be on a phone's first screen, as for the other games.
START_BOTTOM = 734
#: A PLAY's words on its button.
TRAIN_PLAY = re.compile(r"^play \[\d+-\d+\] on (your train|Seat \d's train|the Mexican train)$")
ARM_PLAY = re.compile(r"^play \[\d+-\d+\] on arm \d+$")
#: What a player must never read: the service's names, rule tags, an event not put in words.
DEVELOPER = re.compile(
    r"\b[A-Z]{2,}_[A-Z_]+\b|\[[A-Z]{2,}-\d+\]|\b(engine|marker up|marker down|bonus turn) \(seat"
)
#: The most turns of the person's a match may take before the test gives up.
MAX_TURNS = 300

#: One turn as the person sees it: where the hand, the moves, the ends to lay on and the
#: rows of the table are; the words of the moves (in the prompt too) and of the table.
TURN = """
const done = arguments[arguments.length - 1];
Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))).then(() => {
  const shown = (e) => e.getClientRects().length > 0 && !e.closest("[hidden]");
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const inWindow = [["the hand", box(document.getElementById("hand"))]];
  const moves = ["#prompt [data-move]", "#hand [data-move]", "#actions [data-move]"]
    .flatMap((selector) => [...document.querySelectorAll(selector)])
    .filter((b) => shown(b) && !b.disabled);
  for (const b of moves) inWindow.push([`the move "${b.getAttribute("aria-label")}"`, box(b)]);
  for (const e of document.querySelectorAll("#table [data-open-end]")) {
    inWindow.push([`the end "${e.dataset.openEnd}"`, box(e)]);
  }
  const rows = [
    ...document.querySelectorAll("#table li.train, #table li.arm, #table li.foot.brief"),
  ];
  done({
    width: innerWidth,
    height: innerHeight,
    top: document.getElementById("status-line").getBoundingClientRect().bottom,
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    inWindow,
    rows: rows.map((r) => ({
      name: r.querySelector(".train-name strong, .foot-title strong").textContent,
      train: r.dataset.train,
      arm: r.dataset.arm,
      box: box(r),
    })),
    trainsBox: (() => {
      const t = document.querySelector("#table ol.trains, #table ol.feet");
      return t ? box(t) : null;
    })(),
    plays: moves
      .filter((b) => JSON.parse(b.dataset.move).kind === "PLAY"
        && b.getAttribute("aria-haspopup") !== "dialog")
      .map((b) => b.getAttribute("aria-label")),
    words: ["table", "guide", "last-move", "log", "turn"]
      .map((id) => document.getElementById(id).innerText)
      .join("\\n"),
    table: document.getElementById("table").innerText,
    focusFirst: moves.length > 0 && document.activeElement === moves[0],
  });
});
"""


def served(servers: Servers) -> dict[str, Any]:
    """The catalogue's entries by ruleset id, as ListRulesets serves them."""
    with urllib.request.urlopen(f"{servers.http_base}/v1/rulesets") as answer:
        return {info["id"]: info for info in json.loads(answer.read())["rulesets"]}


def needs(servers: Servers, ruleset: str) -> None:
    info = served(servers).get(ruleset)
    if info is None:
        pytest.skip(f"{ruleset} is not in the catalogue this service serves")
    assert info["drawing"]["layout"] == GAMES[ruleset][0], info["drawing"]


def fresh_page(driver: Chrome, url: str) -> Playground:
    """The page with no match kept from an earlier one: the storage is cleared from a file
    of the same origin, where no page resumes (and saves again) an unfinished match."""
    driver.get(url.split("/play")[0] + "/play/favicon.svg")
    driver.execute_script("localStorage.clear()")
    return Playground(driver, url)


def reduce_motion(driver: Chrome, reduce: bool) -> None:
    features = [{"name": "prefers-reduced-motion", "value": "reduce"}] if reduce else []
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def view_of(page: Playground, servers: Servers) -> dict[str, Any]:
    state = page.state()
    assert state is not None
    status, view = post(servers, "/v1/games:view", {"state": state["token"], "seat": state["seat"]})
    assert status == 200, view
    return view


def train_title(train: int, players: int, seat: int) -> str:
    if train == players:
        return "The Mexican train"
    return "Your train" if train == seat else f"Seat {train}'s train"


def check_turn(page: Playground, view: dict[str, Any], ruleset: str, where: str) -> dict[str, Any]:
    """Everything the person acts with or on is in the window with no sideways scroll;
    the table draws every train or arm of the view, named in words; the PLAY moves say
    where they go; the doubles and feet owed are said in words."""
    seen = page.driver.execute_async_script(TURN)
    assert isinstance(seen, dict)
    assert seen["sideways"] <= 0, f"{where}: the page scrolls sideways by {seen['sideways']} px"
    outside = [
        f"{name} at {[round(x) for x in b]}"
        for name, b in seen["inWindow"]
        if b[0] < -0.5
        or b[2] > seen["width"] + 0.5
        or b[1] < seen["top"] - 0.5
        or b[3] > seen["height"] + 0.5
    ]
    assert not outside, f"{where}: off the window ({seen['width']}x{seen['height']}): {outside}"
    wide = [
        r["name"] for r in seen["rows"] if r["box"][0] < -0.5 or r["box"][2] > seen["width"] + 0.5
    ]
    assert not wide, f"{where}: rows wider than the window: {wide}"
    left, _, right, _ = seen["trainsBox"]
    assert left >= -0.5 and right <= seen["width"] + 0.5, f"{where}: the layout is off the window"
    assert seen["focusFirst"], f"{where}: the focus is not on the first move"
    words = seen["words"]
    bad = DEVELOPER.findall(words)
    assert not bad, f"{where}: developer notation shown to a player: {bad}"
    table = view[ruleset]
    seat = 0  # the person's, in these tests
    if ruleset == "mexican_train":
        players = len(view["hand_sizes"])
        names = [r["name"] for r in seen["rows"]]
        expected = [train_title(t["train"], players, seat) for t in table["trains"]]
        assert names == expected, f"{where}: trains drawn {names}, the view has {expected}"
        engine = table["engine"]
        assert f"Engine [{engine['high']}-{engine['low']}] in the hub" in seen["table"], where
        publics = sum(1 for t in table["trains"] if t.get("public") and t["train"] != players)
        assert seen["table"].count("open to all") >= publics + (
            1 if players < len(table["trains"]) else 0
        ), f"{where}: a marker up is not said in words"
        for pending in table.get("pending", []):
            if pending.get("binding"):
                name = train_title(pending["train"], players, seat)
                name = name[0].lower() + name[1:] if name.startswith(("Your", "The")) else name
                said = re.search(rf"Satisfy the \[(\d+)-\1\] on {re.escape(name)}", seen["table"])
                assert said, f"{where}: the double to satisfy is not said: {seen['table']!r}"
                break
        pattern = TRAIN_PLAY
    else:
        arms = [a["arm"] for a in table["arms"]]
        drawn = [int(r["arm"]) for r in seen["rows"] if r["arm"] is not None]
        briefs = [r for r in seen["rows"] if r["arm"] is None]
        if not briefs:
            assert drawn == arms, f"{where}: arms drawn {drawn}, the view has {arms}"
        for arm in drawn:
            assert f"Arm {arm}" in seen["table"], where
        if table.get("pending_foot") is not None and view["status"] == "IN_PROGRESS":
            number = table["feet"][table["pending_foot"]]
            words_ = f"Every play goes on the [{number}-{number}] until its three toes are laid"
            if table["pending_foot"] != 0:
                assert words_ in seen["table"], f"{where}: the pending foot is not said"
        pattern = ARM_PLAY
    unnamed = [label for label in seen["plays"] if not pattern.match(label)]
    assert not unnamed, f"{where}: moves not labelled with their train or arm: {unnamed}"
    return seen


def choose(
    page: Playground, rng: random.Random, view: dict[str, Any], ruleset: str, where: str
) -> None:
    """One of the moves on offer; through the prompt when the tile opens one (whose choices
    are checked too)."""
    buttons = page.move_buttons()
    assert buttons, f"{where}: the person is to act, and no move is offered"
    choice = rng.choice(buttons)
    prompts = choice.get_attribute("aria-haspopup") == "dialog"
    choice.click()
    if prompts:
        choices = page.wait(lambda _: page.move_buttons("#prompt [data-move]"), "the prompt")
        check_turn(page, view, ruleset, f"{where}, the prompt")
        rng.choice(choices).click()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("ruleset", list(GAMES))
def test_a_match_of_each_trains_game_is_played_to_its_end(
    browser: Chrome,
    servers: Servers,
    artifacts: Path,
    axe_script: str,
    axe_report: list[str],
    ruleset: str,
    size: str,
) -> None:
    needs(servers, ruleset)
    _, options, shot = GAMES[ruleset]
    set_viewport(browser, *SIZES[size])
    reduce_motion(browser, True)
    try:
        page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
        page.set_up(Match(ruleset, 3, 0, "GREEDY", f"{ruleset} at {size}", options))
        rng = random.Random(f"{ruleset} {size}")
        version, turns, most, axed, labels, kinds = "", 0, -1, False, set(), set()
        while page.await_person(version) == "you" and turns < MAX_TURNS:
            version = page.version()
            where = f"{size} {ruleset}, turn {turns} (version {version})"
            view = view_of(page, servers)
            kinds |= {e["kind"] for e in view.get("events", [])}
            if view["status"] == "IN_PROGRESS":
                seen = check_turn(page, view, ruleset, where)
                labels |= set(seen["plays"])
                table = view[ruleset]
                laid = sum(len(r["tiles"]) for r in table.get("trains", table.get("arms", [])))
                if laid > most:
                    most = laid
                    page.screenshot(artifacts / f"{shot}_{size}.png")
                if not axed and laid >= 6:
                    axed = True
                    page.axe_clean(axe_script, axe_report, f"{size} {ruleset} mid-match")
                choose(page, rng, view, ruleset, where)
            else:
                page.move_buttons()[0].click()
            turns += 1
        assert page.status() == "MATCH_OVER", f"{size} {ruleset}: the match did not end"
        assert labels, "no tile was played from the hand's buttons"
        assert axed, "the table never held six tiles on the person's turn"
        log = page.by_id("log").text
        assert not DEVELOPER.findall(log), DEVELOPER.findall(log)
        engine = "in the hub" if ruleset == "mexican_train" else "centre double"
        assert engine in log, f"the engine is not told in the log: {log[:300]!r}"
        if "MARKER_UP" in kinds:
            assert (
                "marker goes up: their train is open to all" in log or "Your marker goes up" in log
            )
        page.wait(
            lambda d: page.by_id("seed-check").get_attribute("data-verified"), "the seed check"
        )
        assert not DEVELOPER.findall(page.by_id("result").text)
        page.axe_clean(axe_script, axe_report, f"{size} {ruleset} match over")
        page.screenshot(artifacts / f"{shot}_{size}-match-over.png")
        assert page.severe_console_messages() == []
        print(f"{size} {ruleset}: {turns} turns, at most {most} tiles laid, {len(labels)} labels")
    finally:
        reduce_motion(browser, False)


def test_eight_trains_fit_a_phone(
    browser: Chrome, servers: Servers, artifacts: Path, axe_script: str, axe_report: list[str]
) -> None:
    """Eight seats, nine trains: every turn of the person's fits 390x844 with no sideways
    scroll, every train named, the ends to lay on in the window."""
    needs(servers, "mexican_train")
    set_viewport(browser, *SIZES["390"])
    reduce_motion(browser, True)
    try:
        page = fresh_page(browser, f"{servers.http_base}/play?delay=0")
        # the table's own hand of ten tiles for eight seats ([MT-2])
        page.set_up(Match("mexican_train", 8, 0, "GREEDY", "eight trains", {"hands": "1"}))
        rng = random.Random("eight trains")
        version, turns, most = "", 0, -1
        while page.await_person(version) == "you" and turns < 12:
            version = page.version()
            where = f"8 players, turn {turns} (version {version})"
            view = view_of(page, servers)
            if view["status"] != "IN_PROGRESS":
                break
            check_turn(page, view, "mexican_train", where)
            assert len(view["mexican_train"]["trains"]) == 9
            laid = sum(len(t["tiles"]) for t in view["mexican_train"]["trains"])
            if turns == 0:  # ten tiles in hand: one row, each still a target a finger hits
                page.screenshot(artifacts / "trains_8_390_first_turn.png")
                boxes = page.driver.execute_script(
                    "return [...document.querySelectorAll('#hand > *')].map((t) => {"
                    " const r = t.getBoundingClientRect(); return [r.top, r.width, r.height]; })"
                )
                assert len(boxes) == 10 and len({round(top) for top, _, _ in boxes}) == 1, boxes
                # WCAG 2.2's least target size, 24 by 24 CSS pixels (2.5.8)
                assert all(w >= 24 and h >= 24 for _, w, h in boxes), boxes
            if laid > most:
                most = laid
                page.screenshot(artifacts / "trains_8_390.png")
            if turns == 6:
                page.axe_clean(axe_script, axe_report, "390 mexican_train 8 players")
            choose(page, rng, view, "mexican_train", where)
            turns += 1
        assert turns >= 6, f"only {turns} turns of the person's were seen"
        whole = page.driver.execute_script(
            "return [...document.querySelectorAll('#table-more details.whole-layout p.arm-title')]"
            ".map((p) => p.textContent)"
        )
        drawn = [str(t).split(":")[0] for t in whole]
        assert len(drawn) == 9 and drawn[-1] == "The Mexican train", drawn
        assert page.severe_console_messages() == []
    finally:
        reduce_motion(browser, False)


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_start_is_on_a_phones_first_screen(
    browser: Chrome,
    servers: Servers,
    axe_script: str,
    axe_report: list[str],
    ruleset: str,
) -> None:
    needs(servers, ruleset)
    set_viewport(browser, *SIZES["390"])
    page = fresh_page(browser, f"{servers.http_base}/play?ruleset={ruleset}")
    WebDriverWait(browser, 10).until(
        lambda _: page.by_id("ruleset").get_attribute("value") == ruleset
    )
    top, bottom, height, scrolled = browser.execute_script(
        "const r = document.getElementById('start').getBoundingClientRect();"
        " return [r.top, r.bottom, innerHeight, scrollY];"
    )
    print(f"390x844 {ruleset}: Start at y = {top:.0f}..{bottom:.0f}")
    assert scrolled == 0 and top >= 0 and bottom <= min(height, START_BOTTOM), (top, bottom)
    page.axe_clean(axe_script, axe_report, f"390 {ruleset} start page")
    assert page.severe_console_messages() == []


def ended_on_a_double(
    ruleset_id: str, owed: Callable[[pb.GetViewResponse], bool]
) -> pb.MatchRecord:
    """A two-player double-9 hand of ``ruleset_id`` that a seat ends by laying a double
    that the finished table still holds ``owed`` (Mexican Train: a double left unsatisfied,
    [MT-11], so still ``pending`` [MT-14]; Chicken Foot: a foot whose toes are still to
    lay, the ``pending_foot``). Recorded as seat 0 saw it, the seed revealed."""
    service = RulesService()
    ruleset = rules.get(ruleset_id)
    options = options_to_pb(ruleset, ruleset.make_options({"set_max_pip": 9, "hands": 1}))
    for attempt in range(300):
        new = service.NewGame(
            pb.NewGameRequest(
                ruleset=ruleset_id, players=2, options=options, seed=f"last double {attempt}"
            )
        )
        record = pb.MatchRecord(
            format=1,
            ruleset=ruleset_id,
            players=2,
            options=options,
            game_id=new.game_id,
            seed_commitment=new.seed_commitment,
            viewpoint=pb.MatchRecord.SEAT,
            seat=0,
        )
        seen = service.GetView(pb.GetViewRequest(state=new.state, seat=0))
        record.deal.extend(seen.events)
        chooser, state = random.Random(attempt), new.state
        while (legal := service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))).moves:
            move = chooser.choice(list(legal.moves))
            state = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=move)).state
            seen = service.GetView(pb.GetViewRequest(state=state, seat=0))
            recorded = record.moves.add(move=move)
            recorded.events.extend(seen.events)
            recorded.match_points.extend(seen.match_points)
        last = record.moves[-1].move
        if last.tile.high == last.tile.low and owed(seen):
            record.seed = service.GetScore(pb.GetScoreRequest(state=state)).seed
            return record
    raise AssertionError(f"no {ruleset_id} hand of 300 ended on a double still owed")


#: Whether a finished table still holds the double a hand ended on as owed.
OWED: dict[str, Callable[[pb.GetViewResponse], bool]] = {
    "mexican_train": lambda view: bool(view.mexican_train.pending),
    "chicken_foot": lambda view: (
        len(view.chicken_foot.feet) > 1
        and view.chicken_foot.pending_foot == len(view.chicken_foot.feet) - 1
    ),
}


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_a_hand_that_ends_on_a_double_asks_nobody_to_satisfy_it(
    browser: Chrome, servers: Servers, tmp_path: Path, ruleset: str
) -> None:
    """[MT-11] [CF-7] a seat may go out on a double: the record viewer's table at the
    match's end names the double on its train or arm, and asks nobody to satisfy it or
    to finish its foot (the hand is over)."""
    needs(servers, ruleset)
    set_viewport(browser, *SIZES["1280"])
    record = ended_on_a_double(ruleset, OWED[ruleset])
    status, answer = post(servers, "/v1/records:replay", {"record": records.to_json(record)})
    assert status == 200 and answer["verdict"] == "VALID", answer
    path = tmp_path / f"{ruleset}-ended-on-a-double.record.json"
    path.write_text(json.dumps(records.to_json(record)))
    page = fresh_page(browser, f"{servers.http_base}/play")
    page.open_record(path)
    assert page.by_id("replay").get_attribute("data-verdict") == "VALID"
    page.by_id("replay-last").click()
    page.wait(lambda _: page.replay_step() == len(record.moves), "the last step")
    last = record.moves[-1].move
    table = page.by_id("replay-table")
    double = re.compile(rf"\b{last.tile.high}-{last.tile.low}\b")
    rows = [
        str(row.get_attribute("aria-label"))
        for row in table.find_elements(By.CSS_SELECTOR, ".train-tiles[aria-label]")
    ]
    assert any(double.search(row) for row in rows), rows
    text = table.text.lower()
    assert "satisfy" not in text and "every play goes" not in text, text
    assert not table.find_elements(By.CSS_SELECTOR, ".owed, .owed-line, .owed-note, .pending")
    assert page.severe_console_messages() == []
