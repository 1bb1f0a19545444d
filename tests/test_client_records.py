"""The clients' match records (``domino_rules_client.records.MatchRecorder``) and their
``replay``, against real REST and gRPC servers.

* The platform's record (viewpoint MOVER) of random matches of every ruleset, played
  through each door, replays VALID from its first state while the seed is secret, and
  from its seed once revealed; a range of steps answers those steps, with the asked-for
  seat's views; the record is the JSON form the service itself writes.
* A seat's record (viewpoint SEAT: its own moves' events from ApplyMove, the others'
  from its view) replays VALID once the seed completes it, and cannot be replayed before.
* A seat's record never holds a tile that seat could not see: every tile of its deal,
  events and moves lay in its own hand or face up on the table, judged apart from the
  service from the decoded states (each game's declared judge), as the views' leak
  test judges them (``tests/api/test_hidden_information.py``). Another seat's face-down
  discard is kept without its tile, so the seat's record replays up to it and stops there
  with MOVE_HIDDEN, the seed revealed or not; the platform's record of the same match
  replays VALID, and answers that step as the seat saw it.
* A take-back (``undo``) and the other moves played after it replay VALID; a take-back of
  more moves than may be taken back is refused by the recorder, and by the replay.
* A wrong seed is refused; a tampered record diverges where it was changed.
"""

from __future__ import annotations

import base64
import copy
import functools
import importlib
import random
import sys
import typing
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest
from google.protobuf import json_format

from domino_rules import records, rules
from domino_rules.api import RulesService
from domino_rules.rules import Tile
from domino_rules.v1 import domino_rules_pb2 as pb

from .api.test_hidden_information import show, tiles_in
from .cases import cases_for
from .support.servers import Servers

if TYPE_CHECKING:
    from domino_rules_client.records import MatchRecorder

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "clients" / "python" / "src"
RULESET_IDS = [r.id for r in rules.all_rulesets()]
MAX_MOVES = 5_000
#: The one ruleset whose refusals and tampering are tried (the others replay the same way).
ONE = "one_arm_joe"
#: The rulesets in which a seat lays tiles face down, hidden from the others to the end.
FACE_DOWN = ("tsair_deng", "dancing_dragons")

JSON = dict[str, Any]


@pytest.fixture(scope="module")
def client_module() -> Iterator[ModuleType]:
    """The package ``domino_rules_client``, imported from clients/python/src."""
    sys.path.insert(0, str(SOURCE))
    try:
        module = importlib.import_module("domino_rules_client")
        assert Path(module.__file__ or "").is_relative_to(SOURCE)
        yield module
    finally:
        sys.path.remove(str(SOURCE))


@pytest.fixture
def rest(client_module: ModuleType, servers: Servers) -> Any:
    return client_module.DominoRulesClient(servers.http_base, timeout=30)


@pytest.fixture
def grpc_client(client_module: ModuleType, servers: Servers) -> Iterator[Any]:
    with client_module.DominoRulesGrpcClient(servers.grpc_target, timeout=30) as client:
        yield client


@pytest.fixture(params=["rest", "grpc"])
def either(request: pytest.FixtureRequest, rest: Any, grpc_client: Any) -> Any:
    """The REST client, then the gRPC client."""
    return rest if request.param == "rest" else grpc_client


# ------------------------------------------------------------------ playing and recording


@dataclass
class Played:
    """A random match played to its end through a client, recorded as it went."""

    game: JSON
    mover: MatchRecorder
    seats: list[MatchRecorder]
    states: list[str] = field(default_factory=list)  # by version: the deal's first
    moves: list[JSON] = field(default_factory=list)

    @property
    def last(self) -> str:
        return self.states[-1]


