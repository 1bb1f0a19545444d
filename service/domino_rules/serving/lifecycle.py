"""What the processes of ``domino-rules serve`` share about starting and stopping.

``serve`` (:mod:`domino_rules.serving.supervisor`) starts each door as a child process by exec,
and each child calls :func:`end_with_parent` first of all, so that no door outlives
``serve``, however ``serve`` ends.

Draining is told through a pipe: ``serve`` keeps the write end and every child inherits
the read end. When ``serve`` starts to stop, or dies, the write end closes, the read end
becomes readable (end of file), and every door reports itself not ready
(:func:`draining`) while it goes on answering.

Metrics: ``serve`` makes a private directory for the metrics files of every process
(``PROMETHEUS_MULTIPROC_DIR``, :func:`metrics_directory`), and when a door process ends,
its live gauges are dropped (:func:`forget_process_metrics`); its counters stay.

Files: ``serve`` writes nowhere but in one temporary directory (:func:`temporary_directory`:
``$TMPDIR``, else the first writable of ``/tmp``, ``/var/tmp``, ``/usr/tmp``): the metrics
directory, and gunicorn's worker heartbeat files, since every child is started with
``TMPDIR`` set to it. So it runs on a read-only root filesystem with one writable volume
on ``/tmp`` (Python writes no bytecode where it cannot, and needs none). When no such
directory is writable, ``serve`` stops before it starts anything, with exit status 2 and
one line naming ``TMPDIR``.

This module imports nothing but the standard library: ``serve`` must never load gRPC.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import glob
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping

__all__ = [
    "METRICS_DIRECTORY",
    "NoTemporaryDirectory",
    "draining",
    "end_with_parent",
    "forget_process_metrics",
    "metrics_directory",
    "settle_heap",
    "stop_listening",
    "temporary_directory",
    "wait_for_drain",
]

#: The variable that names the metrics directory (``prometheus_client``'s).
METRICS_DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"

_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int, sig: signal.Signals = signal.SIGTERM) -> None:
    """Ask the kernel for ``sig`` when the parent (pid ``parent``) ends, even by SIGKILL;
    exit at once if it has already ended. Linux only; elsewhere a no-op.

    Called by a child at its start, before it creates any thread.
    """
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent ended before the request took effect
        os._exit(0)


#: Allocations (less deallocations) between two collections of the youngest generation,
#: in a serving process; Python's default is 700.
GC_THRESHOLD = 50_000


def settle_heap() -> None:
    """In a serving process once it is set up: what start-up made (modules, tables,
    compiled code) is frozen out of the garbage collector's sight, and young objects are
    collected less often. A long match's history is thousands of objects; with Python's
    defaults a full collection every few calls walked the whole heap inside whichever
    call triggered it, 20 to 40 ms (``bench/refusal.py``). Almost everything a call makes
    is freed by reference counting; the collector is for cycles, which the service does
    not make."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 50, 100)


#: How long a listener waits for the connections in its accept queue to be taken before
#: it stops listening.
QUEUE_WAIT = 1.0
_SO_ATTACH_FILTER = 26  # Linux, <asm-generic/socket.h>
_TCP_INFO_BACKLOG = 24  # offset of tcpi_unacked: a listener's accept queue length


class _SockFilter(ctypes.Structure):
    _fields_ = (
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    )


class _SockFprog(ctypes.Structure):
    _fields_ = (
        ("len", ctypes.c_uint16),
        ("filter", ctypes.POINTER(_SockFilter)),
    )


#: A classic BPF program for a TCP listener: drop a segment with SYN and not ACK (a new
#: connection's first segment), keep every other.
_DROP_SYN = (
    _SockFilter(0x30, 0, 0, 13),  # ldb [13]: the TCP header's flags
    _SockFilter(0x54, 0, 0, 0x12),  # and #(SYN|ACK)
    _SockFilter(0x15, 0, 1, 0x02),  # jeq #SYN: drop, else keep
    _SockFilter(0x06, 0, 0, 0),  # ret #0: drop
    _SockFilter(0x06, 0, 0, 0xFFFFFFFF),  # ret #-1: keep it whole
)


def _listeners(port: int) -> list[socket.socket]:
    """Duplicates of this process's TCP listening sockets on ``port``."""
    found = []
    seen: set[int] = set()  # socket inodes: a descriptor and its duplicates, once
    for name in os.listdir("/proc/self/fd"):
        try:
            inode = os.fstat(int(name)).st_ino
            if inode in seen:
                continue  # one of ours, or another descriptor of a socket found
            fd = os.dup(int(name))
        except OSError:  # already gone
            continue
        try:
            sock = socket.socket(fileno=fd)
        except OSError:  # not a socket
            os.close(fd)
            continue
        try:
            listening = (
                sock.type == socket.SOCK_STREAM
                and sock.family in (socket.AF_INET, socket.AF_INET6)
                and sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
                and sock.getsockname()[1] == port
            )
        except OSError:
            listening = False
        if listening:
            seen.add(inode)
            found.append(sock)
        else:
            sock.close()
    return found


