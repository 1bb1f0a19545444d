"""The playground in headless Chromium: a person plays a whole match of every ruleset by
clicking (and by keyboard), bots fill the other seats, and the page checks the revealed
seed against the commitment. Screenshots go to the directory the ``artifacts`` fixture
prints."""

from __future__ import annotations

import hashlib
import random
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from domino_rules import games

from ..cases import cases_for
from ..support.servers import Servers
from .page import MOVES, Match, Playground

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = [pytest.mark.slow, pytest.mark.serial("chromium")]

#: Short matches, each with a non-default option typed into the form; bots RANDOM or
#: GREEDY. Each plays at least two hands, so NEXT_HAND is clicked. Each game declares its
#: own (``playground``).
MATCHES = [
    Match(game.id, m.players, m.seat, m.level, m.seed, dict(m.form))
    for game in games.all_games()
    for m in [cases_for(game.id).playground]
]
#: A run of base64 this long would be a state token on the page.
TOKEN_LIKE = re.compile(r"[A-Za-z0-9+/]{72,}")


@pytest.fixture
def desktop(browser: Chrome) -> Chrome:
    browser.set_window_size(1100, 900)
    return browser


@pytest.mark.parametrize("match", MATCHES, ids=[m.ruleset for m in MATCHES])
def test_a_person_plays_a_whole_match_against_bots(
    desktop: Chrome, servers: Servers, api_elsewhere: Servers, artifacts: Path, match: Match
) -> None:
    # the page from one origin, the API on another: every call is cross-origin
    page = Playground(desktop, f"{servers.http_base}/play?delay=0&api={api_elsewhere.http_base}")
    page.set_up(match)
    page.await_person()
    assert page.by_id("setup-box").get_attribute("open") is None  # folded away for the table

    started = time.monotonic()
    played = page.play_to_the_end(random.Random(match.seed), artifacts, match.ruleset)

    assert page.status() == "MATCH_OVER"
    assert played.hands >= 2, played
    assert "NEXT_HAND" in played.kinds
    assert not page.move_buttons(MOVES + ", #prompt [data-move]")
    check = page.wait(
        lambda d: d.find_element(By.CSS_SELECTOR, "#seed-check[data-verified]"),
        "the seed check",
    )
    assert check.get_attribute("data-verified") == "true"
    commitment = hashlib.sha256(match.seed.encode()).hexdigest()
    assert commitment in str(page.by_id("commitment").get_attribute("textContent"))
    assert match.seed in check.text and "They match" in check.text
    result = page.by_id("result").text
    assert "The match is over" in result and ("win" in result or "share" in result)
    log = page.by_id("log").text
    assert "The tiles are shuffled and dealt" in log and "The match is over" in log
    page.screenshot(artifacts / f"{match.ruleset}-match-over.png")

    source = desktop.page_source
    assert not TOKEN_LIKE.search(source), "the page shows something like a state token"
    assert page.severe_console_messages() == []
    print(f"{match.ruleset}: {played} in {time.monotonic() - started:.1f} s")


def test_fits_a_phone_and_plays_by_keyboard_alone(
    browser: Chrome, servers: Servers, artifacts: Path
) -> None:
    browser.set_window_size(360, 780)
    page = Playground(browser, f"{servers.http_base}/play?delay=0")  # the API at its own origin
    assert page.by_id("api").get_attribute("value") == servers.http_base
    match = Match("tiu_u", 3, 2, "GREEDY", "playground on a phone", {"hands": "1"})
    page.set_up(match)
    page.await_person()

    # a hint from the strong bot names one of the moves on offer, and plays nothing
    version = page.version()
    offered = {button.get_attribute("aria-label") for button in page.move_buttons()}
    browser.find_element(By.CSS_SELECTOR, "#actions button.secondary").click()
    hint = page.wait(lambda d: "Hint:" in d.find_element(By.ID, "hint").text, "a hint")
    assert hint and page.version() == version
    hinted = browser.find_elements(By.CSS_SELECTOR, "#hand .hinted")
    named = any(f"Hint: {str(label).capitalize()}." in page.by_id("hint").text for label in offered)
    assert hinted or named, "the hint names no move on offer"

    fits = "return document.documentElement.scrollWidth <= window.innerWidth"
    assert browser.execute_script(fits), "the page is wider than a phone"

    # Tab from the top of the page (its skip link) to the first move, then Enter
    version = page.version()
    browser.execute_script("window.scrollTo(0, 0); document.querySelector('.skip').focus()")
    keys = ActionChains(browser)
    for _ in range(120):
        keys.send_keys(Keys.TAB).perform()
        focused = browser.switch_to.active_element
        if focused.get_attribute("data-move") is not None:
            break
    else:
        pytest.fail("no move could be reached with the Tab key")
    outline = browser.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("none", ""), "the focused move shows no focus ring"
    haspopup = focused.get_attribute("aria-haspopup") == "dialog"
    keys.send_keys(Keys.ENTER).perform()
    if haspopup:
        page.wait(lambda _: page.move_buttons("#prompt [data-move]"), "the prompt")
        focused = browser.switch_to.active_element
        assert focused.get_attribute("data-move") is not None, "the prompt takes the focus"
        keys.send_keys(Keys.ENTER).perform()
    page.await_person(version)
    page.screenshot(artifacts / "phone-mid-game.png")
    assert browser.execute_script(fits), "the page is wider than a phone"

    page.play_to_the_end(random.Random(7))
    assert page.status() == "MATCH_OVER"
    assert browser.execute_script(fits), "the page is wider than a phone"
    page.screenshot(artifacts / "phone-match-over.png")


