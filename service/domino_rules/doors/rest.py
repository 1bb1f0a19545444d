"""The REST door: a Flask gateway whose routes come from the proto's ``google.api.http``
annotations.

Bodies are proto3 JSON (``json_format``), field names as the proto writes them
(``game_id``, ``open_pip``; lowerCamelCase is accepted on input), with zero values
printed. Errors are ``{code, message, details}`` as grpc-gateway writes them, the HTTP
status derived from the gRPC code by :data:`HTTP_STATUS`, so the two doors agree.

Bodies are read here, not by Flask: a body over ``MAX_CONTENT_LENGTH`` gets 413 whether
it comes with a length or chunked, a body that cannot be read (a bad chunk, a client
that stalls past the server's timeout) gets a 400 or 408 and the connection is closed,
and nothing a client sends reaches the 500 handler.

``/healthz`` is liveness (the process answers); ``/readyz`` is readiness, 503
``NOT_SERVING`` when the ``ready`` check says so (under ``serve``: the server has begun
to stop, or its gRPC door does not answer SERVING); ``/readyz?service=NAME`` asks for
one of the names gRPC health knows (``""`` and ``domino_rules.v1.DominoRules``), and
answers 404 ``SERVICE_UNKNOWN`` for any other. ``/metrics`` is the Prometheus
exposition (:mod:`domino_rules.observability.metrics`), on the REST port or only on a port of its
own.

Every request gets a request id (``x-request-id``, taken from the request or made) in
its answer's headers, an access line and its metrics (:mod:`domino_rules.observability.calls`);
``/healthz``, ``/readyz`` and ``/metrics`` are left out of the metrics and logged at
DEBUG only.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response, request
from flask_cors import CORS
from google.api import annotations_pb2
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2
from werkzeug.exceptions import HTTPException

from .. import records
from ..api import ApiError, RulesService, to_status
from ..api.admission import deadline_scope
from ..observability import calls, metrics
from ..serving.settings import Settings
from ..state import pbjson
from ..v1 import domino_rules_pb2 as pb
from ..web import docs, playground

__all__ = [
    "HTTP_STATUS",
    "MAX_REQUEST_BYTES",
    "QUIET_PATHS",
    "create_app",
    "error_json",
    "replay_answer",
    "replay_request",
    "routes",
    "to_json",
]

log = logging.getLogger(__name__)

#: gRPC code -> HTTP status, as grpc-gateway maps them.
HTTP_STATUS: Mapping[int, int] = {
    code_pb2.OK: 200,
    code_pb2.CANCELLED: 499,
    code_pb2.UNKNOWN: 500,
    code_pb2.INVALID_ARGUMENT: 400,
    code_pb2.DEADLINE_EXCEEDED: 504,
    code_pb2.NOT_FOUND: 404,
    code_pb2.ALREADY_EXISTS: 409,
    code_pb2.PERMISSION_DENIED: 403,
    code_pb2.UNAUTHENTICATED: 401,
    code_pb2.RESOURCE_EXHAUSTED: 429,
    code_pb2.FAILED_PRECONDITION: 400,
    code_pb2.ABORTED: 409,
    code_pb2.OUT_OF_RANGE: 400,
    code_pb2.UNIMPLEMENTED: 501,
    code_pb2.INTERNAL: 500,
    code_pb2.UNAVAILABLE: 503,
    code_pb2.DATA_LOSS: 500,
}
#: HTTP errors raised before a route runs, as gRPC codes.
_HTTP_CODES = {
    404: (code_pb2.NOT_FOUND, "NOT_FOUND"),
    405: (code_pb2.UNIMPLEMENTED, "METHOD_NOT_ALLOWED"),
    413: (code_pb2.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE"),
}
#: The largest request body read by default (``MAX_CONTENT_LENGTH`` changes it).
MAX_REQUEST_BYTES = 1024 * 1024
#: How much of the body is read at a time.
_READ_CHUNK = 64 * 1024
#: The longest error message sent; longer ones (echoing a huge input) are cut.
_MAX_MESSAGE_CHARS = 1000
#: Probes and scrapes: not counted in the metrics, logged at DEBUG only.
QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
#: The longest request path an access line holds.
_MAX_LOGGED_PATH = 200
#: The header that gives a call its deadline, in seconds from its arrival (decimal),
#: as a gRPC deadline does; SuggestMove honours it.
TIMEOUT_HEADER = "x-request-timeout"
#: The longest deadline the header may give (a day).
MAX_TIMEOUT = 86400.0
#: The names gRPC health answers for, as ``/readyz?service=`` takes them.
HEALTH_SERVICES = ("", pb.DESCRIPTOR.services_by_name["DominoRules"].full_name)


def routes() -> list[tuple[str, str, str, str]]:
    """``(method name, HTTP verb, path, body)`` for every RPC, from the annotations."""
    out = []
    for method in pb.DESCRIPTOR.services_by_name["DominoRules"].methods:
        rule = method.GetOptions().Extensions[annotations_pb2.http]
        verb = rule.WhichOneof("pattern")
        assert verb is not None, f"{method.name} has no google.api.http annotation"
        out.append((method.name, verb.upper(), getattr(rule, verb), rule.body))
    return out


def to_json(message: Message) -> dict[str, Any]:
    """The JSON object of an answer: proto field names, every field without presence."""
    return pbjson.to_dict(message)


def _json_response(body: Mapping[str, Any], status: int = 200) -> Response:
    return Response(
        json.dumps(body, separators=(",", ":")), status=status, mimetype="application/json"
    )


def _printable(text: str) -> str:
    """``text`` as valid UTF-8 (lone surrogates escaped), cut to a readable length."""
    if len(text) > _MAX_MESSAGE_CHARS:
        text = text[:_MAX_MESSAGE_CHARS] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def error_json(error: ApiError) -> dict[str, Any]:
    """The ``{code, message, details}`` body of an error, as grpc-gateway writes it."""
    safe = ApiError(
        error.code,
        error.reason,
        _printable(error.message),
        retry_after=error.retry_after,
        **error.metadata,
    )
    return to_json(to_status(safe))


def _error_response(error: ApiError, status: int | None = None, *, close: bool = False) -> Response:
    call = calls.current()
    if call is not None:
        call.failed(error)
    response = _json_response(error_json(error), status or HTTP_STATUS.get(error.code, 500))
    if error.retry_after is not None:  # RFC 9110: whole seconds
        response.headers["Retry-After"] = str(max(1, math.ceil(error.retry_after)))
    if close:  # the rest of the request cannot be read: end the connection after this
        response.headers["Connection"] = "close"
    return response


class _BodyError(Exception):
    """A request body that could not be read; carries the answer."""

    def __init__(self, error: ApiError, status: int) -> None:
        super().__init__(error.message)
        self.error, self.status = error, status


def _too_large(limit: int) -> _BodyError:
    return _BodyError(
        ApiError(
            code_pb2.RESOURCE_EXHAUSTED,
            "REQUEST_TOO_LARGE",
            f"the request body is over the limit of {limit} bytes",
        ),
        413,
    )


def _read_body(limit: int) -> bytes:
    """The request body, at most ``limit`` bytes, with or without a length (chunked).

    Reads ``wsgi.input`` directly, so that what the server raises while reading (a bad
    chunk size, a client that stalls) is told apart from a disconnection.
    """
    length = request.content_length
    if length is not None and length > limit:
        raise _too_large(limit)
    if length is None and not request.environ.get("wsgi.input_terminated"):
        return b""  # neither a length nor a server that ends the stream: no body
    stream = request.environ["wsgi.input"]
    wanted = limit + 1 if length is None else length
    parts: list[bytes] = []
    size = 0
    try:
        while size < wanted:
            # a body of known length in one read: read in pieces, gunicorn copies what it
            # has buffered beyond each piece again (some 20 ms of CPU for 1 MiB in 64 KiB)
            data = stream.read(wanted - size if length is not None else _READ_CHUNK)
            if not data:
                break
            parts.append(data)
            size += len(data)
    except TimeoutError:
        raise _BodyError(
            ApiError(
                code_pb2.DEADLINE_EXCEEDED,
                "REQUEST_TIMEOUT",
                "the request body was not received in time",
            ),
            408,
        ) from None
    except Exception as exc:  # the server's parser: a bad chunk, a broken connection
        raise _BodyError(
            ApiError.malformed(f"the request body cannot be read: {exc}"), 400
        ) from None
    if size > limit:
        raise _too_large(limit)
    return b"".join(parts)


def _parse(
    message: Message, body: str, check: Callable[[dict[str, Any]], None] | None = None
) -> None:
    """Fill ``message`` from a JSON body; ``check`` bounds the parsed object before any
    message is built from it."""
    try:
        data = json.loads(body) if body.strip() else {}
    except (ValueError, RecursionError) as exc:
        raise ApiError.malformed(f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError.malformed("the body must be a JSON object")
    if "\\u" in body:  # only an escape can make a lone surrogate, which no proto holds
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = exc.object[exc.start : exc.end].encode("utf-8", "backslashreplace").decode()
            raise ApiError.malformed(
                f"the body holds a lone surrogate ({bad}), which is not text"
            ) from None
    if check is not None:
        check(data)
    try:
        _no_bools_for_numbers(data, message.DESCRIPTOR)
        json_format.ParseDict(data, message)
    except (json_format.ParseError, ValueError, TypeError, RecursionError) as exc:
        raise ApiError.malformed(
            f"the body does not fit {message.DESCRIPTOR.name}: {exc}"
        ) from None


def _no_bools_for_numbers(data: Any, descriptor: Any, depth: int = 0) -> None:
    """Refuse ``true``/``false`` where an enum or a number is expected: proto3 JSON has no
    such form, but the parser takes a bool for the integer it is in Python."""
    if depth > 32 or not isinstance(data, dict):
        return  # the parser itself refuses what is too deep or not an object
    fields = descriptor.fields_by_name
    for key, value in data.items():
        field = fields.get(key) or descriptor.fields_by_camelcase_name.get(key)
        if field is None:
            continue
        items = value if isinstance(value, list) else [value]
        for item in items:
            if field.message_type is not None:
                _no_bools_for_numbers(item, field.message_type, depth + 1)
            elif isinstance(item, bool) and field.type != field.TYPE_BOOL:
                raise ValueError(f"{field.name} takes no {json.dumps(item)}")
            elif field.enum_type is not None and not _enum_form(item, field.enum_type):
                # the parser reads 0.5 and "1" as numbers (int()): proto3 JSON has neither
                raise ValueError(f"{field.name} takes a value's name or number, not {item!r}")


def _enum_form(item: Any, enum: Any) -> bool:
    """Whether ``item`` is an enum value as proto3 JSON writes one: its name, or a whole
    number (or ``null``, the default)."""
    if isinstance(item, str):
        return item in enum.values_by_name
    if isinstance(item, float):
        return item.is_integer()
    return True  # ints, and what the parser itself refuses


def _timeout(header: str | None) -> float | None:
    """The seconds an ``x-request-timeout`` header gives the call (``None``: no limit)."""
    if header is None:
        return None
    try:
        seconds = float(header.strip())
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT):
        raise ApiError.malformed(
            f"the {TIMEOUT_HEADER} header must be a number of seconds above 0 and at most "
            f"{MAX_TIMEOUT:g}, not {_printable(header)[:40]!r}"
        )
    return seconds


def replay_request(body: bytes) -> pb.ReplayRequest:
    """A ``ReplayRequest`` from a JSON body, its record bounded (``records.check_json``)
    before any message is built: in the process that replays (:meth:`RulesService.replay_call`)."""
    message = pb.ReplayRequest()
    _parse(message, body.decode("utf-8", "replace"), _bounded_record)
    return message


def _bounded_record(data: dict[str, Any]) -> None:
    record = data.get("record")
    if not isinstance(record, dict):
        return  # none, or not an object: the parser says so
    try:
        records.check_json(record)
    except records.RecordTooLarge as exc:
        raise ApiError.invalid("RECORD_TOO_LARGE", str(exc)) from None
    except records.RecordError as exc:
        raise ApiError.invalid("BAD_RECORD", f"not of a record's shape: {exc}") from None


def replay_answer(message: pb.ReplayResponse) -> bytes:
    """A Replay answer's JSON body, made in the process that replayed."""
    return json.dumps(to_json(message), separators=(",", ":")).encode("utf-8")


