"""``domino-rules serve``: a small supervisor that starts both doors as child processes.

What it does, in order:

1. checks every setting (:class:`~domino_rules.serving.settings.Settings`), then binds the REST
   port (a listening socket the gateway inherits; so is the metrics port, if it has one
   of its own) and reserves the gRPC port (a socket bound with ``SO_REUSEPORT`` that
   never listens, so that port 0 works and nothing else takes the port); a port in use
   or a host that is not this machine's stops start-up here, with exit status 2 and one
   line naming the flag and the variable;
2. starts ``--grpc-workers`` gRPC processes, which all bind the reserved port with
   ``SO_REUSEPORT``, and the REST gateway (gunicorn, ``--http-workers`` workers), each
   by exec (``python -m domino_rules.doors.child``), without ``preexec_fn``; each child asks
   the kernel for SIGTERM should the supervisor die;
3. prints the two ``listening`` lines (and a third for a metrics port of its own) once
   every gRPC process has said it serves and the gateway has answered ``GET /healthz``;
4. supervises: a gRPC process that dies is started again (unless it dies right after
   its start, which stops everything), and its live gauges are dropped from the
   metrics; if the gateway dies, everything stops, exit 1;
5. on SIGTERM or SIGINT, stops gracefully: closes the drain pipe (gRPC health and
   ``/readyz`` go NOT_SERVING at once, while calls are served as before), waits
   ``--drain-delay`` seconds (a balancer's health interval: it stops sending new calls;
   none after SIGINT, a person's Ctrl-C; the gRPC door takes no new connection from the
   start), then sends SIGTERM to every child: the doors close their listeners and their
   connections (gRPC with a GOAWAY), calls in flight get ``--grace`` seconds, then
   everything exits 0. A second signal kills the children at once.

Every door process writes its metrics into a private directory the supervisor makes
(``PROMETHEUS_MULTIPROC_DIR``, :func:`~domino_rules.serving.lifecycle.metrics_directory`) and
removes once every child has ended.

The supervisor never imports gRPC, nor a door (it starts each by command, from
:mod:`domino_rules.doors.child`), and never starts a thread, so nothing here forks after
a gRPC thread exists; each gRPC process creates its threads after its own exec.
"""

from __future__ import annotations

import contextlib
import errno
import http.client
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..observability import logs
from .lifecycle import METRICS_DIRECTORY, forget_process_metrics, metrics_directory
from .settings import SettingError, Settings

__all__ = ["Reservation", "Supervisor", "bind_ports", "serve"]

log = logging.getLogger("domino_rules")

#: How long the doors may take to answer at start-up.
START_TIMEOUT = 60.0
#: A gRPC process that dies sooner than this after its start is not started again.
MIN_LIFETIME = 5.0
#: How long children get past the grace before they are killed.
STOP_MARGIN = 5.0
#: The listen queue of the REST socket.
BACKLOG = 1024
#: glibc malloc settings for the doors, unless the environment sets them. Each call
#: allocates its request (up to the size limit) and frees it soon after; with glibc's
#: defaults those blocks end up in per-thread arenas and under a raised mmap threshold,
#: and a flood leaves the process hundreds of MiB larger for good. Two arenas and a
#: fixed 128 KiB mmap threshold (large blocks go back to the system when freed) keep a
#: gRPC process within tens of MiB of its start (``bench/doors.py grpc-flood``).
MALLOC_TUNING = {"MALLOC_ARENA_MAX": "2", "MALLOC_MMAP_THRESHOLD_": "131072"}


@dataclass
class Reservation:
    """The sockets ``serve`` holds: REST listeners (handed to the gateway) and gRPC
    port reservations (kept until ``serve`` ends)."""

    http_sockets: list[socket.socket]
    grpc_sockets: list[socket.socket]
    http_port: int
    grpc_port: int
    #: where to reach the REST door from this machine
    probe_address: str
    #: the metrics port's listeners, if it has a port of its own (handed to the gateway)
    metrics_sockets: list[socket.socket] = field(default_factory=list)
    metrics_port: int | None = None

    def close(self) -> None:
        for sock in self.http_sockets + self.grpc_sockets + self.metrics_sockets:
            sock.close()


def _addresses(host: str) -> list[tuple[socket.AddressFamily, str]]:
    label = Settings.label("host")
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise SettingError(f"{label} cannot be resolved: {host!r} ({reason})") from None
    out: list[tuple[socket.AddressFamily, str]] = []
    for family, _, _, _, sockaddr in infos:
        if family in (socket.AF_INET, socket.AF_INET6) and (family, sockaddr[0]) not in out:
            out.append((family, str(sockaddr[0])))
    if not out:
        raise SettingError(f"{label} has no IPv4 or IPv6 address: {host!r}")
    return out


