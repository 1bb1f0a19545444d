"""The gRPC door: the servicer, health checking and server reflection.

>>> server, port = create_server("127.0.0.1:0")  # doctest: +SKIP
>>> server.start()                                # doctest: +SKIP

:func:`serve_process` is the body of one gRPC process of ``domino-rules serve``: the
supervisor starts as many as ``--grpc-workers`` says, each by exec, before any gRPC
thread exists in it, and all of them bind the same port with ``SO_REUSEPORT`` so the
kernel spreads connections among them.

Limits: a request larger than ``max_message_bytes`` gets ``RESOURCE_EXHAUSTED``; so does
a call beyond ``max_concurrent_rpcs`` calls in flight in one process, at once, without
its message being read, so a flood of large calls holds at most about
``max_concurrent_rpcs x max_message_bytes`` of request data in memory.

Every call of the service gets a request id, an access line and its metrics
(:mod:`domino_rules.observability.calls`); health and reflection calls do not. With an OTLP
endpoint configured, :func:`serve_process` traces every call
(:mod:`domino_rules.observability.tracing`).
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import threading
from collections.abc import Callable
from concurrent import futures
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.message import DecodeError
from google.rpc import code_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from ..api import ApiError, RulesService, to_status
from ..api.admission import deadline_scope
from ..api.service import read_replay_request, serialized
from ..observability import calls, metrics, tracing
from ..serving.lifecycle import settle_heap, stop_listening, wait_for_drain
from ..v1 import domino_rules_pb2 as pb

if TYPE_CHECKING:
    from ..serving.settings import Settings

__all__ = [
    "MAX_MESSAGE_BYTES",
    "SERVICE_NAME",
    "GrpcDoor",
    "build_door",
    "create_server",
    "serve_process",
]

log = logging.getLogger(__name__)

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["DominoRules"].full_name
#: The largest request the server reads by default; larger ones get RESOURCE_EXHAUSTED.
MAX_MESSAGE_BYTES = 1024 * 1024
#: Threads that run calls in one process. The rules are CPU-bound Python, so more
#: threads would not answer faster; calls past them wait their turn, up to
#: ``max_concurrent_rpcs`` in all.
CALL_THREADS = 16
#: How often a serving process gives freed memory back to the system.
TRIM_EVERY = 2.0


def _malloc_trim() -> Callable[[], object]:
    """glibc's ``malloc_trim(0)``, or a no-op elsewhere. A flood of large calls leaves
    the heap full of freed blocks that glibc keeps; trimming every few seconds gives
    them back (``bench/doors.py grpc-flood``: 50 MiB 5 s after a flood instead of 100-200)."""
    try:
        function = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return lambda: None
    return lambda: function(0)


def _given_id(context: grpc.ServicerContext) -> str | None:
    """The request id the caller sent, if any."""
    for key, value in context.invocation_metadata():
        if key == calls.REQUEST_ID:
            return str(value)
    return None


def _handler(service: RulesService, method: Any) -> grpc.RpcMethodHandler[bytes, Any]:
    """A unary handler that parses the request itself, so that bytes which are not the
    request message get INVALID_ARGUMENT / MALFORMED_REQUEST rather than INTERNAL; each
    call gets a request id (the caller's ``x-request-id``, echoed in the initial
    metadata, or a new one), an access line and its metrics
    (:mod:`domino_rules.observability.calls`)."""
    request_type = getattr(pb, method.input_type.name)
    rpc = getattr(service, method.name)
    name = method.name
    heavy = name == "Replay"  # admitted before its bytes are parsed, parsed where it runs

    def handle(data: bytes, context: grpc.ServicerContext) -> Any:
        given = _given_id(context)
        call = calls.begin("grpc", name, given, context.peer())
        try:
            if given is not None:
                # sent on its own, ahead of the answer: about 4% of an ApplyMove's server
                # CPU, so only when the caller asked, by sending an id (deploy/README.md)
                context.send_initial_metadata(((calls.REQUEST_ID, call.request_id),))
            return serve(data, context, call)
        finally:
            calls.finish(call)

    def serve(data: bytes, context: grpc.ServicerContext, call: calls.Call) -> Any:
        try:
            if heavy:
                with deadline_scope(context.time_remaining()):
                    return service.replay_call(data, read_replay_request, serialized)
            try:
                request = request_type.FromString(data)
            except DecodeError as exc:
                raise ApiError.malformed(
                    f"the request is not a {request_type.__name__}: {exc}"
                ) from None
            with deadline_scope(context.time_remaining()):  # the heavy calls honour it
                return rpc(request)
        except ApiError as error:
            if error.code == code_pb2.INTERNAL:  # a bug behind a reason (BOT_FAILED)
                log.exception("%s failed, %s (request id %s)", name, error.reason, call.request_id)
            _abort(context, call, error)
        except Exception:  # a bug: log it, tell the client nothing more
            log.exception("%s failed (request id %s)", name, call.request_id)
            _abort(context, call, ApiError.internal())

    return grpc.unary_unary_rpc_method_handler(
        handle, request_deserializer=None, response_serializer=_serialize
    )


def _serialize(message: Any) -> bytes:
    """An answer's bytes: a message's, or the bytes a heavy call's process made."""
    if isinstance(message, bytes):
        return message
    data: bytes = message.SerializeToString()
    return data


