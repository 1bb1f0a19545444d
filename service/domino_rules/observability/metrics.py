"""The service's Prometheus metrics, summed over every process of ``domino-rules serve``.

Metrics (``door`` is ``grpc`` or ``rest``; ``rpc`` an RPC name, or ``other`` for a REST
request that names none; ``code`` the gRPC status code name, on both doors; ``reason``
the ``ErrorInfo`` reason, empty when the call succeeded):

============================================================ ============================
``domino_rules_requests_total{door,rpc,code,reason}``        calls answered
``domino_rules_request_duration_seconds{door,rpc,ruleset}``  how long each took (histogram)
``domino_rules_requests_in_flight{door}``                    calls being served
``domino_rules_state_token_bytes{door,rpc,direction}``       the state token received
                                                             (``in``) or answered (``out``)
                                                             (histogram)
``domino_rules_games_started_total{ruleset}``                NewGame calls that succeeded
``domino_rules_matches_finished_total{ruleset}``             ApplyMove calls that ended a
                                                             match
``domino_rules_bot_capacity{door}``                          SuggestMove searches that may
                                                             run at once
``domino_rules_bot_searches_running{door}``, ``_queued``     searches running, and calls
                                                             waiting for room
``domino_rules_bot_calls_shed_total{door}``                  calls refused for want of room
``domino_rules_bot_calls_expired_total{door}``               calls whose deadline passed
``domino_rules_replay_capacity{door}``                       Replay calls that may run at
                                                             once
``domino_rules_replays_running{door}``, ``_queued``          replays running, and calls
                                                             waiting for room
``domino_rules_replay_calls_shed_total{door}``               Replay calls refused for want
                                                             of room
``domino_rules_replay_calls_expired_total{door}``            Replay calls whose deadline
                                                             passed (not started, or
                                                             stopped)
``domino_rules_minted_cache_entries{door}``, ``_bytes``      games kept by the cache of
                                                             tokens sealed lately, and their
                                                             bytes
``domino_rules_minted_cache_lookups_total{door,result}``     lookups, ``hit`` or ``miss``
``domino_rules_processes{role}``                             processes running, per role
``process_cpu_seconds_total{role}``, ``process_resident_``   the processes of each role,
``memory_bytes``, ``process_virtual_memory_bytes``,          added up (see below)
``process_open_fds``, ``process_max_fds``,
``process_start_time_seconds``
``domino_rules_build_info{version}``                         always 1
============================================================ ============================

``ruleset`` is one of the catalogue's ruleset ids, from the game the call opened or made,
or empty when the call had none (an error before a game was read, ``ListRulesets``):
never a string a client chose, so the label has at most five values.

Process metrics are per **role**, never per pid, so that no series comes and goes when a
process is started again: ``role`` is ``supervisor``, ``grpc``, ``grpc_pool`` (processes
a gRPC process starts, such as the bots' pool), ``gateway`` or ``rest_worker`` (``main``
for a door built in process). CPU seconds of a role are those of its live processes plus
those of its processes that have ended (which the kernel adds to their parent's
``cutime``/``cstime`` when it reaps them: the supervisor's for gRPC processes, and with
them their pools' ended processes; a gRPC process's for its pool's; the gateway's for REST
workers), so the counter never goes back when a process is replaced; only ``grpc_pool``'s
may, when a gRPC process dies and leaves its pool behind. Memory is the role's total;
``process_open_fds`` is the most any one process of the role holds, and
``process_max_fds`` the lowest limit among them, so that their ratio is the fullest
process's; ``process_start_time_seconds`` is the latest start.

What a call costs: a door process counts its calls in plain memory (:class:`Recorder`,
a lock and a few additions), and a thread of that process writes the counts into
``prometheus_client``'s metrics once every :data:`FLUSH_EVERY` seconds (at exit too).
Under ``serve`` those metrics are in ``prometheus_client``'s multiprocess mode: every
process writes its own files in the private directory ``PROMETHEUS_MULTIPROC_DIR`` that
the supervisor made, and ``GET /metrics``, served by whichever gunicorn worker takes it,
adds up the files of every process, those that have ended included (their counts
stay), except for the in-flight gauge, which counts live processes only. So a scrape
may miss the calls of the last second. Process metrics are read from ``/proc`` when
scraped, for the supervisor and every process below it, and added up per role.

Without ``PROMETHEUS_MULTIPROC_DIR`` (a door built in process, as tests do), the metrics
are this process's own.
"""

