"""The gRPC door: the servicer, health checking and server reflection.

>>> server, port = create_server("127.0.0.1:0")  # doctest: +SKIP
>>> server.start()                                # doctest: +SKIP
"""

from __future__ import annotations

import logging
from concurrent import futures
from typing import Any

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from grpc_status import rpc_status

from .api import ApiError, RulesService, to_status
from .v1 import domino_rules_pb2 as pb

__all__ = ["MAX_MESSAGE_BYTES", "SERVICE_NAME", "create_server"]

log = logging.getLogger(__name__)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["DominoRules"].full_name
#: The largest request the server reads; larger ones get RESOURCE_EXHAUSTED.
MAX_MESSAGE_BYTES = 1024 * 1024


def _handler(service: RulesService, method: Any) -> grpc.RpcMethodHandler[bytes, Any]:
    """A unary handler that parses the request itself, so that bytes which are not the
    request message get INVALID_ARGUMENT / MALFORMED_REQUEST rather than INTERNAL."""
    request_type = getattr(pb, method.input_type.name)
    call = getattr(service, method.name)

    def handle(data: bytes, context: grpc.ServicerContext) -> Any:
        try:
            try:
                request = request_type.FromString(data)
            except DecodeError as exc:
                raise ApiError.malformed(
                    f"the request is not a {request_type.__name__}: {exc}"
                ) from None
            return call(request)
        except ApiError as error:
            context.abort_with_status(rpc_status.to_status(to_status(error)))
        except Exception:  # a bug: log it, tell the client nothing more
            log.exception("%s failed", method.name)
            context.abort_with_status(rpc_status.to_status(to_status(ApiError.internal())))
        raise AssertionError("unreachable")  # pragma: no cover

    return grpc.unary_unary_rpc_method_handler(
        handle, request_deserializer=None, response_serializer=lambda m: m.SerializeToString()
    )


def create_server(
    address: str = "127.0.0.1:50051",
    service: RulesService | None = None,
    *,
    max_workers: int = 16,
) -> tuple[grpc.Server, int]:
    """A gRPC server bound to ``address`` (port 0 picks a free port), not yet started.

    Returns the server and the port it bound.
    """
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="grpc"),
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.so_reuseport", 0),
        ],
    )
    service = service or RulesService()
    descriptor = pb.DESCRIPTOR.services_by_name["DominoRules"]
    handlers = {m.name: _handler(service, m) for m in descriptor.methods}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    health_servicer = health.HealthServicer()
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    port = server.add_insecure_port(address)
    if port == 0:
        raise OSError(f"cannot bind gRPC to {address}")
    return server, port
