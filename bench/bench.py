#!/usr/bin/env python3
"""Throughput figures for the domino rules service, in process and over the network.

Two parts, each measurement bounded by ``--seconds`` (default 5; ``--quick`` is 1):

1. In process, for every registered ruleset with its default options: seeded random
   full matches (random choice among ``legal_moves``, then ``apply``), giving matches/s,
   moves/s, the time per move split into ``legal_moves`` and ``apply``, the cost of a
   state token round trip (``RulesService.encode`` + ``decode``, unsealed and sealed)
   and the largest token of a match. Also the token of one mid-hand 4-player One Arm Joe
   state.
2. Over the network, against one server started as users start it
   (``domino-rules serve --grpc-port 0 --http-port 0``) on 127.0.0.1: requests/s of
   One Arm Joe ``ApplyMove`` on a fixed mid-hand state over gRPC and over REST, each next
   to a trivial endpoint of the same server (gRPC health ``Check``, REST ``GET /healthz``),
   with 1 and 4 client threads.

Prints a plain-text table, or JSON with ``--json``; progress goes to stderr. There are
no thresholds: the figures are for reading and comparing.

Usage::

    python bench/bench.py [--quick | --seconds N] [--json] [--no-network]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any, Protocol

import google.protobuf
import grpc
from google.protobuf import json_format
from grpc_health.v1 import health_pb2, health_pb2_grpc

from domino_rules import __version__, codec, rules
from domino_rules.api import RulesService
from domino_rules.codec import Game
from domino_rules.rules import Event, Move
from domino_rules.settings import Settings
from domino_rules.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

# the random playout the tests use (tests/support/playout.py), from the repository root
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.support.playout import AnyMatch, AnyRuleset, Rules, Step, hand_over, play_out

DEFAULT_SECONDS = 5.0
QUICK_SECONDS = 1.0
#: Players per match: 4 where the ruleset allows it, else the nearest count it allows.
PLAYERS = 4
MID_HAND_RULESET = "one_arm_joe"
MID_HAND_SEED = "bench/mid-hand"
CLIENT_THREADS = (1, 4)
WARMUP_CALLS = 20
CALL_TIMEOUT = 30.0
SERVER_START_TIMEOUT = 60.0
SERVER_STOP_TIMEOUT = 20.0
HOST = "127.0.0.1"
GAME_ID = "0" * 24  # as long as a real game id (24 hex digits)
KIB = 1024


def log(message: str) -> None:
    """Progress, on stderr so that ``--json`` output stays clean."""
    print(message, file=sys.stderr, flush=True)


# =========================================================================== figures


@dataclass(frozen=True)
class RulesetFigures:
    """In-process figures for one ruleset with default options (times in microseconds)."""

    ruleset: str
    name: str
    players: int
    matches: int  # matches played in the timed window
    matches_per_s: float
    moves_per_s: float  # applied moves, NEXT_HAND included
    moves_per_match: float
    us_per_move: float  # wall time per move: legal_moves + choice + apply (+ deals)
    legal_moves_us: float  # one Ruleset.legal_moves call
    apply_us: float  # one Ruleset.apply call (it checks legality again itself)
    token_round_trip_us: float  # RulesService.encode + decode, unsealed token
    sealed_round_trip_us: float  # the same with an AES-256-GCM sealed token
    round_trip_per_move: float  # token_round_trip_us / us_per_move
    max_token_bytes: int  # the largest unsealed token over one match
    max_sealed_token_bytes: int


@dataclass(frozen=True)
class MidHandToken:
    """The token of a state halfway through the first hand of a seeded match."""

    ruleset: str
    players: int
    seed: str
    move: int
    hand_moves: int
    token_bytes: int
    sealed_token_bytes: int


@dataclass(frozen=True)
class Rate:
    """Requests completed by a set of client threads in a timed window."""

    requests: int
    seconds: float
    per_s: float  # requests / seconds, all threads together
    p50_ms: float  # latency of one request, as its client thread saw it
    p99_ms: float


@dataclass(frozen=True)
class NetworkRow:
    """ApplyMove next to the trivial endpoint of the same door, at one concurrency."""

    door: str
    clients: int
    apply_move: Rate
    trivial: Rate
    ratio: float


@dataclass(frozen=True)
class NetworkFigures:
    """The server, the measured request, and one row per door and client-thread count."""

    server_command: str
    http_workers: int
    tokens_sealed: bool
    state_token_bytes: int
    move: str
    rest_keep_alive: bool
    trivial_endpoints: dict[str, str]
    rows: tuple[NetworkRow, ...]


@dataclass(frozen=True)
class Report:
    """Everything one run measured; ``--json`` prints it as is."""

    environment: dict[str, Any]
    seconds_per_measurement: float
    rulesets: tuple[RulesetFigures, ...]
    mid_hand: MidHandToken
    network: NetworkFigures | None


# =========================================================================== in process


def players_for(ruleset: AnyRuleset, options: Any) -> int:
    """``PLAYERS``, clamped to the ruleset's player range."""
    low, high = ruleset.player_range(options)
    return min(max(PLAYERS, low), high)