def _abort(context: grpc.ServicerContext, call: calls.Call, error: ApiError) -> NoReturn:
    """End the call with ``error`` (raises)."""
    call.failed(error)
    context.abort_with_status(rpc_status.to_status(to_status(error)))
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class GrpcDoor:
    """A gRPC server not yet started, the port it bound and its health servicer."""

    server: grpc.Server
    port: int
    health: health.HealthServicer

    def set_serving(self, serving: bool) -> None:
        """Report SERVING or NOT_SERVING for the whole server and for the service."""
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if serving
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        for name in ("", SERVICE_NAME):
            self.health.set(name, status)


def build_door(
    address: str = "127.0.0.1:50051",
    service: RulesService | None = None,
    *,
    max_workers: int = CALL_THREADS,
    max_message_bytes: int = MAX_MESSAGE_BYTES,
    max_concurrent_rpcs: int | None = None,
    reuse_port: bool = False,
) -> GrpcDoor:
    """A gRPC server bound to ``address`` (port 0 picks a free port), not yet started.

    ``reuse_port`` binds with ``SO_REUSEPORT``, so that several processes can serve one
    port; ``max_concurrent_rpcs`` refuses calls past that many in flight.
    """
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="grpc"),
        options=[
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.so_reuseport", 1 if reuse_port else 0),
            # Without bandwidth-delay probing a stream's flow-control window stays small,
            # so a flood of large calls cannot push hundreds of MiB into this process
            # ahead of the calls being served; the service's messages are small.
            ("grpc.http2.bdp_probe", 0),
        ],
        maximum_concurrent_rpcs=max_concurrent_rpcs,
    )
    service = service or RulesService()
    service.observe(calls.OBSERVER)  # each call's game, for its line and metrics
    metrics.recorder().track(service, "grpc")  # its bots' room and its cache of tokens
    descriptor = pb.DESCRIPTOR.services_by_name["DominoRules"]
    handlers = {m.name: _handler(service, m) for m in descriptor.methods}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    _add_reflection(server)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as exc:  # grpcio raises rather than return 0 on some failures
        raise OSError(f"cannot bind gRPC to {address}: {exc}") from None
    if port == 0:
        raise OSError(f"cannot bind gRPC to {address}")
    door = GrpcDoor(server, port, health_servicer)
    door.set_serving(True)
    return door


#: Server reflection v1; grpcio-reflection implements v1alpha, whose messages are the same.
REFLECTION_V1 = "grpc.reflection.v1.ServerReflection"


