"""``domino-rules serve`` as users start it, on 127.0.0.1 with ports 0, for tests.

:func:`start` runs it in its own process group, reads the two ``listening`` lines and
returns a :class:`Served`; :meth:`Served.stop` sends SIGTERM and waits;
:meth:`Served.kill` ends serve and everything it started.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

SERVE = [sys.executable, "-m", "domino_rules.cli", "serve"]
PORTS_0 = ("--grpc-port", "0", "--http-port", "0")


@dataclass
class Served:
    process: subprocess.Popen[str]
    grpc_port: int
    http_port: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def stop(self, timeout: float = 60) -> tuple[int, str]:
        """SIGTERM, then wait; the exit status and what serve and its doors wrote to
        stderr."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            _, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"serve did not stop within {timeout} s of SIGTERM") from None
        return self.process.returncode, err

    def kill(self) -> str:
        """SIGKILL serve's process group; what was left to read on stderr."""
        return kill_group(self.process)


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


def door_processes(served: Served, door: str) -> list[int]:
    """serve's child processes of one door, ``"grpc"`` or ``"rest"``."""
    found = []
    for pid in children(served.process.pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
        except OSError:
            continue
        if b"domino_rules.child" in words and door.encode() in words:
            found.append(pid)
    return found


def popen(
    *args: str, env: dict[str, str] | None = None, stderr: IO[str] | None = None
) -> subprocess.Popen[str]:
    """serve with ``args``; stderr to a pipe, or to ``stderr`` (a file), which a server
    that logs a lot should be given: nobody reads the pipe while it runs."""
    return subprocess.Popen(
        [*SERVE, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stderr is None else stderr,
        text=True,
        env={**os.environ, **(env or {})},
        start_new_session=True,  # its own process group, so a failed test can end it all
    )


def start(*args: str, env: dict[str, str] | None = None, stderr: IO[str] | None = None) -> Served:
    """Start serve with ``args`` (ports 0 unless given) and wait for its two lines."""
    if "--grpc-port" not in args and "DOMINO_RULES_GRPC_PORT" not in (env or {}):
        args = (*PORTS_0, *args)
    process = popen(*args, env=env, stderr=stderr)
    assert process.stdout is not None
    lines = [process.stdout.readline(), process.stdout.readline()]
    grpc_line = re.fullmatch(r"gRPC listening on 127\.0\.0\.1:(\d+)\n", lines[0])
    rest_line = re.fullmatch(r"REST listening on http://127\.0\.0\.1:(\d+)\n", lines[1])
    if not (grpc_line and rest_line):
        raise AssertionError(f"unexpected start-up lines {lines!r}: {kill_group(process)}")
    return Served(process, int(grpc_line.group(1)), int(rest_line.group(1)))


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
