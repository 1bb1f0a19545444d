"""The REST door's contract for people and programs: ``GET /openapi.json``, ``GET /docs``
and ``GET /schemas/match-record.json``.

``/openapi.json`` is the OpenAPI 3.1 document generated from the proto
(``proto/openapi.py``; committed under ``openapi/``), with the ids of any game installed
from outside the package (``DOMINO_RULES_GAMES``) added to the rulesets it lists.
``/docs`` is one self-contained page that renders it (``/docs/`` redirects to it): the
document is embedded in the page, and the page loads nothing from anywhere else, so it
works offline.
``/rules`` is the rulebook (``docs/rules.md``, rendered by ``docs/rules_page.py``), with an
anchor per ruleset id (``/rules#one_arm_joe``).
``/how-to-play`` is each game in a player's words, from the ``how_to_play.md`` of each
game's package (:mod:`domino_rules.web.how_to_play`), with the same anchors
(``/how-to-play#one_arm_joe``); each game's section links to its rules in the rulebook.
``/schemas/match-record.json`` is the JSON Schema of a match record's JSON form
(``docs/records.md``), generated beside the document from the same proto.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from flask import Flask, Response, request

from .. import games
from .how_to_play import how_to_play_html

__all__ = ["docs_html", "openapi_json", "record_schema_json", "register", "rules_html"]

#: Where the page's script finds the document it renders.
_PLACEHOLDER = "<!--OPENAPI_DOCUMENT-->"


@cache
def openapi_json() -> bytes:
    """The committed OpenAPI document, as shipped in the package; where a game is
    installed that it does not list, with that game's id added to ``NewGameRequest``'s
    ``ruleset`` (a game without options or table of its own needs nothing else)."""
    shipped = (resources.files("domino_rules.web") / "openapi" / "openapi.json").read_bytes()
    document = json.loads(shipped)
    ruleset = document["components"]["schemas"]["NewGameRequest"]["properties"]["ruleset"]
    extra = [game.id for game in games.all_games() if game.id not in ruleset["enum"]]
    if not extra:
        return shipped
    ruleset["enum"] = [*ruleset["enum"], *extra]
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


@cache
def record_schema_json() -> bytes:
    """The JSON Schema of a match record, as shipped in the package."""
    return (
        resources.files("domino_rules.web") / "openapi" / "match-record.schema.json"
    ).read_bytes()


@cache
def rules_html() -> bytes:
    """The rulebook's page, as shipped in the package."""
    return (resources.files("domino_rules.web") / "rulebook" / "rules.html").read_bytes()


@cache
def docs_html() -> bytes:
    """The docs page with the document embedded; every ``<`` is escaped (``\\u003c``, the
    same text in JSON), so the document cannot end its ``<script>`` element."""
    page = (resources.files("domino_rules.web") / "openapi" / "docs.html").read_text(
        encoding="utf-8"
    )
    document = openapi_json().decode("utf-8").replace("<", "\\u003c")
    if _PLACEHOLDER not in page:
        raise RuntimeError("docs.html has no place for the document")
    return page.replace(_PLACEHOLDER, document, 1).encode("utf-8")


def register(app: Flask) -> None:
    """Add ``GET /openapi.json``, ``GET /docs``, ``GET /rules``, ``GET /how-to-play`` and
    ``GET /schemas/match-record.json`` to the gateway's app."""

    def shared_json(body: bytes, mimetype: str) -> Response:
        response = Response(body, mimetype=mimetype)
        response.headers["Access-Control-Allow-Origin"] = "*"  # for tools on other origins
        response.headers["Cache-Control"] = "no-cache"
        return response

    def openapi() -> Response:
        return shared_json(openapi_json(), "application/json")

    def rulebook() -> Response:
        response = Response(rules_html(), mimetype="text/html")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'"
        )
        return response

    def how_to_play() -> Response:
        response = Response(how_to_play_html(), mimetype="text/html")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'"
        )
        return response

    def record_schema() -> Response:
        return shared_json(record_schema_json(), "application/schema+json")

    def docs() -> Response:
        if request.path.endswith("/"):
            # a path, never built from the Host header's word for where the service is
            return Response(status=308, headers={"Location": "/docs"})
        response = Response(docs_html(), mimetype="text/html")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"
        )
        return response

    app.add_url_rule("/openapi.json", endpoint="openapi", view_func=openapi, methods=["GET"])
    app.add_url_rule("/docs", endpoint="docs", view_func=docs, methods=["GET"])
    app.add_url_rule("/rules", endpoint="rules", view_func=rulebook, methods=["GET"])
    app.add_url_rule("/how-to-play", endpoint="how_to_play", view_func=how_to_play, methods=["GET"])
    app.add_url_rule(
        "/schemas/match-record.json",
        endpoint="record_schema",
        view_func=record_schema,
        methods=["GET"],
    )