def play(
    client_module: ModuleType,
    client: Any,
    ruleset: str,
    players: int,
    options: Any,
    seed: str,
    *,
    seats: bool = False,
) -> Played:
    """Random legal moves to MATCH_OVER, as a platform plays them; the platform's record
    (events from ApplyMove, match points from the spectator's view) and, with ``seats``,
    every seat's (its own moves' events from ApplyMove, the others' and the match points
    from its own view)."""
    game = client.new_game(ruleset, players, options=options, seed=seed)
    recorder = client_module.MatchRecorder

    def dealt_to(seat: int) -> JSON:
        # NewGame's events are a spectator's; a seat's record holds the deal as the seat saw
        # it (its own draws for a hunted engine [MT-3] with their tiles): its first view's
        return {**game, "events": client.get_view(game["state"], seat=seat)["events"]}

    played = Played(
        game,
        recorder(ruleset, players, game, options=options),
        [recorder(ruleset, players, dealt_to(s), options=options, seat=s) for s in range(players)]
        if seats
        else [],
        [game["state"]],
    )
    pick = random.Random(seed)
    state, version = game["state"], game["version"]
    while (legal := client.get_legal_moves(state))["status"] != "MATCH_OVER":
        assert len(played.moves) < MAX_MOVES, f"{ruleset}: the match did not end"
        move = pick.choice(legal["moves"])
        answer = client.apply_move(state, move, expected_version=version)
        state, version = answer["state"], answer["version"]
        played.states.append(state)
        played.moves.append(move)
        played.mover.add(move, answer["events"], client.get_view(state)["match_points"])
        for seat, seat_recorder in enumerate(played.seats):
            view = client.get_view(state, seat=seat)
            mine = move["seat"] == seat
            seat_recorder.add(
                move, answer["events"] if mine else view["events"], view["match_points"]
            )
    return played


def short(ruleset: str) -> tuple[int, dict[str, Any]]:
    setup = cases_for(ruleset).short
    return setup.players, dict(setup.options)


def as_the_service_writes_it(record: Mapping[str, Any]) -> JSON:
    """The record read by the service and written back in its JSON form."""
    return records.to_json(records.from_json(dict(record)))


# ------------------------------------------------------------------ the platform's record


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_platform_record_replays_valid(
    client_module: ModuleType, either: Any, ruleset: str
) -> None:
    players, options = short(ruleset)
    played = play(client_module, either, ruleset, players, options, f"record-{ruleset}")
    moves = len(played.moves)
    record = played.mover.record
    assert record == as_the_service_writes_it(record), "not the service's JSON form"
    assert record["viewpoint"] == "MOVER" and "seat" not in record and "seed" not in record
    assert record["first_state"] == played.game["state"] and len(record.get("moves", [])) == moves
    assert record["deal"] and record["seed_commitment"] == played.game["seed_commitment"]

    # the seed is still secret: the first state deals the match
    answer = either.replay(record)
    assert answer["verdict"] == "VALID" and "divergence" not in answer, answer.get("divergence")
    assert (answer["moves"], answer["version"], answer["status"]) == (moves, moves, "MATCH_OVER")
    assert answer["game_id"] == played.game["game_id"] and "next_step" not in answer
    steps = answer["steps"]
    assert [s["step"] for s in steps] == list(range(moves + 1))
    assert "move" not in steps[0] and [s["move"] for s in steps[1:]] == played.moves
    assert all(s["hands"] == [] for s in steps), "every hand shown without the seed"
    # the answered state is the match after the last move, a token to go on with
    assert either.get_score(answer["state"]) == either.get_score(played.last)

    # revealed, the seed deals it, and every hand is shown
    score = played.mover.finish(either, played.last)
    assert score["status"] == "MATCH_OVER" and played.mover.seed == f"record-{ruleset}"
    record = played.mover.record
    assert record["seed"] == f"record-{ruleset}" and record == as_the_service_writes_it(record)
    answer = either.replay(record)
    assert answer["verdict"] == "VALID", answer.get("divergence")
    assert all(len(s["hands"]) == players for s in answer["steps"])


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_range_of_steps_answers_those_steps_as_the_seat_sees_them(
    client_module: ModuleType, grpc_client: Any, ruleset: str
) -> None:
    players, options = short(ruleset)
    played = play(client_module, grpc_client, ruleset, players, options, f"range-{ruleset}")
    first, last = 2, min(6, len(played.moves))
    seat = players - 1
    answer = grpc_client.replay(played.mover.record, seat=seat, from_step=first, to_step=last)
    assert answer["verdict"] == "VALID" and answer["moves"] == len(played.moves)
    assert [s["step"] for s in answer["steps"]] == list(range(first, last + 1))
    for step in answer["steps"]:
        view = grpc_client.get_view(played.states[step["step"]], seat=seat)
        assert step["view"] == view and step["events"] == view["events"], step["step"]
        assert step["match_points"] == view["match_points"]
        assert step["move"] == played.moves[step["step"] - 1]
    # the deal alone, as a spectator sees it
    (deal,) = grpc_client.replay(played.mover.record, to_step=0)["steps"]
    assert deal["step"] == 0 and deal["events"] == played.game["events"]
    assert deal["view"] == grpc_client.get_view(played.game["state"])