class TimedRules:
    """A ruleset whose ``legal_moves`` and ``apply`` add up the time they take, and count
    the random matches played with it so far."""

    def __init__(self, ruleset: AnyRuleset) -> None:
        self.ruleset = ruleset
        self.matches = 0
        self.moves = 0
        self.legal_s = 0.0
        self.apply_s = 0.0

    def legal_moves(self, match: AnyMatch, /) -> tuple[Move, ...]:
        start = time.perf_counter()
        legal = self.ruleset.legal_moves(match)
        self.legal_s += time.perf_counter() - start
        return legal

    def apply(self, match: AnyMatch, move: Move, /) -> tuple[AnyMatch, tuple[Event, ...]]:
        start = time.perf_counter()
        after = self.ruleset.apply(match, move)
        self.apply_s += time.perf_counter() - start
        self.moves += 1
        return after


def play_match(
    ruleset: AnyRuleset,
    options: Any,
    players: int,
    index: int,
    *,
    timed: Rules | None = None,
    observe: Callable[[Step], None] | None = None,
) -> AnyMatch:
    """Play the seeded random match ``index`` to its end: seed ``bench/<ruleset>/<index>``,
    moves drawn by ``random.Random(index)``, through ``timed`` if given. Returns the last
    state."""
    match = ruleset.new_match(options, players, f"bench/{ruleset.id}/{index}")
    return play_out(timed or ruleset, match, random.Random(index), observe=observe)


def record_match(ruleset: AnyRuleset, options: Any, players: int, index: int) -> list[AnyMatch]:
    """Every state of the seeded match ``index``, from the deal to the end."""
    states = [ruleset.new_match(options, players, f"bench/{ruleset.id}/{index}")]
    play_match(ruleset, options, players, index, observe=lambda step: states.append(step.after))
    return states


def sealed_service() -> RulesService:
    """A service that seals tokens (AES-256-GCM) with a fresh key."""
    return RulesService(TokenCodec(KeyRing.parse(KeyRing.generate("bench"))))


def games_of(ruleset: AnyRuleset, states: Sequence[AnyMatch]) -> list[Game]:
    return [Game(ruleset, match, GAME_ID, version) for version, match in enumerate(states)]


def round_trip_us(service: RulesService, games: Sequence[Game], seconds: float) -> float:
    """Mean microseconds of ``decode(encode(game))``, cycling through ``games``."""
    for game in games:  # warm up, and check that the round trip keeps the match
        if service.decode(service.encode(game)).match != game.match:
            raise RuntimeError(f"a {game.ruleset.id} state changed in a token round trip")
    count, start = 0, time.perf_counter()
    deadline = start + seconds
    while count == 0 or time.perf_counter() < deadline:
        for game in games:
            service.decode(service.encode(game))
        count += len(games)
    return (time.perf_counter() - start) / count * 1e6


