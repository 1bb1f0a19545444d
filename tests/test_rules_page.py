"""The rulebook's page, ``GET /rules``: ``docs/rules.md`` as the service serves it, fresh,
with an anchor per ruleset id, self-contained, and no link to a file it is served
without."""

from __future__ import annotations

import importlib.util
import pathlib
import re

from flask.testing import FlaskClient

from domino_rules import games
from domino_rules.api import RulesService
from domino_rules.doors import rest

ROOT = pathlib.Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("rules_page", ROOT / "docs" / "rules_page.py")
assert _spec is not None and _spec.loader is not None
PAGE = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(PAGE)


def _client() -> FlaskClient:
    return rest.create_app(service=RulesService()).test_client()


def test_the_committed_page_is_not_stale(tmp_path: pathlib.Path) -> None:
    fresh = PAGE.generate(tmp_path / "rules.html")
    assert fresh.read_text() == PAGE.OUTPUT.read_text(), "run: python docs/rules_page.py"


def test_rules_is_served_with_an_anchor_per_game() -> None:
    response = _client().get("/rules")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    page = response.get_data(as_text=True)
    for game in games.all_games():
        anchor = re.search(rf'<span id="{game.id}"></span><h2 id="[^"]+">([^<]+)</h2>', page)
        assert anchor is not None, game.id
        assert anchor.group(1) == game.docs_section
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org", "")


def test_links_stay_within_the_page_or_the_service() -> None:
    page = _client().get("/rules").get_data(as_text=True)
    for href in re.findall(r'href="([^"]*)"', page):
        assert href.startswith(("#", "https://")) or href in ("play", "docs", "how-to-play"), href
    ids = set(re.findall(r'id="([^"]+)"', page))
    for href in re.findall(r'href="#([^"]*)"', page):
        assert href in ids, f"#{href} names no heading"