def test_both_doors_replay_alike(client_module: ModuleType, rest: Any, grpc_client: Any) -> None:
    players, options = short(ONE)
    played = play(client_module, grpc_client, ONE, players, options, "doors")
    played.mover.finish(grpc_client, played.last)
    by_rest = rest.replay(played.mover.record, seat=1, from_step=3)
    by_grpc = grpc_client.replay(played.mover.record, seat=1, from_step=3)
    assert by_rest.pop("state") and by_grpc.pop("state")  # a token is new each time it is made
    assert by_rest == by_grpc


# ------------------------------------------------------------------ a seat's record


def _judge_seat_record(
    played: Played, ruleset: str, seat: int, record: Mapping[str, Any], local: RulesService
) -> int:
    """Every tile of the record's deal and events was visible to ``seat`` when its step
    happened (before or after it), and every tile its moves name was visible to it by
    then, another seat's face-down discard included; answers the tiles judged."""
    message = json_format.ParseDict(dict(record), pb.MatchRecord())

    def visible(version: int) -> set[Tile]:
        return set(_visible(played, ruleset, seat, version, local))

    checked = 0
    before = visible(0)
    seen = set(before)
    dealt = [t for event in message.deal for t in tiles_in(event)]
    assert set(dealt) <= before, f"LEAK seat {seat}, deal: {show(set(dealt) - before)}"
    checked += len(dealt)
    for number, recorded in enumerate(message.moves, 1):
        after = visible(number)
        seen |= after
        shown = [t for event in recorded.events for t in tiles_in(event)]
        extra = set(shown) - (before | after)
        where = f"{ruleset} seat {seat}, move {number}"
        assert not extra, f"LEAK in {where}'s events: {show(extra)} ({show(before | after)})"
        checked += len(shown)
        named = tiles_in(recorded.move)
        unseen = set(named) - seen
        kind = pb.MoveKind.Name(recorded.move.kind)
        assert not unseen, f"LEAK in {where}'s move, {kind} {show(unseen)} ({show(seen)})"
        checked += len(named)
        before = after
    return checked


@pytest.mark.parametrize("ruleset", RULESET_IDS)
def test_a_seat_record_shows_only_what_the_seat_saw_and_replays_once_revealed(
    client_module: ModuleType, grpc_client: Any, ruleset: str
) -> None:
    local = RulesService()  # opens the session servers' (unsealed) tokens
    checked = 0
    for setup in cases_for(ruleset).leak_games:
        seed = setup.seeds[0]
        played = play(
            client_module,
            grpc_client,
            ruleset,
            setup.players,
            dict(setup.options),
            seed,
            seats=True,
        )
        for seat, recorder in enumerate(played.seats):
            record = recorder.record
            assert record["viewpoint"] == "SEAT" and record["seat"] == seat
            assert "first_state" not in record and "seed" not in record
            assert record == as_the_service_writes_it(record)
            checked += _judge_seat_record(played, ruleset, seat, record, local)
            hidden = _first_face_down_discard(played, seat)
            # nothing to deal it from until the seed is known
            error = _refused(client_module, functools.partial(grpc_client.replay, record))
            assert (error.code, error.reason) == ("INVALID_ARGUMENT", "BAD_RECORD")
            score = recorder.finish(grpc_client, played.last)
            assert score["seed"] == seed and recorder.record["seed"] == seed
            answer = grpc_client.replay(recorder.record, seat=seat, from_step=len(played.moves))
            if hidden is None:
                assert answer["verdict"] == "VALID", (seed, seat, answer.get("divergence"))
                assert answer["moves"] == len(played.moves) and answer["status"] == "MATCH_OVER"
            else:  # up to another seat's face-down discard, which the seat never saw
                divergence = answer["divergence"]
                assert (divergence["step"], divergence["reason"]) == (hidden, "MOVE_HIDDEN")
    assert checked > 0, "no tile in any record: the leak check was vacuous"
    _the_judge_catches_a_leak(played, ruleset, local)