def measure_ruleset(ruleset: AnyRuleset, seconds: float) -> RulesetFigures:
    """Random matches for ``seconds``, then token round trips for ``seconds``."""
    options = ruleset.make_options({})
    players = players_for(ruleset, options)
    play_match(ruleset, options, players, -1)  # warm up
    totals, start = TimedRules(ruleset), time.perf_counter()
    while totals.matches == 0 or time.perf_counter() - start < seconds:
        play_match(ruleset, options, players, totals.matches, timed=totals)
        totals.matches += 1
    elapsed = time.perf_counter() - start

    games = games_of(ruleset, record_match(ruleset, options, players, 0))
    plain, sealed = RulesService(), sealed_service()
    plain_us = round_trip_us(plain, games, seconds / 2)
    sealed_us = round_trip_us(sealed, games, seconds / 2)
    us_per_move = elapsed / totals.moves * 1e6
    return RulesetFigures(
        ruleset=ruleset.id,
        name=ruleset.name,
        players=players,
        matches=totals.matches,
        matches_per_s=totals.matches / elapsed,
        moves_per_s=totals.moves / elapsed,
        moves_per_match=totals.moves / totals.matches,
        us_per_move=us_per_move,
        legal_moves_us=totals.legal_s / totals.moves * 1e6,  # once per move
        apply_us=totals.apply_s / totals.moves * 1e6,
        token_round_trip_us=plain_us,
        sealed_round_trip_us=sealed_us,
        round_trip_per_move=plain_us / us_per_move,
        max_token_bytes=max(len(plain.encode(g)) for g in games),
        max_sealed_token_bytes=max(len(sealed.encode(g)) for g in games),
    )


def mid_hand(ruleset: AnyRuleset, players: int, seed: str) -> tuple[AnyMatch, list[Move], int]:
    """The state halfway through the first hand of a seeded match with default options.

    Returns the state, the moves that lead to it from the deal, and the hand's length.
    """
    match = ruleset.new_match(ruleset.make_options({}), players, seed)
    states, moves = [match], []

    def keep(step: Step) -> None:
        states.append(step.after)
        moves.append(step.move)

    play_out(ruleset, match, random.Random(seed), until=hand_over, observe=keep)
    middle = len(moves) // 2
    return states[middle], moves[:middle], len(moves)


def measure_mid_hand_token() -> MidHandToken:
    """Token sizes of the mid-hand 4-player One Arm Joe state, unsealed and sealed."""
    ruleset = rules.get(MID_HAND_RULESET)
    match, prefix, hand_moves = mid_hand(ruleset, PLAYERS, MID_HAND_SEED)
    game = Game(ruleset, match, GAME_ID, len(prefix))
    return MidHandToken(
        ruleset=ruleset.id,
        players=PLAYERS,
        seed=MID_HAND_SEED,
        move=len(prefix),
        hand_moves=hand_moves,
        token_bytes=len(RulesService().encode(game)),
        sealed_token_bytes=len(sealed_service().encode(game)),
    )


# =========================================================================== the server


def server_command() -> list[str]:
    """``domino-rules serve`` on free ports of 127.0.0.1, from this interpreter's venv."""
    script = Path(sys.executable).parent / "domino-rules"
    found = str(script) if script.exists() else shutil.which("domino-rules")
    if found is None:
        raise SystemExit("bench: cannot find the domino-rules command; install the package first")
    return [found, "serve", "--host", HOST, "--grpc-port", "0", "--http-port", "0"]


_LISTENING = {
    "grpc": re.compile(r"^gRPC listening on (\S+):(\d+)$"),
    "rest": re.compile(r"^REST listening on http://(\S+):(\d+)$"),
}


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Forward the server's stdout lines, then ``None`` at its end (keeps the pipe drained)."""
    for line in stream:
        lines.put(line.rstrip("\n"))
    lines.put(None)


def read_ports(process: subprocess.Popen[str], timeout: float) -> dict[str, int]:
    """The ports from the server's two ``... listening on ...`` lines."""
    assert process.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
    ports: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    while len(ports) < len(_LISTENING):
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise RuntimeError(f"no ports printed within {timeout:.0f} s") from None
        if line is None:
            raise RuntimeError(f"the server exited with {process.wait()} before listening")
        for door, pattern in _LISTENING.items():
            if found := pattern.match(line):
                ports[door] = int(found.group(2))
    return ports


def stop_server(process: subprocess.Popen[str]) -> None:
    """SIGTERM (the server stops its REST workers itself); SIGKILL its group if it hangs."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=SERVER_STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # its own session: the group is its pid
        process.wait()


@contextmanager
def running_server(command: Sequence[str]) -> Iterator[dict[str, int]]:
    """Start the server, yield ``{"grpc": port, "rest": port}``, and always stop it."""
    with tempfile.TemporaryFile(mode="w+") as errors:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=errors, text=True, start_new_session=True
        )
        try:
            try:
                ports = read_ports(process, SERVER_START_TIMEOUT)
            except RuntimeError as exc:
                errors.seek(0)
                raise RuntimeError(f"{exc}; its stderr ends:\n{errors.read()[-2000:]}") from None
            yield ports
        finally:
            stop_server(process)


# =========================================================================== clients


class Client(Protocol):
    """One client thread's way of sending the measured request."""

    def call(self) -> None: ...

    def close(self) -> None: ...


