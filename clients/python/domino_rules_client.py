"""A small REST client for the domino rules service, standard library only.

Copy this one file into a project (Python 3.9+); it needs nothing beyond the standard
library::

    from domino_rules_client import DominoRulesClient, DominoRulesError

    client = DominoRulesClient("http://127.0.0.1:8080")
    game = client.new_game("one_arm_joe", 3, options={"target_score": 40})
    state = game["state"]
    legal = client.legal_moves(state)
    answer = client.apply_move(state, legal["moves"][0], expected_version=game["version"])

Requests and responses are proto3 JSON dicts exactly as the contract
(``proto/domino_rules/v1/domino_rules.proto``) writes them: field names in snake_case,
zero values printed, enums as names (``"IN_PROGRESS"``), ``state`` as the base64 text
the server returned. The state token is opaque: keep it, send it back unchanged.

A refused request raises :class:`DominoRulesError` with the gRPC code name, the
``ErrorInfo`` reason (``UNKNOWN_RULESET``, ``ILLEGAL_MOVE``, ``BAD_STATE_TOKEN``, ...),
the message and the HTTP status.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

__all__ = ["GRPC_CODES", "DominoRulesClient", "DominoRulesError"]

#: google.rpc.Code numbers -> names (the ``code`` of an error body is a number).
GRPC_CODES: dict[int, str] = {
    0: "OK",
    1: "CANCELLED",
    2: "UNKNOWN",
    3: "INVALID_ARGUMENT",
    4: "DEADLINE_EXCEEDED",
    5: "NOT_FOUND",
    6: "ALREADY_EXISTS",
    7: "PERMISSION_DENIED",
    8: "RESOURCE_EXHAUSTED",
    9: "FAILED_PRECONDITION",
    10: "ABORTED",
    11: "OUT_OF_RANGE",
    12: "UNIMPLEMENTED",
    13: "INTERNAL",
    14: "UNAVAILABLE",
    15: "DATA_LOSS",
    16: "UNAUTHENTICATED",
}

_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"

JSON = dict[str, Any]


class DominoRulesError(Exception):
    """A request the service refused, or could not be reached for.

    ``code`` is the gRPC code name (``"INVALID_ARGUMENT"``, ``"FAILED_PRECONDITION"``,
    ``"ABORTED"``, ...), ``reason`` the ``ErrorInfo.reason`` (``""`` when the body had
    none), ``message`` the human-readable text, ``http_status`` the HTTP status (``None``
    when no HTTP answer came back at all).
    """

    def __init__(self, code: str, reason: str, message: str, http_status: int | None) -> None:
        super().__init__(f"{code} {reason}: {message}" if reason else f"{code}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.http_status = http_status

    @classmethod
    def from_body(cls, http_status: int, body: bytes) -> DominoRulesError:
        """Build the error from a ``{code, message, details}`` body; a body that is not
        one (a proxy's HTML page, say) still gives an error with the HTTP status."""
        try:
            data = json.loads(body.decode("utf-8")) if body else {}
        except (UnicodeDecodeError, ValueError):
            data = None
        if not isinstance(data, dict) or "code" not in data:
            text = body.decode("utf-8", errors="replace").strip()[:200]
            return cls(_code_for_http(http_status), "", text or f"HTTP {http_status}", http_status)
        code = data.get("code")
        name = GRPC_CODES.get(code, str(code)) if isinstance(code, int) else str(code)
        reason = ""
        details = data.get("details")
        if isinstance(details, list):
            infos = [d for d in details if isinstance(d, dict) and d.get("@type") == _ERROR_INFO]
            if infos:
                reason = str(infos[0].get("reason", ""))
        return cls(name, reason, str(data.get("message", "")), http_status)


def _code_for_http(status: int) -> str:
    return {
        400: "INVALID_ARGUMENT",
        401: "UNAUTHENTICATED",
        403: "PERMISSION_DENIED",
        404: "NOT_FOUND",
        409: "ABORTED",
        429: "RESOURCE_EXHAUSTED",
        499: "CANCELLED",
        501: "UNIMPLEMENTED",
        503: "UNAVAILABLE",
        504: "DEADLINE_EXCEEDED",
    }.get(status, "UNKNOWN")


class DominoRulesClient:
    """The REST door of the domino rules service at ``base_url``
    (``http://host:8080``; a path prefix such as ``https://host/rules`` works too)."""

    def __init__(
        self, base_url: str, *, timeout: float = 30.0, headers: Mapping[str, str] | None = None
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.headers = dict(headers or {})

    # ------------------------------------------------------------------ the API

    def list_rulesets(self) -> list[JSON]:
        """The catalogue: each ruleset with its player range and typed options."""
        return self._call("GET", "/v1/rulesets")["rulesets"]  # type: ignore[no-any-return]

    def new_game(
        self,
        ruleset: str,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
    ) -> JSON:
        """Start a match. ``options`` are this ruleset's options
        (``{"target_score": 40}``); they may also be given already wrapped in the
        ruleset's name (``{"one_arm_joe": {...}}``). ``seed`` omitted: the server draws one."""
        body: JSON = {"ruleset": ruleset, "players": players}
        if options:
            wrapped = (
                len(options) == 1 and ruleset in options and isinstance(options[ruleset], Mapping)
            )
            body["options"] = dict(options) if wrapped else {ruleset: dict(options)}
        if seed is not None:
            body["seed"] = seed
        return self._call("POST", "/v1/games", body)

    def legal_moves(self, state: str, seat: int | None = None) -> JSON:
        """``{to_act, moves, status, version, game_id}``; with ``seat``, only that seat's moves."""
        return self._call("POST", "/v1/games:legalMoves", _with(state=state, seat=seat))

    def apply_move(
        self, state: str, move: Mapping[str, Any], expected_version: int | None = None
    ) -> JSON:
        """Apply ``move`` (a legal move as returned, sent back unchanged). With
        ``expected_version``, a state of another version is refused (``STALE_STATE``)."""
        return self._call(
            "POST",
            "/v1/games:applyMove",
            _with(state=state, move=dict(move), expected_version=expected_version),
        )

    def score(self, state: str) -> JSON:
        """Hand and match points, per-hand history, winners; the seed once the match is over."""
        return self._call("POST", "/v1/games:score", {"state": state})

    def view(self, state: str, seat: int | None = None) -> JSON:
        """What ``seat`` may see (its hand and legal moves); ``None``: a spectator's view."""
        return self._call("POST", "/v1/games:view", _with(state=state, seat=seat))

    def healthy(self) -> bool:
        """True when ``GET /healthz`` answers SERVING."""
        try:
            return self._call("GET", "/healthz").get("status") == "SERVING"
        except DominoRulesError:
            return False

    # ------------------------------------------------------------------ transport

    def _call(self, verb: str, path: str, body: JSON | None = None) -> JSON:
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode("utf-8")
        headers = {"Accept": "application/json", **self.headers}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(
            self.base_url + path, data=data, method=verb, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            with error:
                raise DominoRulesError.from_body(error.code, error.read()) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise DominoRulesError("UNAVAILABLE", "", f"{self.base_url}: {reason}", None) from None
        try:
            answer = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, ValueError):
            raise DominoRulesError(
                "UNKNOWN", "", f"the answer to {path} is not JSON", status
            ) from None
        if not isinstance(answer, dict):
            raise DominoRulesError(
                "UNKNOWN", "", f"the answer to {path} is not a JSON object", status
            )
        return answer


def _with(**fields: Any) -> JSON:
    """The fields that are set (``None`` = omitted, so optional fields stay unset)."""
    return {name: value for name, value in fields.items() if value is not None}