def _the_judge_catches_a_leak(played: Played, ruleset: str, local: RulesService) -> None:
    """The check is not vacuous: seat 0's record with a tile of seat 1's hand in the
    first move's events is reported, and so is one in the first move of seat 1's that
    names a tile, had seat 0 not seen it."""
    hands = local.decode(base64.b64decode(played.states[1])).match.hand_state.hands
    record = played.seats[0].record
    seen = {t for version in (0, 1) for t in _visible(played, ruleset, 0, version, local)}
    secret = next(t for t in hands[1] if t not in seen)
    forged = {"kind": "DRAW", "seat": 1, "tile": {"high": secret.high, "low": secret.low}}
    record["moves"][0].setdefault("events", []).append(forged)
    with pytest.raises(AssertionError, match="LEAK"):
        _judge_seat_record(played, ruleset, 0, record, local)
    record = played.seats[0].record
    for number, recorded in enumerate(record["moves"], 1):
        move = recorded.get("move", {})
        if move.get("seat") == 1 and "tile" in move:
            # the tile of a move seat 0 never sees, in its place
            before = played.states[number - 1]
            hand = local.decode(base64.b64decode(before)).match.hand_state.hands[1]
            unseen = {
                t
                for version in range(number + 1)
                for t in _visible(played, ruleset, 0, version, local)
            }
            if (hidden := next((t for t in hand if t not in unseen), None)) is not None:
                move["tile"] = {"high": hidden.high, "low": hidden.low}
                with pytest.raises(AssertionError, match=r"LEAK in .* move"):
                    _judge_seat_record(played, ruleset, 0, record, local)
                return
    raise AssertionError("no move of seat 1's to forge: the move check is not tried")


def _first_face_down_discard(played: Played, seat: int) -> int | None:
    """The step of the first discard by another seat than ``seat``: laid face down, the
    seat never sees its tile."""
    return next(
        (
            number
            for number, move in enumerate(played.moves, 1)
            if move["kind"] == "DISCARD" and move["seat"] != seat
        ),
        None,
    )


@pytest.mark.parametrize("ruleset", FACE_DOWN)
def test_a_seat_record_holds_no_face_down_tile_and_replays_up_to_it(
    client_module: ModuleType, either: Any, ruleset: str
) -> None:
    """Random matches of the games with face-down discards: every seat's record holds
    none of another seat's discarded tiles, and replays to the first of them, where it
    stops with MOVE_HIDDEN (from the platform's first state while the seed is secret,
    from the seed once revealed); the platform's record replays VALID, and answers that
    step as the seat saw it."""
    local = RulesService()
    players, options = short(ruleset)
    stops = 0
    for number in range(3):
        seed = f"face-down-{ruleset}-{number}"
        played = play(client_module, either, ruleset, players, options, seed, seats=True)
        platform = played.mover.record
        assert either.replay(platform)["verdict"] == "VALID"
        for seat, recorder in enumerate(played.seats):
            record = recorder.record
            _judge_seat_record(played, ruleset, seat, record, local)
            for step, (recorded, move) in enumerate(
                zip(record["moves"], played.moves, strict=True), 1
            ):
                theirs_face_down = move["kind"] == "DISCARD" and move["seat"] != seat
                kept = {k: v for k, v in move.items() if k != "tile" or not theirs_face_down}
                assert recorded["move"] == _as_written(kept), (seed, seat, step)
            hidden = _first_face_down_discard(played, seat)
            # the platform checks the seat's record while the seed is secret
            answer = either.replay({**record, "first_state": played.game["state"]})
            _stops_at(answer, hidden, (seed, seat))
            if hidden is not None:
                stops += 1
                # the platform's record, seen with the seat's eyes, shows what it saw there
                (step,) = either.replay(platform, seat=seat, from_step=hidden, to_step=hidden)[
                    "steps"
                ]
                assert _events(step["events"]) == _events(record["moves"][hidden - 1]["events"])
                assert all(e.get("hidden") for e in step["events"] if e["kind"] == "DISCARD")
                assert "tile" in step["move"]  # the platform holds the tile
        # the seed completes no seat's record past a face-down discard
        played.mover.finish(either, played.last)
        assert either.replay(played.mover.record)["verdict"] == "VALID"
        for seat, recorder in enumerate(played.seats):
            recorder.finish(either, played.last)
            answer = either.replay(recorder.record, seat=seat)
            _stops_at(answer, _first_face_down_discard(played, seat), (seed, seat))
    assert stops > 0, "no face-down discard of another seat: the check was vacuous"