def _queued(sock: socket.socket) -> int:
    """Connections in a listener's accept queue, not yet taken by the server."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    return int.from_bytes(info[_TCP_INFO_BACKLOG : _TCP_INFO_BACKLOG + 4], sys.byteorder)


def stop_listening(port: int, queue_wait: float = QUEUE_WAIT) -> int:
    """Stop this process's listening sockets on ``port`` taking connections, leaving the
    connections already open as they are; how many it stopped. Linux only.

    For a server that has no call for it (gRPC's ``server.stop`` also ends the open
    connections), from outside, on duplicates of the listeners' descriptors, in three
    steps, so that no connection the server was sent is lost:

    1. a socket filter drops every new connection's first segment (SYN), so that no
       handshake begins; a client tries again a second later and is then refused;
    2. the connections already in the accept queue are left for the server to take (at
       most ``queue_wait`` seconds);
    3. ``shutdown(2)`` takes each socket out of the listening state: new connections are
       refused, which a client or balancer retries elsewhere, as no byte of a call has
       been sent (the server may log that its acceptor closed).

    A connection refused or dropped this way never reached the server; one that a
    shutdown with a non-empty queue resets may have sent a request, hence step 2.
    """
    sockets = _listeners(port)
    program = (_SockFilter * len(_DROP_SYN))(*_DROP_SYN)
    fprog = _SockFprog(len(_DROP_SYN), program)
    try:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, _SO_ATTACH_FILTER, bytes(fprog))
        deadline = time.monotonic() + queue_wait
        while time.monotonic() < deadline and any(_queued(s) for s in sockets):
            time.sleep(0.001)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        return len(sockets)
    finally:
        for sock in sockets:
            sock.close()  # the duplicates only


def draining(fd: int | None) -> bool:
    """Whether the drain pipe ``fd`` says stop (its write end closed); never blocks."""
    if fd is None:
        return False
    try:
        readable, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def wait_for_drain(fd: int) -> None:
    """Block until the drain pipe ``fd`` says stop."""
    while True:
        try:
            if not os.read(fd, 64):
                return
        except InterruptedError:
            continue
        except OSError:
            return


#: Where a temporary directory is looked for when ``TMPDIR`` is not set (as Python's
#: ``tempfile`` does, but never the working directory).
FALLBACK_TEMPORARY_DIRECTORIES = ("/tmp", "/var/tmp", "/usr/tmp")


class NoTemporaryDirectory(OSError):
    """No directory ``serve`` may write its temporary files in; the message says which
    were tried and why, and names ``TMPDIR``."""


def _writable(directory: str) -> str | None:
    """``None`` if a file can be made in ``directory`` (tried: a permission bit says
    nothing of a read-only mount), else why not."""
    try:
        descriptor, path = tempfile.mkstemp(prefix=".domino-rules-check-", dir=directory)
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(descriptor)
    with contextlib.suppress(OSError):
        os.remove(path)
    return None


def temporary_directory(environ: Mapping[str, str] | None = None) -> str:
    """The directory ``serve`` and its doors write temporary files in: ``$TMPDIR`` when it
    is set (and then that one only: an operator who names it means it), else the first
    writable of :data:`FALLBACK_TEMPORARY_DIRECTORIES`. :class:`NoTemporaryDirectory` if
    it cannot be written in."""
    environ = os.environ if environ is None else environ
    given = environ.get("TMPDIR")
    if given:
        reason = _writable(given)
        if reason is None:
            return os.path.abspath(given)
        raise NoTemporaryDirectory(
            f"TMPDIR is {given!r}, and no file can be made there ({reason}); set TMPDIR to "
            "a writable directory (with a read-only root filesystem, mount a writable "
            "volume such as an emptyDir at /tmp and set TMPDIR=/tmp)"
        )
    tried = []
    for candidate in FALLBACK_TEMPORARY_DIRECTORIES:
        reason = _writable(candidate)
        if reason is None:
            return candidate
        tried.append(f"{candidate}: {reason}")
    raise NoTemporaryDirectory(
        f"no writable temporary directory: TMPDIR is not set, and no file can be made in "
        f"any of {'; '.join(tried)}; set TMPDIR to a writable directory (with a read-only "
        "root filesystem, mount a writable volume such as an emptyDir at /tmp)"
    )


@contextlib.contextmanager
def metrics_directory(parent: str | None = None) -> Iterator[str]:
    """A new private directory (mode 0700) for the metrics files of every process of
    ``serve``, in ``parent`` (default: :func:`temporary_directory`, which is also set as
    ``TMPDIR`` for this process and the children it starts from now on); removed with
    everything in it on leaving.

    With no writable temporary directory, it writes the one line that says so
    (:func:`domino_rules.observability.logs.fatal`) and exits with status 2: ``serve``
    calls it before it starts any child.
    """
    if parent is None:
        try:
            parent = temporary_directory()
        except NoTemporaryDirectory as exc:
            from ..observability import logs

            logs.fatal(str(exc))
            raise SystemExit(2) from None
        os.environ["TMPDIR"] = parent
        tempfile.tempdir = None  # looked for again, from TMPDIR
    path = tempfile.mkdtemp(prefix="domino-rules-metrics-", dir=parent)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def forget_process_metrics(pid: int, directory: str | None = None) -> None:
    """Drop the live gauges (calls in flight) of the ended process ``pid`` from the
    metrics directory (default: ``$PROMETHEUS_MULTIPROC_DIR``; none: nothing to do)."""
    directory = directory or os.environ.get(METRICS_DIRECTORY)
    if not directory:
        return
    for path in glob.glob(os.path.join(glob.escape(directory), f"gauge_live*_{pid}.db")):
        with contextlib.suppress(OSError):
            os.remove(path)
