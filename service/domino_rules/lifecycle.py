"""What the processes of ``domino-rules serve`` share about starting and stopping.

``serve`` (:mod:`domino_rules.supervisor`) starts each door as a child process by exec,
and each child calls :func:`end_with_parent` first of all, so that no door outlives
``serve``, however ``serve`` ends.

Draining is told through a pipe: ``serve`` keeps the write end and every child inherits
the read end. When ``serve`` starts to stop, or dies, the write end closes, the read end
becomes readable (end of file), and every door reports itself not ready
(:func:`draining`) while it goes on answering.

Metrics: ``serve`` makes a private directory for the metrics files of every process
(``PROMETHEUS_MULTIPROC_DIR``, :func:`metrics_directory`), and when a door process ends,
its live gauges are dropped (:func:`forget_process_metrics`); its counters stay.

This module imports nothing but the standard library: ``serve`` must never load gRPC.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import os
import select
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator

__all__ = [
    "METRICS_DIRECTORY",
    "draining",
    "end_with_parent",
    "forget_process_metrics",
    "metrics_directory",
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


@contextlib.contextmanager
def metrics_directory() -> Iterator[str]:
    """A new private directory (mode 0700, under ``$TMPDIR``) for the metrics files of
    every process of ``serve``; removed with everything in it on leaving."""
    path = tempfile.mkdtemp(prefix="domino-rules-metrics-")
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
