"""The one exception both clients raise, and the reasons a caller should handle.

Every refusal of the service carries a ``google.rpc.ErrorInfo`` whose ``reason`` says what
went wrong; :class:`DominoRulesError` holds it with the gRPC code name, the message and,
over REST, the HTTP status. Compare ``error.reason`` with :class:`Reason`.

A refused request changes nothing: the state token you sent is still the game.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping

__all__ = ["GRPC_CODES", "DominoRulesError", "Reason"]

#: ``google.rpc.Code`` numbers and their names (a REST error body's ``code`` is a number).
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

ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo"
RETRY_INFO_TYPE = "type.googleapis.com/google.rpc.RetryInfo"


class Reason(enum.StrEnum):
    """The ``ErrorInfo`` reasons of the service. ``error.reason`` is a plain ``str``
    (a newer service may send a reason this list lacks), and compares equal to these.
    """

    # -- your game's flow: expect and handle these
    #: FAILED_PRECONDITION: the move's seat is not the seat to act.
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    #: FAILED_PRECONDITION: the move is not one of the legal moves; ask get_legal_moves.
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    #: FAILED_PRECONDITION: the match is over.
    GAME_OVER = "GAME_OVER"
    #: ABORTED (409): ``expected_version`` differs from the state's version. Another
    #: writer moved first: fetch the latest state, do not retry with this one.
    STALE_STATE = "STALE_STATE"
    #: INVALID_ARGUMENT: a token that is garbled, truncated, tampered with, sealed with a
    #: key the service no longer has, unsealed where seals are required, or of a retired
    #: format (start a new game).
    BAD_STATE_TOKEN = "BAD_STATE_TOKEN"

    # -- a request the caller built wrongly (INVALID_ARGUMENT): fix the request
    MALFORMED_REQUEST = "MALFORMED_REQUEST"
    UNKNOWN_RULESET = "UNKNOWN_RULESET"
    BAD_OPTIONS = "BAD_OPTIONS"
    BAD_PLAYER_COUNT = "BAD_PLAYER_COUNT"
    BAD_SEED = "BAD_SEED"
    BAD_SEAT = "BAD_SEAT"
    #: a SuggestMove budget below 1 or over the ruleset's ``max_playouts``.
    BAD_PLAYOUTS = "BAD_PLAYOUTS"

    # -- match records (replay): a record that replays but parts from its match is not
    # refused, its verdict is DIVERGED
    #: a record of another format, with neither ``seed`` nor ``first_state``, or whose
    #: ``seat`` does not fit its ``viewpoint``.
    BAD_RECORD = "BAD_RECORD"
    #: a record over 20,000 moves or 200,000 events.
    RECORD_TOO_LARGE = "RECORD_TOO_LARGE"
    #: a ``from_step`` past the record's last move, or a ``to_step`` before it.
    BAD_STEPS = "BAD_STEPS"

    # -- the bots (SuggestMove)
    #: RESOURCE_EXHAUSTED: the bots are busy; try again after ``error.retry_after`` s.
    OVERLOADED = "OVERLOADED"
    #: DEADLINE_EXCEEDED: the call's deadline passed before the search could end.
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
    #: INTERNAL (500): the bot could not suggest a move for this state, a bug in the
    #: service; report it with ``error.request_id``.
    BOT_FAILED = "BOT_FAILED"

    # -- the transport and the server
    #: RESOURCE_EXHAUSTED (REST 413, 414, 431): a request past the size limits.
    REQUEST_TOO_LARGE = "REQUEST_TOO_LARGE"
    #: DEADLINE_EXCEEDED (REST 408): the request did not arrive whole in time.
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    #: NOT_FOUND (REST 404): no such path (a wrong base URL).
    NOT_FOUND = "NOT_FOUND"
    #: UNIMPLEMENTED (REST 405): a method the path does not take.
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    #: NOT_FOUND (REST 404): ``/readyz?service=`` a name health checking does not know.
    SERVICE_UNKNOWN = "SERVICE_UNKNOWN"
    #: INTERNAL (500): a bug in the service; report it with ``error.request_id``.
    INTERNAL = "INTERNAL"


class DominoRulesError(Exception):
    """A request the service refused, or could not be reached for.

    - ``code``: the gRPC code name (``"INVALID_ARGUMENT"``, ``"FAILED_PRECONDITION"``,
      ``"ABORTED"``, ...), on both doors;
    - ``reason``: the ``ErrorInfo`` reason (see :class:`Reason`), ``""`` when the answer
      had none: the service could not be reached (``code`` ``"UNAVAILABLE"``), the call
      timed out on the client (``"DEADLINE_EXCEEDED"``), or something in between (a
      proxy) answered;
    - ``message``: the human-readable text;
    - ``http_status``: the HTTP status over REST, ``None`` over gRPC or with no answer;
    - ``metadata``: the ``ErrorInfo`` metadata;
    - ``request_id``: the ``x-request-id`` of the call, when the answer carried one:
      quote it when reporting a problem;
    - ``retry_after``: seconds to wait before trying again, when the service says so
      (``OVERLOADED``), else ``None``.
    """

    def __init__(
        self,
        code: str,
        reason: str,
        message: str,
        http_status: int | None = None,
        *,
        metadata: Mapping[str, str] | None = None,
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{code} {reason}: {message}" if reason else f"{code}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.http_status = http_status
        self.metadata: dict[str, str] = dict(metadata or {})
        self.request_id = request_id
        self.retry_after = retry_after

    @property
    def grpc_code(self) -> str:
        """The gRPC code name (the same as ``code``)."""
        return self.code

    def __repr__(self) -> str:
        return (
            f"DominoRulesError(code={self.code!r}, reason={self.reason!r}, "
            f"message={self.message!r}, http_status={self.http_status!r})"
        )

    @classmethod
    def from_body(
        cls,
        http_status: int,
        body: bytes,
        *,
        request_id: str | None = None,
        retry_after: float | None = None,
    ) -> DominoRulesError:
        """The error of a REST ``{code, message, details}`` body; a body that is not one
        (a proxy's HTML page, say) still gives an error with the HTTP status."""
        try:
            data = json.loads(body.decode("utf-8")) if body else None
        except (UnicodeDecodeError, ValueError):
            data = None
        if not isinstance(data, dict) or "code" not in data:
            text = body.decode("utf-8", errors="replace").strip()[:200]
            return cls(
                _code_for_http(http_status),
                "",
                text or f"HTTP {http_status}",
                http_status,
                request_id=request_id,
                retry_after=retry_after,
            )
        code = data["code"]
        name = GRPC_CODES.get(code, str(code)) if isinstance(code, int) else str(code)
        reason, metadata = "", {}
        details = data.get("details")
        for detail in details if isinstance(details, list) else ():
            if not isinstance(detail, dict):
                continue
            if detail.get("@type") == ERROR_INFO_TYPE and not reason:
                reason = str(detail.get("reason", ""))
                raw = detail.get("metadata")
                if isinstance(raw, dict):
                    metadata = {str(k): str(v) for k, v in raw.items()}
            elif detail.get("@type") == RETRY_INFO_TYPE:
                retry_after = _seconds(detail.get("retry_delay")) or retry_after
        return cls(
            name,
            reason,
            str(data.get("message", "")),
            http_status,
            metadata=metadata,
            request_id=request_id,
            retry_after=retry_after,
        )


def _seconds(value: object) -> float | None:
    """A JSON ``google.protobuf.Duration`` (``"1.500s"``) in seconds."""
    if isinstance(value, str) and value.endswith("s"):
        try:
            return float(value[:-1])
        except ValueError:
            return None
    return None


def _code_for_http(status: int) -> str:
    """The gRPC code of an HTTP status, as grpc-gateway maps them back."""
    return {
        400: "INVALID_ARGUMENT",
        401: "UNAUTHENTICATED",
        403: "PERMISSION_DENIED",
        404: "NOT_FOUND",
        408: "DEADLINE_EXCEEDED",
        409: "ABORTED",
        413: "RESOURCE_EXHAUSTED",
        429: "RESOURCE_EXHAUSTED",
        499: "CANCELLED",
        500: "INTERNAL",
        501: "UNIMPLEMENTED",
        503: "UNAVAILABLE",
        504: "DEADLINE_EXCEEDED",
    }.get(status, "UNKNOWN")
