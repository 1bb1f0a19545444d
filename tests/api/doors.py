"""Clients with one interface: gRPC and REST against a real server, and the service in
process.

``door.call("NewGame", {...})`` sends a request written in proto3 JSON and returns the
response as proto3 JSON (zero values printed); ``door.ask("NewGame", request)`` does the
same with the messages themselves. Both raise :class:`CallError` with the gRPC code
name, the ``ErrorInfo.reason`` and, for REST, the HTTP status.
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from typing import Any, Protocol

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2
from grpc_status import rpc_status

from domino_rules.api import ApiError, RulesService
from domino_rules.doors import rest
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

__all__ = ["JSON", "SERVICE", "CallError", "Door", "GrpcDoor", "LocalDoor", "RestDoor", "b64"]

#: A request or an answer in proto3 JSON.
JSON = dict[str, Any]

SERVICE = pb.DESCRIPTOR.services_by_name["DominoRules"]
TIMEOUT = 30.0


class CallError(Exception):
    def __init__(
        self, code: str, reason: str, message: str, http_status: int | None = None
    ) -> None:
        super().__init__(f"{code} {reason}: {message}")
        self.code, self.reason, self.message, self.http_status = code, reason, message, http_status


class Door(Protocol):
    """What every door offers the tests."""

    @property
    def name(self) -> str: ...

    def call(self, method: str, body: JSON) -> JSON: ...

    def ask(self, method: str, request: Message) -> Message: ...


def request_of(method: str, body: JSON) -> Message:
    """The request message of ``method``, parsed from proto3 JSON."""
    request: Message = getattr(pb, SERVICE.methods_by_name[method].input_type.name)()
    json_format.ParseDict(body, request)
    return request


def response_of(method: str, body: JSON) -> Message:
    """The response message of ``method``, parsed from proto3 JSON."""
    response: Message = getattr(pb, SERVICE.methods_by_name[method].output_type.name)()
    json_format.ParseDict(body, response)
    return response


class GrpcDoor:
    name = "grpc"

    def __init__(self, port: int) -> None:
        self.channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        self.stub: Any = pb_grpc.DominoRulesStub(self.channel)  # type: ignore[no-untyped-call]

    def call(self, method: str, body: JSON) -> JSON:
        return rest.to_json(self.ask(method, request_of(method, body)))

    def ask(self, method: str, request: Message) -> Message:
        try:
            answer: Message = getattr(self.stub, method)(request, timeout=TIMEOUT)
            return answer
        except grpc.RpcError as error:
            assert isinstance(error, grpc.Call)
            status = rpc_status.from_call(error)
            reason = ""
            for detail in status.details if status else ():
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    reason = info.reason
            raise CallError(error.code().name, reason, error.details() or "") from None


class RestDoor:
    name = "rest"

    def __init__(self, base: str) -> None:
        self.base = base
        self.routes = {name: (verb, path) for name, verb, path, _ in rest.routes()}

    def call(self, method: str, body: JSON) -> JSON:
        verb, path = self.routes[method]
        data = None if verb == "GET" else json.dumps(body).encode()
        status, answer, _ = self.raw(verb, path, data)
        if status != 200:
            reasons = [d.get("reason", "") for d in answer.get("details", [])]
            raise CallError(
                code_pb2.Code.Name(answer["code"]),
                reasons[0] if reasons else "",
                answer["message"],
                status,
            )
        return answer

    def ask(self, method: str, request: Message) -> Message:
        return response_of(method, self.call(method, rest.to_json(request)))

    def raw(
        self, verb: str, path: str, data: bytes | None, headers: dict[str, str] | None = None
    ) -> tuple[int, JSON, dict[str, str]]:
        """One HTTP request: the status, the JSON body (``{}`` when empty), the headers."""
        request = urllib.request.Request(
            self.base + path, data=data, method=verb, headers=headers or {}
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                body = response.read()
                status: int = response.status
                headers_out = dict(response.headers)
        except urllib.error.HTTPError as error:
            body, status, headers_out = error.read(), error.code, dict(error.headers)
        return status, json.loads(body) if body else {}, headers_out


class LocalDoor:
    """The service in process: the same JSON in and out, no transport."""

    name = "local"

    def __init__(self, service: RulesService | None = None) -> None:
        self.service = service or RulesService()

    def call(self, method: str, body: JSON) -> JSON:
        return rest.to_json(self.ask(method, request_of(method, body)))

    def ask(self, method: str, request: Message) -> Message:
        try:
            answer: Message = getattr(self.service, method)(request)
            return answer
        except ApiError as error:
            raise CallError(code_pb2.Code.Name(error.code), error.reason, error.message) from None


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()
