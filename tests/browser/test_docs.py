"""The API docs page (``/docs``) in headless Chromium on a phone's screen: the whole
document renders, and nothing makes the page wider than the screen; a long line scrolls
or wraps inside its own box."""

from __future__ import annotations

import pytest
from selenium.webdriver import Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from ..support.servers import Servers

#: A phone's viewport, in CSS pixels.
PHONE = (390, 844)


@pytest.mark.parametrize("path", ["/docs", "/docs/"])
def test_the_docs_fit_a_phone(browser: Chrome, servers: Servers, path: str) -> None:
    browser.set_window_size(*PHONE)
    width = browser.execute_script("return window.innerWidth")
    browser.get(f"{servers.http_base}{path}")
    WebDriverWait(browser, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "section.schema"), "the schemas"
    )
    assert width <= PHONE[0]
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    # every example and the "Try it" boxes opened: still no wider than the screen
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    # the page's own links lead to the document, from /docs and /docs/ alike
    link = browser.find_element(By.LINK_TEXT, "openapi.json")
    assert link.get_attribute("href") == f"{servers.http_base}/openapi.json"
