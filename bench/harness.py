"""What the benches share: ``serve`` as users run it, door servers in a process of the
bench's own, the load generators, the positions they send, and timing helpers.

- **serve**: :func:`serving` starts ``domino-rules serve`` on 127.0.0.1 with ports 0
  (unless given others), reads its ``listening`` lines (text or ``--log-format json``),
  yields a :class:`Served`, and stops it with SIGTERM; on an error, or if it does not
  stop in time, it kills serve and every process below it. ``new_session=False`` keeps
  serve in the bench's session (``bench/flood.py`` needs it: Linux shares the CPU
  between sessions, whatever the nice of their processes).
- **/proc**: :func:`door_processes`, :func:`descendants`, :func:`cpu_seconds` (user and
  system time of some processes), :func:`rss_mib` (resident memory). Linux only.
- **door servers in a process of the bench's own** (:func:`serve_door`,
  :func:`child_server`): a door built as serve builds it, given a :class:`Settings`
  the bench chose (``bench/doors.py floor``).
- **positions**: :func:`mid_hand_request` (an ApplyMove of a legal move in the middle
  of a hand), :func:`mid_hand_requests`, :func:`lines_of_play`; seeded random playouts
  in process are the rules core's own (:mod:`domino_rules.bots.playout`).
- **load generators**: :func:`grpc_calls`, :func:`rest_calls` and :func:`measure`
  (client threads, with the server CPU per call); :func:`raw_grpc` and
  :func:`rest_body` (the cheapest call a client process can make);
  :func:`process_rate` (client processes) and :func:`h2load_rate` (h2load, when
  :func:`h2load_installed`).
- **timing**: :func:`interleaved` (rounds of every item, in a rotating order),
  :func:`median`, :func:`percentiles`, :func:`load_average`, :func:`load_line`,
  :func:`load_text`.

Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import collections
import contextlib
import http.client
import json
import multiprocessing
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


if TYPE_CHECKING:
    import grpc

    from domino_rules.serving.settings import Settings
    from domino_rules.v1 import domino_rules_pb2 as pb

# grpc, protobuf and the service's messages are imported where they are used: a bench
# that measures the rules in its own process (its heap, its collections) loads none.

SERVE = [sys.executable, "-m", "domino_rules.cli", "serve"]
PORTS_0 = ("--grpc-port", "0", "--http-port", "0")
#: A bench's serve stops at once: no balancer to wait for.
NO_DRAIN = {"DOMINO_RULES_DRAIN_DELAY": "0"}
DOORS = ("grpc", "rest")
APPLY_MOVE = "/domino_rules.v1.DominoRules/ApplyMove"
SUGGEST_MOVE = "/domino_rules.v1.DominoRules/SuggestMove"
TICKS = os.sysconf("SC_CLK_TCK")
T = TypeVar("T")


# --------------------------------------------------------------------------- /proc


def _parents() -> dict[int, list[int]]:
    """Every process's children, by parent pid."""
    out: dict[int, list[int]] = collections.defaultdict(list)
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        out[parent].append(int(name))
    return out


def children(pid: int) -> list[int]:
    """The pids whose parent is ``pid``."""
    return sorted(_parents().get(pid, []))


def descendants(pids: Sequence[int]) -> list[int]:
    """``pids`` and every process below them."""
    parents = _parents()
    out, todo = [], list(pids)
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(parents.get(pid, ()))
    return out