def _view(service: RulesService, name: str, body_rule: str, limit: int) -> Callable[[], Response]:
    method = pb.DESCRIPTOR.services_by_name["DominoRules"].methods_by_name[name]
    request_type = getattr(pb, method.input_type.name)
    answer = getattr(service, name)
    heavy = name == "Replay"

    def view() -> Response:
        call = calls.current()
        if call is not None:
            call.rpc = name
        message = request_type()
        try:
            timeout = _timeout(request.headers.get(TIMEOUT_HEADER))
            if heavy:  # read here; admitted, then parsed and answered where it runs
                try:
                    service.refuse_replay_if_full()
                except ApiError as error:
                    # refused unread: the connection ends after the answer, the body is
                    # discarded as it comes (a MiB read costs more than the refusal)
                    return _error_response(error, close=True)
                body = _read_body(limit)
                with deadline_scope(timeout):
                    data = service.replay_call(body, replay_request, replay_answer)
                return Response(data, status=200, mimetype="application/json")
            if body_rule:
                _parse(message, _read_body(limit).decode("utf-8", "replace"))
            elif request.args:
                _parse(message, json.dumps(request.args.to_dict()))
            with deadline_scope(timeout):
                return _json_response(to_json(answer(message)))
        except ApiError as error:
            if error.code == code_pb2.INTERNAL:  # a bug behind a reason (BOT_FAILED)
                request_id = call.request_id if call else "-"
                log.exception("%s failed, %s (request id %s)", name, error.reason, request_id)
            return _error_response(error)
        except _BodyError as error:
            return _error_response(error.error, error.status, close=True)

    view.__name__ = name
    return view