class GrpcClient:
    """A unary call on a shared channel."""

    def __init__(self, method: Callable[..., Any], request: Any) -> None:
        self.method, self.request = method, request

    def call(self) -> None:
        self.method(self.request, timeout=CALL_TIMEOUT)

    def close(self) -> None:
        pass


class RestClient:
    """One ``http.client`` connection, kept alive when the server allows it."""

    def __init__(self, port: int, verb: str, path: str, body: bytes | None) -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=CALL_TIMEOUT)
        self.verb, self.path, self.body = verb, path, body
        self.headers = {"Content-Type": "application/json"} if body is not None else {}

    def call(self) -> None:
        self.connection.request(self.verb, self.path, body=self.body, headers=self.headers)
        response = self.connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"{self.verb} {self.path}: HTTP {response.status}: {data[:300]!r}")

    def close(self) -> None:
        self.connection.close()


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def measure_rate(make_client: Callable[[], Client], threads: int, seconds: float) -> Rate:
    """Requests/s of ``threads`` clients, each sending back to back for ``seconds``."""
    clients = [make_client() for _ in range(threads)]
    latencies: list[list[float]] = [[] for _ in clients]
    failures: list[BaseException] = []
    barrier = threading.Barrier(threads + 1)

    def send(client: Client, out: list[float]) -> None:
        try:
            for _ in range(WARMUP_CALLS):
                client.call()
        except Exception as exc:
            failures.append(exc)
        barrier.wait()
        deadline = time.perf_counter() + seconds
        clock = time.perf_counter
        try:
            while not failures and (not out or clock() < deadline):  # at least one each
                t0 = clock()
                client.call()
                out.append(clock() - t0)
        except Exception as exc:
            failures.append(exc)

    pairs = zip(clients, latencies, strict=True)
    workers = [threading.Thread(target=send, args=pair) for pair in pairs]
    for worker in workers:
        worker.start()
    barrier.wait()
    start = time.perf_counter()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - start
    for client in clients:
        client.close()
    if failures:
        raise RuntimeError(f"a request failed: {failures[0]}") from failures[0]
    merged = sorted(x for out in latencies for x in out)
    return Rate(
        requests=len(merged),
        seconds=elapsed,
        per_s=len(merged) / elapsed,
        p50_ms=percentile(merged, 0.50) * 1e3,
        p99_ms=percentile(merged, 0.99) * 1e3,
    )


# =========================================================================== over the network

#: The trivial endpoint each door's ApplyMove is compared with.
TRIVIAL_ENDPOINTS = {"gRPC": "grpc.health.v1.Health/Check", "REST": "GET /healthz"}


def rules_stub(channel: grpc.Channel) -> Any:
    """The generated DominoRules stub (its module carries no type hints)."""
    return pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]


def mid_hand_request(channel: grpc.Channel) -> pb.ApplyMoveRequest:
    """An ApplyMove request on the mid-hand One Arm Joe state, reached through the server.

    The server issues every token, so the request holds a token as the server makes
    them (sealed or not).
    """
    stub = rules_stub(channel)
    ruleset = rules.get(MID_HAND_RULESET)
    _, prefix, _ = mid_hand(ruleset, PLAYERS, MID_HAND_SEED)
    game = stub.NewGame(
        pb.NewGameRequest(ruleset=ruleset.id, players=PLAYERS, seed=MID_HAND_SEED),
        timeout=CALL_TIMEOUT,
    )
    state, version = game.state, game.version
    for move in prefix:
        answer = stub.ApplyMove(
            pb.ApplyMoveRequest(state=state, move=codec.move_to_pb(move), expected_version=version),
            timeout=CALL_TIMEOUT,
        )
        state, version = answer.state, answer.version
    legal = stub.GetLegalMoves(pb.GetLegalMovesRequest(state=state), timeout=CALL_TIMEOUT)
    return pb.ApplyMoveRequest(state=state, move=legal.moves[0], expected_version=version)