def _bind_error(name: str, host: str, address: str, port: int, exc: OSError) -> SettingError:
    if exc.errno == errno.EADDRINUSE:
        return SettingError(f"{Settings.label(name)}: port {port} is in use on {address}")
    if exc.errno == errno.EADDRNOTAVAIL:
        return SettingError(f"{Settings.label('host')}: {host!r} is not an address of this machine")
    if exc.errno == errno.EACCES:
        return SettingError(f"{Settings.label(name)}: port {port} needs privileges to bind")
    return SettingError(f"{Settings.label(name)}: cannot bind {address}:{port}: {exc.strerror}")


def _socket(family: socket.AddressFamily, *, reuse_port: bool, dual_stack: bool) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    if family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0 if dual_stack else 1)
    return sock


def _listen(
    name: str, settings: Settings, addresses: list[tuple[socket.AddressFamily, str]], port: int
) -> tuple[list[socket.socket], int]:
    """Listening sockets on ``port`` of every address (port 0: one free port for all)."""
    dual_stack = len(addresses) == 1
    sockets: list[socket.socket] = []
    try:
        for family, address in addresses:
            sock = _socket(family, reuse_port=False, dual_stack=dual_stack)
            sockets.append(sock)
            try:
                sock.bind((address, port))
            except OSError as exc:
                raise _bind_error(name, settings.host, address, port, exc) from None
            sock.listen(BACKLOG)
            port = sock.getsockname()[1]
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets, port


def bind_ports(settings: Settings) -> Reservation:
    """Bind the REST port (and the metrics port, if it has one of its own) and reserve
    the gRPC port on every address of ``settings.host``; :class:`SettingError` names the
    setting at fault."""
    addresses = _addresses(settings.host)
    # a lone IPv6 address such as "::" takes IPv4 too, as gRPC's own socket does
    dual_stack = len(addresses) == 1
    http_sockets: list[socket.socket] = []
    grpc_sockets: list[socket.socket] = []
    metrics_sockets: list[socket.socket] = []
    metrics_port = None
    try:
        http_sockets, http_port = _listen("http_port", settings, addresses, settings.http_port)
        grpc_port = settings.grpc_port
        for family, address in addresses:
            if grpc_port:
                # a plain bind first: fails if anything at all holds the port, even a
                # socket with SO_REUSEPORT (another copy of this service)
                with _socket(family, reuse_port=False, dual_stack=dual_stack) as probe:
                    try:
                        probe.bind((address, grpc_port))
                    except OSError as exc:
                        raise _bind_error(
                            "grpc_port", settings.host, address, grpc_port, exc
                        ) from None
            sock = _socket(family, reuse_port=True, dual_stack=dual_stack)
            grpc_sockets.append(sock)
            try:
                sock.bind((address, grpc_port))
            except OSError as exc:
                raise _bind_error("grpc_port", settings.host, address, grpc_port, exc) from None
            grpc_port = sock.getsockname()[1]
        if settings.metrics_port is not None:
            metrics_sockets, metrics_port = _listen(
                "metrics_port", settings, addresses, settings.metrics_port
            )
    except BaseException:
        for sock in http_sockets + grpc_sockets + metrics_sockets:
            sock.close()
        raise
    first = addresses[0][1]
    reach = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(first, first)
    return Reservation(
        http_sockets, grpc_sockets, http_port, grpc_port, reach, metrics_sockets, metrics_port
    )


@dataclass
class _Child:
    name: str
    process: subprocess.Popen[bytes]
    started: float = field(default_factory=time.monotonic)
    ready_fd: int | None = None


class _Signals:
    """SIGTERM and SIGINT, counted; the supervisor polls them."""

    def __init__(self) -> None:
        self.count = 0
        self.first: int | None = None
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._handle)

    def _handle(self, sig: int, frame: object) -> None:
        self.count += 1
        if self.first is None:
            self.first = sig


class _Stopped(Exception):
    """A stop signal arrived while starting."""


class _Failed(Exception):
    """A door did not start or died; the message says which."""


