"""Admission control: the heavy calls run apart from the cheap calls, in bounded room.

A ``SuggestMove`` at ``STRONG`` costs some 4 to 10 ms of CPU at the median, up to some
50 ms (``bench/bots.py``); every other call about a millisecond. Run in the threads that
answer players, a flood of bots takes the CPU and the interpreter's lock from them: 16
clients looping ``STRONG`` once took ApplyMove's p99 from 19 ms to over a second. So each
serving process hands its searches to an :class:`Admission`:

- **room**: at most ``capacity`` searches run at once, each in a process of its own
  (a ``spawn``-started pool, so nothing forks a process that has gRPC threads) that
  takes only the CPU the players leave (Linux's ``SCHED_IDLE`` policy; ``nice`` +10
  where that is not to be had): the serving process keeps its interpreter lock for the
  players, and the kernel gives the cores to the players first. Under a load that
  leaves no CPU at all, searches wait (their callers' deadlines still apply) and the
  calls past the queue are shed;
- **a short queue**: at most ``queue`` more wait for room, in arrival order;
- **shedding**: a call past both is refused at once (:class:`Overloaded`, which the
  service answers ``RESOURCE_EXHAUSTED`` / HTTP 429 ``OVERLOADED`` with a retry delay),
  rather than queued for seconds;
- **deadlines**: a call whose deadline has passed is not started (nor is one whose
  deadline passes while it waits), and a search stops as soon as its deadline passes
  (:class:`DeadlinePassed`, answered ``DEADLINE_EXCEEDED``). The deadline is the gRPC
  call's, or on REST the ``x-request-timeout`` header's (:func:`deadline_scope`).

With ``processes=False`` the searches run in the calling thread, under the same room,
queue and deadlines (a service built in process, as tests and library users do).

``Replay`` is admitted the same way, in a room of its own (``RulesService.replays``,
``--replay-capacity`` and ``--replay-queue``): a replay costs some 0.3 ms of CPU a move,
most of a second for the longest records a request can hold, and a flood of them in the
players' threads once took REST's ApplyMove p99 from 3.5 to 306 ms. ``what`` names the
work in the messages of a refusal (``"bots"``, ``"replays"``).

Nothing here imports the serving layer: a serving process that wants its work processes
to end with it passes ``on_start`` (``serving.lifecycle.end_with_parent``), which each
process runs first, given the serving process's pid.

>>> admission = Admission(capacity=1, queue=0)
>>> admission.run(lambda stop: "searched")
'searched'
>>> admission.stats()
AdmissionStats(capacity=1, queue=0, in_use=0, queued=0, shed=0, expired=0)
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "DEFAULT_CAPACITY",
    "DEFAULT_QUEUE",
    "MAX_CAPACITY",
    "MAX_QUEUE",
    "RETRY_AFTER",
    "Admission",
    "AdmissionStats",
    "DeadlinePassed",
    "Overloaded",
    "current_deadline",
    "deadline_scope",
]

log = logging.getLogger(__name__)

#: Searches run at once per serving process, by default.
DEFAULT_CAPACITY = 1
#: Searches that may wait for room per serving process, by default.
DEFAULT_QUEUE = 2
#: The most a setting may ask for (each unit of capacity is a process).
MAX_CAPACITY = 64
MAX_QUEUE = 1024
#: Seconds a refused caller is told to wait before it tries again.
RETRY_AFTER = 1.0
#: Seconds past a call's deadline that its caller waits for the work process to stop
#: and say how far it got; then the caller is answered and the room is given back
#: when the work stops (a process that the players leave no CPU may take longer).
GRACE = 0.1
#: Deadlines further than this (seconds) are no deadline.
NO_LIMIT = 86400.0
#: The scheduling priority the search processes lower themselves by, where the idle
#: policy is not to be had.
NICE = 10

T = TypeVar("T")
#: A search: given ``stop`` (true once the deadline has passed), its answer; it raises
#: :class:`DeadlinePassed` when it gives up because ``stop`` said so. With processes it
#: must pickle (a module-level function, or a ``functools.partial`` of one).
Search = Callable[[Callable[[], bool]], T]

_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "domino_rules_deadline", default=None
)


class Overloaded(Exception):
    """No room and a full queue: the call is refused at once."""

    def __init__(self, stats: AdmissionStats, what: str = "bots") -> None:
        running = "searches" if what == "bots" else what
        super().__init__(
            f"the {what} are busy ({stats.in_use} {running} running, {stats.queued} waiting): "
            f"try again in {RETRY_AFTER:g} s"
        )
        self.retry_after = RETRY_AFTER


class DeadlinePassed(Exception):
    """The caller's deadline passed before or during the search."""


