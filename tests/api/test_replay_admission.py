"""Replay admitted like every heavy call, and records bounded before they are built.

* A full room refuses a Replay on both doors before its request is read at all
  (``OVERLOADED``: ``RESOURCE_EXHAUSTED`` with ``RetryInfo``, HTTP 429 with
  ``Retry-After``), and counts it shed; once there is room the same request is read and
  answered.
* A replay whose deadline passes stops there and says how far it got (``replayed`` of
  ``moves``), on both doors; one whose deadline has passed before it starts is refused
  and counted expired.
* Records at and past every limit, on both doors: the most moves and events accepted, one
  more refused ``RECORD_TOO_LARGE`` before any replaying, a record crafted to be slow to
  build (a million bytes of empty moves) refused the same way, lists, nesting and texts
  past a record's shape ``BAD_RECORD``, and a request past the size limit refused.
* In processes of their own (as ``serve`` runs them), replays answer what they answer in
  process, sealed first states and errors included; through ``serve``, a burst is shed
  on both doors and the figures are in ``/metrics``.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from domino_rules import records
from domino_rules.api import ApiError, RulesService
from domino_rules.api import admission as admission_module
from domino_rules.api.admission import Admission
from domino_rules.records import notation
from domino_rules.state.tokens import KeyRing, TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

from ..served import Served, serving
from ..support.servers import Serve, Servers
from ..support.waiting import wait_until

REPLAY = "/domino_rules.v1.DominoRules/Replay"
PATH = "/v1/records:replay"
DOORS = ("grpc", "rest")


# ------------------------------------------------------------------ helpers


def _record(moves: int = 40, *, ruleset: str = "one_arm_joe", players: int = 3) -> pb.MatchRecord:
    """A platform's record of the first ``moves`` moves of a seeded match (the first legal
    move each time), with its events and the seed."""
    service = RulesService()
    new = service.NewGame(pb.NewGameRequest(ruleset=ruleset, players=players, seed="admitted"))
    record = pb.MatchRecord(
        format=records.FORMAT, ruleset=ruleset, players=players, game_id=new.game_id,
        seed_commitment=new.seed_commitment, seed="admitted", viewpoint=pb.MatchRecord.MOVER,
        first_state=new.state,
    )  # fmt: skip
    record.deal.extend(new.events)
    state = new.state
    while len(record.moves) < moves:
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if legal.status == pb.MATCH_OVER:
            break
        answer = service.ApplyMove(pb.ApplyMoveRequest(state=state, move=legal.moves[0]))
        record.moves.add(move=legal.moves[0]).events.extend(answer.events)
        state = answer.state
    return record


def _passes(count: int) -> pb.MatchRecord:
    """A record of ``count`` passes: small on the wire, diverges at its first move."""
    record = _record(0)
    for _ in range(count):
        record.moves.add(move=pb.Move(kind=pb.PASS))
    return record


class Refused(Exception):
    def __init__(self, status: int | str, reason: str, message: str, extra: Any) -> None:
        super().__init__(f"{status} {reason}: {message}")
        self.status, self.reason, self.message, self.extra = status, reason, message, extra


def _grpc(servers: Servers, data: bytes, timeout: float = 60) -> pb.ReplayResponse:
    """A Replay of raw request bytes; :class:`Refused` with the code name, the reason,
    the message and (ErrorInfo metadata, RetryInfo delay in seconds)."""
    with grpc.insecure_channel(servers.grpc_target) as channel:
        call: Callable[..., bytes] = channel.unary_unary(REPLAY)
        try:
            return pb.ReplayResponse.FromString(call(data, timeout=timeout))
        except grpc.RpcError as error:
            status = rpc_status.from_call(error)
            if status is None:  # refused by gRPC itself (a message past the size limit)
                raise Refused(error.code().name, "", str(error.details()), ({}, None)) from None
            info, retry = error_details_pb2.ErrorInfo(), error_details_pb2.RetryInfo()
            assert status.details[0].Unpack(info)
            delay = None
            if len(status.details) > 1 and status.details[1].Unpack(retry):
                delay = retry.retry_delay.seconds
            raise Refused(
                error.code().name, info.reason, status.message, (dict(info.metadata), delay)
            ) from None


def _rest(servers: Servers, body: bytes, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """A Replay of a raw JSON body; :class:`Refused` with the HTTP status, the reason, the
    message and (ErrorInfo metadata, Retry-After)."""
    request = urllib.request.Request(
        servers.http_base + PATH, body, {"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            result: dict[str, Any] = json.load(answer)
            return result
    except urllib.error.HTTPError as error:
        answer = json.load(error)
        info = answer["details"][0]
        raise Refused(
            error.code, info["reason"], answer["message"],
            (info["metadata"], error.headers.get("Retry-After")),
        ) from None  # fmt: skip


def _send(door: str, servers: Servers, record: pb.MatchRecord | None = None, **extra: Any) -> Any:
    """A Replay of ``record`` through ``door``."""
    request = pb.ReplayRequest(record=record, **extra)
    if door == "grpc":
        return _grpc(servers, request.SerializeToString())
    body = {"record": records.to_json(request.record), **extra}
    return _rest(servers, json.dumps(body).encode())


def _verdict(door: str, answer: Any) -> str:
    if door == "rest":
        return str(answer["verdict"])
    return pb.ReplayResponse.Verdict.Name(answer.verdict)


def _refused(call: Callable[[], Any]) -> Refused:
    with pytest.raises(Refused) as caught:
        call()
    return caught.value


@pytest.fixture
def room() -> Admission:
    return Admission(capacity=1, queue=0, what="replays")


@pytest.fixture
def held(room: Admission, serve: Serve) -> Iterator[tuple[Servers, threading.Event]]:
    """Servers whose room for replays is full until the event is set."""
    release, inside = threading.Event(), threading.Event()

    def hold(stop: Callable[[], bool]) -> str:
        inside.set()
        release.wait(30)
        return "held"

    servers = serve(RulesService(replays=room))
    with ThreadPoolExecutor(1) as pool:
        holding = pool.submit(room.run, hold)
        assert inside.wait(10)
        try:
            yield servers, release
        finally:
            release.set()
            assert holding.result(10) == "held"


# ------------------------------------------------------------------ the room


def test_a_full_room_refuses_a_replay_before_reading_it_on_both_doors(
    held: tuple[Servers, threading.Event], room: Admission
) -> None:
    servers, release = held
    by_grpc = _refused(lambda: _grpc(servers, b"\xff not a request"))
    assert (by_grpc.status, by_grpc.reason) == ("RESOURCE_EXHAUSTED", "OVERLOADED")
    assert by_grpc.extra[1] >= 1 and "replays are busy" in by_grpc.message
    by_rest = _refused(lambda: _rest(servers, b"not even JSON"))
    assert (by_rest.status, by_rest.reason) == (429, "OVERLOADED")
    assert int(by_rest.extra[1]) >= 1
    assert room.stats().shed == 2
    release.set()
    wait_until(lambda: room.stats().in_use == 0, 10, "the room to be free")
    # with room, the same requests are read, and refused for what they are
    assert _refused(lambda: _grpc(servers, b"\xff not a request")).reason == "MALFORMED_REQUEST"
    assert _refused(lambda: _rest(servers, b"not even JSON")).reason == "MALFORMED_REQUEST"


@pytest.mark.parametrize("door", DOORS)
def test_a_replay_stops_at_its_deadline_and_says_how_far_it_got(
    door: str, servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deadline is made to pass at the third look at it: once the request is read,
    after 16 moves, after 32 (31 replayed)."""
    looks = iter([False, False, True])
    monkeypatch.setattr(admission_module, "_stopper", lambda deadline: lambda: next(looks))
    record = _record(40)
    refused = _refused(lambda: _send(door, servers, record))
    assert refused.status in ("DEADLINE_EXCEEDED", 504) and refused.reason == "DEADLINE_EXCEEDED"
    assert refused.extra[0] == {"replayed": "31", "moves": str(len(record.moves))}
    assert f"after 31 of the record's {len(record.moves)} moves" in refused.message