def rest_keeps_alive(port: int) -> bool:
    """Whether the REST gateway keeps connections open (gunicorn sync workers do not)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=CALL_TIMEOUT)
    try:
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        response.read()
        return response.status == 200 and response.getheader("Connection", "").lower() != "close"
    finally:
        connection.close()


@dataclass(frozen=True)
class Door:
    """How to make one client thread's ApplyMove caller and trivial-endpoint caller."""

    name: str
    apply_move: Callable[[], Client]
    trivial: Callable[[], Client]


def doors(channel: grpc.Channel, rest_port: int, request: pb.ApplyMoveRequest) -> list[Door]:
    """gRPC (one shared channel) and REST (one connection per thread), same request."""
    stub = rules_stub(channel)
    health = health_pb2_grpc.HealthStub(channel)
    check = health_pb2.HealthCheckRequest(service="")
    body = json_format.MessageToJson(request, preserving_proto_field_name=True).encode()
    return [
        Door(
            "gRPC",
            lambda: GrpcClient(stub.ApplyMove, request),
            lambda: GrpcClient(health.Check, check),
        ),
        Door(
            "REST",
            lambda: RestClient(rest_port, "POST", "/v1/games:applyMove", body),
            lambda: RestClient(rest_port, "GET", "/healthz", None),
        ),
    ]


def measure_door(door: Door, threads: int, seconds: float) -> NetworkRow:
    log(f"  {door.name}, {threads} client thread(s): trivial endpoint, then ApplyMove")
    trivial = measure_rate(door.trivial, threads, seconds)
    apply_move = measure_rate(door.apply_move, threads, seconds)
    return NetworkRow(door.name, threads, apply_move, trivial, apply_move.per_s / trivial.per_s)


def measure_network(seconds: float) -> NetworkFigures:
    """Start one server, measure both doors at each client-thread count, stop it."""
    command = server_command()
    log(f"starting: {' '.join(command)}")
    with running_server(command) as ports:
        log(f"  gRPC on {HOST}:{ports['grpc']}, REST on http://{HOST}:{ports['rest']}")
        with grpc.insecure_channel(f"{HOST}:{ports['grpc']}") as channel:
            grpc.channel_ready_future(channel).result(timeout=CALL_TIMEOUT)
            request = mid_hand_request(channel)
            rows = [
                measure_door(door, threads, seconds)
                for door in doors(channel, ports["rest"], request)
                for threads in CLIENT_THREADS
            ]
        keep_alive = rest_keeps_alive(ports["rest"])
    log("server stopped")
    return NetworkFigures(
        server_command=" ".join(["domino-rules", *command[1:]]),
        http_workers=Settings.from_env().http_workers,
        tokens_sealed=request.state[1] != 0,  # byte 1: key id length, 0 = unsealed
        state_token_bytes=len(request.state),
        move=str(codec.move_from_pb(request.move)),
        rest_keep_alive=keep_alive,
        trivial_endpoints=TRIVIAL_ENDPOINTS,
        rows=tuple(rows),
    )


# =========================================================================== output


def environment() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "domino_rules": __version__,
        "grpcio": grpc.__version__,
        "protobuf": google.protobuf.__version__,
        "load_average_1min_at_start": os.getloadavg()[0],
    }


