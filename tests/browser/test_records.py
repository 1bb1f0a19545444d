"""Match records in the playground, in headless Chromium: the person's own record of a
match played on the page (``window.dominoRecord()``, the "Download record" button)
replays VALID through the REST door, and the page's record viewer opens it, and a
tampered copy, through its file input and steps through them."""

from __future__ import annotations

import copy
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from ..support.servers import Servers
from .page import Match, Playground, post
from .test_playground import MATCHES

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = [pytest.mark.slow, pytest.mark.serial("chromium")]


def replay(servers: Servers, record: dict[str, Any]) -> dict[str, Any]:
    """Every step of ``record`` replayed through the REST door (spectator's eyes)."""
    status, answer = post(servers, "/v1/records:replay", {"record": record})
    assert status == 200, answer
    steps = answer["steps"]
    while "next_step" in answer:
        status, answer = post(
            servers, "/v1/records:replay", {"record": record, "from_step": answer["next_step"]}
        )
        assert status == 200, answer
        steps.extend(answer["steps"])
    answer["steps"] = steps
    return answer


def tiles(hand: dict[str, Any]) -> list[str]:
    return [f"{t.get('high', 0)}-{t.get('low', 0)}" for t in hand.get("tiles", [])]


def shown_hands(page: Playground) -> dict[int, list[str]]:
    """Every seat's hand as the viewer shows it: the names of its tiles' images."""
    found = page.driver.execute_script(
        """
        return [...document.querySelectorAll("#replay-hands li[data-seat]")].map((li) => [
          Number(li.dataset.seat),
          [...li.querySelectorAll("svg[role=img]")].map((s) => s.getAttribute("aria-label")),
        ]);
        """
    )
    return {int(seat): list(names) for seat, names in found}


def go_to(page: Playground, step: int) -> None:
    """Type ``step`` into the viewer's "Go to move" field and press Enter."""
    field = page.by_id("replay-step")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(str(step), Keys.ENTER)
    page.wait(lambda _: page.replay_step() == step, f"step {step}")


def check_step(page: Playground, answer: dict[str, Any], step: int) -> None:
    """The viewer shows ``step`` of ``answer``: its move and every seat's hand."""
    assert page.replay_step() == step
    shown = answer["steps"][step]
    position = page.by_id("replay-position").text
    if step:
        assert position.startswith(f"Move {step} of {answer['moves']}"), position
        moved = json.loads(str(page.by_id("replay-move").get_attribute("data-record-move")))
        assert moved == shown["move"]
        assert page.by_id("replay-move").text.startswith(f"Move: Seat {shown['move']['seat']}: ")
    else:
        assert position.startswith("The deal"), position
    hands = {seat: tiles(hand) for seat, hand in enumerate(shown["hands"])}
    assert len(hands) == len(answer["steps"][0]["hands"]) >= 2
    assert shown_hands(page) == hands
    points = page.by_id("replay-points").text
    assert " · ".join(f"seat {s} {p}" for s, p in enumerate(shown["match_points"])) in points


