"""Replay: records of whole matches replay VALID through both doors, and every change to
a record is caught at the step it touches, with the reason it deserves.

Records are made here as a platform makes them: every ApplyMove's move and events (as
the mover saw them: viewpoint MOVER), the match points after each move, the first state
token and, once the match is over, the seed GetScore reveals. A seat's record (SEAT)
takes each move's events as that seat saw them (GetView).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import jsonschema_rs
import pytest

from domino_rules import records, rules
from domino_rules.api import RulesService, replay
from domino_rules.doors import rest
from domino_rules.state.codec import options_to_pb
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.web import docs

from ..cases import cases_for
from .doors import CallError, Door, RestDoor

RULESETS = [r.id for r in rules.all_rulesets()]
SERVICE = RulesService()
R = pb.Divergence
VALID = pb.ReplayResponse.VALID
DIVERGED = pb.ReplayResponse.DIVERGED


@dataclass
class Played:
    """A match played to its end, its record, and the token of every version."""

    record: pb.MatchRecord
    tokens: list[bytes]


def play(ruleset: str, choice: int, *, seat: int | None = None, seed: str | None = None) -> Played:
    """A match of ``ruleset``'s short setup, moves drawn by ``choice``; recorded as a
    platform would (``seat`` None: MOVER), or as seat ``seat`` saw it (SEAT)."""
    setup = cases_for(ruleset).short
    ruleset_ = rules.get(ruleset)
    options = options_to_pb(ruleset_, ruleset_.make_options(dict(setup.options)))
    new = SERVICE.NewGame(
        pb.NewGameRequest(
            ruleset=ruleset,
            players=setup.players,
            options=options,
            seed=seed or f"replay-{ruleset}-{choice}",
        )
    )
    record = pb.MatchRecord(
        format=1,
        ruleset=ruleset,
        players=setup.players,
        options=options,
        game_id=new.game_id,
        seed_commitment=new.seed_commitment,
    )
    if seat is None:
        record.viewpoint = pb.MatchRecord.MOVER
        record.first_state = new.state
        record.deal.extend(new.events)
    else:
        record.viewpoint = pb.MatchRecord.SEAT
        record.seat = seat
        record.deal.extend(_view(new.state, seat).events)
    rng = random.Random(f"{ruleset}-{choice}")
    tokens = [new.state]
    state = new.state
    while True:
        legal = SERVICE.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if legal.status == pb.MATCH_OVER:
            break
        move = rng.choice(list(legal.moves))
        answer = SERVICE.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
        state = answer.state
        tokens.append(state)
        recorded = record.moves.add(move=move)
        if seat is None or seat == move.seat:
            recorded.events.extend(answer.events)
        else:
            recorded.events.extend(_view(state, seat).events)
        recorded.match_points.extend(_view(state, seat).match_points)
    record.seed = SERVICE.GetScore(pb.GetScoreRequest(state=state)).seed
    return Played(record, tokens)


def _view(state: bytes, seat: int | None) -> pb.GetViewResponse:
    request = pb.GetViewRequest(state=state)
    if seat is not None:
        request.seat = seat
    return SERVICE.GetView(request)


def run(record: pb.MatchRecord, **fields: int) -> pb.ReplayResponse:
    return SERVICE.Replay(pb.ReplayRequest(record=record, **fields))


@pytest.fixture(scope="module", params=RULESETS)
def played(request: pytest.FixtureRequest) -> Played:
    return play(request.param, 0)


# ------------------------------------------------------------------ VALID, through the doors


@pytest.mark.parametrize("ruleset", RULESETS)
def test_records_of_random_matches_replay_valid_through_both_doors(
    door: Door, ruleset: str
) -> None:
    for choice in range(2):
        record = play(ruleset, choice).record
        answer = door.call("Replay", {"record": records.to_json(record)})
        assert answer["verdict"] == "VALID", answer["divergence"]
        assert answer["moves"] == len(record.moves)
        steps = answer["steps"]
        assert [s["step"] for s in steps] == list(range(min(len(record.moves) + 1, 500)))
        assert "move" not in steps[0] and steps[1]["move"] == rest.to_json(record.moves[0].move)
        assert all(len(s["hands"]) == record.players for s in steps)  # the seed is known
        assert answer["status"] == "MATCH_OVER" and answer["version"] == len(record.moves)
        # the answer's state is the match at its end: the service answers it as any token
        score = door.call("GetScore", {"state": answer["state"]})
        assert score["status"] == "MATCH_OVER" and score["seed"] == record.seed


def test_a_record_without_its_seed_replays_from_its_first_state(played: Played) -> None:
    record = pb.MatchRecord()
    record.CopyFrom(played.record)
    record.ClearField("seed")
    answer = run(record)
    assert answer.verdict == VALID, answer.divergence
    assert all(not step.hands for step in answer.steps)  # the deal is still secret
    assert answer.state  # a platform goes on from its record


def test_every_step_is_the_view_and_the_events_the_game_showed(played: Played) -> None:
    record, moves = played.record, len(played.record.moves)
    for seat in (None, 0, record.players - 1):
        first = moves // 2
        request = pb.ReplayRequest(record=record, from_step=first, to_step=first + 3)
        if seat is not None:
            request.seat = seat
        answer = SERVICE.Replay(request)
        assert [s.step for s in answer.steps] == list(range(first, min(first + 3, moves) + 1))
        for step in answer.steps:
            view = _view(played.tokens[step.step], seat)
            assert step.view == view
            assert list(step.events) == list(view.events)
            assert list(step.match_points) == list(view.match_points)
            assert step.move == record.moves[step.step - 1].move


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_seats_record_replays_valid(ruleset: str) -> None:
    played = play(ruleset, 1, seat=1)
    answer = run(played.record)
    assert answer.verdict == VALID, answer.divergence


def test_a_long_replay_answers_in_pages(monkeypatch: pytest.MonkeyPatch, played: Played) -> None:
    monkeypatch.setattr(replay, "MAX_STEPS", 7)
    moves = len(played.record.moves)
    answer = run(played.record)
    assert [s.step for s in answer.steps] == list(range(7)) and answer.next_step == 7
    seen = [s.step for s in answer.steps]
    while answer.HasField("next_step"):
        answer = run(played.record, from_step=answer.next_step)
        seen += [s.step for s in answer.steps]
    assert seen == list(range(moves + 1))
    assert answer.verdict == VALID


# ------------------------------------------------------------------ divergences


def _copy(record: pb.MatchRecord) -> pb.MatchRecord:
    copy = pb.MatchRecord()
    copy.CopyFrom(record)
    return copy


def _diverges(record: pb.MatchRecord, step: int, reason: int) -> pb.Divergence:
    answer = run(record, to_step=0)
    assert answer.verdict == DIVERGED, f"expected {R.Reason.Name(reason)} at step {step}"
    got = answer.divergence
    assert (got.step, R.Reason.Name(got.reason)) == (step, R.Reason.Name(reason)), got.message
    return got


def _plays(played: Played) -> Iterator[tuple[int, pb.Move]]:
    """``(step, move)`` of every move that lays or discards a tile."""
    for step, recorded in enumerate(played.record.moves, 1):
        if recorded.move.HasField("tile"):
            yield step, recorded.move


def test_every_moves_seat_changed_is_not_your_turn(played: Played) -> None:
    for step, move in _plays(played):
        record = _copy(played.record)
        record.moves[step - 1].move.seat = (move.seat + 1) % record.players
        _diverges(record, step, R.NOT_YOUR_TURN)


def test_every_moves_tile_changed_is_caught_at_its_step(played: Played) -> None:
    """A tile the seat could not play there is ILLEGAL_MOVE; another legal move is a move
    whose events are not the recorded ones."""
    checked = set()
    for step, move in _plays(played):
        legal = SERVICE.GetLegalMoves(pb.GetLegalMovesRequest(state=played.tokens[step - 1])).moves
        for tile in (pb.Tile(high=move.tile.high, low=0), pb.Tile(high=18, low=18)):
            changed = pb.Move()
            changed.CopyFrom(move)
            changed.tile.CopyFrom(tile)
            if changed == move:
                continue
            record = _copy(played.record)
            record.moves[step - 1].move.CopyFrom(changed)
            reason = R.EVENTS_DIFFER if changed in legal else R.ILLEGAL_MOVE
            _diverges(record, step, reason)
            checked.add(reason)
    assert R.ILLEGAL_MOVE in checked


def test_every_recorded_event_changed_is_events_differ(played: Played) -> None:
    for step, recorded in enumerate(played.record.moves, 1):
        for index in range(len(recorded.events)):
            record = _copy(played.record)
            event = record.moves[step - 1].events[index]
            event.count = event.count + 1 if event.HasField("count") else 1
            divergence = _diverges(record, step, R.EVENTS_DIFFER)
            assert list(divergence.events) == list(played.record.moves[step - 1].events)
        if len(recorded.events) > 1:  # one event fewer (none at all: not recorded)
            record = _copy(played.record)
            del record.moves[step - 1].events[-1]
            _diverges(record, step, R.EVENTS_DIFFER)


def test_every_recorded_score_changed_is_scores_differ(played: Played) -> None:
    for step in range(1, len(played.record.moves) + 1, 3):
        record = _copy(played.record)
        record.moves[step - 1].match_points[step % record.players] += 1
        divergence = _diverges(record, step, R.SCORES_DIFFER)
        assert list(divergence.match_points) == list(played.record.moves[step - 1].match_points)


def test_a_move_after_the_end_is_game_over(played: Played) -> None:
    record = _copy(played.record)
    last = record.moves[-1].move
    record.moves.add(move=last)
    _diverges(record, len(played.record.moves) + 1, R.GAME_OVER)


def test_a_malformed_move_is_caught_at_its_step(played: Played) -> None:
    record = _copy(played.record)
    record.moves[0].move.kind = pb.MOVE_KIND_UNSPECIFIED
    _diverges(record, 1, R.MALFORMED_MOVE)
    record = _copy(played.record)
    record.moves[0].move.seat = 40
    _diverges(record, 1, R.MALFORMED_MOVE)


def test_the_header_is_checked_at_step_0(played: Played) -> None:
    base = played.record
    ruleset = rules.get(base.ruleset)

    record = _copy(base)
    record.seed += "x"
    _diverges(record, 0, R.SEED_MISMATCH)
    record = _copy(base)
    record.seed_commitment = "0" * 64
    _diverges(record, 0, R.SEED_MISMATCH)
    record = _copy(base)
    record.game_id = "0" * 24
    _diverges(record, 0, R.GAME_ID_MISMATCH)
    record = _copy(base)
    record.ruleset = "chess"
    _diverges(record, 0, R.BAD_SETUP)
    record = _copy(base)
    record.players = 40
    _diverges(record, 0, R.BAD_SETUP)
    record = _copy(base)
    record.deal[0].count += 1
    _diverges(record, 0, R.EVENTS_DIFFER)
    # every option changed to another value it may take: another game (its id says so)
    message = getattr(base.options, base.ruleset)
    for spec in ruleset.option_specs():
        record = _copy(base)
        target = getattr(record.options, base.ruleset)
        if spec.type == "bool":
            setattr(target, spec.name, not getattr(message, spec.name))
        elif spec.type == "int":
            setattr(target, spec.name, _another_value(ruleset, spec, getattr(message, spec.name)))
            out_of_range = _copy(base)
            high = (spec.maximum if spec.maximum is not None else 10**6) + 1
            setattr(getattr(out_of_range.options, base.ruleset), spec.name, high)
            _diverges(out_of_range, 0, R.BAD_SETUP)
        else:
            names = [v for v in spec.allowed if v != getattr(message, spec.name)]
            field = target.DESCRIPTOR.fields_by_name[spec.name]
            current = field.enum_type.values_by_number[getattr(message, spec.name)].name
            other = next(v for v in spec.allowed if v != current)
            assert names
            setattr(target, spec.name, field.enum_type.values_by_name[other].number)
        _diverges(record, 0, R.GAME_ID_MISMATCH)


def _another_value(ruleset: rules.Ruleset[Any, Any], spec: rules.OptionSpec, value: int) -> int:
    """The nearest other value of an int option that the ruleset takes (a set of 9, 12 or
    15 pips refuses the values between)."""
    for other in (value + 1, value - 1, value + 2, value - 2, value + 3, value - 3):
        low = spec.minimum if spec.minimum is not None else other
        high = spec.maximum if spec.maximum is not None else other
        if low <= other <= high:
            try:
                ruleset.make_options({spec.name: other})
            except rules.OptionsError:
                continue
            return other
    raise AssertionError(f"{ruleset.id}: no other value of {spec.name} near {value}")


def test_a_first_state_of_another_match_is_caught(played: Played) -> None:
    other = play(played.record.ruleset, 5)
    record = _copy(played.record)
    record.ClearField("seed")
    record.first_state = other.record.first_state
    _diverges(record, 0, R.FIRST_STATE_MISMATCH)
    record.first_state = played.tokens[1]  # a later state of the same match
    _diverges(record, 0, R.FIRST_STATE_MISMATCH)
    record = _copy(played.record)  # both: they must agree
    record.first_state = other.record.first_state
    _diverges(record, 0, R.FIRST_STATE_MISMATCH)


def test_a_divergence_answers_the_steps_before_it_and_the_state_there(played: Played) -> None:
    step, _ = next(_plays(played))
    record = _copy(played.record)
    record.moves[step - 1].move.seat = (record.moves[step - 1].move.seat + 1) % record.players
    answer = run(record)
    assert answer.verdict == DIVERGED and answer.divergence.step == step
    assert [s.step for s in answer.steps] == list(range(step))
    assert answer.version == step - 1
    assert SERVICE.GetView(pb.GetViewRequest(state=answer.state)) == _view(
        played.tokens[step - 1], None
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_seats_record_diverges_with_that_seats_events_only(ruleset: str) -> None:
    """The events of a divergence are seen with the record's eyes: a seat's record learns
    nothing of the hidden tiles by being wrong."""
    played = play(ruleset, 2, seat=0)
    for step, recorded in enumerate(played.record.moves, 1):
        if recorded.move.seat != 0 and recorded.events:
            record = _copy(played.record)
            record.moves[step - 1].events[0].count += 1
            divergence = _diverges(record, step, R.EVENTS_DIFFER)
            assert list(divergence.events) == list(_view(played.tokens[step], 0).events)
            return
    raise AssertionError("no move of another seat with events")


@pytest.mark.parametrize("ruleset", ["one_arm_joe", "dancing_dragons"])
def test_divergences_through_both_doors(door: Door, ruleset: str) -> None:
    played = play(ruleset, 3)
    record = _copy(played.record)
    step, move = next(_plays(played))
    record.moves[step - 1].move.seat = (move.seat + 1) % record.players
    answer = door.call("Replay", {"record": records.to_json(record)})
    assert answer["verdict"] == "DIVERGED"
    assert answer["divergence"]["step"] == step
    assert answer["divergence"]["reason"] == "NOT_YOUR_TURN"
    record = _copy(played.record)
    record.seed = "not the seed"
    answer = door.call("Replay", {"record": records.to_json(record)})
    assert (answer["divergence"]["step"], answer["divergence"]["reason"]) == (0, "SEED_MISMATCH")
    assert "not the seed" not in json.dumps(answer)


# ------------------------------------------------------------------ refusals


def _refused(door: Door, body: dict[str, object], reason: str) -> str:
    with pytest.raises(CallError) as caught:
        door.call("Replay", body)
    assert (caught.value.code, caught.value.reason) == ("INVALID_ARGUMENT", reason)
    return caught.value.message


def test_records_that_cannot_be_replayed_are_refused(door: Door) -> None:
    played = play("one_arm_joe", 4)
    good = records.to_json(played.record)
    _refused(door, {}, "BAD_RECORD")
    without = {k: v for k, v in good.items() if k not in ("seed", "first_state")}
    assert "GetScore" in _refused(door, {"record": without}, "BAD_RECORD")
    assert "format 2" in _refused(door, {"record": {**good, "format": 2}}, "BAD_RECORD")
    _refused(door, {"record": {**good, "viewpoint": "SEAT"}}, "BAD_RECORD")
    _refused(door, {"record": {**good, "seat": 1}}, "BAD_RECORD")
    assert "first_state is empty" in _refused(
        door, {"record": {**good, "first_state": ""}}, "BAD_RECORD"
    )
    _refused(door, {"record": good, "from_step": len(played.record.moves) + 1}, "BAD_STEPS")
    _refused(door, {"record": good, "from_step": 3, "to_step": 2}, "BAD_STEPS")
    _refused(door, {"record": good, "seat": played.record.players}, "BAD_SEAT")
    garbled = {k: v for k, v in good.items() if k != "seed"}
    garbled["first_state"] = "AAAA"
    _refused(door, {"record": garbled}, "BAD_STATE_TOKEN")


def test_a_record_of_another_format_is_refused() -> None:
    record = _copy(play("throw_up", 0).record)
    record.format = 2
    with pytest.raises(Exception, match="format 2"):
        run(record)


def test_a_record_over_its_limits_is_refused(door: Door) -> None:
    record = _copy(play("one_arm_joe", 0).record)
    for _ in range(records.MAX_MOVES + 1 - len(record.moves)):
        record.moves.add(move=pb.Move(kind=pb.PASS))  # small: the body stays under 1 MiB
    message = _refused(door, {"record": records.to_json(record)}, "RECORD_TOO_LARGE")
    assert str(records.MAX_MOVES) in message.replace(",", "")


# ------------------------------------------------------------------ the two forms


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_record_survives_json_text_json(ruleset: str) -> None:
    for seat, seed in ((None, "plain"), (1, 'a "quoted" seed, with spaces; | and é')):
        record = play(ruleset, 6, seat=seat, seed=seed).record
        text = records.to_text(record)
        assert text.count("\n") == len(record.moves) + sum(
            1 for line in text.splitlines() if not line[:1].isdigit()
        )
        assert records.from_text(text) == record
        again = records.to_json(records.from_text(text))
        assert again == records.to_json(record)
        assert records.parse(json.dumps(again)) == record and records.parse(text) == record


def test_the_notation_reads_back_every_move_and_event(played: Played) -> None:
    for recorded in played.record.moves:
        move = recorded.move
        assert records.parse_move(records.move_text(move, seat=True)) == move
        assert records.parse_move(records.move_text(move), seat=move.seat) == move
        for event in recorded.events:
            assert records.parse_event(records.event_text(event)) == event


def test_the_notation_writes_a_play_as_people_do() -> None:
    move = pb.Move(seat=2, kind=pb.PLAY, tile=pb.Tile(high=6, low=4), end=pb.LEFT)
    assert records.move_text(move) == "play 6-4 left"
    assert records.move_text(move, seat=True) == "s2 play 6-4 left"
    assert records.move_text(pb.Move(kind=pb.DRAW)) == "draw"
    assert records.move_text(pb.Move(kind=pb.DISCARD, tile=pb.Tile(high=3, low=1))) == "discard 3-1"
    capture = pb.Move(kind=pb.CAPTURE, tile=pb.Tile(high=5, low=5), target=pb.Tile(high=6, low=4))
    assert records.move_text(capture) == "capture 5-5 takes 6-4"
    assert records.move_text(pb.Move(kind=pb.NEXT_HAND)) == "next-hand"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("s0 jump 6-4", "is not a move"),
        ("play 6-4", "names no seat"),
        ("s0 play 6/4", "is not read there"),
        ("s0 capture 5-5 takes", "ends where a tile after takes"),
        ("s0 play 6-4 left open x", "is not a number"),
    ],
)
def test_a_text_that_is_not_a_move_says_why(text: str, words: str) -> None:
    with pytest.raises(records.NotationError, match=words):
        records.parse_move(text)


def test_a_text_record_that_does_not_read_names_its_line() -> None:
    text = records.to_text(play("tiu_u", 0).record).splitlines()
    text[4] = "players many"
    with pytest.raises(records.RecordError, match="line 5"):
        records.from_text("\n".join(text))
    with pytest.raises(records.RecordError, match="line 1"):
        records.from_text("a shopping list\n")


# ------------------------------------------------------------------ the schema


def test_records_fit_the_json_schema_the_service_publishes(door: Door) -> None:
    schema = json.loads(docs.record_schema_json())
    validator = jsonschema_rs.validator_for(schema)
    for ruleset in RULESETS:
        for seat in (None, 0):
            value = records.to_json(play(ruleset, 7, seat=seat).record)
            errors = [e.message for e in validator.iter_errors(value)]
            assert not errors, errors[:3]
    assert not validator.is_valid({"format": 2})
    assert not validator.is_valid({"moves": [{"move": {"kind": "JUMP"}}]})
    document = json.loads(docs.openapi_json())
    operation = document["paths"]["/v1/records:replay"]["post"]
    assert operation["x-json-schema"] == {"MatchRecord": "/schemas/match-record.json"}


def test_the_json_schema_is_served(rest_door: RestDoor) -> None:
    status, body, headers = rest_door.raw("GET", "/schemas/match-record.json", None)
    assert status == 200 and headers["Content-Type"].startswith("application/schema+json")
    assert body["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert body == json.loads(docs.record_schema_json())


# ------------------------------------------------------------------ take-backs and hidden moves


def _with_take_back(ruleset: str) -> tuple[pb.MatchRecord, list[bytes]]:
    """A record whose 4th entry takes back the two moves before it, then goes on from
    there with other moves: as a person's undo against a bot reads."""
    played = play(ruleset, 8)
    record = _copy(played.record)
    del record.moves[3:]
    record.moves.add(undo=2)
    state = played.tokens[1]
    rng = random.Random(f"undo-{ruleset}")
    states = [state]
    for _ in range(6):
        legal = SERVICE.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if legal.status == pb.MATCH_OVER:
            break
        move = rng.choice(list(legal.moves))
        answer = SERVICE.ApplyMove(pb.ApplyMoveRequest(state=state, move=move))
        record.moves.add(move=move, events=answer.events)
        state = answer.state
        states.append(state)
    record.ClearField("seed")  # the match goes on: replayed from its first state
    return record, states


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_take_back_returns_to_the_match_before_it(ruleset: str) -> None:
    record, states = _with_take_back(ruleset)
    answer = run(record)
    assert answer.verdict == VALID, answer.divergence
    step = answer.steps[4]
    assert step.undo == 2 and not step.HasField("move") and not step.events
    assert step.view == _view(states[0], None)
    assert answer.version == 1 + len(states) - 1
    assert SERVICE.GetView(pb.GetViewRequest(state=answer.state)) == _view(states[-1], None)
    assert records.from_text(records.to_text(record)) == record
    assert "4. undo 2" in records.to_text(record)


def test_a_take_back_of_too_many_moves_or_with_a_move_is_bad_undo() -> None:
    record, _ = _with_take_back("throw_up")
    record.moves[3].undo = 4
    divergence = _diverges(record, 4, R.BAD_UNDO)
    assert "3 moves at most" in divergence.message
    record.moves[3].undo = 2
    record.moves[3].move.CopyFrom(record.moves[0].move)
    _diverges(record, 4, R.BAD_UNDO)


@pytest.mark.parametrize("ruleset", ["tsair_deng", "dancing_dragons"])
def test_a_seats_record_without_anothers_face_down_discard_is_move_hidden(ruleset: str) -> None:
    played = play(ruleset, 9, seat=0)
    for step, recorded in enumerate(played.record.moves, 1):
        if recorded.move.kind == pb.DISCARD and recorded.move.seat != 0:
            record = _copy(played.record)
            record.moves[step - 1].move.ClearField("tile")
            divergence = _diverges(record, step, R.MOVE_HIDDEN)
            assert "face-down" in divergence.message
            return
    raise AssertionError("no discard of another seat: choose another match")
