"""The playground: ``GET /play``, a page where a person plays any ruleset against bots.

The page and its assets are static files shipped in the package (``play/``); they load
nothing from anywhere else and talk to the service through its public REST API only.
"""

from __future__ import annotations

import mimetypes
from importlib import resources

from flask import Flask, Response, abort

__all__ = ["register"]

_FILES = resources.files("domino_rules") / "play"


def _asset(name: str) -> Response:
    if "/" in name or name.startswith(".") or not (_FILES / name).is_file():
        abort(404)
    kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
    response = Response((_FILES / name).read_bytes(), mimetype=kind)
    response.headers["Cache-Control"] = "no-cache"
    return response


def register(app: Flask) -> None:
    """Add ``GET /play`` (the page) and ``GET /play/<file>`` (its assets)."""

    @app.get("/play")
    def play() -> Response:
        return _asset("index.html")

    @app.get("/play/<name>")
    def play_asset(name: str) -> Response:
        return _asset(name)