def tamper(record: dict[str, Any], answer: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """A copy of ``record`` in which the move with a tile nearest its middle uses, instead,
    a tile that another seat holds then; and that move's number."""
    moves = record["moves"]
    middle = len(moves) // 2
    for number in sorted(range(1, len(moves) + 1), key=lambda n: abs(n - middle)):
        move = moves[number - 1]["move"]
        if "tile" not in move:
            continue
        mover = move.get("seat", 0)
        held = [
            tile
            for seat, hand in enumerate(answer["steps"][number - 1]["hands"])
            if seat != mover
            for tile in hand.get("tiles", [])
            if tiles({"tiles": [tile]}) != tiles({"tiles": [move["tile"]]})
        ]
        if held:
            tampered = copy.deepcopy(record)
            tampered["moves"][number - 1]["move"]["tile"] = held[0]
            return tampered, number
    raise AssertionError("no move of the record can be tampered with")


@pytest.fixture
def desktop(browser: Chrome) -> Chrome:
    browser.set_window_size(1100, 900)
    return browser


@pytest.mark.parametrize("match", MATCHES, ids=[m.ruleset for m in MATCHES])
def test_the_persons_record_replays_and_the_viewer_steps_through_it(
    desktop: Chrome, servers: Servers, tmp_path: Path, artifacts: Path, match: Match
) -> None:
    page = Playground(desktop, f"{servers.http_base}/play?delay=0")
    page.set_up(match)
    started = time.monotonic()
    page.play_to_the_end(random.Random(match.seed))
    assert page.status() == "MATCH_OVER"

    record = page.record()
    assert "first_state" not in record, "a seat's record holds no state token"
    assert record["viewpoint"] == "SEAT" and record["seat"] == match.seat
    assert record["seed"] == match.seed
    assert len(record["moves"]) == int(page.version())
    answer = replay(servers, record)
    assert answer["verdict"] == "VALID", answer.get("divergence")
    assert answer["moves"] == len(record["moves"]) == len(answer["steps"]) - 1
    assert answer["status"] == "MATCH_OVER"

    path = tmp_path / "valid.record.json"
    path.write_text(json.dumps(record))
    page.open_record(path)
    assert page.by_id("replay").get_attribute("data-verdict") == "VALID"
    assert "Valid" in page.by_id("replay-verdict").text
    assert not page.by_id("replay-divergence").is_displayed()
    last = len(record["moves"])
    assert page.by_id("replay").get_attribute("data-last") == str(last)
    check_step(page, answer, 0)
    assert not page.by_id("replay-back").is_enabled()
    # the seat whose record it is, in words
    seat_card = page.driver.find_element(
        By.CSS_SELECTOR, f'#replay-seats [data-seat="{match.seat}"]'
    )
    assert f"Seat {match.seat} · kept this record" in seat_card.text, seat_card.text

    page.by_id("replay-forward").click()
    check_step(page, answer, 1)
    page.by_id("replay-forward").send_keys(Keys.ENTER)  # by keyboard
    check_step(page, answer, 2)
    page.by_id("replay-back").click()
    check_step(page, answer, 1)
    middle = last // 2
    go_to(page, middle)
    check_step(page, answer, middle)
    assert page.by_id("replay-table").text.strip(), "no table drawn"
    assert page.by_id("replay-events").text.strip(), "no events told"
    page.by_id("replay-last").click()
    check_step(page, answer, last)
    assert not page.by_id("replay-forward").is_enabled()
    assert "The match is over" in page.by_id("replay-events").text
    page.by_id("replay-first").click()
    check_step(page, answer, 0)
    if match.ruleset == MATCHES[0].ruleset:
        page.screenshot(artifacts / "replay-valid.png")

    tampered, number = tamper(record, answer)
    expected = replay(servers, tampered)
    assert expected["verdict"] == "DIVERGED"
    divergence = expected["divergence"]
    assert divergence["step"] == number, divergence
    path = tmp_path / "tampered.record.json"
    path.write_text(json.dumps(tampered))
    page.open_record(path)
    assert page.by_id("replay").get_attribute("data-verdict") == "DIVERGED"
    shown = page.by_id("replay-divergence")
    assert shown.is_displayed()
    assert shown.get_attribute("data-step") == str(number)
    assert shown.get_attribute("data-reason") == divergence["reason"]
    # a player reads why in words; the reason's code and the service's message wait,
    # folded, under "For developers"
    assert f"move {number}" in shown.text and "Why: " in shown.text
    assert divergence["reason"] not in shown.text and divergence["message"] not in shown.text
    assert "The record's move: Seat " in shown.text
    folded = shown.find_element(By.CSS_SELECTOR, "details.for-developers")
    assert folded.get_attribute("open") is None
    text = str(folded.get_attribute("textContent"))
    assert divergence["reason"] in text and divergence["message"] in text
    # the viewer steps up to the diverging move, shown as the record has it
    assert page.by_id("replay").get_attribute("data-last") == str(number)
    page.by_id("replay-last").click()
    assert page.replay_step() == number
    moved = json.loads(str(page.by_id("replay-move").get_attribute("data-record-move")))
    assert moved == tampered["moves"][number - 1]["move"]
    assert "where the record diverges" in page.by_id("replay-position").text
    page.by_id("replay-back").click()
    check_step(page, answer, number - 1)
    if match.ruleset == MATCHES[0].ruleset:
        page.screenshot(artifacts / "replay-diverged.png")

    assert page.severe_console_messages() == []
    print(f"{match.ruleset}: {last} moves in {time.monotonic() - started:.1f} s")


def test_a_record_downloads_at_any_time_and_replays_once_the_seed_is_out(
    desktop: Chrome, servers: Servers, tmp_path: Path
) -> None:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    desktop.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    page = Playground(desktop, f"{servers.http_base}/play?delay=0")
    page.set_up(Match("one_arm_joe", 2, 0, "RANDOM", "a record mid-match", {"target_score": "0"}))
    page.await_person()

    record = page.record()
    assert "seed" not in record and "first_state" not in record
    assert "cannot be replayed" in page.by_id("record-note").text
    page.by_id("download-record").click()
    name = f"one_arm_joe-{record['game_id']}.record.json"
    page.wait(lambda _: (downloads / name).is_file(), "the download")
    assert json.loads((downloads / name).read_text()) == record

    status, error = post(servers, "/v1/records:replay", {"record": record})
    assert status == 400 and error["details"][0]["reason"] == "BAD_RECORD"
    page.open_record(downloads / name)
    said = page.by_id("replay-verdict").text
    assert "once the match is over and its seed is revealed" in said
    assert error["message"] in said
    assert not page.by_id("replay-nav").is_displayed()
    # Chromium logs the 400 it was answered, which the page has just shown; nothing else
    logged = page.severe_console_messages()
    assert len(logged) == 1 and "/v1/records:replay" in logged[0] and "400" in logged[0], logged

    page.play_to_the_end(random.Random(3))
    record = page.record()
    assert record["seed"] == "a record mid-match"
    assert "with the revealed seed" in page.by_id("record-note").text
    assert replay(servers, record)["verdict"] == "VALID"
    assert page.severe_console_messages() == []


def test_a_long_record_is_read_in_several_answers_on_a_phone(
    browser: Chrome, servers: Servers, tmp_path: Path, artifacts: Path
) -> None:
    """Past 500 steps Replay answers in parts (``next_step``): the viewer reads them all,
    and fits a phone's width."""
    options = {"one_arm_joe": {"target_score": 1000}}
    status, game = post(
        servers,
        "/v1/games",
        {"ruleset": "one_arm_joe", "players": 2, "options": options, "seed": "a long one"},
    )
    assert status == 200, game
    record: dict[str, Any] = {
        "format": 1,
        "ruleset": "one_arm_joe",
        "players": 2,
        "options": options,
        "game_id": game["game_id"],
        "seed_commitment": game["seed_commitment"],
        "seed": "a long one",
        "viewpoint": "MOVER",
        "moves": [],
    }
    state, rng = game["state"], random.Random(5)
    while len(record["moves"]) < 620:
        status, legal = post(servers, "/v1/games:legalMoves", {"state": state})
        if legal["status"] == "MATCH_OVER":
            break
        move = rng.choice(legal["moves"])
        status, applied = post(servers, "/v1/games:applyMove", {"state": state, "move": move})
        assert status == 200, applied
        state = applied["state"]
        record["moves"].append({"move": move})
    last = len(record["moves"])
    assert last > 500, "the match ended too soon to need two answers"

    path = tmp_path / "long.record.json"
    path.write_text(json.dumps(record))
    browser.set_window_size(360, 780)
    page = Playground(browser, f"{servers.http_base}/play")
    page.open_record(path)
    assert page.by_id("replay").get_attribute("data-verdict") == "VALID"
    assert page.by_id("replay").get_attribute("data-last") == str(last)
    page.by_id("replay-last").send_keys(Keys.ENTER)
    assert page.replay_step() == last
    assert page.by_id("replay-position").text.startswith(f"Move {last} of {last}")
    # the focus stays on a step button when the one pressed can go no further
    focused = browser.switch_to.active_element
    assert focused.get_attribute("id") == "replay-back"
    focused.send_keys(Keys.ARROW_LEFT)
    assert page.replay_step() == last - 1
    go_to(page, 501)
    answer = replay(servers, record)
    check_step(page, answer, 501)
    fits = "return document.documentElement.scrollWidth <= window.innerWidth"
    assert browser.execute_script(fits), "the viewer is wider than a phone"
    page.screenshot(artifacts / "replay-phone.png")
    assert page.severe_console_messages() == []


def test_a_record_mid_match_holds_no_tile_laid_face_down_by_a_bot(
    desktop: Chrome, servers: Servers
) -> None:
    """Another seat's face-down discard reaches the person hidden: while the match is on,
    their record keeps it without its tile (Replay stops there with MOVE_HIDDEN); once
    the match is over, the page turns the tiles up and the record replays to its end."""
    page = Playground(desktop, f"{servers.http_base}/play?delay=0")
    page.set_up(Match("tsair_deng", 2, 0, "RANDOM", "face down", {"hands": "1"}))
    rng = random.Random(5)
    hidden = 0
    version = ""
    while page.await_person(version) == "you":
        version = page.version()
        record = page.record()
        for recorded in record["moves"]:
            move = recorded.get("move", {})
            if move.get("kind") == "DISCARD" and move.get("seat", 0) != record["seat"]:
                assert "tile" not in move, "a bot's face-down discard, in the person's record"
                hidden += 1
        buttons = page.move_buttons()
        page.press(rng.choice(buttons), keyboard=False)
        if page.move_buttons("#prompt [data-move]"):
            page.press(rng.choice(page.move_buttons("#prompt [data-move]")), keyboard=False)
    assert hidden, "no bot discarded: choose another seed"
    record = page.record()
    assert record["seed"] == "face down"
    assert replay(servers, record)["verdict"] == "VALID"
    assert page.severe_console_messages() == []