def door_processes(serve_pid: int, door: str) -> list[int]:
    """serve's child processes of one door, ``"grpc"`` or ``"rest"`` (the REST door's
    gunicorn workers are their children)."""
    found = []
    for pid in children(serve_pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                words = cmdline.read().split(b"\0")
        except OSError:
            continue
        if b"domino_rules.doors.child" in words and door.encode() in words:
            found.append(pid)
    return found


def cpu_seconds(pids: Sequence[int]) -> float:
    """The user and system CPU seconds of ``pids`` (those that still run)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / TICKS


def rss_mib(pid: int) -> float:
    """The resident memory (VmRSS) of ``pid`` in MiB; 0 if it has ended."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


# --------------------------------------------------------------------------- serve


def _kill_all(pids: Sequence[int]) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@dataclass
class Served:
    """A running ``domino-rules serve``."""

    process: subprocess.Popen[str]
    new_session: bool
    grpc_port: int = 0
    http_port: int = 0
    #: the last lines serve and its doors wrote to stderr, when it goes to a pipe
    stderr_tail: collections.deque[str] = field(
        default_factory=lambda: collections.deque(maxlen=40), repr=False
    )

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def ports(self) -> dict[str, int]:
        return {"grpc": self.grpc_port, "rest": self.http_port}

    def door_processes(self, door: str) -> list[int]:
        """The door's own processes (children of serve)."""
        return door_processes(self.pid, door)

    def door_pids(self, door: str) -> list[int]:
        """The door's processes and every process below them (REST workers)."""
        return descendants(self.door_processes(door))

    def stop(self, timeout: float = 60) -> int:
        """SIGTERM, then wait; kills everything if serve outlives ``timeout``."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return self.process.wait()
        finally:
            self._close()

    def kill(self) -> None:
        """SIGKILL serve and every process below it."""
        if self.new_session:
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)
        else:
            _kill_all(descendants([self.pid]))
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(30)
        self._close()

    def _close(self) -> None:
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def _listening(line: str) -> str:
    """A ``listening`` line as text (with ``--log-format json``, the message of a JSON
    object)."""
    if line.startswith("{"):
        with contextlib.suppress(ValueError, KeyError, TypeError):
            return str(json.loads(line)["message"])
    return line.strip()


def start(
    *flags: str,
    env: dict[str, str] | None = None,
    stderr: str = "pipe",
    new_session: bool = True,
) -> Served:
    """Start serve with ``flags`` (ports 0 unless given) and wait for its ``listening``
    lines. ``stderr``: ``"pipe"`` (read by a thread, its last lines kept for errors) or
    ``"devnull"``. ``new_session``: serve and its processes in a session of their own."""
    if "--grpc-port" not in flags and "DOMINO_RULES_GRPC_PORT" not in (env or {}):
        flags = (*PORTS_0, *flags)
    process = subprocess.Popen(
        [*SERVE, *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stderr == "pipe" else subprocess.DEVNULL,
        text=True,
        env={**os.environ, **NO_DRAIN, **(env or {})},
        start_new_session=new_session,
    )
    served = Served(process, new_session)
    if process.stderr is not None:
        err = process.stderr
        threading.Thread(target=served.stderr_tail.extend, args=(err,), daemon=True).start()
    try:
        assert process.stdout is not None
        lines: list[str] = []
        while not (served.grpc_port and served.http_port) and len(lines) < 4:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(_listening(line))
            grpc_line = re.fullmatch(r"gRPC listening on 127\.0\.0\.1:(\d+)", lines[-1])
            rest_line = re.fullmatch(r"REST listening on http://127\.0\.0\.1:(\d+)", lines[-1])
            if grpc_line:
                served.grpc_port = int(grpc_line.group(1))
            if rest_line:
                served.http_port = int(rest_line.group(1))
        if not (served.grpc_port and served.http_port):
            time.sleep(0.2)  # what it wrote on its way out
            raise RuntimeError(
                f"serve did not start: {lines!r}\n{''.join(served.stderr_tail)}".rstrip()
            )
    except BaseException:
        served.kill()
        raise
    return served


@contextlib.contextmanager
def serving(
    *flags: str,
    env: dict[str, str] | None = None,
    stderr: str = "pipe",
    new_session: bool = True,
) -> Iterator[Served]:
    """:func:`start`; stopped with SIGTERM afterwards, killed on an error."""
    served = start(*flags, env=env, stderr=stderr, new_session=new_session)
    try:
        yield served
    except BaseException:
        served.kill()
        raise
    served.stop()


# ------------------------------------------------------- door servers of the bench's own


def serve_door(door: str, settings_class: type[Settings]) -> int:
    """Serve one door in this process, built as serve builds it, with settings of
    ``settings_class`` (from the environment); prints the port once it serves. For the
    child process of :func:`child_server`."""
    from domino_rules.observability import logs

    # a port reserved as serve's supervisor reserves it: gRPC binds it too (SO_REUSEPORT),
    # gunicorn serves on this socket
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    env = {**os.environ, "DOMINO_RULES_GRPC_PORT": str(port), "DOMINO_RULES_HTTP_PORT": "0"}
    settings = settings_class.from_env(env)
    logs.configure(settings.log_level, settings.log_format)
    ready_read, ready_write = os.pipe()

    def say_ready() -> None:
        os.read(ready_read, 1)
        print(port, flush=True)

    threading.Thread(target=say_ready, daemon=True).start()
    if door == "grpc":
        from domino_rules.doors.grpc_server import serve_process

        return serve_process(settings, ready_fd=ready_write, drain_fd=None)
    from domino_rules.doors.gateway import run_gateway

    listener.listen(1024)
    return run_gateway(
        settings, listen_fds=[listener.fileno()], drain_fd=None, ready_fd=ready_write
    )


@contextlib.contextmanager
def child_server(command: list[str], env: dict[str, str], what: str) -> Iterator[tuple[int, int]]:
    """A server started by ``command`` (which calls :func:`serve_door`): its port and
    pid. Its stderr (the access lines) goes to a pipe this process reads, as serve's
    does; stopped with SIGTERM, killed if it does not stop within 30 s."""
    process = subprocess.Popen(
        command, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    stderr = process.stderr
    last_lines: collections.deque[str] = collections.deque(maxlen=20)
    reader = threading.Thread(target=last_lines.extend, args=(stderr,), daemon=True)
    reader.start()
    try:
        line = process.stdout.readline()
        if not line:
            process.wait(30)
            reader.join(5)
            raise RuntimeError(f"the {what} server did not start:\n{''.join(last_lines)}")
        yield int(line), process.pid
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


# --------------------------------------------------------------------------- positions


def mid_hand_request(
    service: Any, ruleset_id: str, players: int, seed: str, moves: int
) -> pb.ApplyMoveRequest:
    """An ApplyMove of a legal move (the first) after ``moves`` first-legal moves of a
    new game of ``ruleset_id``, through ``service`` (a ``RulesService``)."""
    from domino_rules.v1 import domino_rules_pb2 as pb

    state = service.NewGame(pb.NewGameRequest(ruleset=ruleset_id, players=players, seed=seed)).state
    for _ in range(moves):
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        state = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=legal.moves[0])).state
    legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
    assert legal.status == pb.IN_PROGRESS, ruleset_id
    return pb.ApplyMoveRequest(state=state, move=legal.moves[0])


def mid_hand_requests(service: Any) -> dict[str, pb.ApplyMoveRequest]:
    """For every ruleset (4 players, or its most), an ApplyMove of a legal move in the
    middle of a hand: the requests of ``bench/doors.py``."""
    from domino_rules import rules

    out = {}
    for ruleset in rules.all_rulesets():
        _low, high = ruleset.player_range(ruleset.make_options({}))
        out[ruleset.id] = mid_hand_request(
            service, ruleset.id, min(4, high), f"bench-{ruleset.id}", moves=6
        )
    return out


#: The longest line of play a forward call repeats.
MAX_LINE = 40

Line = tuple[bytes, list["pb.Move"]]


def lines_of_play(service: Any, requests: dict[str, pb.ApplyMoveRequest]) -> dict[str, Line]:
    """For every ruleset, the mid-hand token of ``requests`` and the moves that play its
    hand on (each the first legal move) to the hand's end, at most :data:`MAX_LINE`."""
    from domino_rules.v1 import domino_rules_pb2 as pb

    out = {}
    for ruleset_id, request in requests.items():
        state, moves = request.state, [request.move]
        answer = service.ApplyMove(request)
        while answer.status == pb.IN_PROGRESS and len(moves) < MAX_LINE:
            legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=answer.state))
            if legal.status != pb.IN_PROGRESS:
                break
            moves.append(legal.moves[0])
            answer = service.ApplyMove(pb.ApplyMoveRequest(state=answer.state, move=legal.moves[0]))
        out[ruleset_id] = (state, moves)
    return out


