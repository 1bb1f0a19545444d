"""What each call through a door leaves behind: a request id, one access log line, and
its share of the metrics (:mod:`domino_rules.observability.metrics`).

A door wraps every call it serves in :func:`begin` and :func:`finish`; in between, the
call's :class:`Call` (also :func:`current`, for the thread serving it) gathers its RPC,
its outcome and what the service learnt of the game. The service tells that to
:data:`OBSERVER`, the :class:`~domino_rules.api.service.Observer` each door gives it
(``service.observe(OBSERVER)``): of every token it opens or seals, the ruleset, game id,
version and token size, and whether the match is over, noted in the call of the thread
that made it; so nothing is decoded twice and no token or hand is ever looked into for
the log.

The access line (logger ``domino_rules.access``, level INFO; DEBUG for health probes
and scrapes) holds::

    door rpc status reason [http_status] duration_ms ruleset game_id version request_id
    peer [method path] [trace_id span_id]

``status`` is the gRPC status code name on both doors (``http_status`` is REST's), and
``reason`` the ``ErrorInfo`` reason of an error. With tracing on
(:mod:`.tracing`), ``trace_id`` (32 hex digits) and ``span_id`` (16) are those
of the call's span, so that a line leads to its trace and a trace to its line. A request
id comes from the request (header or metadata ``x-request-id``: 1 to 128 letters, digits
or ``. _ : / + = @ -``) or is made (32 hex digits, unique per process and call). A REST
answer always carries it back; a gRPC answer does when the call sent one (the gRPC door
decides).

What it costs a call, on top of the service's own work, counted in CPU instructions:
about 40 thousand for the metrics and the call's record, and 30 thousand for a text
access line (made without a ``LogRecord`` when only the service's own handler would see
it, :func:`domino_rules.observability.logs.write`); an ApplyMove is about 1.3 million.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import secrets
import threading
import time
from typing import TYPE_CHECKING, Any

from google.rpc import code_pb2

from ..rules import Status
from . import logs, tracing
from .logs import logfmt_value
from .metrics import recorder

if TYPE_CHECKING:
    from ..api import ApiError
    from ..state.codec import Game

__all__ = [
    "OBSERVER",
    "OTHER",
    "REQUEST_ID",
    "AccessLine",
    "Call",
    "CallObserver",
    "begin",
    "current",
    "finish",
    "new_request_id",
    "note_span",
    "rejected",
    "request_id",
]

#: The header (REST) and metadata key (gRPC) of the request id.
REQUEST_ID = "x-request-id"
#: The ``rpc`` of a REST request that names no RPC (an unknown path, a parser error).
OTHER = "other"

ACCESS = logging.getLogger("domino_rules.access")
_VALID_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,128}")
_CODE_NAMES: dict[int, str] = {value: name for name, value in code_pb2.Code.items()}

_local = threading.local()
_ids = itertools.count(1)
_id_prefix = secrets.token_hex(8)


def _new_process() -> None:
    global _ids, _id_prefix
    _ids = itertools.count(1)
    _id_prefix = secrets.token_hex(8)


os.register_at_fork(after_in_child=_new_process)


def new_request_id() -> str:
    """32 hex digits: a random prefix drawn once per process, then a counter."""
    return f"{_id_prefix}{next(_ids):016x}"


def request_id(given: str | None) -> str:
    """``given`` if it is a usable request id, else a new one."""
    if given and _VALID_ID.fullmatch(given):
        return given
    return new_request_id()


def _code_name(code: int) -> str:
    """``9`` -> ``"FAILED_PRECONDITION"``."""
    return _CODE_NAMES.get(code, "UNKNOWN")


class Call:
    """One call being served, and what is known of it so far."""

    __slots__ = (
        "code",
        "counted",
        "door",
        "game_id",
        "http_status",
        "match_over",
        "method",
        "path",
        "peer",
        "reason",
        "request_id",
        "rpc",
        "ruleset",
        "span_id",
        "started",
        "token_in",
        "token_out",
        "trace_id",
        "version",
    )

    def __init__(
        self, door: str, rpc: str | None, request_id: str, peer: str | None, counted: bool
    ) -> None:
        self.started = time.perf_counter()
        self.door = door
        self.rpc = rpc
        self.request_id = request_id
        self.peer = peer
        self.counted = counted
        self.code = "OK"
        self.reason = ""
        self.http_status: int | None = None
        self.method: str | None = None
        self.path: str | None = None
        self.ruleset: str | None = None
        self.game_id: str | None = None
        self.version: int | None = None
        self.token_in: int | None = None
        self.token_out: int | None = None
        self.match_over = False
        self.trace_id: str | None = None
        self.span_id: str | None = None

    def failed(self, error: ApiError) -> None:
        """The call is answered with ``error``."""
        self.code = _code_name(error.code)
        self.reason = error.reason

    def note(self, game: Any) -> None:
        """The call's game (a :class:`domino_rules.state.codec.Game`)."""
        self.ruleset = game.ruleset.id
        self.game_id = game.game_id
        self.version = game.version