class _Observed:
    """WSGI middleware: every request's request id, access line and metrics."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO", "")
        call = calls.begin(
            "rest",
            None,
            environ.get("HTTP_X_REQUEST_ID"),
            environ.get("REMOTE_ADDR"),
            counted=path not in QUIET_PATHS,
        )
        call.method = environ.get("REQUEST_METHOD")
        call.path = path[:_MAX_LOGGED_PATH]
        header = (calls.REQUEST_ID, call.request_id)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            call.http_status = int(status[:3])
            headers.append(header)
            return start_response(status, headers, exc_info)

        try:
            return self.app(environ, start)
        finally:
            if call.code == "OK" and (call.http_status or 500) >= 400:
                call.code = "UNKNOWN"  # an answer not made by the service's error path
            calls.finish(call)


def create_app(
    config: Mapping[str, Any] | None = None,
    service: RulesService | None = None,
    *,
    ready: Callable[[], bool] | None = None,
    metrics_port: int | None = None,
    process_root: int | None = None,
    process_role: str = "main",
) -> Flask:
    """The Flask app. ``config`` updates Flask's config (``MAX_CONTENT_LENGTH`` is the
    body limit); ``service`` defaults to one built from the environment (see
    :class:`Settings`); ``ready`` says whether ``/readyz`` answers SERVING (always, by
    default). ``metrics_port``: serve ``/metrics`` only to requests that came in on that
    port, and nothing else there (default: ``/metrics`` beside the API). The process
    metrics cover ``process_root`` (default: this process, of role ``process_role``)
    and every process below it."""
    app = Flask(__name__)
    # no redirects built from the request's Host header: "/docs/" answers a relative one
    # (web.docs), and "//v1//games" names nothing (the JSON 404)
    app.url_map.strict_slashes = False
    app.url_map.merge_slashes = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    app.config.update(config or {})
    if service is None:
        service = Settings.from_env().service()
    service.observe(calls.OBSERVER)  # each call's game, for its line and metrics
    metrics.recorder().track(service, "rest")  # its rooms and its cache of tokens
    limit = int(app.config["MAX_CONTENT_LENGTH"])
    CORS(app, resources={r"/v1/*": {"origins": app.config.get("CORS_ORIGINS", "*")}})

    for name, verb, path, body in routes():
        view = _view(service, name, body, limit)
        app.add_url_rule(path, endpoint=name, view_func=view, methods=[verb])
    docs.register(app)  # GET /openapi.json and the offline GET /docs
    playground.register(app)  # GET /play: play any ruleset against bots

    @app.get("/healthz")
    def healthz() -> Response:
        return _json_response({"status": "SERVING"})

    @app.get("/readyz")
    def readyz() -> Response:
        name = request.args.get("service", "")
        if name not in HEALTH_SERVICES:
            return _error_response(
                ApiError(
                    code_pb2.NOT_FOUND,
                    "SERVICE_UNKNOWN",
                    f"no health status for service {_printable(name)[:100]!r}: ask for "
                    + " or ".join(repr(n) for n in HEALTH_SERVICES),
                )
            )
        if ready is None or ready():
            return _json_response({"status": "SERVING"})
        return _json_response({"status": "NOT_SERVING"}, 503)

    @app.get("/metrics")
    def metrics_view() -> Response:
        body, content_type = metrics.exposition(
            request.headers.get("Accept"), root=process_root, root_role=process_role
        )
        return Response(body, content_type=content_type)

    if metrics_port is not None:
        port = str(metrics_port)

        @app.before_request
        def metrics_apart() -> Response | None:
            # the metrics port serves /metrics alone, and /metrics is served nowhere else
            if (request.environ.get("SERVER_PORT") == port) != (request.path == "/metrics"):
                return _error_response(ApiError(code_pb2.NOT_FOUND, "NOT_FOUND", "not found"))
            return None

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        code, reason = _HTTP_CODES.get(
            exc.code or 500, (code_pb2.INVALID_ARGUMENT, "MALFORMED_REQUEST")
        )
        error = ApiError(code, reason, exc.description or exc.name)
        response = _error_response(error, exc.code or 400, close=exc.code == 413)
        valid = getattr(exc, "valid_methods", None)
        if exc.code == 405 and valid:
            response.headers["Allow"] = ", ".join(sorted(valid))  # RFC 9110: 405 names them
        return response

    @app.errorhandler(Exception)
    def internal_error(exc: Exception) -> Response:
        call = calls.current()
        log.exception("request failed (request id %s)", call.request_id if call else "-")
        return _error_response(ApiError.internal())

    app.wsgi_app = _Observed(app.wsgi_app)  # type: ignore[method-assign]
    return app
