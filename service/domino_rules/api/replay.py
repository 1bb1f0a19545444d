"""Replay: a match record dealt and played again from its seed (or its first state), every
step checked against what the record says it produced.

The verdict is ``VALID`` when every move of the record is legal where it stands and every
event and score it records is what that move produced, seen with the record's eyes
(``MatchRecord.viewpoint``); else ``DIVERGED`` at the first step that parts, with the
reason. Step 0 is the record's header and deal: its ruleset, players and options, its
seed against its commitment and its game id, or its first state against all of these.
Step n is its n-th move.

The work is bounded by the record's size (``records.check``: at most
:data:`~domino_rules.records.MAX_MOVES` moves, checked before any is replayed), by the
caller's deadline (``stop``: a replay whose deadline passes stops there,
:class:`Stopped`, which says how far it got), and the answer by :data:`MAX_STEPS`: a
replay asked for more steps answers that many and says where to go on (``next_step``).
A record and its divergence never carry more than the record's holder could see: a
divergence's events are seen with the record's eyes, and every seat's hand is shown only
when the record holds the seed (the whole deal is then known to whoever holds it).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import records, rules
from ..rules import Match, Status, rng
from ..rules.errors import (
    GameOverError,
    NotYourTurnError,
    RulesError,
)
from ..state import codec
from ..state.codec import Game
from ..v1 import domino_rules_pb2 as pb
from .admission import DeadlinePassed

__all__ = ["MAX_STEPS", "BadSeat", "BadSteps", "Diverged", "Replayed", "Stopped", "replay"]

#: The most steps one answer holds (each with a view): about half a megabyte.
MAX_STEPS = 500
#: The most moves one take-back (``RecordedMove.undo``) may take back: a person's move and
#: the bots' after it, at the largest table, many times over.
MAX_UNDO = 64

_R = pb.Divergence


class BadSteps(ValueError):
    """A range of steps that is not one of the record's."""


class BadSeat(ValueError):
    """A seat asked for that is not at the record's table."""


class Stopped(DeadlinePassed):
    """The deadline passed after ``replayed`` of the record's ``moves`` moves (all of
    them as the record says, so far)."""

    def __init__(self, replayed: int, moves: int) -> None:
        super().__init__(replayed, moves)
        self.replayed = replayed
        self.moves = moves

    def __str__(self) -> str:
        return (
            f"the deadline passed after {self.replayed} of the record's {self.moves} moves "
            "had replayed, each as the record says: no verdict; allow the replay more time"
        )


#: How many moves a replay plays between two looks at its deadline.
_STOP_EVERY = 16


def _never() -> bool:
    return False


class Diverged(Exception):
    """The record parts from its match at ``step``, for ``reason``; ``game`` is the match
    before that step, once the header has been read."""

    def __init__(self, step: int, reason: int, message: str, game: Game | None = None) -> None:
        super().__init__(message)
        self.divergence = pb.Divergence(step=step, message=message)
        self.divergence.reason = reason  # type: ignore[assignment]
        self.game = game


@dataclass
class Replayed:
    """A replay's answer, without its state token (the service seals it): ``game`` is the
    match after the last step that replayed, ``None`` when the record's header diverged."""

    response: pb.ReplayResponse
    game: Game | None


def replay(
    request: pb.ReplayRequest,
    open_token: Callable[[bytes], Game],
    stop: Callable[[], bool] = _never,
) -> Replayed:
    """Replay ``request.record``. ``open_token`` opens its first state (the service's
    decode: a token it cannot open is the caller's error, ``BAD_STATE_TOKEN``). ``stop``
    says when the caller's deadline has passed: the replay then raises :class:`Stopped`.

    Raises :class:`~domino_rules.records.RecordError` for a record that cannot be replayed
    at all, :class:`BadSteps` and :class:`BadSeat` for a range of steps or a seat that is
    not the record's."""
    record = request.record
    records.check(record)
    first = request.from_step
    last = request.to_step if request.HasField("to_step") else len(record.moves)
    if not 0 <= first <= len(record.moves):
        raise BadSteps(
            f"from_step {first} is not a step of the record: steps are 0 to {len(record.moves)}"
        )
    if last < first:
        raise BadSteps(f"to_step {last} is before from_step {first}")
    last = min(last, len(record.moves))
    if request.HasField("seat") and not 0 <= request.seat < min(
        record.players, rules.most_players()
    ):
        raise BadSeat(f"seat {request.seat} is not at the record's table of {record.players}")
    answer = pb.ReplayResponse(moves=len(record.moves))
    if first + MAX_STEPS <= last:
        answer.next_step = first + MAX_STEPS
        last = first + MAX_STEPS - 1
    game: Game | None = None
    try:
        game = _start(record, open_token)
        stepper = _Stepper(record, request, game, answer, first, last, stop)
        game = stepper.run()
        answer.verdict = pb.ReplayResponse.VALID
    except Diverged as exc:
        answer.verdict = pb.ReplayResponse.DIVERGED
        answer.divergence.CopyFrom(exc.divergence)
        game = exc.game if exc.game is not None else game
        if answer.HasField("next_step") and exc.divergence.step < answer.next_step:
            answer.ClearField("next_step")
    if game is not None:
        answer.version = game.version
        answer.game_id = game.game_id
        answer.status = codec.status_to_pb(game.match.status)
        to_act = game.ruleset.to_act(game.match)
        if to_act is not None:
            answer.to_act = to_act
    return Replayed(answer, game)