def _reflection_v1_descriptor() -> None:
    """Put ``grpc/reflection/v1/reflection.proto`` in the default descriptor pool, so that
    reflection can describe the v1 service it serves (``grpcurl describe``, ``buf curl``).

    grpcio-reflection ships only v1alpha, whose messages and service are v1's under
    another package: the file is v1alpha's, renamed."""
    pool = descriptor_pool.Default()
    name = "grpc/reflection/v1/reflection.proto"
    try:
        pool.FindFileByName(name)
        return
    except KeyError:
        pass
    file = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(file)
    old_package = file.package
    file.name, file.package = name, "grpc.reflection.v1"
    for message in file.message_type:
        for field in message.field:
            if field.type_name:
                field.type_name = field.type_name.replace(old_package, "grpc.reflection.v1")
    for service in file.service:
        for method in service.method:
            method.input_type = method.input_type.replace(old_package, "grpc.reflection.v1")
            method.output_type = method.output_type.replace(old_package, "grpc.reflection.v1")
    file.options.Clear()
    pool.Add(file)


def _add_reflection(server: grpc.Server) -> None:
    """Server reflection under both names, v1 and v1alpha, so every tool finds it, each
    described in full."""
    _reflection_v1_descriptor()
    names = (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME, REFLECTION_V1)
    servicer = reflection.ReflectionServicer(names)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(servicer, server)
    v1 = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(REFLECTION_V1, {"ServerReflectionInfo": v1}),)
    )


def create_server(
    address: str = "127.0.0.1:50051",
    service: RulesService | None = None,
    *,
    max_workers: int = CALL_THREADS,
    max_message_bytes: int = MAX_MESSAGE_BYTES,
    max_concurrent_rpcs: int | None = None,
) -> tuple[grpc.Server, int]:
    """A gRPC server bound to ``address`` (port 0 picks a free port), not yet started.

    Returns the server and the port it bound.
    """
    door = build_door(
        address,
        service,
        max_workers=max_workers,
        max_message_bytes=max_message_bytes,
        max_concurrent_rpcs=max_concurrent_rpcs,
    )
    return door.server, door.port


def serve_process(settings: Settings, *, ready_fd: int, drain_fd: int | None) -> int:
    """Serve gRPC in this process until SIGTERM or SIGINT, then stop gracefully.

    Binds ``settings.host:settings.grpc_port`` with ``SO_REUSEPORT`` (the supervisor has
    reserved the port), writes a line to ``ready_fd`` once serving, and reports
    NOT_SERVING as soon as the drain pipe ``drain_fd`` says so, while it goes on serving.
    On a stop signal (the supervisor sends it once the drain delay is over): health
    NOT_SERVING, the listener closed and a GOAWAY sent on every connection, so that new
    calls go elsewhere, never refused by an answer a balancer could not retry; calls in
    flight are given ``settings.grace`` seconds to finish, then the server stops.
    """
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    tracing.instrument_grpc_server()  # before the server is made; nothing unless configured
    service = settings.service()
    rooms = (service.admission, service.replays)
    door = build_door(
        f"{host}:{settings.grpc_port}",
        service,
        max_message_bytes=settings.max_request_bytes,
        max_concurrent_rpcs=settings.grpc_max_calls,
        reuse_port=True,
    )
    door.server.start()
    for room in rooms:  # the work processes, before the first SuggestMove or Replay
        room.warm()
    settle_heap()
    os.write(ready_fd, b"ready\n")
    os.close(ready_fd)
    if drain_fd is not None:

        def watch() -> None:
            wait_for_drain(drain_fd)
            door.set_serving(False)
            # new connections are refused from now on (a balancer retries them on
            # another replica and marks this one down), while the open ones are served
            stop_listening(door.port)

        threading.Thread(target=watch, name="drain", daemon=True).start()
    trim = _malloc_trim()
    while not stop.wait(TRIM_EVERY):
        trim()
    door.health.enter_graceful_shutdown()  # NOT_SERVING, whatever sets it later
    # The listener closes and every connection gets an HTTP/2 GOAWAY: a client or a
    # balancer sends its next calls elsewhere (streams the server never took are safe to
    # retry), while the calls already taken are answered within the grace.
    door.server.stop(settings.grace).wait()
    for room in rooms:
        room.close()
    return 0
