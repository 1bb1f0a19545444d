"""The REST door: a Flask gateway whose routes come from the proto's ``google.api.http``
annotations.

Bodies are proto3 JSON (``json_format``), field names as the proto writes them
(``game_id``, ``open_pip``; lowerCamelCase is accepted on input), with zero values
printed. Errors are ``{code, message, details}`` as grpc-gateway writes them, the HTTP
status derived from the gRPC code by :data:`HTTP_STATUS`, so the two doors agree.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask, Response, request
from flask_cors import CORS
from google.api import annotations_pb2
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2
from werkzeug.exceptions import HTTPException

from .api import ApiError, RulesService, to_status
from .settings import Settings
from .v1 import domino_rules_pb2 as pb

__all__ = ["HTTP_STATUS", "MAX_REQUEST_BYTES", "create_app", "routes"]

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
#: The largest request body read.
MAX_REQUEST_BYTES = 1024 * 1024


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
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


def _json_response(body: Mapping[str, Any], status: int = 200) -> Response:
    return Response(
        json.dumps(body, separators=(",", ":")), status=status, mimetype="application/json"
    )


def _error_response(error: ApiError) -> Response:
    return _json_response(to_json(to_status(error)), HTTP_STATUS.get(error.code, 500))


def _parse(message: Message, body: str) -> None:
    try:
        data = json.loads(body) if body.strip() else {}
    except (ValueError, RecursionError) as exc:
        raise ApiError.malformed(f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError.malformed("the body must be a JSON object")
    try:
        json_format.ParseDict(data, message)
    except (json_format.ParseError, ValueError, TypeError, RecursionError) as exc:
        raise ApiError.malformed(
            f"the body does not fit {message.DESCRIPTOR.name}: {exc}"
        ) from None


def _view(service: RulesService, name: str, body_rule: str) -> Callable[[], Response]:
    method = pb.DESCRIPTOR.services_by_name["DominoRules"].methods_by_name[name]
    request_type = getattr(pb, method.input_type.name)
    call = getattr(service, name)

    def view() -> Response:
        message = request_type()
        try:
            if body_rule:
                _parse(message, request.get_data(as_text=True))
            elif request.args:
                _parse(message, json.dumps(request.args.to_dict()))
            return _json_response(to_json(call(message)))
        except ApiError as error:
            return _error_response(error)

    view.__name__ = name
    return view


def create_app(
    config: Mapping[str, Any] | None = None, service: RulesService | None = None
) -> Flask:
    """The Flask app. ``config`` updates Flask's config; ``service`` defaults to one built
    from the environment (see :class:`Settings`)."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    app.config.update(config or {})
    if service is None:
        service = Settings.from_env().service()
    CORS(app, resources={r"/v1/*": {"origins": app.config.get("CORS_ORIGINS", "*")}})

    for name, verb, path, body in routes():
        app.add_url_rule(path, endpoint=name, view_func=_view(service, name, body), methods=[verb])

    @app.get("/healthz")
    def healthz() -> Response:
        return _json_response({"status": "SERVING"})

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        code, reason = _HTTP_CODES.get(
            exc.code or 500, (code_pb2.INVALID_ARGUMENT, "MALFORMED_REQUEST")
        )
        body = to_json(to_status(ApiError(code, reason, exc.description or exc.name)))
        return _json_response(body, exc.code or 400)

    @app.errorhandler(Exception)
    def internal_error(exc: Exception) -> Response:
        log.exception("request failed")
        return _error_response(ApiError.internal())

    return app
