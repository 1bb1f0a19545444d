"""Sides on the table: a partnership Block match (4 players, seats 0 and 2 against 1 and
3) played to its end in headless Chromium at a desktop's 1280x800 and a phone's 390x844,
against a real served service:

- the seat cards are marked by side (``data-side``, a colour), the partner's card says
  "your partner" and the others' "other side";
- the score is shown per side, by name ("Your side (you and your partner, seat 2)", "The
  other side (seats 1 and 3)"), with the service's match points;
- every hand's end and the match's end say which side won, as one side's win, never as a
  share, and the result lists both sides' points;
- axe-core finds no violation at all mid-match and at the match's end.

Screenshots: ``sides-<size>.png`` (mid-match) and ``sides-<size>-over.png``, in the
directory the ``artifacts`` fixture prints.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By

from ..support.servers import Servers
from .page import Match, Playground, post, set_viewport
from .test_playground_ux import SIZES, fresh_page

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = [pytest.mark.slow, pytest.mark.serial("chromium")]

#: The person at seat 0; seat 2 is the partner.
MATCH = Match("block", 4, 0, "RANDOM", "two sides", {"partnership": "true", "target_score": "60"})
YOURS = "Your side (you and your partner, seat 2)"
THEIRS = "The other side (seats 1 and 3)"


def service(page: Playground, servers: Servers, path: str) -> dict[str, Any]:
    """The service's answer about the match on the page (its view for seat 0, its score)."""
    state = page.state()
    assert state is not None
    body = {"state": state["token"]} | ({"seat": MATCH.seat} if path.endswith("view") else {})
    status, answer = post(servers, path, body)
    assert status == 200, answer
    return answer


def check_seats(page: Playground) -> None:
    cards = page.driver.find_elements(By.CSS_SELECTOR, "#seats [data-seat]")
    sides = {int(str(c.get_attribute("data-seat"))): c.get_attribute("data-side") for c in cards}
    assert sides[0] == sides[2] and sides[1] == sides[3] and sides[0] != sides[1], sides
    text = {int(str(c.get_attribute("data-seat"))): c.text for c in cards}
    assert "your partner" in text[2], text
    assert "other side" in text[1] and "other side" in text[3], text
    assert "your partner" not in text[1] + text[3], text


def check_scores(page: Playground, servers: Servers) -> None:
    points = service(page, servers, "/v1/games:view")["match_points"]
    line = page.by_id("sides").text
    assert f"{YOURS}: {points[0]} point" in line, (line, points)
    assert f"{THEIRS}: {points[1]} point" in line, (line, points)


def check_ending(page: Playground, servers: Servers, what: str) -> str:
    """The hand's or match's end names one side as its winner; returns the banner."""
    score = service(page, servers, "/v1/games:score")
    winners = score["winners"] if what == "match" else score["hands"][-1]["winners"]
    turn = page.by_id("turn").text
    result = page.by_id("result").text
    assert "share" not in turn and "share" not in result, (turn, result)
    if sorted(winners) in ([0, 2], [1, 3]):
        side = YOURS if 0 in winners else THEIRS
        assert f"{side[0].lower()}{side[1:]} wins the {what}" in turn, (turn, winners)
        assert YOURS in result and THEIRS in result, result
    assert "[BLK-" not in result, result
    return turn


@pytest.mark.parametrize("size", list(SIZES))
def test_a_partnership_shows_its_sides_scores_and_winners(
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
    rng, version, moves, hands = random.Random(7), "", 0, 0
    banners = []
    while page.await_person(version) == "you":
        version = page.version()
        check_seats(page)
        check_scores(page, servers)
        if page.status() == "HAND_OVER":
            hands += 1
            banners.append(check_ending(page, servers, "hand"))
        if moves == 4:
            page.screenshot(artifacts / f"sides-{size}.png")
            page.axe_clean(axe_script, axe_report, f"{size} partnership block mid-match")
        buttons = page.move_buttons()
        assert buttons, "the person is to act, and no move is offered"
        choice = rng.choice(buttons)
        opens = choice.get_attribute("aria-haspopup") == "dialog"
        choice.click()
        if opens:
            choices = page.wait(lambda _: page.move_buttons("#prompt [data-move]"), "a prompt")
            rng.choice(choices).click()
        moves += 1
    assert page.status() == "MATCH_OVER"
    assert hands >= 1, "the match ended in its first hand: no hand's end was seen"
    check_seats(page)
    check_scores(page, servers)
    banners.append(check_ending(page, servers, "match"))
    page.screenshot(artifacts / f"sides-{size}-over.png")
    page.axe_clean(axe_script, axe_report, f"{size} partnership block match over")
    assert page.severe_console_messages() == []
    print(f"{size}: {moves} moves, {hands + 1} hands; " + json.dumps(banners[-2:]))