# --------------------------------------------------------------------- load generators

Call = Callable[[], None]


def _forward(apply: Callable[[bytes, int], bytes], start: bytes, length: int) -> Call:
    """A call that plays a line of play on: ``apply(token, i)`` sends the line's move
    ``i`` with ``token`` and returns the answer's token."""
    token, i = start, 0

    def call() -> None:
        nonlocal token, i
        if i == length:
            token, i = start, 0
        token, i = apply(token, i), i + 1

    return call


def grpc_calls(
    port: int, requests: dict[str, pb.ApplyMoveRequest], lines: dict[str, Line] | None = None
) -> Callable[[], dict[str, Call]]:
    """A maker of one client's calls on the gRPC door (a channel each): ``"trivial"``
    (the health check), each ruleset's ApplyMove of ``requests``, and ``"forward ID"``
    playing each line of ``lines`` on."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from domino_rules.v1 import domino_rules_pb2 as pb
    from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

    def per_client() -> dict[str, Call]:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
        health = health_pb2_grpc.HealthStub(channel)
        check = health_pb2.HealthCheckRequest()
        calls: dict[str, Call] = {"trivial": lambda: health.Check(check, timeout=30) and None}
        for ruleset_id, request in requests.items():
            calls[ruleset_id] = lambda r=request: stub.ApplyMove(r, timeout=30) and None  # type: ignore[misc]
        for ruleset_id, (start, moves) in (lines or {}).items():

            def apply(token: bytes, i: int, moves: list[pb.Move] = moves) -> bytes:
                request = pb.ApplyMoveRequest(state=token, move=moves[i])
                state: bytes = stub.ApplyMove(request, timeout=30).state
                return state

            calls[f"forward {ruleset_id}"] = _forward(apply, start, len(moves))
        return calls

    return per_client


def rest_calls(
    port: int, requests: dict[str, pb.ApplyMoveRequest], lines: dict[str, Line] | None = None
) -> Callable[[], dict[str, Call]]:
    """As :func:`grpc_calls`, on the REST door (a keep-alive connection each; the trivial
    call is ``GET /healthz``)."""
    from google.protobuf import json_format

    from domino_rules.v1 import domino_rules_pb2 as pb

    bodies = {ruleset_id: rest_body(request) for ruleset_id, request in requests.items()}
    starts = {
        ruleset_id: (
            json_format.MessageToDict(pb.ApplyMoveRequest(state=start))["state"],
            [json.dumps(json_format.MessageToDict(move)) for move in moves],
        )
        for ruleset_id, (start, moves) in (lines or {}).items()
    }

    def per_client() -> dict[str, Call]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        def send(method: str, path: str, body: bytes | None) -> bytes:
            headers = {"Content-Type": "application/json"} if body else {}
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            answer = response.read()
            if response.status != 200:
                raise RuntimeError(f"{path} answered {response.status}")
            return answer

        def post(body: bytes) -> Call:
            def call() -> None:
                send("POST", "/v1/games:applyMove", body)

            return call

        def healthz() -> None:
            send("GET", "/healthz", None)

        calls: dict[str, Call] = {"trivial": healthz}
        for ruleset_id, body in bodies.items():
            calls[ruleset_id] = post(body)
        for ruleset_id, (start, moves) in starts.items():

            def apply(token: bytes, i: int, moves: list[str] = moves) -> bytes:
                body = f'{{"state":"{token.decode()}","move":{moves[i]}}}'.encode()
                answer = json.loads(send("POST", "/v1/games:applyMove", body))
                return str(answer["state"]).encode()

            calls[f"forward {ruleset_id}"] = _forward(apply, start.encode(), len(moves))
        return calls

    return per_client


def measure(
    clients: list[dict[str, Call]], name: str, seconds: float, pids: list[int]
) -> tuple[float, float]:
    """Calls per second and server CPU µs per call (of ``pids``) of call ``name``, each
    client a thread calling back to back for ``seconds``."""
    counts = [0] * len(clients)
    stop = time.monotonic() + seconds

    def run(i: int) -> None:
        call, n = clients[i][name], 0
        while time.monotonic() < stop:
            call()
            n += 1
        counts[i] = n

    before, start = cpu_seconds(pids), time.monotonic()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed, cpu = time.monotonic() - start, cpu_seconds(pids) - before
    calls = sum(counts)
    return calls / elapsed, cpu / calls * 1e6


def rest_body(message: Any, proto_names: bool = False) -> bytes:
    """A message as the REST door's JSON body (lowerCamelCase names unless
    ``proto_names``)."""
    from google.protobuf import json_format

    return json.dumps(
        json_format.MessageToDict(message, preserving_proto_field_name=proto_names)
    ).encode()


def raw_grpc(
    port: int, method: str, options: Sequence[tuple[str, Any]] = ()
) -> tuple[grpc.Channel, Callable[..., bytes]]:
    """A channel and a unary call of ``method`` that sends bytes as they are and keeps
    the answer's bytes: no protobuf work in the client."""
    import grpc

    channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=list(options))
    call: Callable[..., bytes] = channel.unary_unary(method)
    return channel, call