class _StillRunning(Exception):
    """The deadline passed while a work process still runs ``future``."""

    def __init__(self, future: Future[Any]) -> None:
        super().__init__()
        self.future = future


@dataclass(frozen=True)
class AdmissionStats:
    capacity: int
    queue: int
    #: searches running now
    in_use: int
    #: calls waiting for room now
    queued: int
    #: calls refused for want of room, since the start
    shed: int
    #: calls not started, or stopped, because their deadline passed, since the start
    expired: int


@contextlib.contextmanager
def deadline_scope(seconds: float | None) -> Iterator[None]:
    """The calls made inside have ``seconds`` from now to answer (``None``, or more than
    :data:`NO_LIMIT` as gRPC reports a call without a deadline: no limit)."""
    deadline = None
    if seconds is not None and seconds <= NO_LIMIT:
        deadline = time.monotonic() + seconds
    token = _deadline.set(deadline)
    try:
        yield
    finally:
        _deadline.reset(token)


def current_deadline() -> float | None:
    """The deadline of the call being served (``time.monotonic()`` time), if any."""
    return _deadline.get()


def _stopper(deadline: float | None) -> Callable[[], bool]:
    if deadline is None:
        return _never
    return lambda: time.monotonic() >= deadline


def _never() -> bool:
    return False


def _run_search(search: Search[T], deadline: float | None) -> T:
    """The body of a search, in whichever process runs it."""
    return search(_stopper(deadline))


def _start_worker(
    parent: int, nice: int, idle: bool, on_start: Callable[[int], object] | None
) -> None:
    """A search process, at its start: ``on_start(parent)`` (under ``serve``: end with the
    serving process), then lower priority."""
    if on_start is not None:
        on_start(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the serving process stops it
    with contextlib.suppress(OSError):
        os.nice(nice)
    if idle and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):  # the CPU the players leave, and only that
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