def number(value: float) -> str:
    """A figure with as many decimals as are worth reading."""
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Aligned columns: the first to the left, the others (figures) to the right."""
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        aligned = [cells[0].ljust(widths[0])]
        aligned += [cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join(aligned)

    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, rows)])


def play_table(figures: Sequence[RulesetFigures]) -> str:
    headers = [
        "ruleset",
        "players",
        "matches/s",
        "moves/s",
        "moves/match",
        "us/move",
        "legal_moves us",
        "apply us",
    ]
    return table(
        headers,
        [
            [
                f.ruleset,
                str(f.players),
                number(f.matches_per_s),
                number(f.moves_per_s),
                number(f.moves_per_match),
                number(f.us_per_move),
                number(f.legal_moves_us),
                number(f.apply_us),
            ]
            for f in figures
        ],
    )


def token_table(figures: Sequence[RulesetFigures]) -> str:
    headers = [
        "ruleset",
        "round trip us",
        "sealed us",
        "round trip/move",
        "max token B",
        "max sealed B",
    ]
    return table(
        headers,
        [
            [
                f.ruleset,
                number(f.token_round_trip_us),
                number(f.sealed_round_trip_us),
                f"{f.round_trip_per_move:.1f}x",
                str(f.max_token_bytes),
                str(f.max_sealed_token_bytes),
            ]
            for f in figures
        ],
    )


def mid_hand_line(mid: MidHandToken) -> str:
    return (
        f"Mid-hand token: {mid.ruleset}, {mid.players} players, after move {mid.move} of "
        f"{mid.hand_moves} in hand 1: {mid.token_bytes} B unsealed "
        f"({mid.token_bytes / KIB:.0%} of 1 KiB), {mid.sealed_token_bytes} B sealed "
        f"({mid.sealed_token_bytes / KIB:.0%} of 1 KiB)"
    )


def network_table(network: NetworkFigures) -> str:
    headers = [
        "door",
        "clients",
        "ApplyMove/s",
        "p50 ms",
        "p99 ms",
        "trivial/s",
        "p50 ms",
        "p99 ms",
        "ApplyMove/trivial",
    ]
    rows = [
        [
            r.door,
            str(r.clients),
            number(r.apply_move.per_s),
            number(r.apply_move.p50_ms),
            number(r.apply_move.p99_ms),
            number(r.trivial.per_s),
            number(r.trivial.p50_ms),
            number(r.trivial.p99_ms),
            f"{r.ratio:.2f}",
        ]
        for r in network.rows
    ]
    keep_alive = "yes" if network.rest_keep_alive else "no"
    sealed = "sealed" if network.tokens_sealed else "unsealed"
    token = f"token {network.state_token_bytes} B"
    trivial = "; ".join(f"{door}: {name}" for door, name in network.trivial_endpoints.items())
    return "\n".join(
        [
            f"server: {network.server_command}",
            f"REST: gunicorn, {network.http_workers} workers, connection keep-alive: {keep_alive}",
            f"request: ApplyMove '{network.move}' on the mid-hand state ({token}, {sealed})",
            f"trivial endpoint: {trivial}",
            "",
            table(headers, rows),
        ]
    )


def render(report: Report) -> str:
    """The report as plain text."""
    env = report.environment
    header = (
        f"domino-rules {env['domino_rules']} bench: Python {env['python']}, {env['cpus']} CPUs, "
        f"grpcio {env['grpcio']}, protobuf {env['protobuf']}, "
        f"{report.seconds_per_measurement:g} s per measurement, "
        f"load average {env['load_average_1min_at_start']:.2f} at start"
    )
    parts = [
        header,
        "",
        "In process: seeded random full matches, default options",
        play_table(report.rulesets),
        "",
        "State tokens: RulesService.encode + decode, per state of one match",
        token_table(report.rulesets),
        "",
        mid_hand_line(report.mid_hand),
    ]
    if report.network is not None:
        parts += ["", "Over the network: one server on 127.0.0.1", network_table(report.network)]
    return "\n".join(parts)


# =========================================================================== main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        help=f"seconds per measurement (default {DEFAULT_SECONDS:g}; 16 measurements in all)",
    )
    timing.add_argument(
        "--quick",
        dest="seconds",
        action="store_const",
        const=QUICK_SECONDS,
        help=f"{QUICK_SECONDS:g} s per measurement (about 20 s in all)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--no-network", action="store_true", help="skip the server measurements")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    return args


def run(seconds: float, network: bool) -> Report:
    """Measure everything: in process first, then over the network unless told not to."""
    env = environment()
    figures = []
    for ruleset in rules.all_rulesets():
        log(f"in process: {ruleset.id}")
        figures.append(measure_ruleset(ruleset, seconds))
    return Report(
        environment=env,
        seconds_per_measurement=seconds,
        rulesets=tuple(figures),
        mid_hand=measure_mid_hand_token(),
        network=measure_network(seconds) if network else None,
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    try:
        report = run(args.seconds, not args.no_network)
    except KeyboardInterrupt:
        log("bench: interrupted")
        return 130
    except RuntimeError as exc:  # the server would not start, or a request failed
        log(f"bench: {exc}")
        return 1
    log(f"done in {time.perf_counter() - started:.0f} s")
    print(json.dumps(asdict(report), indent=2) if args.json else render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
