"""The REST door under gunicorn: its configuration and the worker that serves it.

``domino-rules serve`` runs this in a child process (``python -m domino_rules.doors.child
rest``) on listening sockets it has bound itself; :func:`run_gateway` is the gunicorn
arbiter, which forks ``--http-workers`` workers of class :class:`GatewayWorker`. The
arbiter never starts a thread (gunicorn's control socket is off), so its forks are safe.

Why this worker, for slow clients
---------------------------------

gunicorn's threaded worker (gthread) hands every new connection to a thread of a small
pool, and a thread then blocks on the socket until the whole request head has come, with
no time limit: 8 clients that send half a request head and stop hold all 8 threads of
two workers, and every other client waits. 200 connections that send nothing each hold
a thread for 5 s in turn, so that nobody else is served for minutes. More threads only
raise the number of silent clients needed.

:class:`GatewayWorker` keeps gthread's model (a thread per request being served, the
Flask app unchanged) but takes a thread only for a request whose head has fully arrived:

- connections that have sent nothing, or only part of a request head, wait in the
  worker's event loop (``selectors``), costing a file descriptor and no thread; the loop
  reads what arrives without blocking and queues the request once its head is complete.
  A silent connection (new, or kept alive between requests) is closed after
  ``--http-idle-timeout`` seconds; one whose request has begun must be fully received
  within ``--http-request-timeout`` seconds of its first byte, or it is closed;
- a thread reads the body under the same deadline (every ``recv`` is bounded by the
  time left) and writes the answer with a send timeout of the same length, so a stalled
  body or a client that does not read holds a thread for a bounded time;
- a closing connection lingers in the loop, not in a thread, until the client closes;
- each worker has at most ``--http-max-connections`` connections; past that it stops
  accepting and new connections wait in the listen queue.

gevent was the other candidate: it also holds idle and stalled connections at no thread
cost, but it monkey-patches the standard library in every worker and brings a C
dependency, and its timeouts would still have to be written by hand. With this worker,
200 idle connections and 8 stalled ones leave other clients answered in milliseconds
(``bench/doors.py workers --slow-clients``; ``tests/api/test_slow_clients.py``).

Why workers share connections evenly
------------------------------------

Workers share one listening socket, and whichever is woken first accepts; under a burst
of keep-alive connections one worker took all 16 while the other idled. Each worker now
publishes its open connections on a small board in shared memory (:class:`Board`) and
accepts only while it has at most one more than the least loaded live worker; a worker
held back looks again every 20 ms. Connections then stay within one or two of even
(``bench/doors.py workers`` prints requests per worker).

Errors the HTTP parser finds (a bad request line, headers too long or too many, a bad
chunk) are answered in the service's JSON (``{code, message, details}``) with one access
line (``invalid request from ADDRESS: ...``) and no traceback; a request not received in
time gets one too. gunicorn's own access log stays off (the service writes its own),
and its other lines go through the service's log handler, in its format.

Readiness
---------

``/readyz`` answers SERVING while the server is not draining and the gRPC door of the
same replica answers its health check SERVING for ``domino_rules.v1.DominoRules``
(:class:`GrpcReadiness`: a check on the local port with a short deadline, remembered
for a second). gRPC is loaded in a worker only when ``/readyz`` is first asked, after
the fork: the arbiter never loads it.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import math
import mmap
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from google.rpc import code_pb2
from gunicorn import glogging  # type: ignore[import-untyped, unused-ignore]
from gunicorn import util as gunicorn_util  # type: ignore[import-untyped, unused-ignore]
from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped, unused-ignore]
from gunicorn.http import errors as http_errors  # type: ignore[import-untyped, unused-ignore]
from gunicorn.workers.gthread import (  # type: ignore[import-untyped, unused-ignore]
    TConn,
    ThreadWorker,
)

from ..api import ApiError
from ..observability import calls, tracing
from ..serving.lifecycle import draining, forget_process_metrics, settle_heap
from ..serving.settings import Settings
from .rest import HEALTH_SERVICES, create_app, error_json

__all__ = [
    "Board",
    "GatewayApplication",
    "GatewayLogger",
    "GatewayWorker",
    "GrpcReadiness",
    "classify",
    "error_response_bytes",
    "run_gateway",
]

log = logging.getLogger(__name__)

#: Bytes read at a time from a connection whose request head is incomplete.
_HEAD_CHUNK = 64 * 1024
#: Past this much buffered head, a thread takes over (gunicorn's own limits still apply).
_HEAD_MAX = 128 * 1024
#: How long a held-back worker waits before it looks at the board again.
_HOLD_POLL = 0.02
#: How often waiting connections are checked for their deadlines.
_SWEEP_EVERY = 0.1
#: A worker may hold this many more connections than the least loaded one.
_SLACK = 1
#: A board entry older than this is a worker that is gone or stuck: it does not count.
_STALE = 10.0
#: How long a closing connection may take to close its side.
_CLOSE_LINGER = 2.0
#: How long connections kept alive stay open once a worker is stopping.
_STOP_LINGER = 2.0
#: How long /readyz waits for the gRPC door's health check.
READY_TIMEOUT = 0.5
#: How long an answer of the gRPC door's health check is reused.
READY_TTL = 1.0

#: The errors gunicorn's parser raises, as (HTTP status, gRPC code, reason).
_PARSE_ERRORS: tuple[tuple[type[Exception], int, int, str], ...] = (
    (http_errors.LimitRequestLine, 414, code_pb2.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE"),
    (http_errors.LimitRequestHeaders, 431, code_pb2.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE"),
    (http_errors.UnsupportedTransferCoding, 501, code_pb2.UNIMPLEMENTED, "MALFORMED_REQUEST"),
    (http_errors.ExpectationFailed, 417, code_pb2.INVALID_ARGUMENT, "MALFORMED_REQUEST"),
)
_REASON_PHRASES = {
    400: "Bad Request",
    408: "Request Timeout",
    414: "URI Too Long",
    417: "Expectation Failed",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
    501: "Not Implemented",
}


def error_response_bytes(status: int, error: ApiError) -> bytes:
    """A whole HTTP/1.1 error response with the service's JSON body; closes."""
    body = json.dumps(error_json(error), separators=(",", ":")).encode()
    head = (
        f"HTTP/1.1 {status} {_REASON_PHRASES.get(status, 'Error')}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode("latin-1") + body


def _timeout_error() -> ApiError:
    return ApiError(
        code_pb2.DEADLINE_EXCEEDED, "REQUEST_TIMEOUT", "the request was not received in time"
    )


def classify(exc: BaseException) -> tuple[int, ApiError]:
    """The HTTP status and error for an exception raised while parsing a request."""
    for cls, status, code, reason in _PARSE_ERRORS:
        if isinstance(exc, cls):
            return status, ApiError(code, reason, str(exc))
    if isinstance(exc, http_errors.ParseException):
        return 400, ApiError.malformed(f"the request is not valid HTTP: {exc}")
    return 500, ApiError.internal()


class Board:
    """Open connections per worker, in memory shared by the arbiter and its workers.

    Slot ``i`` holds two doubles: the connections worker ``i`` holds, and when it last
    wrote (``time.monotonic``, the same clock in every process). A worker writes only its
    own slot; the arbiter gives slots out before forking and clears them when a worker
    exits.
    """

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._memory = mmap.mmap(-1, 16 * slots)  # anonymous and shared across fork
        self._cells = memoryview(self._memory).cast("d")

    def claim(self, taken: Iterable[int | None]) -> int | None:
        """A free slot, or ``None`` if every slot is taken (that worker is then not
        balanced)."""
        used = set(taken)
        for slot in range(self.slots):
            if slot not in used:
                self.clear(slot)
                return slot
        return None

    def clear(self, slot: int | None) -> None:
        if slot is not None:
            self._cells[2 * slot] = 0.0
            self._cells[2 * slot + 1] = 0.0

    def publish(self, slot: int | None, connections: int) -> None:
        if slot is not None:
            self._cells[2 * slot] = float(connections)
            self._cells[2 * slot + 1] = time.monotonic()

    def may_accept(self, slot: int | None, connections: int) -> bool:
        """Whether the worker in ``slot``, holding ``connections``, may take one more:
        true unless some live worker holds more than ``_SLACK`` fewer."""
        if slot is None:
            return True
        now = time.monotonic()
        fewest = min(
            (
                self._cells[2 * other]
                for other in range(self.slots)
                if other != slot and 0 < now - self._cells[2 * other + 1] < _STALE
            ),
            default=None,
        )
        return fewest is None or connections <= fewest + _SLACK


class _DeadlineReader:
    """The socket as the HTTP parser sees it: every ``recv`` ends by the request's
    deadline (``TimeoutError`` past it), or sooner if a caller (gunicorn draining an
    unread body) sets a shorter timeout; between reads the socket keeps the send timeout.
    """

    def __init__(self, sock: socket.socket, send_timeout: float) -> None:
        self.sock = sock
        self.send_timeout = send_timeout
        self.deadline = time.monotonic() + send_timeout
        self._cap: float | None = None

    def recv(self, size: int) -> bytes:
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the request was not received in time")
        self.sock.settimeout(remaining if self._cap is None else min(remaining, self._cap))
        try:
            return self.sock.recv(size)
        finally:
            self.sock.settimeout(self.send_timeout)

    def settimeout(self, timeout: float | None) -> None:
        self._cap = timeout

    def gettimeout(self) -> float | None:
        return self._cap


class GatewayWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's threaded worker, with connections waiting in the event loop rather than
    in threads, per-request deadlines, JSON parse errors and balanced accepting (see the
    module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slot: int | None = None  # set by the arbiter before the fork
        self._waiting: dict[Any, None] = {}  # TConn -> None, connections in the loop
        self._next_sweep = 0.0
        self._held_back = False
        settings: Settings = self.app.settings
        self._idle_timeout = settings.http_idle_timeout
        self._request_timeout = settings.http_request_timeout

    # ------------------------------------------------------------ balance

    @property
    def _board(self) -> Board:
        board: Board = self.app.board
        return board

    def notify(self) -> None:
        super().notify()
        self._board.publish(self.slot, self.nr_conns)

    def set_accept_enabled(self, enabled: bool) -> None:
        hold = enabled and not self._board.may_accept(self.slot, self.nr_conns)
        self._held_back = hold
        super().set_accept_enabled(enabled and not hold)

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        super().wait_for_and_dispatch_events(
            min(timeout, _HOLD_POLL) if self._held_back else timeout
        )

    # ------------------------------------------------------------ the event loop

    def accept(self, listener: Any) -> None:
        try:
            client, address = listener.accept()
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                return
            raise
        self.nr_conns += 1
        conn = TConn(self.cfg, client, address, listener.getsockname())
        self._wait(conn, self._idle_timeout)
        self._board.publish(self.slot, self.nr_conns)
        if self._accepting and not self._board.may_accept(self.slot, self.nr_conns):
            self.set_accept_enabled(False)
            self._held_back = True

    def _wait(self, conn: Any, timeout: float) -> None:
        """Put ``conn`` in the loop until a request head arrives or ``timeout`` passes."""
        conn.sock.setblocking(False)
        conn.head = bytearray()
        conn.closing = False
        conn.timeout = time.monotonic() + timeout
        self._waiting[conn] = None
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._readable, conn))

    def _forget(self, conn: Any) -> None:
        self._waiting.pop(conn, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)

    def _drop(self, conn: Any) -> None:
        self._forget(conn)
        self.nr_conns -= 1
        conn.close()

    def _readable(self, conn: Any, _sock: Any) -> None:
        try:
            data = conn.sock.recv(_HEAD_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._drop(conn)
            return
        if not data:  # the client closed
            self._drop(conn)
            return
        if conn.closing:  # what a closing client still sends is discarded
            return
        if not conn.head:  # a request begins: it must be in within the request timeout
            conn.timeout = time.monotonic() + self._request_timeout
        conn.head += data
        if b"\r\n\r\n" in conn.head or b"\n\n" in conn.head or len(conn.head) > _HEAD_MAX:
            self._forget(conn)
            self.enqueue_req(conn)

    def murder_keepalived(self, force: bool = False) -> None:
        """Close connections in the loop whose time is up (all of them if ``force``)."""
        now = time.monotonic()
        if not force and now < self._next_sweep:
            return
        self._next_sweep = now + _SWEEP_EVERY
        for conn in [c for c in self._waiting if force or c.timeout <= now]:
            if conn.head and not conn.closing and not force:
                self._request_timed_out(conn)
                # best effort: the socket is non-blocking and the answer small
                with contextlib.suppress(OSError):
                    conn.sock.send(error_response_bytes(408, _timeout_error()))
            self._drop(conn)

    def _request_timed_out(self, conn: Any) -> None:
        peer = _peer(conn.client)
        calls.rejected(
            "rest",
            _timeout_error(),
            408,
            peer,
            f"closed a connection from {peer}: its request was not received within "
            f"{self._request_timeout:g} s",
            self._request_timeout,
        )

    def murder_pending(self) -> None:
        pass  # no connection waits anywhere but in self._waiting

    def _cap_keepalive(self, deadline: float) -> None:
        for conn in self._waiting:
            if not conn.head:
                conn.timeout = min(conn.timeout, deadline)

    def finish_request(self, conn: Any, fs: Any) -> None:
        """Back on the loop after a thread has served ``conn``: wait for its next request,
        or close it."""
        try:
            keep = fs.result() if not fs.cancelled() else False
            if keep and conn.parser.unreader.buf.getvalue():
                # the client sent its next request already (pipelining)
                conn.timeout = time.monotonic() + self._request_timeout
                self.enqueue_req(conn)
            elif keep:
                idle = self._idle_timeout if self.alive else min(self._idle_timeout, _STOP_LINGER)
                self._wait(conn, idle)
            else:
                self._close_gently(conn)
        except Exception:
            self._forget(conn)
            self.nr_conns -= 1
            conn.close()

    def _close_gently(self, conn: Any) -> None:
        """Half-close, then let the loop wait (not a thread) for the client to close, so
        the last answer is not cut by a reset."""
        try:
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            self.nr_conns -= 1
            conn.close()
            return
        self._wait(conn, _CLOSE_LINGER)
        conn.closing = True

    # ------------------------------------------------------------ a thread

    def handle(self, conn: Any) -> bool:
        """Serve one request of ``conn`` in a thread; whether to keep the connection."""
        req = None
        try:
            if not conn.initialized:
                conn.init()
                conn.reader = _DeadlineReader(conn.sock, self._request_timeout)
                conn.parser.unreader.sock = conn.reader
            conn.sock.settimeout(self._request_timeout)
            if conn.head:
                conn.parser.unreader.unread(bytes(conn.head))
                conn.head = bytearray()
            conn.reader.deadline = conn.timeout
            req = next(conn.parser)
            if not req:
                return False
            keep = self.handle_request(req, conn)
        except (StopIteration, http_errors.NoMoreData):
            return False
        except TimeoutError:
            self._request_timed_out(conn)
            with contextlib.suppress(OSError):
                gunicorn_util.write(conn.sock, error_response_bytes(408, _timeout_error()))
            return False
        except OSError as exc:
            self.log.debug("connection error: %s", exc)
            return False
        except Exception as exc:
            self.handle_error(req, conn.sock, conn.client, exc)
            return False
        try:
            return bool(self._keepalive_after(conn, keep))
        except Exception:  # a body left unread that cannot be drained: just close
            return False

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """Answer a request gunicorn could not parse, in JSON, with one log line."""
        status, error = classify(exc)
        peer = _peer(addr)
        if status == 500:
            self.log.exception("error handling a request from %s", peer)
        else:
            message = f"invalid request from {peer}: {error.message[:200]}"
            calls.rejected("rest", error, status, peer, message)
        with contextlib.suppress(OSError):
            gunicorn_util.write(client, error_response_bytes(status, error))


def _peer(address: Any) -> str:
    """The client's address, as access lines write it."""
    if isinstance(address, tuple | list) and address:
        return str(address[0])
    return str(address) if address else "?"


class GatewayLogger(glogging.Logger):  # type: ignore[misc]
    """gunicorn's logger, writing through the handlers of the root logger (the service's
    format and level) rather than its own; its access log stays off."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for handler in list(self.error_log.handlers):
            self.error_log.removeHandler(handler)
        self.error_log.propagate = True

    def access(self, *args: Any, **kwargs: Any) -> None:
        pass  # the service writes one access line per request itself


class GrpcReadiness:
    """Whether this replica's gRPC door serves: a ``grpc.health.v1.Health/Check`` of
    ``service`` at ``target``, with a deadline of ``timeout`` seconds; an answer is
    reused for ``ttl`` seconds, and while one thread asks, the others take the last
    answer. Loads gRPC at the first check, never before (call it in a worker, after the
    fork)."""

    def __init__(
        self,
        target: str,
        service: str = HEALTH_SERVICES[1],
        *,
        timeout: float = READY_TIMEOUT,
        ttl: float = READY_TTL,
    ) -> None:
        self.target = target
        self.service = service
        self.timeout = timeout
        self.ttl = ttl
        self._serving = False
        self._until = 0.0
        self._asking = threading.Lock()
        self._check: Callable[[], bool] | None = None

    def __call__(self) -> bool:
        if time.monotonic() < self._until or not self._asking.acquire(blocking=False):
            return self._serving
        try:
            if self._check is None:
                self._check = self._checker()
            self._serving = self._check()
            self._until = time.monotonic() + self.ttl
        finally:
            self._asking.release()
        return self._serving

    def _checker(self) -> Callable[[], bool]:
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        stub = health_pb2_grpc.HealthStub(grpc.insecure_channel(self.target))
        request = health_pb2.HealthCheckRequest(service=self.service)

        def check() -> bool:
            try:
                answer = stub.Check(request, timeout=self.timeout)
            except grpc.RpcError:
                return False
            return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)

        return check


def _local_target(host: str, port: int) -> str:
    """Where this machine reaches a port bound on ``host``: a wildcard address means
    loopback."""
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _closing_app(app: Callable[..., Any]) -> Callable[..., Any]:
    """WSGI middleware: a response with ``Connection: close`` does close the connection
    (gunicorn drops that header from what the app says and would keep it alive)."""

    def wrapped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if any(k.lower() == "connection" and v.lower() == "close" for k, v in headers):
                force_close = getattr(
                    getattr(start_response, "__self__", None), "force_close", None
                )
                if force_close is not None:
                    force_close()
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return wrapped


class GatewayApplication(BaseApplication):  # type: ignore[misc]
    """gunicorn, configured from :class:`Settings`, serving on inherited sockets."""

    def __init__(
        self,
        settings: Settings,
        listen_fds: list[int],
        drain_fd: int | None,
        ready_fd: int | None = None,
        supervisor: int | None = None,
    ) -> None:
        self.settings = settings
        self.listen_fds = listen_fds
        self.drain_fd = drain_fd
        self.ready_fd = ready_fd
        self.supervisor = supervisor
        # Room for workers added at run time (SIGTTIN); a worker without a slot accepts
        # freely.
        self.board = Board(settings.http_workers + 8)
        super().__init__()

    def load_config(self) -> None:
        s = self.settings
        board = self.board

        def pre_fork(arbiter: Any, worker: Any) -> None:
            worker.slot = board.claim(w.slot for w in arbiter.WORKERS.values())

        def child_exit(arbiter: Any, worker: Any) -> None:
            board.clear(getattr(worker, "slot", None))
            forget_process_metrics(worker.pid)

        ready_fd = self.ready_fd

        def post_worker_init(worker: Any) -> None:
            settle_heap()  # the app is loaded: out of the collector's sight
            # on the board before saying ready, so that balancing counts this worker
            # from the first connection the supervisor lets in
            board.publish(worker.slot, 0)
            if ready_fd is not None:
                # one byte per worker; the supervisor stops reading once all came
                with contextlib.suppress(OSError):
                    os.write(ready_fd, b"w")

        options: dict[str, Any] = {
            "bind": [f"fd://{fd}" for fd in self.listen_fds],
            "workers": s.http_workers,
            "worker_class": "domino_rules.doors.gateway.GatewayWorker",
            "threads": s.http_threads,
            "worker_connections": s.http_max_connections,
            # whole seconds here; GatewayWorker applies the exact idle timeout itself
            "keepalive": max(1, math.ceil(s.http_idle_timeout)),
            "graceful_timeout": math.ceil(s.grace),
            "http_protocols": "h1",
            "control_socket_disable": True,  # its thread would make later forks unsafe
            # gunicorn's own lines (workers booting, exiting) only at --log-level debug
            "loglevel": "debug" if s.log_level == "debug" else "warning",
            "logger_class": GatewayLogger,
            "accesslog": None,
            "proc_name": "domino-rules-rest",
            "pre_fork": pre_fork,
            "child_exit": child_exit,
            "post_worker_init": post_worker_init,
        }
        for name, value in options.items():
            self.cfg.set(name, value)

    def load(self) -> Callable[..., Any]:
        """The app, in each worker (after the fork)."""
        s = self.settings
        drain_fd = self.drain_fd
        grpc_serving = GrpcReadiness(_local_target(s.host, s.grpc_port))
        app = create_app(
            config={"MAX_CONTENT_LENGTH": s.max_request_bytes},
            service=s.service(),
            ready=lambda: not draining(drain_fd) and grpc_serving(),
            metrics_port=s.metrics_port,
            process_root=os.getppid() if self.supervisor is None else self.supervisor,
            process_role="gateway" if self.supervisor is None else "supervisor",
        )
        tracing.instrument_flask(app, calls.note_span)  # nothing unless configured
        return _closing_app(app)


def run_gateway(
    settings: Settings,
    *,
    listen_fds: list[int],
    drain_fd: int | None,
    ready_fd: int | None = None,
    supervisor: int | None = None,
) -> int:
    """Run gunicorn's arbiter on the listening sockets ``listen_fds`` until SIGTERM; each
    worker writes a byte to ``ready_fd`` once it serves. ``supervisor`` is the process
    whose tree ``/metrics`` reports on (default: the arbiter's)."""
    if ready_fd is not None:
        os.set_blocking(ready_fd, False)  # a worker started late must never block on it
    GatewayApplication(settings, listen_fds, drain_fd, ready_fd, supervisor).run()
    return 0