class Supervisor:
    def __init__(
        self,
        settings: Settings,
        reservation: Reservation,
        signals: _Signals,
        metrics_directory: str | None = None,
    ) -> None:
        self.settings = settings
        self.reservation = reservation
        self.signals = signals
        self.metrics_directory = metrics_directory
        self.drain_read, self.drain_write = os.pipe()
        self.env = {
            **MALLOC_TUNING,
            **os.environ,
            **settings.to_env(),
            "DOMINO_RULES_GRPC_PORT": str(reservation.grpc_port),
            "DOMINO_RULES_HTTP_PORT": str(reservation.http_port),
        }
        if reservation.metrics_port is not None:
            self.env["DOMINO_RULES_METRICS_PORT"] = str(reservation.metrics_port)
        if metrics_directory is not None:
            self.env[METRICS_DIRECTORY] = metrics_directory
        else:
            self.env.pop(METRICS_DIRECTORY, None)
        self.grpc: list[_Child] = []
        self.gateway: _Child | None = None

    # ------------------------------------------------------------ children

    def _command(self, door: str) -> list[str]:
        return [
            sys.executable,
            "-m",
            "domino_rules.doors.child",
            door,
            "--parent",
            str(os.getpid()),
            "--drain-fd",
            str(self.drain_read),
        ]

    def _popen(self, command: list[str], pass_fds: tuple[int, ...]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            command,
            env=self.env,
            pass_fds=pass_fds,
            stdin=subprocess.DEVNULL,
            stdout=sys.stderr.fileno(),  # stdout is for the two listening lines only
            process_group=0,  # a Ctrl-C reaches the supervisor only, which stops all
        )

    def start_grpc(self) -> _Child:
        ready_read, ready_write = os.pipe()
        try:
            process = self._popen(
                [*self._command("grpc"), "--ready-fd", str(ready_write)],
                (ready_write, self.drain_read),
            )
        except BaseException:
            os.close(ready_read)
            raise
        finally:
            os.close(ready_write)
        child = _Child("gRPC", process, ready_fd=ready_read)
        self.grpc.append(child)
        return child

    def start_gateway(self) -> _Child:
        listeners = self.reservation.http_sockets + self.reservation.metrics_sockets
        fds = tuple(sock.fileno() for sock in listeners)
        ready_read, ready_write = os.pipe()
        command = [*self._command("rest"), "--ready-fd", str(ready_write)]
        for fd in fds:
            command += ["--listen-fd", str(fd)]
        try:
            process = self._popen(command, (*fds, self.drain_read, ready_write))
        except BaseException:
            os.close(ready_read)
            raise
        finally:
            os.close(ready_write)
        self.gateway = _Child("REST", process, ready_fd=ready_read)
        return self.gateway

    def children(self) -> Iterator[_Child]:
        yield from self.grpc
        if self.gateway is not None:
            yield self.gateway

    # ------------------------------------------------------------ start-up

    def _rest_answers(self) -> bool:
        connection = http.client.HTTPConnection(
            self.reservation.probe_address, self.reservation.http_port, timeout=0.5
        )
        try:
            connection.request("GET", "/healthz")
            return connection.getresponse().status == 200
        except OSError:
            return False
        finally:
            connection.close()

    def wait_until_ready(self) -> None:
        """Return once every door answers: each gRPC process has said it serves, each
        gunicorn worker has said it is up, and ``GET /healthz`` answers 200.
        :class:`_Stopped` or :class:`_Failed` if not."""
        deadline = time.monotonic() + START_TIMEOUT
        assert self.gateway is not None and self.gateway.ready_fd is not None
        # bytes still expected on each ready pipe: a line per gRPC process, a byte per
        # gunicorn worker
        expected = {child.ready_fd: 1 for child in self.grpc if child.ready_fd is not None}
        expected[self.gateway.ready_fd] = self.settings.http_workers
        owner = {child.ready_fd: child for child in self.children()}
        rest_ready = False
        while expected or not rest_ready:
            if self.signals.count:
                raise _Stopped
            for child in self.children():
                if child.process.poll() is not None:
                    raise _Failed(
                        f"the {child.name} door exited with status {child.process.returncode} "
                        "while starting"
                    )
            if time.monotonic() > deadline:
                raise _Failed(f"the doors did not answer within {START_TIMEOUT:g} s")
            if expected:
                readable, _, _ = select.select(list(expected), [], [], 0.05)
                for fd in readable:
                    data = os.read(fd, 4096)
                    expected[fd] -= len(data) if owner[fd] is self.gateway else 1
                    if expected[fd] <= 0 or not data:
                        del expected[fd]
                        os.close(fd)
                        owner[fd].ready_fd = None
            else:
                rest_ready = self._rest_answers()
                if not rest_ready:
                    time.sleep(0.05)

    # ------------------------------------------------------------ running

    def supervise(self) -> int:
        """Watch the children until a stop signal (0) or a door fails for good (1)."""
        while not self.signals.count:
            assert self.gateway is not None
            if self.gateway.process.poll() is not None:
                log.error(
                    "the REST gateway exited with status %s; stopping",
                    self.gateway.process.returncode,
                )
                return 1
            for child in list(self.grpc):
                if child.process.poll() is None:
                    continue
                lived = time.monotonic() - child.started
                if lived < MIN_LIFETIME:
                    log.error(
                        "a gRPC process exited with status %s %.1f s after its start; stopping",
                        child.process.returncode,
                        lived,
                    )
                    return 1
                log.warning(
                    "a gRPC process exited with status %s; starting another",
                    child.process.returncode,
                )
                forget_process_metrics(child.process.pid, self.metrics_directory)
                self.grpc.remove(child)
                replacement = self.start_grpc()
                if replacement.ready_fd is not None:
                    os.close(replacement.ready_fd)
                    replacement.ready_fd = None
            time.sleep(0.1)
        return 0

    def stop(self) -> None:
        """Drain, then stop every child within the grace; a further signal kills them."""
        baseline = self.signals.count
        with contextlib.suppress(OSError):
            os.close(self.drain_write)  # every door reports NOT_SERVING from now on
        # Ctrl-C is a person at a terminal, not a balancer to wait for: no drain delay
        delay = 0.0 if self.signals.first == signal.SIGINT else self.settings.drain_delay
        drain_until = time.monotonic() + delay
        while time.monotonic() < drain_until and self.signals.count == baseline:
            if all(child.process.poll() is not None for child in self.children()):
                break
            time.sleep(0.05)
        for child in self.children():
            if child.process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    child.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.settings.grace + STOP_MARGIN
        while any(child.process.poll() is None for child in self.children()):
            if time.monotonic() > deadline or self.signals.count > baseline:
                for child in self.children():
                    if child.process.poll() is None:
                        log.warning("killing the %s door, still running", child.name)
                        with contextlib.suppress(ProcessLookupError):
                            child.process.kill()
                for child in self.children():
                    child.process.wait()
                break
            time.sleep(0.05)
        for child in self.children():
            if child.ready_fd is not None:
                os.close(child.ready_fd)
        os.close(self.drain_read)


