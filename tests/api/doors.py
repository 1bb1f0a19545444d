"""Two clients with one interface: gRPC and REST, each against a real server.

``door.call("NewGame", {...})`` sends a request written in proto3 JSON and returns the
response as proto3 JSON (zero values printed), or raises :class:`CallError` with the
gRPC code name, the ``ErrorInfo.reason`` and, for REST, the HTTP status.
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from typing import Any

import grpc
from google.protobuf import json_format
from google.rpc import code_pb2, error_details_pb2
from grpc_status import rpc_status

from domino_rules import rest
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

SERVICE = pb.DESCRIPTOR.services_by_name["DominoRules"]


class CallError(Exception):
    def __init__(
        self, code: str, reason: str, message: str, http_status: int | None = None
    ) -> None:
        super().__init__(f"{code} {reason}: {message}")
        self.code, self.reason, self.message, self.http_status = code, reason, message, http_status


def to_json(message: Any) -> dict[str, Any]:
    return rest.to_json(message)


class GrpcDoor:
    name = "grpc"

    def __init__(self, port: int) -> None:
        self.channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        self.stub = pb_grpc.DominoRulesStub(self.channel)

    def call(self, method: str, body: dict[str, Any]) -> dict[str, Any]:
        request = getattr(pb, SERVICE.methods_by_name[method].input_type.name)()
        json_format.ParseDict(body, request)
        return self.call_message(method, request)

    def call_message(self, method: str, request: Any) -> dict[str, Any]:
        try:
            return to_json(getattr(self.stub, method)(request, timeout=30))
        except grpc.RpcError as error:
            status = rpc_status.from_call(error)
            reason = ""
            for detail in status.details if status else ():
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    reason = info.reason
            raise CallError(error.code().name, reason, error.details()) from None


class RestDoor:
    name = "rest"

    def __init__(self, base: str) -> None:
        self.base = base
        self.routes = {name: (verb, path) for name, verb, path, _ in rest.routes()}

    def call(self, method: str, body: dict[str, Any]) -> dict[str, Any]:
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

    def raw(self, verb: str, path: str, data: bytes | None, headers: dict[str, str] | None = None):
        request = urllib.request.Request(
            self.base + path, data=data, method=verb, headers=headers or {}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                body = response.read()
                return response.status, json.loads(body) if body else {}, dict(response.headers)
        except urllib.error.HTTPError as error:
            body = error.read()
            return error.code, json.loads(body) if body else {}, dict(error.headers)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()
