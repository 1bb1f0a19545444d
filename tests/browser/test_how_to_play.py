"""How to play (``/how-to-play``) in headless Chromium, on a phone's screen and on a
desktop window: axe-core finds nothing, nothing makes the page wider than the window,
and every ruleset of the catalogue has its section, opened by its anchor, with its links
to the table and to the rulebook of record."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By

from ..support.servers import Servers
from .page import Playground, set_viewport

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = [pytest.mark.slow, pytest.mark.serial("chromium")]

#: A phone's viewport and a desktop window, in CSS pixels.
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}


def _ruleset_ids(servers: Servers) -> list[str]:
    with urllib.request.urlopen(f"{servers.http_base}/v1/rulesets", timeout=30) as answer:
        return [info["id"] for info in json.loads(answer.read())["rulesets"]]


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_how_to_play_reads_well_and_opens_at_every_game(
    browser: Chrome,
    servers: Servers,
    axe_script: str,
    axe_report: list[str],
    artifacts: Path,
    size: str,
) -> None:
    width, height = SIZES[size]
    set_viewport(browser, width, height)
    base = f"{servers.http_base}/how-to-play"
    page = Playground(browser, base, catalogue=False)
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    assert browser.find_element(By.TAG_NAME, "h1").text == "How to play"

    found = page.axe(axe_script)
    axe_report.append(f"how to play at {width}x{height}: {sum(map(len, found.values()))}")
    assert not found, f"axe-core finds {found}"
    widest = "return document.documentElement.scrollWidth - innerWidth"
    assert browser.execute_script(widest) <= 0, "the page scrolls sideways"
    browser.save_screenshot(str(artifacts / f"how-to-play-{size}.png"))

    ids = _ruleset_ids(servers)
    assert ids, "the catalogue lists no ruleset"
    for ruleset in ids:
        browser.get(f"{base}#{ruleset}")
        section = browser.find_element(By.ID, ruleset)
        assert section.tag_name == "section"
        top = browser.execute_script("return arguments[0].getBoundingClientRect().top", section)
        assert 0 <= top < height / 2, f"#{ruleset} opens at y={top}, not in view"
        heading = section.find_element(By.TAG_NAME, "h2")
        assert heading.is_displayed() and heading.text
        parts = [h.text for h in section.find_elements(By.TAG_NAME, "h3")]
        assert parts == ["The aim", "The deal", "A turn", "Scoring", "The end"], ruleset
        links = {
            link.text: link.get_attribute("href")
            for link in section.find_elements(By.CSS_SELECTOR, ".links a")
        }
        assert f"{servers.http_base}/play?ruleset={ruleset}" in links.values(), links
        assert f"{servers.http_base}/rules#{ruleset}" in links.values(), links
        assert browser.execute_script(widest) <= 0, f"#{ruleset} scrolls sideways"
    browser.get(f"{base}#tiu_u" if "tiu_u" in ids else f"{base}#{ids[0]}")
    browser.save_screenshot(str(artifacts / f"how-to-play-{size}-game.png"))