def _stops_at(answer: Mapping[str, Any], hidden: int | None, where: object) -> None:
    """VALID when ``hidden`` is None; else DIVERGED with MOVE_HIDDEN at step ``hidden``,
    every step before it answered."""
    if hidden is None:
        assert answer["verdict"] == "VALID", (where, answer.get("divergence"))
        return
    divergence = answer.get("divergence", {})
    assert answer["verdict"] == "DIVERGED", where
    assert (divergence["step"], divergence["reason"]) == (hidden, "MOVE_HIDDEN"), where
    assert [s["step"] for s in answer["steps"]] == list(range(hidden)), where


def _as_written(move: Mapping[str, Any]) -> JSON:
    """A move as a record writes it (the service's JSON form)."""
    message = json_format.ParseDict(dict(move), pb.Move(), ignore_unknown_fields=False)
    written: JSON = json_format.MessageToDict(message, preserving_proto_field_name=True)
    return written


def _events(events: Iterable[Mapping[str, Any]]) -> list[JSON]:
    """Events as the JSON form writes them, to compare a record's with an answer's."""
    return [
        json_format.MessageToDict(
            json_format.ParseDict(dict(e), pb.Event()), preserving_proto_field_name=True
        )
        for e in events
    ]


def _visible(
    played: Played, ruleset: str, seat: int, version: int, local: RulesService
) -> Counter[Tile]:
    game = local.decode(base64.b64decode(played.states[version]))
    return cases_for(ruleset).judge.visible(game.match.hand_state, seat)


def _refused(client_module: ModuleType, call: typing.Callable[[], object]) -> Any:
    with pytest.raises(client_module.DominoRulesError) as caught:
        call()
    return caught.value


# ------------------------------------------------------------------ the recorder


def test_a_wrong_seed_is_refused(client_module: ModuleType, rest: Any) -> None:
    game = rest.new_game(ONE, 2, seed="the-seed")
    recorder = client_module.MatchRecorder(ONE, 2, game, seat=1)
    with pytest.raises(ValueError, match="seed commitment"):
        recorder.reveal("not-the-seed")
    with pytest.raises(TypeError):
        recorder.reveal(b"the-seed")
    assert recorder.seed is None and "seed" not in recorder.record
    # a match not over reveals nothing; another match's state is refused
    assert recorder.finish(rest, game["state"])["status"] == "IN_PROGRESS"
    assert recorder.seed is None
    other = rest.new_game(ONE, 2, seed="another-seed")
    with pytest.raises(ValueError, match="another match"):
        recorder.finish(rest, other["state"])
    recorder.reveal("the-seed")
    assert recorder.record["seed"] == "the-seed"


def test_add_copies_what_it_is_given_and_checks_it(client_module: ModuleType, rest: Any) -> None:
    game = rest.new_game(ONE, 3, options={"target_score": 0}, seed="copies")
    recorder = client_module.MatchRecorder(ONE, 3, game, options={"target_score": 0})
    assert recorder.record["options"] == {ONE: {"target_score": 0}}  # zero, but given
    move = rest.get_legal_moves(game["state"])["moves"][0]
    answer = rest.apply_move(game["state"], move)
    events = answer["events"]
    recorder.add(move, events, [0, 0, 0])
    snapshot = copy.deepcopy(recorder.record)
    written = recorder.record
    move["seat"], events[0]["kind"] = 99, "PASS"
    written["moves"][0]["match_points"].append(7)
    assert recorder.record == snapshot
    for wrong in ({"kind": "PASS"}, {"seat": 3, "kind": "PASS"}, {"seat": True, "kind": "PASS"}):
        with pytest.raises(ValueError, match="seat"):
            recorder.add(wrong)
    with pytest.raises(ValueError, match="match points"):
        recorder.add({"seat": 0, "kind": "PASS"}, None, [1, 2])
    with pytest.raises(ValueError, match="seat 3"):
        client_module.MatchRecorder(ONE, 3, game, seat=3)
    assert len(recorder) == 1 and recorder.to_json().startswith('{"format":1,')