def test_an_error_shows_in_one_place_and_clears_the_old_game(
    desktop: Chrome, servers: Servers
) -> None:
    page = Playground(desktop, f"{servers.http_base}/play?delay=0")
    page.set_up(Match("one_arm_joe", 2, 0, "RANDOM", "before the error"))
    page.await_person()
    assert page.move_buttons()

    page.set_up(Match("one_arm_joe", 2, 0, "RANDOM", "x" * 129))  # seeds stop at 128
    error = page.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#error:not([hidden])"), "error")
    assert "BAD_SEED" in error.text
    assert not page.by_id("game").is_displayed(), "the old game is still shown"
    assert page.status() == ""
    assert not page.move_buttons(MOVES + ", #prompt [data-move]")

    page.set_up(Match("one_arm_joe", 2, 0, "RANDOM", "after the error"))
    page.await_person()
    assert not page.by_id("error").is_displayed(), "the error outlived a good start"


def test_a_service_that_does_not_answer_is_an_error_not_a_blank_page(
    desktop: Chrome, servers: Servers
) -> None:
    page = Playground(desktop, f"{servers.http_base}/play?api=http://127.0.0.1:9", catalogue=False)
    shown = page.wait(lambda d: d.find_element(By.CSS_SELECTOR, "#error:not([hidden])"), "error")
    assert "does not answer" in shown.text and "UNAVAILABLE" in shown.text
    assert not page.by_id("start").is_enabled()


@pytest.mark.parametrize(
    "text", ["", "abc", "a" * 55, "a" * 56, "a" * 64, "b" * 1000, "readme", "dé🂡 seed"]
)
def test_the_pages_own_sha256_is_sha256(browser: Chrome, servers: Servers, text: str) -> None:
    """The implementation used where crypto.subtle is missing (plain http elsewhere than
    127.0.0.1 or localhost) gives the same digest as crypto.subtle and hashlib."""
    browser.get(f"{servers.http_base}/play")
    plain, subtle = browser.execute_async_script(
        """
        const [url, text, done] = arguments;
        import(url).then(async (m) => done([
          m.sha256Plain(new TextEncoder().encode(text)), await m.sha256Hex(text),
        ])).catch((e) => done([String(e), null]));
        """,
        f"{servers.http_base}/play/sha256.js",
        text,
    )
    expected = hashlib.sha256(text.encode()).hexdigest()
    assert plain == expected
    assert subtle == expected


def test_the_page_and_its_assets_are_served_from_the_package(servers: Servers) -> None:
    def get(path: str) -> tuple[int, dict[str, str], bytes]:
        with urllib.request.urlopen(servers.http_base + path) as answer:
            return answer.status, dict(answer.headers), answer.read()

    status, headers, body = get("/play")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "Content-Security-Policy" in headers
    for asset in re.findall(rb'(?:src|href)="(play/[^"]+)"', body):
        status, headers, _ = get("/" + asset.decode())
        assert status == 200, asset
    for name, kind in [("play.js", "text/javascript"), ("play.css", "text/css")]:
        assert get(f"/play/{name}")[1]["Content-Type"].startswith(kind)
    status, _, body = get("/play/index.html")  # redirected to /play
    assert status == 200 and b"Dominoes playground" in body
    for missing in ("/play/nothing.js", "/play/..%2Fapi.py", "/play/playground.py"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            get(missing)
        refused.value.close()
        assert refused.value.code == 404
