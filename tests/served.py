"""``domino-rules serve`` as users start it, on 127.0.0.1 with ports 0, for tests.

:func:`start` runs it in its own process group, reads the two ``listening`` lines and
returns a :class:`Served`; :meth:`Served.stop` sends SIGTERM and waits;
:meth:`Served.kill` ends serve and everything it started.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO

SERVE = [sys.executable, "-m", "domino_rules.cli", "serve"]
PORTS_0 = ("--grpc-port", "0", "--http-port", "0")
#: No drain delay unless a test asks for one: a stop need not wait for a balancer here.
NO_DRAIN = {"DOMINO_RULES_DRAIN_DELAY": "0"}


class _Reader:
    """A thread that reads a stream to its end, keeping what it read."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, name="serve-stderr", daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for line in self.stream:
            self.lines.append(line)

    def text(self) -> str:
        return "".join(self.lines)

    def ended(self, timeout: float) -> bool:
        """Whether the stream ended (every process holding it closed it) in time."""
        self.thread.join(timeout)
        return not self.thread.is_alive()


@dataclass
class Served:
    process: subprocess.Popen[str]
    grpc_port: int
    http_port: int
    #: the metrics port, when serve was given one of its own
    metrics_port: int | None = None
    reader: _Reader | None = field(default=None, repr=False)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def stderr(self) -> str:
        """What serve and its doors have written to stderr so far (if not to a file)."""
        return self.reader.text() if self.reader else ""

    def stop(self, timeout: float = 60) -> tuple[int, str]:
        """SIGTERM, then wait; the exit status and what serve and its doors wrote to
        stderr."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.wait(timeout, "SIGTERM")

    def wait(self, timeout: float = 60, after: str = "its end") -> tuple[int, str]:
        """Wait until serve has exited and no door holds its stderr any more; the exit
        status and stderr. Kills everything and fails if that takes over ``timeout``."""
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"serve did not stop within {timeout} s of {after}") from None
        if self.reader is not None and not self.reader.ended(timeout):
            self.kill()
            raise AssertionError(f"serve's doors outlived it by {timeout} s") from None
        self._close()
        return self.process.returncode, self.stderr()

    def _close(self) -> None:
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def kill(self) -> str:
        """SIGKILL serve's process group; what it wrote to stderr."""
        if self.reader is None:
            return kill_group(self.process)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(60)
        if self.reader.ended(60):
            self._close()
        return self.stderr()


def kill_group(process: subprocess.Popen[str]) -> str:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    try:
        return process.communicate(timeout=60)[1] or ""
    except subprocess.TimeoutExpired:
        return "(stderr still open after 60 s)"


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid`` (Linux ``/proc``)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if parent == pid:
                out.append(int(name))
    return out


def lived(pid: int) -> float:
    """How many seconds ago process ``pid`` started (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as stat:
        # field 22, starttime: clock ticks from boot to the process's start
        ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as uptime:
        since_boot = float(uptime.read().split()[0])
    return since_boot - ticks / os.sysconf("SC_CLK_TCK")


def outlived(served: Served, door: str, processes: int, seconds: float) -> bool:
    """Whether ``door`` has its ``processes`` processes and each has lived ``seconds``."""
    pids = door_processes(served, door)
    return len(pids) == processes and all(lived(pid) > seconds for pid in pids)


def tcp_sockets(port: int) -> list[list[str]]:
    """The rows of ``/proc/net/tcp`` and ``tcp6`` whose local port is ``port``, split into
    fields (``[3]`` the state: ``0A`` listening, ``01`` established; ``[9]`` the inode)."""
    rows = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as lines:
                next(lines)
                rows += [
                    f for f in map(str.split, lines) if int(f[1].rsplit(":", 1)[1], 16) == port
                ]
        except OSError:
            continue
    return rows


def accepted(port: int) -> int:
    """How many TCP connections to local ``port`` a process has accepted: established,
    and no longer only in the listen queue (a queued one has no socket inode yet)."""
    return sum(1 for f in tcp_sockets(port) if f[3] == "01" and f[9] != "0")


def door_processes(served: Served, door: str) -> list[int]:
    """serve's child processes of one door, ``"grpc"`` or ``"rest"``."""
    found = []
    for pid in children(served.process.pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
        except OSError:
            continue
        if b"domino_rules.doors.child" in words and door.encode() in words:
            found.append(pid)
    return found


def popen(
    *args: str, env: dict[str, str] | None = None, stderr: IO[str] | None = None
) -> subprocess.Popen[str]:
    """serve with ``args``; stderr to a pipe (which :func:`start` keeps reading), or to
    ``stderr`` (a file)."""
    return subprocess.Popen(
        [*SERVE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stderr is None else stderr,
        text=True,
        env={**os.environ, **NO_DRAIN, **(env or {})},
        start_new_session=True,  # its own process group, so a failed test can end it all
    )


def _listening(line: str) -> str:
    """A ``listening`` line as text: with ``--log-format json`` it is a JSON object whose
    ``message`` is the text."""
    if line.startswith("{"):
        return f"{json.loads(line)['message']}\n"
    return line


def start(*args: str, env: dict[str, str] | None = None, stderr: IO[str] | None = None) -> Served:
    """Start serve with ``args`` (ports 0 unless given) and wait for its lines."""
    if "--grpc-port" not in args and "DOMINO_RULES_GRPC_PORT" not in (env or {}):
        args = (*PORTS_0, *args)
    process = popen(*args, env=env, stderr=stderr)
    reader = _Reader(process.stderr) if process.stderr is not None else None
    assert process.stdout is not None
    lines = [_listening(process.stdout.readline()), _listening(process.stdout.readline())]
    grpc_line = re.fullmatch(r"gRPC listening on 127\.0\.0\.1:(\d+)\n", lines[0])
    rest_line = re.fullmatch(r"REST listening on http://127\.0\.0\.1:(\d+)\n", lines[1])
    metrics_port = None
    if (
        grpc_line
        and rest_line
        and ("--metrics-port" in args or (env or {}).get("DOMINO_RULES_METRICS_PORT"))
    ):
        lines.append(_listening(process.stdout.readline()))
        metrics_line = re.fullmatch(
            r"Metrics listening on http://127\.0\.0\.1:(\d+)/metrics\n", lines[2]
        )
        metrics_port = int(metrics_line.group(1)) if metrics_line else None
        if metrics_line is None:
            grpc_line = None
    served = Served(process, 0, 0, metrics_port, reader)
    if not (grpc_line and rest_line):
        raise AssertionError(f"unexpected start-up lines {lines!r}: {served.kill()}")
    served.grpc_port, served.http_port = int(grpc_line.group(1)), int(rest_line.group(1))
    return served


@contextlib.contextmanager
def serving(
    *args: str, env: dict[str, str] | None = None, stderr: IO[str] | None = None
) -> Iterator[Served]:
    """:func:`start`, and whatever happens, nothing left running afterwards."""
    served = start(*args, env=env, stderr=stderr)
    try:
        yield served
    finally:
        served.kill()