def test_a_replay_whose_deadline_has_passed_is_not_started(serve: Serve, room: Admission) -> None:
    servers = serve(RulesService(replays=room))
    body = json.dumps({"record": records.to_json(_record(5))}).encode()
    refused = _refused(lambda: _rest(servers, body, {"x-request-timeout": "0.000001"}))
    assert (refused.status, refused.reason) == (504, "DEADLINE_EXCEEDED")
    assert room.stats().expired == 1


def test_the_replay_module_stops_where_it_is_told() -> None:
    from domino_rules.api import replay

    looks = iter([False, False, True])
    record = _record(60)
    with pytest.raises(replay.Stopped) as stopped:
        replay.replay(pb.ReplayRequest(record=record), RulesService().decode, lambda: next(looks))
    assert (stopped.value.replayed, stopped.value.moves) == (47, len(record.moves))


# ------------------------------------------------------------------ limits


@pytest.mark.slow
@pytest.mark.parametrize("door", DOORS)
def test_the_most_moves_are_replayed_and_one_more_is_refused_before_replaying(
    door: str, servers: Servers
) -> None:
    at = _send(door, servers, _passes(records.MAX_MOVES - len(_record(0).moves)))
    # accepted and replayed: the first pass is not a legal move there
    assert _verdict(door, at) == "DIVERGED"
    over = _refused(lambda: _send(door, servers, _passes(records.MAX_MOVES + 1)))
    assert over.reason == "RECORD_TOO_LARGE" and str(records.MAX_MOVES) in over.message


