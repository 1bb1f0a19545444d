"""SuggestMove's searches in bounded room: shed at once past it, deadlines honoured.

First :class:`Admission` itself (searches run in the calling thread, so each step can be
held and released), then ``serve`` as users run it: searches in processes of their own
at a lower priority, a burst of STRONG calls shed on both doors with the documented
error, a deadline that passes refused, the figures in ``/metrics``, and the same move
as a search in process.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from domino_rules.api import ApiError, RulesService
from domino_rules.api.admission import Admission, DeadlinePassed, Overloaded, deadline_scope
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

from ..served import Served, children, door_processes, serving
from ..support.waiting import wait_until

#: Bursts of searches against serve's bounded room, shed or timed out: alone on the machine.
pytestmark = pytest.mark.serial

# ------------------------------------------------------------------ Admission


def _held(release: threading.Event, started: threading.Event) -> Callable[..., str]:
    def search(stop: Callable[[], bool]) -> str:
        started.set()
        release.wait(30)
        return "done"

    return search


def test_past_its_room_and_queue_a_call_is_refused_at_once() -> None:
    admission = Admission(capacity=1, queue=1)
    release, first_in = threading.Event(), threading.Event()
    with ThreadPoolExecutor(2) as pool:
        running = pool.submit(admission.run, _held(release, first_in))
        assert first_in.wait(10)
        queued = pool.submit(admission.run, lambda stop: "queued")
        wait_until(lambda: admission.stats().queued >= 1, 10, "the second call in the queue")
        with pytest.raises(Overloaded) as refused:
            admission.run(lambda stop: "never run")
        assert refused.value.retry_after > 0
        assert "1 searches running, 1 waiting" in str(refused.value)
        release.set()
        assert (running.result(10), queued.result(10)) == ("done", "queued")
    stats = admission.stats()
    assert (stats.in_use, stats.queued, stats.shed, stats.expired) == (0, 0, 1, 0)


def test_calls_wait_their_turn_in_arrival_order() -> None:
    admission = Admission(capacity=1, queue=3)
    release, first_in = threading.Event(), threading.Event()
    order: list[int] = []
    with ThreadPoolExecutor(4) as pool:
        pool.submit(admission.run, _held(release, first_in))
        assert first_in.wait(10)
        waiting = []
        for n in range(3):
            waiting.append(pool.submit(admission.run, lambda stop, n=n: order.append(n)))
            wait_until(
                lambda: admission.stats().queued >= len(waiting), 10, f"call {n} in the queue"
            )
        release.set()
        for future in waiting:
            future.result(10)
    assert order == [0, 1, 2]


def test_a_call_whose_deadline_has_passed_is_not_started() -> None:
    admission = Admission()
    ran: list[str] = []
    with deadline_scope(0.0), pytest.raises(DeadlinePassed):
        admission.run(lambda stop: ran.append("ran"))
    assert ran == [] and admission.stats().expired == 1


def test_a_deadline_that_passes_while_waiting_ends_the_wait() -> None:
    admission = Admission(capacity=1, queue=1)
    release, first_in = threading.Event(), threading.Event()
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(admission.run, _held(release, first_in))
        assert first_in.wait(10)
        with deadline_scope(0.2), pytest.raises(DeadlinePassed, match="waiting"):
            admission.run(lambda stop: "never run")
        assert admission.stats().queued == 0  # its place in the queue is given up
        release.set()
        running.result(10)
    assert admission.stats().expired == 1


def test_a_search_is_told_to_stop_when_the_deadline_passes() -> None:
    def search(stop: Callable[[], bool]) -> str:
        wait_until(stop, 10, "the search to be told to stop")
        raise DeadlinePassed("stopped")

    with deadline_scope(0.1), pytest.raises(DeadlinePassed):
        Admission().run(search)
    assert Admission().run(lambda stop: str(stop())) == "False"  # no deadline: never


def test_grpc_reports_no_deadline_as_a_huge_one() -> None:
    with deadline_scope(1e300):
        assert Admission().run(lambda stop: stop()) is False


@pytest.mark.parametrize(("capacity", "queue"), [(0, 1), (65, 1), (1, -1), (1, 1025)])
def test_room_and_queue_are_bounded(capacity: int, queue: int) -> None:
    with pytest.raises(ValueError):
        Admission(capacity, queue)


# ------------------------------------------------------------------ through serve

SEARCH = {"level": "STRONG", "playouts": 2000}


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    with serving(
        "--grpc-workers", "1", "--http-workers", "1", "--bot-capacity", "1", "--bot-queue", "1"
    ) as served:
        yield served


@pytest.fixture(scope="module")
def state(served: Served) -> bytes:
    with grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}") as channel:
        stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
        game = stub.NewGame(pb.NewGameRequest(ruleset="throw_up", players=3, seed="busy"))
    return bytes(game.state)


def _rest(
    served: Served, path: str, body: object, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], dict[str, object]]:
    head = {"Content-Type": "application/json", **(headers or {})}
    request = urllib.request.Request(served.base + path, json.dumps(body).encode(), head)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, dict(answer.headers), json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.load(error)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _reason(body: dict[str, object]) -> str:
    details = body["details"]
    assert isinstance(details, list)
    return str(details[0]["reason"])


def test_the_searches_run_in_processes_of_lower_priority(served: Served, state: bytes) -> None:
    (grpc_process,) = door_processes(served, "grpc")
    nice = []
    for pid in children(grpc_process):
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            if b"spawn_main" not in cmdline.read():
                continue  # multiprocessing's resource tracker, which searches nothing
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        nice.append((int(fields[16]), int(fields[38])))  # nice, scheduling policy
    # the CPU the players leave only (SCHED_IDLE), and a lower nice all the same
    assert nice and all(n >= os.nice(0) + 10 and p == os.SCHED_IDLE for n, p in nice), nice


def test_a_burst_over_grpc_is_shed_with_a_retry_delay(served: Served, state: bytes) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}") as channel:
        stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
        request = pb.SuggestMoveRequest(state=state, level=pb.BotLevel.STRONG, playouts=2000)
        calls = [stub.SuggestMove.future(request, timeout=120) for _ in range(8)]
        # a player's move is answered while the bots are busy
        to_act = stub.GetLegalMoves(pb.GetLegalMovesRequest(state=state)).to_act
        view = stub.GetView(pb.GetViewRequest(state=state, seat=to_act))
        assert stub.ApplyMove(pb.ApplyMoveRequest(state=state, move=view.legal_moves[0]))
        moves, refused = [], []
        for call in calls:
            if call.exception() is None:
                moves.append(call.result().move)
            else:
                refused.append(call)
    # one searching, one waiting: at least two answered, the rest refused at once
    assert len(moves) >= 2 and len(refused) >= 1
    assert len({m.SerializeToString() for m in moves}) == 1  # the same request, one move
    for error in refused:
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        status = rpc_status.from_call(error)
        assert status is not None
        info, retry = error_details_pb2.ErrorInfo(), error_details_pb2.RetryInfo()
        assert status.details[0].Unpack(info) and info.reason == "OVERLOADED"
        assert status.details[1].Unpack(retry) and retry.retry_delay.seconds >= 1


def test_a_burst_over_rest_is_shed_with_429_and_retry_after(served: Served, state: bytes) -> None:
    body = {"state": _b64(state), **SEARCH}
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: _rest(served, "/v1/games:suggestMove", body), range(8)))
    statuses = [status for status, _, _ in answers]
    assert statuses.count(200) >= 2 and statuses.count(429) >= 1, statuses
    for status, headers, answer in answers:
        if status == 429:
            assert _reason(answer) == "OVERLOADED" and int(headers["Retry-After"]) >= 1
            assert answer["details"][1]["@type"].endswith("google.rpc.RetryInfo")  # type: ignore[index]


def test_a_deadline_too_short_for_the_search_is_deadline_exceeded(
    served: Served, state: bytes
) -> None:
    with grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}") as channel:
        stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
        request = pb.SuggestMoveRequest(state=state, level=pb.BotLevel.STRONG, playouts=2000)
        with pytest.raises(grpc.RpcError) as caught:
            stub.SuggestMove(request, timeout=0.02)
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    status, _, answer = _rest(
        served, "/v1/games:suggestMove", {"state": _b64(state), **SEARCH},
        {"x-request-timeout": "0.02"},
    )  # fmt: skip
    assert (status, _reason(answer)) == (504, "DEADLINE_EXCEEDED")


#: The counts that :func:`test_the_figures_are_in_the_metrics` waits to see written.
COUNTED = (
    'domino_rules_bot_capacity{door="grpc"}',
    'domino_rules_bot_capacity{door="rest"}',
    'domino_rules_bot_calls_shed_total{door="grpc"}',
    'domino_rules_bot_calls_shed_total{door="rest"}',
    'domino_rules_bot_calls_expired_total{door="grpc"}',
    'domino_rules_minted_cache_entries{door="grpc"}',
    'domino_rules_minted_cache_lookups_total{door="grpc",result="hit"}',
)


def test_the_figures_are_in_the_metrics(served: Served, state: bytes) -> None:
    """After the tests above: shed and expired calls counted, the room shown."""

    def figures() -> dict[str, float]:
        with urllib.request.urlopen(f"{served.base}/metrics", timeout=30) as answer:
            text = answer.read().decode()
        values: dict[str, float] = {}
        for line in text.splitlines():
            if line.startswith("domino_rules_bot_") or line.startswith("domino_rules_minted_"):
                name, value = line.rsplit(" ", 1)
                values[name] = float(value)
        # each process writes its counts once a second: wait for those of the tests above
        # (the searches' processes run at idle priority: on a busy machine, later)
        return values if all(values.get(name, 0) > 0 for name in COUNTED) else {}

    values = wait_until(figures, 60, "the counts of the calls above in /metrics", every=0.05)
    assert values['domino_rules_bot_capacity{door="grpc"}'] == 1
    assert values['domino_rules_bot_capacity{door="rest"}'] == 1
    assert values['domino_rules_bot_calls_shed_total{door="grpc"}'] >= 1
    assert values['domino_rules_bot_calls_shed_total{door="rest"}'] >= 1
    assert values['domino_rules_bot_calls_expired_total{door="grpc"}'] >= 1
    assert values['domino_rules_minted_cache_entries{door="grpc"}'] >= 1
    assert values['domino_rules_minted_cache_bytes{door="grpc"}'] > 0
    assert values['domino_rules_minted_cache_lookups_total{door="grpc",result="hit"}'] >= 1


def test_a_search_apart_gives_the_move_a_search_in_process_gives(
    served: Served, state: bytes
) -> None:
    request = pb.SuggestMoveRequest(state=state, level=pb.BotLevel.STRONG, playouts=300)
    with grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}") as channel:
        stub = pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]
        apart = stub.SuggestMove(request, timeout=60)
    assert apart == RulesService().SuggestMove(request)


def test_a_full_room_refuses_before_any_work() -> None:
    """When a call is sure to be shed, it is shed before its token is even opened."""
    admission = Admission(capacity=1, queue=0)
    release, first_in = threading.Event(), threading.Event()
    service = RulesService(admission=admission)
    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(admission.run, _held(release, first_in))
        assert first_in.wait(10)
        garbage = pb.SuggestMoveRequest(state=b"not a token")
        with pytest.raises(ApiError) as refused:
            service.SuggestMove(garbage)
        assert refused.value.reason == "OVERLOADED"  # not BAD_STATE_TOKEN: never opened
        release.set()
        running.result(10)
    with pytest.raises(ApiError) as answered:
        service.SuggestMove(garbage)
    assert answered.value.reason == "BAD_STATE_TOKEN"