# ------------------------------------------------------------------ step 0


def _start(record: pb.MatchRecord, open_token: Callable[[bytes], Game]) -> Game:
    """The match before the record's first move, its header checked (step 0)."""
    try:
        ruleset = rules.get(record.ruleset)
        options = codec.options_from_pb(ruleset, record.options)
    except RulesError as exc:
        raise Diverged(0, _R.BAD_SETUP, str(exc)) from None
    if record.HasField("seed"):
        try:
            seed = codec.check_seed(record.seed)
        except ValueError as exc:
            raise Diverged(0, _R.SEED_MISMATCH, str(exc)) from None
        if rng.commitment(seed) != record.seed_commitment:
            raise Diverged(
                0, _R.SEED_MISMATCH, "the seed's SHA-256 is not the record's seed_commitment"
            )
        try:
            match = ruleset.new_match(options, record.players, seed)
        except RulesError as exc:
            raise Diverged(0, _R.BAD_SETUP, str(exc)) from None
        game_id = codec.game_id_of(ruleset, record.players, options, seed)
        if record.game_id and record.game_id != game_id:
            raise Diverged(
                0,
                _R.GAME_ID_MISMATCH,
                "the game_id is not that of the record's ruleset, players, options and seed",
            )
        game = Game(ruleset, match, game_id, 0)
        if record.HasField("first_state"):
            _check_first_state(record, open_token(record.first_state), game)
        return game
    game = open_token(record.first_state)
    _check_first_state(record, game, None)
    return game


def _check_first_state(record: pb.MatchRecord, first: Game, dealt: Game | None) -> None:
    """The first state is version 0 of the record's match (and, with the seed, the one
    the seed deals)."""

    def differs(what: str) -> Diverged:
        return Diverged(0, _R.FIRST_STATE_MISMATCH, f"the first state {what}")

    if first.version != 0:
        raise differs(f"is at version {first.version}, not 0: it is not NewGame's token")
    if first.ruleset.id != record.ruleset:
        raise differs("is a game of another ruleset")
    if first.match.players != record.players:
        raise differs(f"seats {first.match.players} players, not {record.players}")
    options = codec.options_from_pb(first.ruleset, record.options)
    if first.match.options != options:
        raise differs("was dealt with other options")
    if rng.commitment(first.match.seed) != record.seed_commitment:
        raise differs("was dealt from another seed than the seed_commitment's")
    if record.game_id and first.game_id != record.game_id:
        raise differs("has another game_id")
    if dealt is not None and (first.match != dealt.match or first.game_id != dealt.game_id):
        raise differs("is not the match the seed deals")


# ------------------------------------------------------------------ the moves