@pytest.mark.slow
@pytest.mark.parametrize("door", DOORS)
def test_the_most_events_are_read_and_one_more_is_refused(door: str, servers: Servers) -> None:
    record = _record(0)
    del record.deal[:]
    record.deal.extend(pb.Event() for _ in range(records.MAX_EVENTS))
    answer = _send(door, servers, record)
    verdict = (
        answer["verdict"] if door == "rest" else pb.ReplayResponse.Verdict.Name(answer.verdict)
    )
    assert verdict == "DIVERGED"  # read, replayed, and the deal is not those events
    record.deal.add()
    over = _refused(lambda: _send(door, servers, record))
    assert over.reason == "RECORD_TOO_LARGE" and str(records.MAX_EVENTS) in over.message


def test_a_record_crafted_to_be_slow_to_build_is_refused_before_it_is(servers: Servers) -> None:
    """A million bytes of empty moves: refused by their count before a message is made
    of them (REST), or before any is replayed (gRPC)."""
    moves = 340_000
    body = b'{"record":{"moves":[' + b",".join([b"{}"] * moves) + b"]}}"
    assert len(body) < 1024 * 1024
    refused = _refused(lambda: _rest(servers, body))
    assert refused.reason == "RECORD_TOO_LARGE" and str(moves) in refused.message
    empty = pb.ReplayRequest(record=pb.MatchRecord(moves=[pb.RecordedMove()] * moves))
    data = empty.SerializeToString()
    assert len(data) < 1024 * 1024
    assert _refused(lambda: _grpc(servers, data)).reason == "RECORD_TOO_LARGE"


@pytest.mark.parametrize("door", DOORS)
def test_a_list_past_a_records_shape_is_a_bad_record(door: str, servers: Servers) -> None:
    record = _record(3)
    record.moves[0].match_points.extend([0] * (notation.MAX_ITEMS + 1))
    refused = _refused(lambda: _send(door, servers, record))
    assert refused.reason == "BAD_RECORD" and str(notation.MAX_ITEMS) in refused.message
    record = _record(3)
    record.moves[1].events[0].dice.extend([1] * (notation.MAX_ITEMS + 1))
    assert _refused(lambda: _send(door, servers, record)).reason == "BAD_RECORD"


def test_nesting_and_texts_past_a_records_shape_are_refused_on_rest(servers: Servers) -> None:
    deep: Any = 1
    for _ in range(records.form.MAX_DEPTH):
        deep = [deep]
    good = records.to_json(_record(2))
    nested = {"record": {**good, "moves": [{"events": [{"tiles": deep}]}]}}
    refused = _refused(lambda: _rest(servers, json.dumps(nested).encode()))
    assert refused.reason == "BAD_RECORD" and "nests" in refused.message
    long = {"record": {**good, "seed": "x" * (records.form.MAX_TEXT + 1)}}
    assert _refused(lambda: _rest(servers, json.dumps(long).encode())).reason == "BAD_RECORD"


@pytest.mark.parametrize("door", DOORS)
def test_a_request_past_the_size_limit_is_refused(door: str, servers: Servers) -> None:
    record = _record(1)
    record.seed = "x" * (1024 * 1024)
    refused = _refused(lambda: _send(door, servers, record))
    assert refused.status in (413, "RESOURCE_EXHAUSTED")


# ------------------------------------------------------------------ in processes