def _client(door: str, port: int, request: bytes, seconds: float, start_at: float) -> int:
    """One client process of :func:`process_rate`: ApplyMove back to back from
    ``start_at`` for ``seconds``; how many it made. gRPC sends and keeps raw bytes, REST
    one keep-alive connection."""
    call: Callable[[], object]
    if door == "grpc":
        _channel, method = raw_grpc(port, APPLY_MOVE)

        def call() -> object:
            return method(request, timeout=30)
    else:
        from domino_rules.v1 import domino_rules_pb2 as pb

        message = pb.ApplyMoveRequest.FromString(request)
        call = rest_calls(port, {"one": message})()["one"]
    call()  # connect before the clock starts
    time.sleep(max(0.0, start_at - time.time()))
    n, stop = 0, start_at + seconds
    while time.time() < stop:
        call()
        n += 1
    return n


def process_rate(door: str, port: int, request: bytes, clients: int, seconds: float) -> float:
    """ApplyMove calls per second of ``clients`` Python client processes, one call in
    flight each (``request`` serialized)."""
    context = multiprocessing.get_context("spawn")  # never fork a process that holds grpc
    start_at = time.time() + 2.0 + 0.2 * clients
    with context.Pool(clients) as pool:
        counts = pool.starmap(
            _client, [(door, port, request, seconds, start_at) for _ in range(clients)]
        )
    return sum(counts) / seconds