class _Stepper:
    """Plays the record's moves, checks each, and answers the steps asked for."""

    def __init__(
        self,
        record: pb.MatchRecord,
        request: pb.ReplayRequest,
        game: Game,
        answer: pb.ReplayResponse,
        first: int,
        last: int,
        stop: Callable[[], bool] = _never,
    ) -> None:
        self.record = record
        self.stop = stop
        self.game = game
        self.answer = answer
        self.first = first
        self.last = last
        self.seat = request.seat if request.HasField("seat") else None
        self.hands = record.HasField("seed")  # the whole deal is known to the record's holder
        viewpoint = record.viewpoint
        self.record_seat: Callable[[int | None], int | None]
        if viewpoint == pb.MatchRecord.SEAT:
            self.record_seat = lambda mover: record.seat
        elif viewpoint == pb.MatchRecord.SPECTATOR:
            self.record_seat = lambda mover: None
        else:
            self.record_seat = lambda mover: mover

    def run(self) -> Game:
        record, game = self.record, self.game
        if record.HasField("seat") and not 0 <= record.seat < game.match.players:
            raise Diverged(0, _R.BAD_SETUP, f"the record's seat {record.seat} is not at this table")
        events = game.match.last_events
        self._check(0, record.deal, events, self.record_seat(None), None)
        self._answer(0, None, events)
        before: deque[Game] = deque(maxlen=MAX_UNDO)  # the matches a take-back returns to
        stop, moves = self.stop, len(record.moves)
        for step, recorded in enumerate(record.moves, 1):
            if step % _STOP_EVERY == 0 and stop():
                raise Stopped(step - 1, moves)
            if recorded.undo:
                game = self.game = self._undo(step, recorded, before)
            else:
                before.append(game)
                game = self.game = self._play(step, recorded, game)
        return game

    def _undo(self, step: int, recorded: pb.RecordedMove, before: deque[Game]) -> Game:
        """A take-back: the match ``recorded.undo`` moves back."""
        count = recorded.undo
        if recorded.HasField("move") or recorded.events:
            raise self._diverged(step, _R.BAD_UNDO, "a take-back holds no move and no events")
        if not 0 < count <= len(before):
            most = len(before)
            raise self._diverged(
                step, _R.BAD_UNDO, f"undo {count}: {most} moves at most may be taken back here"
            )
        for _ in range(count - 1):
            before.pop()
        game = self.game = before.pop()
        self._check(step, (), (), None, recorded)
        self._answer(step, None, (), undo=count)
        return game

    def _play(self, step: int, recorded: pb.RecordedMove, game: Game) -> Game:
        match = game.match
        if match.status is Status.MATCH_OVER:
            raise self._diverged(step, _R.GAME_OVER, "the match was over before this move")
        if (
            self.record.viewpoint == pb.MatchRecord.SEAT
            and recorded.move.seat != self.record.seat
            and recorded.move.kind == pb.DISCARD
            and not recorded.move.HasField("tile")
        ):
            raise self._diverged(
                step,
                _R.MOVE_HIDDEN,
                f"move {step} is seat {recorded.move.seat}'s face-down discard, which seat "
                f"{self.record.seat} did not see: this record replays once it holds the tile "
                "(the platform's record does)",
            )
        try:
            move = codec.move_from_pb(recorded.move)
        except ValueError as exc:
            raise self._diverged(step, _R.MALFORMED_MOVE, str(exc)) from None
        if not 0 <= move.seat < match.players:
            raise self._diverged(step, _R.MALFORMED_MOVE, f"seat {move.seat} is not at this table")
        try:
            after, events = game.ruleset.apply(match, move)
        except NotYourTurnError as exc:
            raise self._diverged(step, _R.NOT_YOUR_TURN, str(exc)) from None
        except GameOverError as exc:
            raise self._diverged(step, _R.GAME_OVER, str(exc)) from None
        except RulesError as exc:
            raise self._diverged(step, _R.ILLEGAL_MOVE, str(exc)) from None
        new = self.game = Game(game.ruleset, after, game.game_id, game.version + 1)
        try:
            self._check(step, recorded.events, events, self.record_seat(move.seat), recorded)
        except Diverged as exc:
            exc.game = game  # the state before the step
            raise
        self._answer(step, recorded.move, events)
        return new

    def _check(
        self,
        step: int,
        written: Any,
        events: tuple[rules.Event, ...],
        seen_by: int | None,
        recorded: pb.RecordedMove | None,
    ) -> None:
        """The recorded events and match points are the step's (when recorded)."""
        if written:
            produced = [codec.event_to_pb(e.for_seat(seen_by)) for e in events]
            if list(written) != produced:
                divergence = self._diverged(
                    step, _R.EVENTS_DIFFER, _events_differ(written, produced)
                )
                divergence.divergence.events.extend(produced)
                raise divergence
        if recorded is not None and recorded.match_points:
            points = self._match_points()
            if list(recorded.match_points) != points:
                divergence = self._diverged(
                    step,
                    _R.SCORES_DIFFER,
                    f"the recorded match points {list(recorded.match_points)} are not "
                    f"those after the move, {points}",
                )
                divergence.divergence.match_points.extend(points)
                raise divergence

    def _match_points(self) -> list[int]:
        return list(self.game.ruleset.score(self.game.match).match_points)

    def _answer(
        self, step: int, move: pb.Move | None, events: tuple[rules.Event, ...], undo: int = 0
    ) -> None:
        if not self.first <= step <= self.last:
            return
        game, seat = self.game, self.seat
        out = self.answer.steps.add(step=step, undo=undo)
        if move is not None:
            out.move.CopyFrom(move)
        codec.fill_events(out.events, events, seat)
        out.match_points.extend(self._match_points())
        out.view.CopyFrom(codec.view_to_pb(game.ruleset.id, game.ruleset.view(game.match, seat)))
        out.view.version = game.version
        out.view.game_id = game.game_id
        if self.hands:
            for hand in _hands(game.match):
                out.hands.add().tiles.extend(codec.tile_to_pb(t) for t in hand)

    def _diverged(self, step: int, reason: int, message: str) -> Diverged:
        return Diverged(step, reason, message, self.game)


def _hands(match: Match[Any, Any]) -> tuple[tuple[rules.Tile, ...], ...]:
    hands: tuple[tuple[rules.Tile, ...], ...] = match.hand_state.hands
    return hands


def _events_differ(written: Any, produced: list[pb.Event]) -> str:
    """Where two lists of events part, by position and kind (never a tile)."""
    kind = pb.Event.Kind.Name
    for index, (a, b) in enumerate(zip(written, produced, strict=False)):
        if a != b:
            if a.kind != b.kind:
                return (
                    f"event {index + 1} is {_name(kind, a.kind)} in the record, {kind(b.kind)} here"
                )
            return f"event {index + 1} ({kind(b.kind)}) differs from the record's"
    return f"the record holds {len(written)} events, the move produced {len(produced)}"


def _name(name: Callable[[int], str], number: int) -> str:
    try:
        return name(number)
    except ValueError:
        return str(number)