@pytest.mark.slow
def test_replays_in_processes_of_their_own_answer_as_in_process() -> None:
    keys = KeyRing.parse(KeyRing.generate("k1"))
    apart = Admission(1, 1, processes=True, what="replays")
    tokens = TokenCodec(keys, require_sealed=True)
    sealed = RulesService(tokens, replays=apart)
    here = RulesService(TokenCodec(keys, require_sealed=True))
    try:
        new = sealed.NewGame(pb.NewGameRequest(ruleset="tiu_u", players=2, seed="admitted"))
        record = _record(0, ruleset="tiu_u", players=2)  # its header: the same match
        record.first_state = new.state  # sealed: opened in the replay's process
        del record.moves[:]
        state = new.state
        for _ in range(12):
            legal = sealed.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
            answer = sealed.ApplyMove(pb.ApplyMoveRequest(state=state, move=legal.moves[0]))
            record.moves.add(move=legal.moves[0]).events.extend(answer.events)
            state = answer.state
        request = pb.ReplayRequest(record=record, to_step=3)
        by_process, in_here = sealed.Replay(request), here.Replay(request)
        assert by_process.verdict == pb.ReplayResponse.VALID
        assert by_process.steps == in_here.steps and by_process.version == 12
        # the answer's state is sealed with the service's key, and is the match's
        assert here.decode(by_process.state).match == here.decode(state).match
        with pytest.raises(ApiError) as refused:
            sealed.Replay(pb.ReplayRequest(record=pb.MatchRecord(ruleset="tiu_u", format=7)))
        assert refused.value.reason == "BAD_RECORD" and "format 7" in refused.value.message
    finally:
        apart.close()


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    with serving(
        "--grpc-workers", "1", "--http-workers", "1", "--replay-capacity", "1",
        "--replay-queue", "0",
    ) as served:  # fmt: skip
        yield served


@pytest.mark.slow
def test_a_burst_through_serve_is_shed_on_both_doors_and_counted(served: Served) -> None:
    """Eight replays at once on each door of a serve with room for one and no queue: the
    REST bodies take long enough to read that most are shed."""
    servers = Servers(served.grpc_port, served.base)
    request = pb.ReplayRequest(record=_passes(records.MAX_MOVES))
    data = request.SerializeToString()
    body = json.dumps({"record": records.to_json(request.record)}).encode()
    with ThreadPoolExecutor(16) as pool:
        by_grpc = [pool.submit(_grpc, servers, data) for _ in range(8)]
        by_rest = [pool.submit(_rest, servers, body) for _ in range(8)]
        outcomes = {
            door: [_outcome(f) for f in futures]
            for door, futures in (("grpc", by_grpc), ("rest", by_rest))
        }
    for door, seen in outcomes.items():
        assert "answered" in seen and "OVERLOADED" in seen, (door, seen)
        assert set(seen) <= {"answered", "OVERLOADED"}, (door, seen)

    def shed() -> dict[str, float]:
        with urllib.request.urlopen(f"{served.base}/metrics", timeout=30) as answer:
            text = answer.read().decode()
        values = {}
        for line in text.splitlines():
            if line.startswith("domino_rules_replay"):
                name, value = line.rsplit(" ", 1)
                values[name] = float(value)
        wanted = [f'domino_rules_replay_calls_shed_total{{door="{d}"}}' for d in DOORS]
        return values if all(values.get(name, 0) >= 1 for name in wanted) else {}

    values = wait_until(shed, 10, "the shed replays in /metrics", every=0.05)
    assert values['domino_rules_replay_capacity{door="grpc"}'] == 1
    assert values['domino_rules_replay_capacity{door="rest"}'] == 1


def _outcome(future: Any) -> str:
    try:
        future.result()
        return "answered"
    except Refused as refused:
        return refused.reason


def test_a_sealed_codec_travels_whole() -> None:
    """What a replay's process is given: the same keys, the same settings."""
    import pickle

    keys = KeyRing.parse(KeyRing.generate("k2") + "," + KeyRing.generate("k1"))
    codec = TokenCodec(keys, require_sealed=True, max_token_bytes=1000)
    copy = pickle.loads(pickle.dumps(codec))
    assert (copy.require_sealed, copy.max_token_bytes, copy.sealed) == (True, 1000, True)
    assert copy.open(codec.seal(b"payload")) == b"payload"
    assert codec.open(copy.seal(b"payload")) == b"payload"
    error = pickle.loads(pickle.dumps(ApiError.invalid("BAD_RECORD", "m", a="1")))
    assert (error.reason, error.message, error.metadata) == ("BAD_RECORD", "m", {"a": "1"})