def test_a_seat_record_drops_what_the_seat_saw_hidden(client_module: ModuleType, rest: Any) -> None:
    """The rule is the events': another seat's move whose own event (its kind, its mover)
    the seat saw hidden loses its tile, target and open pip; nothing else does."""
    game = rest.new_game("tsair_deng", 3, seed="drops")
    recorder = client_module.MatchRecorder("tsair_deng", 3, game, seat=0)
    tile = {"high": 5, "low": 3}
    discard = {"seat": 1, "kind": "DISCARD", "tile": tile}
    recorder.add(discard, [{"kind": "DISCARD", "seat": 1, "hidden": True}])
    # by enum numbers as proto3 JSON allows (DISCARD: 4 as a move, 9 as an event)
    recorder.add(
        {"seat": 2, "kind": 4, "tile": tile, "open_pip": 3},
        [{"kind": 9, "seat": 2, "hidden": True}],
    )
    recorder.add(
        {"seat": 0, "kind": "DISCARD", "tile": tile},
        [{"kind": "DISCARD", "seat": 0, "hidden": True}],
    )
    recorder.add(discard, [{"kind": "DISCARD", "seat": 2, "hidden": True}])  # another's
    recorder.add({**discard, "kind": "PLAY"}, [{"kind": "DISCARD", "seat": 1, "hidden": True}])
    recorder.add(discard, [{"kind": "DISCARD", "seat": 1, "tile": tile}])  # seen face up
    recorder.add({"seat": 1, "kind": "DRAW"})  # no tile to hide: no events needed
    moves = [recorded["move"] for recorded in recorder.record["moves"]]
    assert moves == [
        {"seat": 1, "kind": "DISCARD"},
        {"seat": 2, "kind": 4},
        {"kind": "DISCARD", "tile": tile},  # its own
        discard,
        {**discard, "kind": "PLAY"},
        discard,
        {"seat": 1, "kind": "DRAW"},
    ]
    assert recorder.record["moves"][0]["events"] == [{"kind": "DISCARD", "seat": 1, "hidden": True}]
    # without the events, another seat's move that names a tile cannot be judged
    no_events: tuple[list[JSON] | None, ...] = (None, [])
    for events in no_events:
        with pytest.raises(ValueError, match="events"):
            recorder.add(discard, events)
    # the platform's record holds every tile
    platform = client_module.MatchRecorder("tsair_deng", 3, game)
    platform.add(discard, [{"kind": "DISCARD", "seat": 1, "hidden": True}])
    platform.add(discard)
    assert [m["move"] for m in platform.record["moves"]] == [discard, discard]
    # the tables of enum numbers are the contract's
    records_module = importlib.import_module("domino_rules_client.records")
    shared = set(pb.MoveKind.keys()) & set(pb.Event.Kind.keys())
    assert set(records_module._MOVE_KINDS.values()) == shared
    assert set(records_module._EVENT_KINDS.values()) == shared
    assert all(pb.MoveKind.Name(n) == k for n, k in records_module._MOVE_KINDS.items())
    assert all(pb.Event.Kind.Name(n) == k for n, k in records_module._EVENT_KINDS.items())


# ------------------------------------------------------------------ take-backs


def _play_on(client: Any, state: str, pick: random.Random, avoid: JSON | None = None) -> JSON:
    """A random legal move at ``state`` (another than ``avoid`` when there is one), applied:
    the move and ``apply_move``'s answer."""
    moves = client.get_legal_moves(state)["moves"]
    others = [m for m in moves if m != avoid] or moves
    move = pick.choice(others)
    return {"move": move, "answer": client.apply_move(state, move)}