def h2load_installed() -> bool:
    return shutil.which("h2load") is not None


def h2load_rate(
    door: str, port: int, request: pb.ApplyMoveRequest, answer: bytes, clients: int, seconds: float
) -> float:
    """ApplyMove calls per second with ``h2load``: ``clients`` connections (HTTP/2 with
    the request's gRPC frame as the body, or HTTP/1.1 keep-alive), one call in flight
    on each, after a second of warm-up. Raises if any call failed or (gRPC) came back
    without the whole ``answer``."""
    if door == "grpc":
        data = request.SerializeToString()
        body = b"\0" + len(data).to_bytes(4, "big") + data  # one uncompressed gRPC frame
        options = ["-H", "content-type: application/grpc", "-H", "te: trailers"]
        url = f"http://127.0.0.1:{port}{APPLY_MOVE}"
    else:
        body = rest_body(request)
        options = ["--h1", "-H", "content-type: application/json"]
        url = f"http://127.0.0.1:{port}/v1/games:applyMove"
    with tempfile.NamedTemporaryFile(suffix=".body") as file:
        file.write(body)
        file.flush()
        command = [
            "h2load", *options, "-d", file.name, "-c", str(clients), "-m", "1", "-t", "1",
            "--warm-up-time", "1", "-D", f"{round(seconds * 1000)}ms", url,
        ]  # fmt: skip
        done_run = subprocess.run(command, capture_output=True, text=True, check=False)
    out = done_run.stdout
    if done_run.returncode != 0:
        raise RuntimeError(f"h2load failed ({done_run.returncode}):\n{out}{done_run.stderr}")
    done = re.search(r"(\d+) done, \d+ succeeded, (\d+) failed, (\d+) errored, (\d+) timeout", out)
    per_second = re.search(r"finished in [\d.]+s, ([\d.]+) req/s", out)
    statuses = re.search(r"status codes: \d+ 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", out)
    received = re.search(r"\((\d+)\) data", out)
    if not (done and per_second and statuses and received):
        raise RuntimeError(f"h2load printed no figures:\n{out}")
    calls = int(done.group(1))
    if any(int(n) for n in (*done.groups()[1:], *statuses.groups())):
        raise RuntimeError(f"some calls failed:\n{out}")
    if door == "grpc" and int(received.group(1)) < calls * (len(answer) + 5):
        raise RuntimeError(f"some gRPC calls did not answer in full (an error status?):\n{out}")
    return float(per_second.group(1))


# --------------------------------------------------------------------------- timing


def interleaved(items: Sequence[T], rounds: int, rotate: bool = True) -> Iterator[T]:
    """Every item once per round for ``rounds`` rounds, each round starting one further
    on (``rotate``), so that a change in the machine's load falls on all alike."""
    items = list(items)
    for n in range(rounds):
        shift = n % len(items) if rotate and items else 0
        yield from items[shift:] + items[:shift]


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def percentiles(latencies: Sequence[float]) -> dict[str, float]:
    """How many, and the p50 and p99 in milliseconds of latencies in seconds."""
    if len(latencies) < 2:
        return {"calls": len(latencies), "p50_ms": float("nan"), "p99_ms": float("nan")}
    cuts = statistics.quantiles(latencies, n=100)
    return {"calls": len(latencies), "p50_ms": cuts[49] * 1e3, "p99_ms": cuts[98] * 1e3}


def load_average() -> tuple[float, float, float]:
    return os.getloadavg()


def load_line(before: Sequence[float], after: Sequence[float]) -> str:
    """The one-minute load averages at a bench's start and end."""
    return f"load average at start {before[0]:.2f}, at end {after[0]:.2f}"


def load_text(average: Sequence[float]) -> str:
    """All three load averages."""
    return " ".join(f"{x:.2f}" for x in average)