from __future__ import annotations

import atexit
import bisect
import glob
import os
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from .. import __version__

__all__ = [
    "DURATION_BUCKETS",
    "FLUSH_EVERY",
    "TOKEN_BUCKETS",
    "ProcessesCollector",
    "Recorder",
    "exposition",
    "recorder",
    "ruleset_label",
]

#: Seconds between two writes of a process's counts into the metrics.
FLUSH_EVERY = 1.0
DURATION_BUCKETS = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
)  # fmt: skip
TOKEN_BUCKETS = (128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536)

disable_created_metrics()  # type: ignore[no-untyped-call]  # no *_created series: multiprocess mode has none either

#: The metrics' own registry: exposed as is in a single process, and unused in
#: multiprocess mode, where the files are read instead.
_REGISTRY = CollectorRegistry()
REQUESTS = Counter(
    "domino_rules_requests",
    "Calls answered, by door, RPC, gRPC status code and error reason.",
    ["door", "rpc", "code", "reason"],
    registry=_REGISTRY,
)
DURATION = Histogram(
    "domino_rules_request_duration_seconds",
    "Time to answer a call, from its request read to its answer made, by door, RPC and "
    "ruleset (empty: none).",
    ["door", "rpc", "ruleset"],
    buckets=DURATION_BUCKETS,
    registry=_REGISTRY,
)
IN_FLIGHT = Gauge(
    "domino_rules_requests_in_flight",
    "Calls being served.",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
TOKEN_BYTES = Histogram(
    "domino_rules_state_token_bytes",
    "Size of the state token a call received (direction in) or answered (out).",
    ["door", "rpc", "direction"],
    buckets=TOKEN_BUCKETS,
    registry=_REGISTRY,
)
GAMES_STARTED = Counter(
    "domino_rules_games_started",
    "Games started (NewGame calls that succeeded), by ruleset.",
    ["ruleset"],
    registry=_REGISTRY,
)
MATCHES_FINISHED = Counter(
    "domino_rules_matches_finished",
    "Matches played to their end (ApplyMove calls answering MATCH_OVER), by ruleset.",
    ["ruleset"],
    registry=_REGISTRY,
)

BOT_CAPACITY = Gauge(
    "domino_rules_bot_capacity",
    "SuggestMove searches that may run at once (--bot-capacity per serving process).",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
BOT_IN_USE = Gauge(
    "domino_rules_bot_searches_running",
    "SuggestMove searches running now.",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
BOT_QUEUED = Gauge(
    "domino_rules_bot_searches_queued",
    "SuggestMove calls waiting for room to search.",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
BOT_SHED = Counter(
    "domino_rules_bot_calls_shed",
    "SuggestMove calls refused at once for want of room (429 / RESOURCE_EXHAUSTED).",
    ["door"],
    registry=_REGISTRY,
)
BOT_EXPIRED = Counter(
    "domino_rules_bot_calls_expired",
    "SuggestMove calls not started, or stopped, because their deadline passed.",
    ["door"],
    registry=_REGISTRY,
)
REPLAY_CAPACITY = Gauge(
    "domino_rules_replay_capacity",
    "Replay calls that may run at once (--replay-capacity per serving process).",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
REPLAYS_RUNNING = Gauge(
    "domino_rules_replays_running",
    "Replay calls running now.",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
REPLAYS_QUEUED = Gauge(
    "domino_rules_replays_queued",
    "Replay calls waiting for room.",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
REPLAY_SHED = Counter(
    "domino_rules_replay_calls_shed",
    "Replay calls refused at once for want of room (429 / RESOURCE_EXHAUSTED).",
    ["door"],
    registry=_REGISTRY,
)
REPLAY_EXPIRED = Counter(
    "domino_rules_replay_calls_expired",
    "Replay calls not started, or stopped, because their deadline passed.",
    ["door"],
    registry=_REGISTRY,
)
MINTED_ENTRIES = Gauge(
    "domino_rules_minted_cache_entries",
    "Games kept by the cache of tokens a process sealed lately.",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
MINTED_BYTES = Gauge(
    "domino_rules_minted_cache_bytes",
    "Bytes those games take (an upper bound), against --minted-cache-bytes.",
    ["door"],
    multiprocess_mode="livesum",
    registry=_REGISTRY,
)
MINTED_LOOKUPS = Counter(
    "domino_rules_minted_cache_lookups",
    "Tokens looked up in that cache, by result (hit, miss): the hit ratio.",
    ["door", "result"],
    registry=_REGISTRY,
)


class _Tracked:
    """A service whose rooms' and cache figures a process reports, with the totals
    already written (counters grow by what changed since)."""

    __slots__ = ("door", "hits", "misses", "service", "written")

    def __init__(self, service: Any, door: str) -> None:
        self.service, self.door = service, door
        self.hits = self.misses = 0
        #: Per room (its attribute on the service): the shed and expired calls written.
        self.written = {room: (0, 0) for room in _ROOMS}

    def write(self) -> None:
        door = self.door
        for room, (capacity, in_use, queued, shed, expired) in _ROOMS.items():
            admission = getattr(self.service, room, None)
            if admission is None:
                continue
            stats = admission.stats()
            capacity.labels(door).set(stats.capacity)
            in_use.labels(door).set(stats.in_use)
            queued.labels(door).set(stats.queued)
            shed_written, expired_written = self.written[room]
            self.written[room] = (
                _grow(shed.labels(door), shed_written, stats.shed),
                _grow(expired.labels(door), expired_written, stats.expired),
            )
        minted = getattr(self.service, "minted", None)
        if minted is not None:
            MINTED_ENTRIES.labels(door).set(len(minted))
            MINTED_BYTES.labels(door).set(minted.bytes)
            self.hits = _grow(MINTED_LOOKUPS.labels(door, "hit"), self.hits, minted.hits)
            self.misses = _grow(MINTED_LOOKUPS.labels(door, "miss"), self.misses, minted.misses)


#: The service's rooms of heavy calls (its attributes) and each one's series: capacity,
#: in use, queued, shed and expired calls.
_ROOMS: dict[str, tuple[Any, Any, Any, Counter, Counter]] = {
    "admission": (BOT_CAPACITY, BOT_IN_USE, BOT_QUEUED, BOT_SHED, BOT_EXPIRED),
    "replays": (REPLAY_CAPACITY, REPLAYS_RUNNING, REPLAYS_QUEUED, REPLAY_SHED, REPLAY_EXPIRED),
}


def _grow(counter: Counter, written: int, total: int) -> int:
    if total > written:
        counter.inc(total - written)
    return total


class _Counts:
    """A histogram's observations since the last write: per bucket (the last is +Inf),
    and their sum."""

    __slots__ = ("bounds", "buckets", "total")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.buckets = [0] * (len(bounds) + 1)
        self.total = 0.0

    def observe(self, value: float) -> None:
        self.buckets[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value

    def add_to(self, histogram: Histogram) -> None:
        """Add these observations to a labelled histogram: what ``observe`` does for one
        value, done for many at once (``prometheus_client`` has no public call for it)."""
        histogram._sum.inc(self.total)
        for bucket, count in zip(histogram._buckets, self.buckets, strict=True):
            if count:
                bucket.inc(count)


class _Series:
    """What one RPC of one door has observed since the last write: durations per
    ruleset, token sizes."""

    __slots__ = ("durations", "token_in", "token_out")

    def __init__(self) -> None:
        self.durations: dict[str, _Counts] = {}
        self.token_in = _Counts(TOKEN_BUCKETS)
        self.token_out = _Counts(TOKEN_BUCKETS)

    def duration(self, ruleset: str) -> _Counts:
        counts = self.durations.get(ruleset)
        if counts is None:
            counts = self.durations[ruleset] = _Counts(DURATION_BUCKETS)
        return counts


_rulesets: frozenset[str] | None = None


def ruleset_label(ruleset: str | None) -> str:
    """The ``ruleset`` label of a call: a ruleset id of the catalogue, or empty (none, or
    anything else: a label's values must stay few)."""
    global _rulesets
    if not ruleset:
        return ""
    if _rulesets is None:
        from .. import games

        _rulesets = frozenset(game.id for game in games.all_games())
    return ruleset if ruleset in _rulesets else ""


class Recorder:
    """The calls of one process, counted in memory and written into the metrics every
    :data:`FLUSH_EVERY` seconds by a thread of its own, started with the first call."""

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)
        atexit.register(self.flush)

    def _reset(self) -> None:
        """Empty, with no thread yet: at start, and in a child after a fork (the
        parent's counts are the parent's to write)."""
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._requests: dict[tuple[str, str, str, str], int] = {}
        self._series: dict[tuple[str, str], _Series] = {}
        self._games: dict[str, int] = {}
        self._matches: dict[str, int] = {}
        self._in_flight: dict[str, int] = {}
        self._tracked: dict[int, _Tracked] = {}

    def track(self, service: Any, door: str) -> None:
        """Report ``service``'s bots (room, queue, shed) and cache of minted games, as
        seen from ``door``, with every write (once per service)."""
        with self._lock:
            self._tracked.setdefault(id(service), _Tracked(service, door))
            if self._thread is None:
                self._start()

    def started(self, door: str) -> None:
        """A call has come in."""
        with self._lock:
            self._in_flight[door] = self._in_flight.get(door, 0) + 1
            if self._thread is None:
                self._start()

    def _start(self) -> None:
        """Start the thread that writes the counts (the lock is held)."""
        self._thread = threading.Thread(target=self._run, name="metrics", daemon=True)
        self._thread.start()

    def finished(
        self,
        door: str,
        rpc: str,
        code: str,
        reason: str,
        seconds: float,
        token_in: int | None = None,
        token_out: int | None = None,
        game_started: str | None = None,
        match_finished: str | None = None,
        ruleset: str | None = None,
    ) -> None:
        """A call started with :meth:`started` has been answered; ``game_started`` and
        ``match_finished`` name the ruleset when the call started a game or ended a
        match, ``ruleset`` the ruleset of the game it read or made, if any."""
        label = ruleset_label(ruleset)
        key = (door, rpc, code, reason)
        with self._lock:
            self._in_flight[door] -= 1
            self._requests[key] = self._requests.get(key, 0) + 1
            series = self._series.get((door, rpc))
            if series is None:
                series = self._series[(door, rpc)] = _Series()
            series.duration(label).observe(seconds)
            if token_in is not None:
                series.token_in.observe(token_in)
            if token_out is not None:
                series.token_out.observe(token_out)
            if game_started is not None:
                self._games[game_started] = self._games.get(game_started, 0) + 1
            if match_finished is not None:
                self._matches[match_finished] = self._matches.get(match_finished, 0) + 1

    def answered(self, door: str, rpc: str, code: str, reason: str, seconds: float) -> None:
        """A call that was answered without being served (:meth:`started` was not
        called): one the HTTP parser refused, or that was not received in time."""
        with self._lock:
            key = (door, rpc, code, reason)
            self._requests[key] = self._requests.get(key, 0) + 1
            series = self._series.get((door, rpc))
            if series is None:
                series = self._series[(door, rpc)] = _Series()
            series.duration("").observe(seconds)
            if self._thread is None:
                self._start()

    def flush(self) -> None:
        """Write the counts so far into the metrics."""
        with self._lock:
            requests, self._requests = self._requests, {}
            series, self._series = self._series, {}
            games, self._games = self._games, {}
            matches, self._matches = self._matches, {}
            in_flight = dict(self._in_flight)
            tracked = list(self._tracked.values())
        for service in tracked:
            service.write()
        for request, count in requests.items():
            REQUESTS.labels(*request).inc(count)
        for (door, rpc), observed in series.items():
            for ruleset, durations in observed.durations.items():
                durations.add_to(DURATION.labels(door, rpc, ruleset))
            if any(observed.token_in.buckets):
                observed.token_in.add_to(TOKEN_BYTES.labels(door, rpc, "in"))
            if any(observed.token_out.buckets):
                observed.token_out.add_to(TOKEN_BYTES.labels(door, rpc, "out"))
        for ruleset, count in games.items():
            GAMES_STARTED.labels(ruleset).inc(count)
        for ruleset, count in matches.items():
            MATCHES_FINISHED.labels(ruleset).inc(count)
        for door, count in in_flight.items():
            IN_FLIGHT.labels(door).set(count)

    def _run(self) -> None:
        while True:
            time.sleep(FLUSH_EVERY)
            self.flush()


_recorder: Recorder | None = None


def recorder() -> Recorder:
    """This process's :class:`Recorder`."""
    global _recorder
    if _recorder is None:
        _recorder = Recorder()
    return _recorder


# ---------------------------------------------------------------- processes


def _stat(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (field 3 onwards)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _argv(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().split(b"\0")
    except OSError:
        return []


#: Whose ended children a role's ``cutime``/``cstime`` holds: the supervisor reaps gRPC
#: processes (the gateway too, but serve ends with it), a gRPC process the processes of
#: its pool, the gateway its REST workers.
_REAPS = {"supervisor": "grpc", "grpc": "grpc_pool", "gateway": "rest_worker"}


class _Role:
    """The processes of one role, added up."""

    __slots__ = ("count", "cpu", "max_fds", "open_fds", "rss", "start", "vms")

    def __init__(self) -> None:
        self.count = 0
        self.cpu = 0.0
        self.rss = 0.0
        self.vms = 0.0
        self.start = 0.0
        self.open_fds: float | None = None
        self.max_fds: float | None = None


class ProcessesCollector(Collector):
    """CPU, memory and file descriptors of ``root`` and every process below it, read
    from ``/proc`` (Linux) at each scrape and added up per ``role`` (never per pid: a
    process started again makes no new series); the CPU time of a role's ended processes
    is counted too, from what their parent reaped."""

    def __init__(self, root: int, root_role: str) -> None:
        self.root = root
        self.root_role = root_role
        self._ticks = os.sysconf("SC_CLK_TCK")
        self._page = os.sysconf("SC_PAGE_SIZE")
        self._boot = self._boot_time()

    @staticmethod
    def _boot_time() -> float:
        try:
            with open("/proc/stat", "rb") as stat:
                for line in stat:
                    if line.startswith(b"btime "):
                        return float(line.split()[1])
        except OSError:
            pass
        return 0.0

    def processes(self) -> Iterator[tuple[int, str, list[bytes]]]:
        """``(pid, role, stat fields)`` of the root and each process below it."""
        below: dict[int, list[int]] = {}
        stats: dict[int, list[bytes]] = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                fields = _stat(int(name))
                if fields is not None:
                    stats[int(name)] = fields
                    below.setdefault(int(fields[1]), []).append(int(name))
        if self.root not in stats:
            return
        todo = [(self.root, self.root_role)]
        while todo:
            pid, role = todo.pop()
            yield pid, role, stats[pid]
            for child in below.get(pid, ()):
                todo.append((child, self._role(child, role)))

    @staticmethod
    def _role(pid: int, parent_role: str) -> str:
        if parent_role in ("gateway", "rest_worker"):
            return "rest_worker"
        if parent_role in ("grpc", "grpc_pool"):  # a pool a gRPC process started (bots)
            return "grpc_pool"
        argv = _argv(pid)
        if b"domino_rules.doors.child" in argv:
            return "grpc" if b"grpc" in argv else "gateway"
        return "other"

    def roles(self) -> dict[str, _Role]:
        """Each role's processes, added up."""
        roles: dict[str, _Role] = {}
        reaped: dict[str, float] = {}
        for pid, role, fields in self.processes():
            out = roles.get(role)
            if out is None:
                out = roles[role] = _Role()
            out.count += 1
            # fields 14-17 of stat: utime, stime, cutime, cstime (clock ticks)
            out.cpu += (int(fields[11]) + int(fields[12])) / self._ticks
            if role in _REAPS:
                ended = (int(fields[13]) + int(fields[14])) / self._ticks
                reaped[_REAPS[role]] = reaped.get(_REAPS[role], 0.0) + ended
            out.vms += float(fields[20])
            out.rss += float(fields[21]) * self._page
            out.start = max(out.start, int(fields[19]) / self._ticks + self._boot)
            try:
                open_fds = float(len(os.listdir(f"/proc/{pid}/fd")))
                with open(f"/proc/{pid}/limits", "rb") as limits:
                    for line in limits:
                        if line.startswith(b"Max open files"):
                            limit = float(line.split()[3])
                            out.max_fds = limit if out.max_fds is None else min(out.max_fds, limit)
                out.open_fds = open_fds if out.open_fds is None else max(out.open_fds, open_fds)
            except (OSError, ValueError):  # gone meanwhile, or not ours to read
                pass
        for role, seconds in reaped.items():
            if role not in roles and seconds:  # all of them have ended
                roles[role] = _Role()
            if role in roles:
                roles[role].cpu += seconds
        return roles

    def collect(self) -> Iterable[Metric]:
        labels = ["role"]
        cpu = CounterMetricFamily(
            "process_cpu_seconds",
            "User and system CPU time of the role's processes, ended ones included, in seconds.",
            labels=labels,
        )
        rss = GaugeMetricFamily(
            "process_resident_memory_bytes",
            "Resident memory of the role's processes, in bytes.",
            labels=labels,
        )
        vms = GaugeMetricFamily(
            "process_virtual_memory_bytes",
            "Virtual memory of the role's processes, in bytes.",
            labels=labels,
        )
        start = GaugeMetricFamily(
            "process_start_time_seconds",
            "Start time of the role's latest process since the Unix epoch, in seconds.",
            labels=labels,
        )
        open_fds = GaugeMetricFamily(
            "process_open_fds",
            "Open file descriptors of the role's process holding the most.",
            labels=labels,
        )
        max_fds = GaugeMetricFamily(
            "process_max_fds",
            "The lowest limit of open file descriptors among the role's processes.",
            labels=labels,
        )
        count = GaugeMetricFamily(
            "domino_rules_processes", "Processes running, by role.", labels=labels
        )
        for role, out in sorted(self.roles().items()):
            values = [role]
            cpu.add_metric(values, out.cpu)
            count.add_metric(values, out.count)
            if not out.count:
                continue
            vms.add_metric(values, out.vms)
            rss.add_metric(values, out.rss)
            start.add_metric(values, out.start)
            if out.open_fds is not None:
                open_fds.add_metric(values, out.open_fds)
            if out.max_fds is not None:
                max_fds.add_metric(values, out.max_fds)
        info = GaugeMetricFamily(
            "domino_rules_build_info", "The running version; always 1.", labels=["version"]
        )
        info.add_metric([__version__], 1)
        return [cpu, rss, vms, start, open_fds, max_fds, count, info]


class _FilesCollector(MultiProcessCollector):
    """``prometheus_client``'s collector of the multiprocess files, leaving out a file
    its process is making at that very moment: it is empty until its writer sizes it,
    and the stock collector fails the whole scrape on it."""

    def __init__(self, registry: CollectorRegistry, path: str) -> None:
        super().__init__(registry, path=path)  # type: ignore[no-untyped-call]
        self.directory = path

    def collect(self) -> Iterable[Metric]:
        files = []
        for path in glob.glob(os.path.join(glob.escape(self.directory), "*.db")):
            try:
                if os.path.getsize(path) >= 8:
                    files.append(path)
            except OSError:  # a live gauge of a process that has just ended
                pass
        merged: Iterable[Metric] = self.merge(files, accumulate=True)  # type: ignore[no-untyped-call]
        return merged


_registries: dict[tuple[int, str], CollectorRegistry] = {}


def _registry(root: int, root_role: str) -> CollectorRegistry:
    registry = _registries.get((root, root_role))
    if registry is None:
        directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
        if directory:
            registry = CollectorRegistry()
            _FilesCollector(registry, directory)
        else:
            registry = _REGISTRY
        registry.register(ProcessesCollector(root, root_role))
        _registries[(root, root_role)] = registry
    return registry


def exposition(
    accept: str | None, *, root: int | None = None, root_role: str = "main"
) -> tuple[bytes, str]:
    """The ``/metrics`` answer for a request with this ``Accept`` header: the body and
    its content type. ``root`` (default: this process) is the process whose tree the
    process metrics cover, and ``root_role`` its role."""
    recorder().flush()  # this process's own counts are current
    registry = _registry(os.getpid() if root is None else root, root_role)
    encoder, content_type = choose_encoder(accept or "")
    return encoder(registry), content_type