def test_a_take_back_then_other_moves_replay_valid(client_module: ModuleType, either: Any) -> None:
    """A person's take-back against bots: a few moves, ``undo`` of the last two, then
    other moves from the earlier token to the end. The platform's record replays VALID
    from its first state and from its seed, and so does a seat's once revealed."""
    players, options = short(ONE)
    seed = "take-back"
    game = either.new_game(ONE, players, options=options, seed=seed)
    recorder = client_module.MatchRecorder
    platform = recorder(ONE, players, game, options=options)
    seat0 = recorder(ONE, players, game, options=options, seat=0)
    pick = random.Random(seed)
    states: list[str] = [game["state"]]
    moves: list[JSON] = []

    def record(move: JSON, answer: JSON) -> None:
        state = answer["state"]
        view = either.get_view(state, seat=0)
        platform.add(move, answer["events"], view["match_points"])
        seat0.add(
            move, answer["events"] if move["seat"] == 0 else view["events"], view["match_points"]
        )

    # a few moves, until two moves back the seat to act had a choice to make otherwise
    while len(moves) < 4 or len(either.get_legal_moves(states[-3])["moves"]) < 2:
        played = _play_on(either, states[-1], pick)
        record(played["move"], played["answer"])
        states.append(played["answer"]["state"])
        moves.append(played["move"])
    taken_back = moves[-2]
    back = states[-3]  # the token two moves back
    points = either.get_view(back, seat=0)["match_points"]
    platform.undo(2, points)
    seat0.undo(2, points)
    assert platform.record["moves"][-1] == {"undo": 2, "match_points": points}
    first = True
    state = back
    while either.get_legal_moves(state)["status"] != "MATCH_OVER":
        played = _play_on(either, state, pick, avoid=taken_back if first else None)
        if first:
            assert played["move"] != taken_back, "the same move again"
            first = False
        record(played["move"], played["answer"])
        state = played["answer"]["state"]
    steps = len(platform)
    assert len(seat0) == steps > len(moves) + 1

    answer = either.replay(platform.record)
    assert answer["verdict"] == "VALID", answer.get("divergence")
    assert (answer["moves"], answer["status"]) == (steps, "MATCH_OVER")
    undone = answer["steps"][len(moves) + 1]
    assert undone["undo"] == 2 and "move" not in undone and undone["events"] == []
    assert undone["view"] == either.get_view(back)
    assert either.get_score(answer["state"]) == either.get_score(state)
    # a take-back of more moves than were played: the replay refuses it too
    forged = platform.record
    forged["moves"][len(moves)]["undo"] = len(moves) + 1
    divergence = either.replay(forged)["divergence"]
    assert (divergence["step"], divergence["reason"]) == (len(moves) + 1, "BAD_UNDO")

    platform.finish(either, state)
    seat0.finish(either, state)
    for record_, seat in ((platform.record, None), (seat0.record, 0)):
        answer = either.replay(record_, seat=seat)
        assert answer["verdict"] == "VALID", (seat, answer.get("divergence"))
        assert answer["moves"] == steps


def test_undo_takes_back_no_more_than_may_be_taken_back(
    client_module: ModuleType, rest: Any
) -> None:
    game = rest.new_game(ONE, 2, seed="undo-bounds")
    recorder = client_module.MatchRecorder(ONE, 2, game)
    with pytest.raises(ValueError, match="undo 1: 0 moves"):
        recorder.undo(1)  # nothing to take back yet
    for _ in range(5):
        recorder.add({"seat": 0, "kind": "PASS"})
    for wrong in (0, -1, 6):
        with pytest.raises(ValueError, match=f"undo {wrong}: 5 moves"):
            recorder.undo(wrong)
    for not_a_count in (True, 2.0, "2"):
        with pytest.raises(TypeError):
            recorder.undo(not_a_count)
    with pytest.raises(ValueError, match="match points"):
        recorder.undo(1, [1, 2, 3])
    assert len(recorder) == 5  # nothing refused was recorded
    recorder.undo(2)
    with pytest.raises(ValueError, match="undo 4: 3 moves"):
        recorder.undo(4)  # the moves taken back are no longer there
    recorder.undo(3)
    with pytest.raises(ValueError, match="undo 1: 0 moves"):
        recorder.undo(1)
    recorder.add({"seat": 1, "kind": "PASS"})
    recorder.undo(1, [0, 0])
    assert recorder.record["moves"][5:] == [
        {"undo": 2},
        {"undo": 3},
        {"move": {"seat": 1, "kind": "PASS"}},
        {"undo": 1, "match_points": [0, 0]},
    ]
    # at most 64 at once, and only the last 64 moves: as replay counts them
    for _ in range(70):
        recorder.add({"seat": 0, "kind": "PASS"})
    with pytest.raises(ValueError, match="undo 65: 64 moves"):
        recorder.undo(65)
    recorder.undo(30)
    with pytest.raises(ValueError, match="undo 40: 34 moves"):
        recorder.undo(40)
    recorder.undo(34)
    assert len(recorder) == 5 + 4 + 70 + 2


