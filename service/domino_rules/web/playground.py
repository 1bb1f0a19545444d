"""The playground: ``GET /play``, a page where a person plays any ruleset against bots.

The page and its assets are static files shipped in the package (``play/``); they load
nothing from anywhere else and talk to the service through its public REST API only
(``/v1/...``), at the page's own origin or at another one (the page has an "API base
URL" field, or ``/play?api=URL``; the ``/v1`` routes allow any origin). ``/play?delay=0``
makes the bots move at once, for tests and impatient players.

``/play/`` and ``/play/index.html`` redirect to ``/play``, where the page's relative
links to its assets (``play/play.js``) resolve.
"""

from __future__ import annotations

from importlib import resources

from flask import Flask, Response, abort, redirect, request
from werkzeug.wrappers import Response as BaseResponse

__all__ = ["register"]

_FILES = resources.files("domino_rules.web") / "play"
#: The kinds of file the page is made of; anything else in ``play/`` is not served.
_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
#: Scripts and styles from the page's origin only; calls to any http(s) origin, since
#: the API may live elsewhere.
_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' http: https:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)


def _asset(name: str) -> Response:
    suffix = name[name.rfind(".") :] if "." in name else ""
    if (
        "/" in name
        or "\\" in name
        or name.startswith(".")
        or suffix not in _TYPES
        or not (_FILES / name).is_file()
    ):
        abort(404)
    response = Response((_FILES / name).read_bytes(), mimetype=_TYPES[suffix])
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Content-Type-Options"] = "nosniff"
    if suffix == ".html":
        response.headers["Content-Security-Policy"] = _POLICY
    return response


def register(app: Flask) -> None:
    """Add ``GET /play`` (the page) and ``GET /play/<file>`` (its assets)."""

    @app.get("/play")
    def play() -> Response:
        return _asset("index.html")

    @app.get("/play/")
    @app.get("/play/index.html")
    def play_elsewhere() -> BaseResponse:
        query = request.query_string.decode("ascii", "replace")
        # relative, so that it works behind a path prefix; the query (?api=, ?delay=) kept
        return redirect("../play" + (f"?{query}" if query else ""), code=308)

    @app.get("/play/<name>")
    def play_asset(name: str) -> Response:
        return _asset(name)