def serve(settings: Settings) -> int:
    """Run both doors until SIGTERM or SIGINT. Exit status: 0 after a graceful stop,
    1 if a door failed, 2 if a port or the host cannot be used (nothing printed as
    listening)."""
    signals = _Signals()  # first: a stop signal while starting must still stop all
    try:
        reservation = bind_ports(settings)
    except SettingError as exc:
        logs.fatal(str(exc))  # domino-rules: ..., or one JSON object
        return 2
    if not settings.seal_keys.strip():
        log.warning(
            "no sealing keys (DOMINO_RULES_SEAL_KEYS): state tokens are NOT sealed, and anyone "
            "holding one can read every hand; set keys before exposing tokens to players"
        )
    with metrics_directory() as directory:
        return _run(settings, reservation, signals, directory)


def _run(settings: Settings, reservation: Reservation, signals: _Signals, directory: str) -> int:
    supervisor = Supervisor(settings, reservation, signals, directory)
    status = 0
    try:
        for _ in range(settings.grpc_workers):
            supervisor.start_grpc()
        supervisor.start_gateway()
        for sock in reservation.http_sockets + reservation.metrics_sockets:
            sock.close()  # the gateway holds them now
        supervisor.wait_until_ready()
        host = f"[{settings.host}]" if ":" in settings.host else settings.host
        # on stdout, as they are, or one JSON object each with --log-format json
        grpc_port, http_port = reservation.grpc_port, reservation.http_port
        logs.announce(f"gRPC listening on {host}:{grpc_port}", door="grpc", port=grpc_port)
        logs.announce(f"REST listening on http://{host}:{http_port}", door="rest", port=http_port)
        if reservation.metrics_port is not None:
            logs.announce(
                f"Metrics listening on http://{host}:{reservation.metrics_port}/metrics",
                door="metrics",
                port=reservation.metrics_port,
            )
        status = supervisor.supervise()
    except _Stopped:
        status = 0
    except _Failed as exc:
        log.error("%s; stopping", exc)
        status = 1
    finally:
        log.info("stopping")
        supervisor.stop()
        reservation.close()
    return status