def test_a_tampered_record_diverges_where_it_was_changed(
    client_module: ModuleType, rest: Any
) -> None:
    players, options = short(ONE)
    played = play(client_module, rest, ONE, players, options, "tampered")
    assert len(played.moves) > 5
    record = played.mover.record
    moves = record["moves"]
    moves[2]["match_points"] = [p + 1 for p in moves[2]["match_points"]]
    divergence = rest.replay(record)["divergence"]
    assert (divergence["step"], divergence["reason"]) == (3, "SCORES_DIFFER")
    record = played.mover.record
    record["moves"][4]["events"] = record["moves"][4]["events"][:-1] or [{"kind": "PASS"}]
    answer = rest.replay(record)
    assert answer["verdict"] == "DIVERGED" and len(answer["steps"]) == 5
    assert (answer["divergence"]["step"], answer["divergence"]["reason"]) == (5, "EVENTS_DIFFER")
    record = played.mover.record
    record["moves"].insert(1, record["moves"][0])
    assert rest.replay(record)["divergence"]["step"] == 2
    # a range of steps that is not the record's is refused
    past = len(played.moves) + 1
    error = _refused(client_module, lambda: rest.replay(played.mover.record, from_step=past))
    assert (error.code, error.reason) == ("INVALID_ARGUMENT", client_module.Reason.BAD_STEPS)


# ------------------------------------------------------------------ the types


def test_the_types_follow_the_contract(client_module: ModuleType) -> None:
    """Each TypedDict of a message has the message's fields; an answer's field is
    ``NotRequired`` exactly when the message gives it presence, and every field of a
    record (written with its defaults left out) is ``NotRequired``, but a move's move."""
    types = importlib.import_module("domino_rules_client.types")
    written = {"MatchRecord", "RecordedMove"}
    # typed for use rather than by presence: messages the service always sets, and the
    # end a move built by hand leaves out
    chosen = {
        ("MoveEstimate", "move"),
        ("SuggestMoveResponse", "move"),
        ("RulesetInfo", "drawing"),
        ("Profile", "options"),
        ("ReplayStep", "view"),
        ("Move", "end"),
    }
    typed_dicts = [
        name
        for name in types.__all__
        if typing.is_typeddict(getattr(types, name)) and hasattr(pb, name)
    ]
    assert {"MatchRecord", "ReplayResponse", "ReplayStep", "Divergence"} <= set(typed_dicts)
    for name in typed_dicts:
        hints = typing.get_type_hints(getattr(types, name), include_extras=True)
        descriptor = getattr(pb, name).DESCRIPTOR
        where = f"{name} of clients/python/src/domino_rules_client/types.py"
        assert set(hints) == set(descriptor.fields_by_name), f"{where} has other fields"
        optional = {k for k, v in hints.items() if typing.get_origin(v) is typing.NotRequired}
        present = {f.name for f in descriptor.fields if f.has_presence and not f.is_repeated}
        if name in written:  # written as JSON forms are: every field may be left out
            present = set(descriptor.fields_by_name)
        assert optional ^ present == {f for n, f in chosen if n == name}, f"{where}: NotRequired"
    assert typing.get_args(types.DivergenceReason) == tuple(pb.Divergence.Reason.keys())
    assert typing.get_args(types.Verdict) == tuple(pb.ReplayResponse.Verdict.keys())
    assert typing.get_args(types.Viewpoint) == tuple(pb.MatchRecord.Viewpoint.keys())
    assert set(client_module.__all__) >= {"MatchRecorder", "MatchRecord", "ReplayResponse"}
