"""The API docs page (``/docs``) in headless Chromium, on a desktop window and on a phone's
screen: the whole document renders, and nothing makes the page wider than the window; a
long line scrolls or wraps inside its own box. ``/docs/`` redirects to ``/docs``."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from ..support.servers import Servers

#: Drives Chromium (one browser for the session): alone on the machine.
pytestmark = pytest.mark.serial("chromium")

#: A desktop window and a phone's viewport, in CSS pixels.
DESKTOP = (1280, 800)
PHONE = (390, 844)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_docs_fit_the_window(browser: Chrome, servers: Servers, size: tuple[int, int]) -> None:
    browser.set_window_size(*size)
    width = browser.execute_script("return window.innerWidth")
    browser.get(f"{servers.http_base}/docs")
    WebDriverWait(browser, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "section.schema"), "the schemas"
    )
    assert width <= size[0]
    widest = "return document.documentElement.scrollWidth"
    assert browser.execute_script(widest) <= width
    # every example and the "Try it" boxes opened: still no wider than the window
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert browser.execute_script(widest) <= width
    link = browser.find_element(By.LINK_TEXT, "openapi.json")
    assert link.get_attribute("href") == f"{servers.http_base}/openapi.json"


def test_docs_with_a_slash_redirects_to_docs(browser: Chrome, servers: Servers) -> None:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as caught:
        opener.open(f"{servers.http_base}/docs/", timeout=30)
    caught.value.close()
    assert caught.value.code == 308
    assert caught.value.headers["Location"] == "/docs"  # a path: never from the Host header
    browser.get(f"{servers.http_base}/docs/")
    assert browser.current_url == f"{servers.http_base}/docs"


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_rules_fit_the_window_and_open_at_a_game(
    browser: Chrome, servers: Servers, size: tuple[int, int]
) -> None:
    browser.set_window_size(*size)
    width = browser.execute_script("return window.innerWidth")
    browser.get(f"{servers.http_base}/rules#tiu_u")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    top = browser.execute_script(
        "return document.getElementById('tiu_u').nextElementSibling.getBoundingClientRect().top"
    )
    assert 0 <= top < size[1] / 2  # the game's section is where the page opens
