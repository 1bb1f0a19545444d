"""The playground as a person uses it, through its automation hooks: the set-up form,
buttons with ``data-move`` (the move's JSON), the prompt a tile opens when it has several
moves, and ``#status``."""

from __future__ import annotations

import contextlib
import json
import random
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.command import Command
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from ..support.servers import Servers

#: The longest wait for the page (a bot's move, a request, a render).
TIMEOUT = 30.0
#: The buttons that make the person's moves, outside the prompt.
MOVES = "#hand [data-move], #actions [data-move]"
#: Where the page keeps the match across reloads (localStorage).
SAVED_MATCH = "domino-rules.playground.match"


def post(servers: Servers, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST ``body`` to the served REST gateway: its status and JSON answer."""
    request = urllib.request.Request(
        servers.http_base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return int(answer.status), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


def set_viewport(driver: Chrome, width: int, height: int) -> None:
    """Make the page's viewport (``innerWidth`` x ``innerHeight``) exactly this size: the
    window is made larger by what the browser's frame takes."""

    def inner() -> list[int]:
        return list(driver.execute_script("return [innerWidth, innerHeight]"))

    def resized(before: list[int], _: Chrome) -> bool:
        return inner() != before

    for _ in range(10):
        window, now = driver.get_window_size(), inner()
        if now == [width, height]:
            return
        driver.set_window_size(window["width"] + width - now[0], window["height"] + height - now[1])
        # the page sees its new size a moment after the window has it
        with contextlib.suppress(TimeoutException):
            WebDriverWait(driver, 2, poll_frequency=0.02).until(partial(resized, now))
    raise AssertionError(f"the viewport is {inner()}, not {[width, height]}")


@dataclass(frozen=True)
class Match:
    """A match to set up: the form's values (options as typed into their fields, after
    the rules variant ``profile`` is chosen, where one is named)."""

    ruleset: str
    players: int
    seat: int
    level: str
    seed: str
    options: dict[str, str] = field(default_factory=dict)
    profile: str = ""
    #: The seats played by people besides ``seat`` (pass-and-play), under More options.
    people: tuple[int, ...] = ()


@dataclass
class Played:
    """What playing a match through the page took."""

    moves: int = 0
    hands: int = 1
    prompts: int = 0
    kinds: set[str] = field(default_factory=set)


class Playground:
    """One page of the playground in ``driver``."""

    def __init__(self, driver: Chrome, url: str, *, catalogue: bool = True) -> None:
        """Open ``url``; unless ``catalogue`` is false, wait until the games are listed."""
        self.driver = driver
        self.severe_console_messages()  # forget what earlier pages logged
        driver.get(url)
        if catalogue:
            self.wait(lambda d: d.find_element(By.ID, "start").is_enabled(), "the catalogue")

    def wait(self, condition: Any, what: str, timeout: float = TIMEOUT) -> Any:
        return WebDriverWait(
            self.driver,
            timeout,
            poll_frequency=0.02,
            ignored_exceptions=[StaleElementReferenceException],
        ).until(condition, f"waited {timeout} s for {what}")

    def by_id(self, element_id: str) -> WebElement:
        return self.driver.find_element(By.ID, element_id)

    def status(self) -> str:
        return str(self.by_id("status").get_attribute("textContent")).strip()

    def waiting(self) -> str:
        return str(self.by_id("game").get_attribute("data-waiting") or "")

    def version(self) -> str:
        return str(self.by_id("game").get_attribute("data-version") or "")

    def open_more_options(self) -> None:
        """Unfold "More options" (the game's options, the bot delay, the seed)."""
        toggle = self.by_id("more-toggle")
        if toggle.get_attribute("aria-expanded") != "true":
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", toggle)
            toggle.click()

    def set_up(self, match: Match) -> None:
        """Fill the form for ``match`` and start it."""
        if not self.by_id("setup-box").get_attribute("open"):
            self.driver.find_element(By.CSS_SELECTOR, "#setup-box > summary").click()
        Select(self.by_id("ruleset")).select_by_value(match.ruleset)
        self.open_more_options()
        if match.profile:
            Select(self.by_id("profile")).select_by_value(match.profile)
        for name, value in match.options.items():
            field_ = self.by_id(f"option-{name}")
            if field_.tag_name == "select":
                Select(field_).select_by_value(value)
            elif field_.get_attribute("type") == "checkbox":
                if field_.is_selected() != (value == "true"):
                    field_.click()
            else:
                field_.clear()
                field_.send_keys(value)
                field_.send_keys(Keys.TAB)  # a change event
        Select(self.by_id("players")).select_by_value(str(match.players))
        Select(self.by_id("seat")).select_by_value(str(match.seat))
        Select(self.by_id("level")).select_by_value(match.level)
        # every seat as the match says, whatever the form kept from a match before
        for seat in range(match.players):
            who = "PERSON" if seat == match.seat or seat in match.people else match.level
            Select(self.by_id(f"who-{seat}")).select_by_value(who)
        seed = self.by_id("seed")
        seed.clear()
        seed.send_keys(match.seed)
        self.start()

    def start(self) -> None:
        """Press "Start the match" (above "More options": scrolled back to, as a person
        would)."""
        start = self.by_id("start")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", start)
        start.click()

    def await_person(self, after: str = "") -> str:
        """Wait until the person is to act (``"you"``) or the match is over (``"over"``),
        at a version other than ``after``."""

        def ready(_: Chrome) -> str | None:
            waiting = self.waiting()
            if waiting in ("you", "over") and self.version() != after:
                return waiting
            return None

        return str(self.wait(ready, f"the person's turn after version {after!r}"))

    def move_buttons(self, selector: str = MOVES) -> list[WebElement]:
        """The buttons matching ``selector`` that a person can see and press (one call)."""
        found = self.driver.execute_script(
            """
            return [...document.querySelectorAll(arguments[0])].filter(
              (b) => !b.disabled && b.getClientRects().length > 0 && !b.closest("[hidden]"));
            """,
            selector,
        )
        return list(found)

    def press(self, button: WebElement, keyboard: bool) -> None:
        if keyboard:
            button.send_keys(Keys.ENTER)
        else:
            button.click()

    def play_to_the_end(
        self, rng: random.Random, shots: Path | None = None, name: str = "", mid: int = 4
    ) -> Played:
        """Make the person's moves, chosen with ``rng`` among the buttons offered, until
        MATCH_OVER; every third move by keyboard. Screenshot after ``mid`` moves."""
        played = Played()
        version = ""
        while self.await_person(version) == "you":
            version = self.version()
            if shots is not None and played.moves == mid:
                self.screenshot(shots / f"{name}-mid-game.png")
            buttons = self.move_buttons()
            assert buttons, "the person is to act, and no move is offered"
            unnamed = self.driver.execute_script(
                """
                return arguments[0].filter((b) => b.tagName !== "BUTTON"
                  || !(b.getAttribute("aria-label") || b.textContent).trim()).length;
                """,
                buttons,
            )
            assert unnamed == 0, "every move is a <button> with a name"
            choice = rng.choice(buttons)
            move = json.loads(str(choice.get_attribute("data-move")))
            keyboard = played.moves % 3 == 2
            opens_prompt = choice.get_attribute("aria-haspopup") == "dialog"
            self.press(choice, keyboard)
            if opens_prompt:
                played.prompts += 1
                choices = self.wait(
                    lambda _: self.move_buttons("#prompt [data-move]"), "the prompt's choices"
                )
                assert len(choices) >= 2, "a prompt offers at least two moves"
                pick = rng.choice(choices)
                full = json.loads(str(pick.get_attribute("data-move")))
                assert {k: v for k, v in full.items() if k in move} == move
                move = full
                self.press(pick, keyboard)
            played.kinds.add(move["kind"])
            played.moves += 1
            if move["kind"] == "NEXT_HAND":
                played.hands += 1
        return played

    def screenshot(self, path: Path, width: int | None = None) -> None:
        """The whole page, not only the window: the window is made as tall as the page."""
        size = self.driver.get_window_size()
        self.driver.execute_script("window.scrollTo(0, 0)")
        height = int(self.driver.execute_script("return document.documentElement.scrollHeight"))
        self.driver.set_window_size(width or size["width"], max(height + 40, 400))
        try:
            assert self.driver.save_screenshot(str(path)), path
        finally:
            self.driver.set_window_size(size["width"], size["height"])
            # the page redraws its table 150 ms after a resize: a click before then could
            # land on a layout about to move
            self.driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "setTimeout(() => requestAnimationFrame(() => done()), 300);"
            )

    def severe_console_messages(self) -> list[str]:
        """The page's errors in the console since the last call (failed loads, exceptions)."""
        entries = self.driver.execute(Command.GET_LOG, {"type": "browser"})["value"]
        return [str(entry.get("message")) for entry in entries if entry.get("level") == "SEVERE"]

    # ------------------------------------------------------------------ match records

    def record(self) -> dict[str, Any]:
        """The person's record of the match so far, as ``window.dominoRecord()`` gives it."""
        record = self.driver.execute_script("return window.dominoRecord()")
        assert isinstance(record, dict), record
        return record

    def open_record(self, path: Path) -> None:
        """Open the record file at ``path`` through the page's file input, and wait until
        the replay has answered (a verdict, or a sentence saying why there is none)."""
        if not self.by_id("records-box").get_attribute("open"):
            self.driver.find_element(By.CSS_SELECTOR, "#records-box > summary").click()
        self.by_id("record-file").send_keys(str(path.resolve()))

        def answered(_: Chrome) -> bool:
            replay = self.by_id("replay")
            if replay.get_attribute("data-file") != path.name:
                return False
            if replay.get_attribute("data-verdict"):
                return True
            text = str(self.by_id("replay-verdict").get_attribute("textContent")).strip()
            return bool(text) and not text.endswith("…")

        self.wait(answered, f"the replay of {path.name}")

    def replay_step(self) -> int:
        """The step the record viewer shows (0: the deal)."""
        return int(str(self.by_id("replay").get_attribute("data-step")))

    # ------------------------------------------------------------------ the table

    def state(self) -> dict[str, Any] | None:
        """The match on the page as ``window.dominoState()`` gives it (token, version, ...)."""
        state = self.driver.execute_script("return window.dominoState()")
        assert state is None or isinstance(state, dict), state
        return state

    def hand_tiles(self) -> list[str]:
        """The person's tiles as the hand shows them ("6-4"), in order."""
        found = self.driver.execute_script(
            "return [...document.querySelectorAll('#hand [data-tile]')].map((e) => e.dataset.tile)"
        )
        return [str(name) for name in found]

    def saved_match(self) -> dict[str, Any] | None:
        """What the page keeps in localStorage for a reload, or None."""
        text = self.driver.execute_script(f"return localStorage.getItem({SAVED_MATCH!r})")
        if text is None:
            return None
        saved = json.loads(str(text))
        assert isinstance(saved, dict)
        return saved

    def axe(self, script: str) -> dict[str, list[str]]:
        """Run axe-core (``script``, its axe.min.js) on the page as it is: the ids of the
        rules it finds violated, by impact (minor, moderate, serious, critical), each with
        the first elements it names."""
        self.driver.execute_script(script)
        found = self.driver.execute_async_script(
            """
            const done = arguments[arguments.length - 1];
            axe.run(document, { resultTypes: ["violations"] })
              .then((r) => done(r.violations.map((v) => [v.impact || "minor",
                `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`])))
              .catch((e) => done([["error", String(e)]]));
            """
        )
        by_impact: dict[str, list[str]] = {}
        for impact, rule in found:
            by_impact.setdefault(str(impact), []).append(str(rule))
        assert "error" not in by_impact, by_impact
        return by_impact

    def axe_clean(self, script: str, report: list[str], name: str) -> None:
        """Hold the page to axe-core's every rule (:meth:`axe`): add ``name``'s count of
        violations to ``report``, and fail naming them when there is any."""
        found = self.axe(script)
        report.append(f"{name}: {sum(len(v) for v in found.values())} violations")
        assert not found, f"{name}: axe-core finds {found}"