class Admission:
    """Room for ``capacity`` searches at once and ``queue`` more waiting (the module
    docstring tells the rest)."""

    def __init__(
        self,
        capacity: int = DEFAULT_CAPACITY,
        queue: int = DEFAULT_QUEUE,
        *,
        processes: bool = False,
        nice: int = NICE,
        what: str = "bots",
        on_start: Callable[[int], object] | None = None,
    ) -> None:
        """``what``: the work, as a refusal names it. ``on_start``: run first in each work
        process, given the pid of the process that started it (picklable: a function of
        a module)."""
        if not 1 <= capacity <= MAX_CAPACITY:
            raise ValueError(f"capacity must be from 1 to {MAX_CAPACITY}, not {capacity}")
        if not 0 <= queue <= MAX_QUEUE:
            raise ValueError(f"queue must be from 0 to {MAX_QUEUE}, not {queue}")
        self.capacity = capacity
        self.queue = queue
        self.processes = processes
        self.nice = nice
        self.what = what
        self.on_start = on_start
        self._lock = threading.Condition()
        self._in_use = 0
        self._waiting: list[object] = []  # tickets, in arrival order
        self._shed = 0
        self._expired = 0
        self._pool: ProcessPoolExecutor | None = None
        self._pool_owner = 0

    # ------------------------------------------------------------ running

    def run(self, search: Search[T]) -> T:
        """Run ``search`` within the room, under the current call's deadline; raises
        :class:`Overloaded` or :class:`DeadlinePassed` (and whatever the search raises)."""
        deadline = current_deadline()
        self._enter(deadline)
        leave = True
        try:
            if deadline is not None and time.monotonic() >= deadline:
                raise DeadlinePassed(f"the deadline passed before {self._work} could start")
            if self.processes:
                return self._in_process(search, deadline)
            return _run_search(search, deadline)
        except _StillRunning as running:
            # the caller is answered now; the room is given back when the work stops
            leave = False
            running.future.add_done_callback(lambda _: self._leave())
            with self._lock:
                self._expired += 1
            raise DeadlinePassed(f"the deadline passed before {self._work} could end") from None
        except DeadlinePassed:
            with self._lock:
                self._expired += 1
            raise
        finally:
            if leave:
                self._leave()

    def refuse_if_full(self) -> None:
        """Raise :class:`Overloaded` now if a call would be refused, before any work is
        spent on it (decoding its token, say); :meth:`run` checks again."""
        with self._lock:
            if self._in_use >= self.capacity and len(self._waiting) >= self.queue:
                self._shed += 1
                raise Overloaded(self._stats(), self.what)

    def _enter(self, deadline: float | None) -> None:
        with self._lock:
            if self._in_use < self.capacity and not self._waiting:
                self._in_use += 1
                return
            if len(self._waiting) >= self.queue:
                self._shed += 1
                raise Overloaded(self._stats(), self.what)
            ticket = object()
            self._waiting.append(ticket)
            try:
                while not (self._in_use < self.capacity and self._waiting[0] is ticket):
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        self._expired += 1
                        raise DeadlinePassed(f"the deadline passed while waiting for {self._one}")
                    self._lock.wait(left)
                self._in_use += 1
            finally:
                self._waiting.remove(ticket)
                self._lock.notify_all()

    @property
    def _one(self) -> str:
        return "a bot" if self.what == "bots" else "room"

    @property
    def _work(self) -> str:
        return "the search" if self.what == "bots" else "the work"

    def _leave(self) -> None:
        with self._lock:
            self._in_use -= 1
            self._lock.notify_all()

    def _in_process(self, search: Search[T], deadline: float | None) -> T:
        for attempt in (1, 2):
            pool = self._pool_now()
            try:
                future: Future[T] = pool.submit(_run_search, search, deadline)
                if deadline is None:
                    return future.result()
                try:
                    return future.result(max(0.0, deadline - time.monotonic()) + GRACE)
                except TimeoutError:
                    raise _StillRunning(future) from None
            except BrokenProcessPool:
                # a search process died (killed, out of memory): a new pool, one retry
                log.warning("a %s process ended unexpectedly; starting another", self.what)
                self._drop_pool(pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _pool_now(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None or self._pool_owner != os.getpid():
                self._pool = ProcessPoolExecutor(
                    max_workers=self.capacity,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(os.getpid(), self.nice, True, self.on_start),
                )
                self._pool_owner = os.getpid()
            return self._pool

    def _drop_pool(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def warm(self) -> None:
        """Start the search processes now rather than at the first search (a serving
        process calls this once it serves, so the first bot call does not pay for it)."""
        if self.processes:
            pool = self._pool_now()
            for future in [pool.submit(_noop) for _ in range(self.capacity)]:
                future.result()

    def close(self) -> None:
        """Stop the search processes (searches running are let finish)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    # ------------------------------------------------------------ figures

    def stats(self) -> AdmissionStats:
        with self._lock:
            return self._stats()

    def _stats(self) -> AdmissionStats:
        return AdmissionStats(
            self.capacity, self.queue, self._in_use, len(self._waiting), self._shed, self._expired
        )


def _noop() -> None:
    return None