class AccessLine:
    """The access line of a call: its text is ``key=value`` pairs (after ``summary``, if
    any), its fields those of the JSON line
    (:class:`domino_rules.observability.logs.Structured`)."""

    __slots__ = ("call", "seconds", "summary")

    def __init__(self, call: Call, seconds: float, summary: str = "") -> None:
        self.call = call
        self.seconds = seconds
        self.summary = summary

    def fields(self) -> dict[str, object]:
        c = self.call
        out: dict[str, object] = {}
        if self.summary:
            out["message"] = self.summary
        out["door"] = c.door
        out["rpc"] = c.rpc or OTHER
        out["status"] = c.code
        out["reason"] = c.reason or None
        if c.http_status is not None:
            out["http_status"] = c.http_status
        out["duration_ms"] = round(self.seconds * 1000, 3)
        out["ruleset"] = c.ruleset
        out["game_id"] = c.game_id
        out["version"] = c.version
        out["request_id"] = c.request_id
        out["peer"] = c.peer
        if c.method is not None:
            out["method"] = c.method
            out["path"] = c.path
        if c.trace_id is not None:
            out["trace_id"] = c.trace_id
            out["span_id"] = c.span_id
        return out

    def __str__(self) -> str:
        # every value but the method and path is of a known, plain alphabet (ids, codes,
        # numbers, addresses), so only those two may need quoting
        c = self.call
        text = (
            f"door={c.door} rpc={c.rpc or OTHER} status={c.code} reason={c.reason or '-'}"
            + ("" if c.http_status is None else f" http_status={c.http_status}")
            + f" duration_ms={self.seconds * 1000:.3f} ruleset={c.ruleset or '-'}"
            f" game_id={c.game_id or '-'} version={'-' if c.version is None else c.version}"
            f" request_id={c.request_id} peer={c.peer or '-'}"
        )
        if c.method is not None:
            text += f" method={logfmt_value(c.method)} path={logfmt_value(c.path)}"
        if c.trace_id is not None:
            text += f" trace_id={c.trace_id} span_id={c.span_id}"
        return f"{self.summary} {text}" if self.summary else text


def begin(
    door: str,
    rpc: str | None,
    given_id: str | None = None,
    peer: str | None = None,
    *,
    counted: bool = True,
) -> Call:
    """A call comes in through ``door``: its :class:`Call`, the current one of this
    thread until :func:`finish`. An uncounted call (a health probe, a scrape) is left
    out of the metrics and logged at DEBUG only."""
    call = Call(door, rpc, request_id(given_id), peer, counted)
    _local.call = call
    if counted:
        recorder().started(door)
    return call


def current() -> Call | None:
    """The call this thread is serving, if any."""
    call: Call | None = getattr(_local, "call", None)
    return call


def finish(call: Call) -> None:
    """The call has been answered: count it and write its access line."""
    _local.call = None
    seconds = time.perf_counter() - call.started
    if tracing.on and call.trace_id is None:
        note_span(call)
    if call.counted:
        ok = call.code == "OK"
        recorder().finished(
            call.door,
            call.rpc or OTHER,
            call.code,
            call.reason,
            seconds,
            call.token_in,
            call.token_out,
            call.ruleset if ok and call.rpc == "NewGame" else None,
            call.ruleset if ok and call.match_over else None,
            call.ruleset,
        )
    level = logging.INFO if call.counted else logging.DEBUG
    if ACCESS.isEnabledFor(level):
        _log(level, AccessLine(call, seconds))


def note_span(call: Call | None = None) -> None:
    """Give ``call`` (default: this thread's) the ids of the span current in this thread,
    if tracing is on and there is one. The gRPC door's calls run inside their span, and
    :func:`finish` does it; a REST call's span is the Flask request's, which ends before
    the WSGI middleware finishes the call, so the gateway has it called from inside the
    request (:func:`domino_rules.observability.tracing.instrument_flask`)."""
    call = call or current()
    if call is not None:
        ids = tracing.current_ids()
        if ids is not None:
            call.trace_id, call.span_id = ids


def rejected(
    door: str,
    error: ApiError,
    http_status: int,
    peer: str | None,
    message: str,
    seconds: float = 0.0,
) -> None:
    """A request refused before any route saw it (the HTTP parser's errors, a request
    not received in time): counted under ``rpc="other"``, and one access line that
    begins with ``message``."""
    call = Call(door, None, new_request_id(), peer, counted=True)
    call.failed(error)
    call.http_status = http_status
    recorder().answered(door, OTHER, call.code, call.reason, seconds)
    if ACCESS.isEnabledFor(logging.INFO):
        _log(logging.INFO, AccessLine(call, seconds, message))


def _log(level: int, line: AccessLine) -> None:
    logs.write(ACCESS, level, line)


class CallObserver:
    """The doors' :class:`~domino_rules.api.service.Observer`: what the service opens and
    seals is noted in the :class:`Call` the calling thread serves (none: nothing is)."""

    __slots__ = ()

    def on_decoded(self, game: Game | None, token_bytes: int) -> None:
        call: Call | None = getattr(_local, "call", None)
        if call is not None:
            call.token_in = token_bytes
            if game is not None:
                call.note(game)

    def on_encoded(self, game: Game, token_bytes: int) -> None:
        call: Call | None = getattr(_local, "call", None)
        if call is not None:
            call.token_out = token_bytes
            call.note(game)
            call.match_over = game.match.status is Status.MATCH_OVER


#: The observer every door gives the service it serves.
OBSERVER = CallObserver()
