"""The client of the gRPC door: the same methods and the same answers (proto3 JSON dicts)
as the REST client. It needs the ``grpc`` extra::

    pip install 'domino-rules-client[grpc]'

It builds its messages at run time from the compiled contract shipped with the package
(``contract.binpb``), so it has no generated code and works with any recent protobuf.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, cast

import grpc
from google.protobuf import (
    any_pb2,
    descriptor_pb2,
    descriptor_pool,
    duration_pb2,
    json_format,
    message,
    message_factory,
)

from ._base import DEFAULT_TIMEOUT, BaseClient
from .errors import ERROR_INFO_TYPE, RETRY_INFO_TYPE, DominoRulesError

__all__ = ["SERVICE", "DominoRulesGrpcClient"]

#: The service's full name.
SERVICE = "domino_rules.v1.DominoRules"
_STATUS_DETAILS = "grpc-status-details-bin"


class DominoRulesGrpcClient(BaseClient):
    """The gRPC door at ``target`` (``host:port``), plaintext unless ``credentials``
    (``grpc.ssl_channel_credentials()``, say) are given, or over a ``channel`` of your own.

    ``timeout``: each call's deadline in seconds, unless the call gives its own; a call
    past it raises :class:`DominoRulesError` with ``code`` ``"DEADLINE_EXCEEDED"``.
    ``metadata`` goes with every call (``x-request-id``, say). Close the client (or use
    it in a ``with``) to close a channel it opened.
    """

    def __init__(
        self,
        target: str = "127.0.0.1:50051",
        *,
        timeout: float = DEFAULT_TIMEOUT,
        credentials: grpc.ChannelCredentials | None = None,
        channel: grpc.Channel | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        self.target = target
        self.timeout = timeout
        self.metadata: tuple[tuple[str, str | bytes], ...] = tuple((metadata or {}).items())
        self._own_channel = channel is None
        if channel is None:
            channel = (
                grpc.insecure_channel(target)
                if credentials is None
                else grpc.secure_channel(target, credentials)
            )
        self._channel = channel
        self._calls: dict[str, grpc.UnaryUnaryMultiCallable[Any, Any]] = {}

    def __repr__(self) -> str:
        return f"DominoRulesGrpcClient({self.target!r})"

    def close(self) -> None:
        """Close the channel, if this client opened it."""
        if self._own_channel:
            self._channel.close()

    def __enter__(self) -> DominoRulesGrpcClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, rpc: str, body: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        request_class, response_class = _classes(rpc)
        try:
            request = json_format.ParseDict(body, request_class())
        except json_format.ParseError as error:
            raise DominoRulesError("INVALID_ARGUMENT", "MALFORMED_REQUEST", str(error)) from None
        call = self._calls.get(rpc)
        if call is None:
            call = self._channel.unary_unary(
                f"/{SERVICE}/{rpc}",
                request_serializer=_serialize,
                response_deserializer=response_class.FromString,
            )
            self._calls[rpc] = call
        try:
            response = call(request, timeout=self._timeout(timeout), metadata=self.metadata)
        except grpc.RpcError as error:
            raise _error(error) from None
        return json_format.MessageToDict(
            response, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
        )


def _serialize(request: message.Message) -> bytes:
    return request.SerializeToString()


@functools.cache
def _pool() -> descriptor_pool.DescriptorPool:
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(any_pb2.DESCRIPTOR.serialized_pb)
    pool.AddSerializedFile(duration_pb2.DESCRIPTOR.serialized_pb)
    data = resources.files(__package__).joinpath("contract.binpb").read_bytes()
    for file in descriptor_pb2.FileDescriptorSet.FromString(data).file:
        pool.Add(file)
    return pool


@functools.cache
def _message(name: str) -> type[message.Message]:
    return message_factory.GetMessageClass(_pool().FindMessageTypeByName(name))


@functools.cache
def _classes(rpc: str) -> tuple[type[message.Message], type[message.Message]]:
    method = _pool().FindServiceByName(SERVICE).FindMethodByName(rpc)
    return (
        message_factory.GetMessageClass(method.input_type),
        message_factory.GetMessageClass(method.output_type),
    )


def _error(error: grpc.RpcError) -> DominoRulesError:
    """The error of a failed call, with the ``ErrorInfo`` of its status details."""
    call = cast(grpc.Call, error)
    code = call.code()
    name = code.name if code is not None else "UNKNOWN"
    reason, metadata, retry_after = "", {}, None
    for key, value in _pairs(call.trailing_metadata()):
        if key == _STATUS_DETAILS and isinstance(value, bytes):
            try:
                status: Any = _message("google.rpc.Status").FromString(value)
                for detail in status.details:
                    if detail.type_url == ERROR_INFO_TYPE and not reason:
                        info: Any = _message("google.rpc.ErrorInfo").FromString(detail.value)
                        reason, metadata = info.reason, dict(info.metadata)
                    elif detail.type_url == RETRY_INFO_TYPE:
                        retry: Any = _message("google.rpc.RetryInfo").FromString(detail.value)
                        retry_after = retry.retry_delay.ToNanoseconds() / 1e9
            except message.DecodeError:
                pass
    request_id = next((v for k, v in _pairs(call.initial_metadata()) if k == "x-request-id"), None)
    return DominoRulesError(
        name,
        reason,
        call.details() or "",
        metadata=metadata,
        request_id=request_id if isinstance(request_id, str) else None,
        retry_after=retry_after,
    )


def _pairs(metadata: Sequence[tuple[str, str | bytes]] | None) -> list[tuple[str, str | bytes]]:
    return [(key, value) for key, value in metadata or ()]
