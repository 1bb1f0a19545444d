"""The playground given what it cannot use, in headless Chromium: a saved match in
localStorage that is damaged (it says so and offers a fresh start, which drops it), and
record files that are not records (each named for what it is, another offered), with no
error in the console."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By

from ..support.servers import Servers
from .page import SAVED_MATCH, Playground

pytestmark = pytest.mark.slow

#: A saved match as the page writes one (the token is not opened before the page is
#: sure the entry is whole).
WHOLE = {
    "format": 1, "api": "", "log": [], "ruleset": "one_arm_joe", "players": 3, "seat": 1,
    "level": "GREEDY", "options": {}, "gameId": "g", "commitment": "c", "deal": [],
    "moves": [], "token": "AQ==", "version": 0, "status": "IN_PROGRESS", "toAct": 1,
    "undo": [],
}  # fmt: skip


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("{not json", "it is not JSON"),
        ("[1, 2]", "it is not a saved match"),
        ("null", "it is not a saved match"),
        (json.dumps({**WHOLE, "format": 7}), "another version of this page"),
        (json.dumps({**WHOLE, "token": 12}), "no state token"),
        (json.dumps({**WHOLE, "seat": 5}), "players or seat"),
        (json.dumps({**WHOLE, "moves": [None, 3]}), "its moves are damaged"),
        (json.dumps({**WHOLE, "log": [{"texts": None}]}), "its log is damaged"),
        (json.dumps({**WHOLE, "options": [1]}), "its options"),
    ],
    ids=["not-json", "list", "null", "format", "token", "seat", "moves", "log", "options"],
)
def test_a_damaged_saved_match_is_said_so_with_a_fresh_start(
    browser: Chrome, servers: Servers, entry: str, words: str
) -> None:
    url = f"{servers.http_base}/play?delay=0"
    Playground(browser, url)
    saved = {**json.loads(entry), "api": servers.http_base} if entry.startswith('{"') else None
    text = json.dumps(saved) if saved is not None else entry
    browser.execute_script(f"localStorage.setItem({SAVED_MATCH!r}, arguments[0])", text)
    page = Playground(browser, url)
    error = page.by_id("error")
    page.wait(lambda _: error.is_displayed(), "the page to say so")
    assert "cannot be resumed" in error.text and words in error.text, error.text
    assert not page.by_id("game").is_displayed()
    fresh = [b for b in error.find_elements(By.TAG_NAME, "button") if b.text == "Start afresh"]
    assert len(fresh) == 1
    fresh[0].click()
    page.wait(lambda _: not error.is_displayed(), "the message to go")
    assert browser.execute_script(f"return localStorage.getItem({SAVED_MATCH!r})") is None
    assert page.by_id("setup-box").get_attribute("open") is not None
    assert page.severe_console_messages() == []
    Playground(browser, url)  # reloaded: nothing more to say
    assert not page.by_id("error").is_displayed()


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("empty.json", b"", "is empty"),
        ("blank.json", b"  \n", "is empty"),
        ("random.bin", bytes(range(256)) * 4, "is binary data"),
        ("list.json", b"[1, 2]", "not a list"),
        ("number.json", b"12", "not a number"),
        ("cut.json", b'{"format": 1, "ruleset": "block", "moves": [{"move"', "is cut short"),
        ("version.json", b'{"format": 2, "ruleset": "block"}', "format 2"),
        ("object.json", b"{}", "an empty record"),
        ("notes.json", b"a shopping list", "not a JSON match record"),
        ("text.txt", b"domino-rules match record 1\nruleset block\n", "text form"),
    ],
)
def test_a_file_that_is_not_a_record_is_named_for_what_it_is(
    browser: Chrome, servers: Servers, tmp_path: Path, name: str, content: bytes, words: str
) -> None:
    page = Playground(browser, f"{servers.http_base}/play?delay=0")
    path = tmp_path / name
    path.write_bytes(content)
    page.open_record(path)
    verdict = page.by_id("replay-verdict")
    assert verdict.text.startswith(name) and words in verdict.text, verdict.text
    assert page.by_id("replay").get_attribute("data-verdict") == ""
    assert page.by_id("replay-another").is_displayed()
    assert page.severe_console_messages() == []
