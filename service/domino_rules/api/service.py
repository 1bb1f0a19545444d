"""The transport-free servicer: request message in, response message out.

Each method decodes what it is given, delegates to the rules core and encodes the
answer; any error a client can cause is raised as an :class:`ApiError`. Nothing is
kept between calls: a request that fails changes nothing, because the caller's token
is the only copy of the game. (A process remembers the games it sealed lately, so that
their tokens need not be opened again when they come back: :mod:`.minted`. Any process
answers any token the same.)

A door learns what a call opened and sealed through an :class:`Observer` it gives the
service (:meth:`RulesService.observe`, or ``observer=`` at construction): the service
tells it of every token it opens (the game it held, or none) and every token it seals,
so that the door can log and count the call's game without decoding anything twice and
without looking into a token or a hand.
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from google.protobuf.message import DecodeError
from google.rpc import code_pb2

from .. import bots, games, records
from ..rules import Status, View, rng
from ..rules.errors import GameOverError, NotYourTurnError, RulesError
from ..state import codec
from ..state.codec import Game
from ..state.tokens import TokenCodec, TokenError
from ..v1 import domino_rules_pb2 as pb
from . import replay
from .admission import Admission, DeadlinePassed, Overloaded
from .errors import ApiError, from_bot_error, from_rules_error
from .minted import DEFAULT_BYTES, DEFAULT_SIZE, Minted

__all__ = [
    "BotJob",
    "Game",
    "Observer",
    "ReplayJob",
    "RulesService",
    "new_seed",
    "read_replay_request",
    "serialized",
]

log = logging.getLogger(__name__)

T = TypeVar("T")


class Observer(Protocol):
    """What the service tells of the games a call opens and seals, in the thread that
    makes the call, as it happens (:meth:`RulesService.observe`). An observer must not
    raise, and must not keep a game past the call: a game holds every hidden tile."""

    def on_decoded(self, game: Game | None, token_bytes: int) -> None:
        """A token of ``token_bytes`` bytes was opened: the ``game`` it held, or ``None``
        when it held none (the call is refused, ``BAD_STATE_TOKEN``)."""

    def on_encoded(self, game: Game, token_bytes: int) -> None:
        """``game`` was sealed into a token of ``token_bytes`` bytes (the answer's)."""


class _Observers:
    """Several observers, told in order, as one."""

    __slots__ = ("observers",)

    def __init__(self, observers: tuple[Observer, ...]) -> None:
        self.observers = observers

    def on_decoded(self, game: Game | None, token_bytes: int) -> None:
        for observer in self.observers:
            observer.on_decoded(game, token_bytes)

    def on_encoded(self, game: Game, token_bytes: int) -> None:
        for observer in self.observers:
            observer.on_encoded(game, token_bytes)


class RulesService:
    """The RPCs of ``domino_rules.v1.DominoRules``, with no transport."""

    def __init__(
        self,
        tokens: TokenCodec | None = None,
        *,
        minted: int = DEFAULT_SIZE,
        minted_bytes: int = DEFAULT_BYTES,
        admission: Admission | None = None,
        replays: Admission | None = None,
        observer: Observer | None = None,
        trust_sealed: bool = False,
    ) -> None:
        """``minted``: how many of the games it sealed lately the service keeps, so that
        their tokens need not be opened again (:mod:`.minted`; 0: none), within
        ``minted_bytes`` bytes (an upper bound of what they hold). ``admission``:
        the room SuggestMove's searches run in (:mod:`.admission`; by default one search
        at a time in the calling thread, two waiting); ``replays``: the room Replay runs
        in, the same way (by default one replay at a time in the calling thread, two
        waiting). ``observer``: told of every token
        opened and sealed (:meth:`observe`). ``trust_sealed``: a token sealed with the
        service's key is not checked again when opened (:meth:`decode`); off by
        default."""
        self.tokens = tokens or TokenCodec()
        self.trust_sealed = trust_sealed
        self.minted = Minted(minted, max_bytes=minted_bytes)
        self.admission = admission or Admission()
        self.replays = replays or Admission(what="replays")
        self._observer: Observer | None = None
        if observer is not None:
            self.observe(observer)

    def observe(self, observer: Observer) -> None:
        """Tell ``observer`` of every token this service opens and seals from now on
        (:class:`Observer`). Observing with the same observer twice is observing once;
        several observers are told in the order they were given. Each door gives its
        own (:data:`domino_rules.observability.calls.OBSERVER`) when it is built."""
        if self._observer is None:
            self._observer = observer
        elif observer not in self.observers:
            self._observer = _Observers((*self.observers, observer))

    @property
    def observers(self) -> tuple[Observer, ...]:
        """The observers told of every token opened and sealed, in order."""
        if isinstance(self._observer, _Observers):
            return self._observer.observers
        return () if self._observer is None else (self._observer,)

    # ------------------------------------------------------------------ RPCs

    def ListRulesets(self, request: pb.ListRulesetsRequest) -> pb.ListRulesetsResponse:
        return pb.ListRulesetsResponse(
            rulesets=[codec.ruleset_to_pb(r) for r in games.all_rulesets()]
        )

    def NewGame(self, request: pb.NewGameRequest) -> pb.NewGameResponse:
        ruleset = _rules(lambda: games.get(request.ruleset).ruleset)
        options = _rules(lambda: codec.options_from_pb(ruleset, request.options))
        seed = _check_seed(request.seed) if request.HasField("seed") else new_seed()
        match = _rules(lambda: ruleset.new_match(options, request.players, seed))
        game_id = codec.game_id_of(ruleset, request.players, options, seed)
        game = Game(ruleset, match, game_id, 0)
        answer = pb.NewGameResponse(
            state=self._mint(game),
            version=0,
            game_id=game_id,
            status=_status(match.status),
            to_act=ruleset.to_act(match),
            seed_commitment=rng.commitment(seed),
        )
        codec.fill_events(answer.events, match.last_events, None)
        return answer

    def GetLegalMoves(self, request: pb.GetLegalMovesRequest) -> pb.GetLegalMovesResponse:
        game = self.decode(request.state, events=False)
        seat = self._seat(game, request.seat) if request.HasField("seat") else None
        to_act = game.ruleset.to_act(game.match)
        moves = game.ruleset.legal_moves(game.match) if seat is None or seat == to_act else ()
        return pb.GetLegalMovesResponse(
            to_act=to_act,
            moves=[codec.move_to_pb(m) for m in moves],
            status=_status(game.match.status),
            version=game.version,
            game_id=game.game_id,
        )

    def ApplyMove(self, request: pb.ApplyMoveRequest) -> pb.ApplyMoveResponse:
        game = self.decode(request.state, events=False)  # the move makes its own
        if request.HasField("expected_version") and request.expected_version != game.version:
            raise ApiError(
                code_pb2.ABORTED,
                "STALE_STATE",
                f"the state is at version {game.version}, "
                f"not the expected {request.expected_version}",
                version=str(game.version),
            )
        if not request.HasField("move"):
            raise ApiError.malformed("move is required")
        try:
            move = codec.move_from_pb(request.move)
        except ValueError as exc:
            raise ApiError.malformed(str(exc)) from None
        self._seat(game, move.seat, what="move.seat")
        match, events = _rules(lambda: game.ruleset.apply(game.match, move))
        new = Game(game.ruleset, match, game.game_id, game.version + 1)
        answer = pb.ApplyMoveResponse(
            state=self._mint(new),
            version=new.version,
            game_id=new.game_id,
            status=_status(match.status),
            to_act=game.ruleset.to_act(match),
        )
        codec.fill_events(answer.events, events, move.seat)
        return answer

    def GetScore(self, request: pb.GetScoreRequest) -> pb.GetScoreResponse:
        game = self.decode(request.state, events=False)
        message = codec.score_to_pb(game.ruleset.score(game.match))
        message.version = game.version
        message.game_id = game.game_id
        message.hand = game.match.hand_number
        message.seed_commitment = rng.commitment(game.match.seed)
        if game.match.status is Status.MATCH_OVER:
            message.seed = game.match.seed  # revealed: anyone can now re-deal and check
        return message

    def GetView(self, request: pb.GetViewRequest) -> pb.GetViewResponse:
        game = self.decode(request.state)
        seat = self._seat(game, request.seat) if request.HasField("seat") else None
        message = codec.view_to_pb(game.ruleset.id, game.ruleset.view(game.match, seat))
        message.version = game.version
        message.game_id = game.game_id
        return message

    def SuggestMove(self, request: pb.SuggestMoveRequest) -> pb.SuggestMoveResponse:
        """A bot's move for the seat to act; the bot is given that seat's view only."""
        try:
            self.admission.refuse_if_full()  # a flood is shed before its tokens are opened
        except Overloaded as exc:
            raise _overloaded(exc) from None
        game = self.decode(request.state)
        match = game.match
        if match.status is Status.MATCH_OVER:
            raise from_rules_error(GameOverError("the match is over: there is no move to suggest"))
        to_act = game.ruleset.to_act(match)
        seat = self._seat(game, request.seat) if request.HasField("seat") else to_act
        if seat != to_act:
            raise from_rules_error(
                NotYourTurnError(f"seat {to_act} is to act, not seat {seat}: ask for seat {to_act}")
            )
        try:
            level = codec.bot_level_from_pb(request.level)
        except ValueError as exc:
            raise ApiError.malformed(str(exc)) from None
        playouts = request.playouts if request.HasField("playouts") else None
        if playouts is not None and not 1 <= playouts <= codec.MAX_PLAYOUTS:
            raise ApiError.invalid(
                "BAD_PLAYOUTS", f"playouts must be from 1 to {codec.MAX_PLAYOUTS}, not {playouts}"
            )
        seed = _check_seed(request.seed) if request.HasField("seed") else None
        view = game.ruleset.view(match, seat)  # the bot sees what the seat sees, no more
        job = BotJob(game.ruleset.id, match.options, match.players, view, level, seed, playouts)
        try:
            suggestion = self.admission.run(functools.partial(_search, job))
        except Overloaded as exc:
            raise _overloaded(exc) from None
        except DeadlinePassed as exc:
            raise ApiError(
                code_pb2.DEADLINE_EXCEEDED,
                "DEADLINE_EXCEEDED",
                f"{exc}: no move was suggested; allow the search more time",
            ) from None
        except Exception as exc:  # the bot's errors, each cause its reason (errors.py)
            error = from_bot_error(exc)
            # a bot that fails on the view of a game the rules made is a bug: the door
            # logs the cause with its traceback, the client learns only the reason
            raise error from (exc if error.code == code_pb2.INTERNAL else None)
        message = codec.suggestion_to_pb(suggestion)
        message.level = pb.BotLevel.Value(level.name)  # type: ignore[assignment]
        message.seat = seat if seat is not None else 0
        message.version = game.version
        message.game_id = game.game_id
        return message

    def Replay(self, request: pb.ReplayRequest) -> pb.ReplayResponse:
        """A match record replayed from its seed (or first state), every step checked
        (:mod:`.replay`), in the room for replays (:attr:`replays`)."""
        answer: pb.ReplayResponse = self.replay_call(request)
        return answer

    def replay_call(
        self,
        data: Any,
        parse: Callable[[Any], pb.ReplayRequest] | None = None,
        render: Callable[[pb.ReplayResponse], Any] | None = None,
    ) -> Any:
        """``Replay`` as a door calls it: ``data`` is the request as it came, ``parse``
        makes it a ``ReplayRequest`` and ``render`` makes the answer what the door sends
        (``None``: ``data`` is the request, the answer the response). A call past the
        room and its queue is refused before ``data`` is read at all (``OVERLOADED``);
        else the parsing, the replay and the rendering all run where the room runs its
        work (under ``serve``, a process of its own at the lowest priority), so that the
        door's own threads spend on a replay no more than passing bytes. ``parse`` and
        ``render`` must pickle (functions of a module). The call's deadline stops the
        replay where it has got to (``DEADLINE_EXCEEDED``, its ``replayed`` moves)."""
        room = self.replays
        self.refuse_replay_if_full()  # a flood is shed before its record is read
        work: Callable[[Callable[[], bool]], Any]
        if room.processes:
            job = ReplayJob(self.tokens, self.trust_sealed, data, parse, render)
            work = functools.partial(_replay_elsewhere, job)
        else:
            work = functools.partial(self._replay_here, data, parse, render)
        try:
            return room.run(work)
        except Overloaded as exc:
            raise _overloaded(exc) from None
        except replay.Stopped as exc:
            raise ApiError(
                code_pb2.DEADLINE_EXCEEDED,
                "DEADLINE_EXCEEDED",
                str(exc),
                replayed=str(exc.replayed),
                moves=str(exc.moves),
            ) from None
        except DeadlinePassed as exc:
            raise ApiError(
                code_pb2.DEADLINE_EXCEEDED,
                "DEADLINE_EXCEEDED",
                f"{exc}: nothing was replayed; allow the replay more time",
            ) from None

    def refuse_replay_if_full(self) -> None:
        """Raise ``OVERLOADED`` now if a Replay would be refused: a door asks before it
        reads the request at all."""
        try:
            self.replays.refuse_if_full()
        except Overloaded as exc:
            raise _overloaded(exc) from None

    def _replay_here(
        self,
        data: Any,
        parse: Callable[[Any], pb.ReplayRequest] | None,
        render: Callable[[pb.ReplayResponse], Any] | None,
        stop: Callable[[], bool],
    ) -> Any:
        """The body of a replay, in whichever process the room runs it."""
        request: pb.ReplayRequest = parse(data) if parse is not None else data
        if stop():  # the deadline passed while the request was read
            raise replay.Stopped(0, len(request.record.moves))
        if not request.HasField("record"):
            raise ApiError.invalid("BAD_RECORD", "record is required: the match record to replay")
        if request.record.HasField("first_state") and not request.record.first_state:
            raise ApiError.invalid(
                "BAD_RECORD", "first_state is empty: give NewGame's token, or leave it out"
            )
        try:
            replayed = replay.replay(request, self.decode, stop)
        except records.RecordTooLarge as exc:
            raise ApiError.invalid("RECORD_TOO_LARGE", str(exc)) from None
        except records.RecordError as exc:
            raise ApiError.invalid("BAD_RECORD", str(exc)) from None
        except replay.BadSteps as exc:
            raise ApiError.invalid("BAD_STEPS", str(exc)) from None
        except replay.BadSeat as exc:
            raise ApiError.invalid("BAD_SEAT", str(exc)) from None
        if replayed.game is not None:
            replayed.response.state = self.encode(replayed.game)
        return render(replayed.response) if render is not None else replayed.response

    # ------------------------------------------------------------------ tokens

    def encode(self, game: Game) -> bytes:
        """The token of a game: its private state, sealed when keys are configured
        (the observer is told of it)."""
        token = self.tokens.seal(codec.encode_game(game))
        if self._observer is not None:
            self._observer.on_encoded(game, len(token))
        return token

    def _mint(self, game: Game) -> bytes:
        """The token of a game the rules have just made (a new game, a move applied),
        kept in :attr:`minted` for when it comes back."""
        token = self.encode(game)
        self.minted.add(token, game)
        return token

    def decode(self, token: bytes, *, events: bool = True) -> Game:
        """Open and check a token (unless this process sealed it lately); every failure
        is ``BAD_STATE_TOKEN``. The observer is told of it, opened or not.

        Without ``events``, the last move's events are not read from a token opened here
        (a game from the cache of minted games keeps its own): for the calls that do not
        use them. ApplyMove answers with the events of its own move, and GetLegalMoves
        and GetScore with none; what they answer does not depend on the last move's
        events, so those are neither read nor checked.

        With ``trust_sealed`` (``--trust-sealed``), a token sealed with one of the
        service's keys is unpacked but not checked again: only a holder of the key can
        seal, and the service seals only games its rules made (NewGame, ApplyMove,
        Replay), each from a game it had checked or made itself. Its format, its ruleset
        and the exact shape of its state (the packed fingerprint) are still those of
        this service, or it is refused. Off by default, since a key can leak: then every
        token is checked in full before any rule runs, as an unsealed token always is."""
        game: Game | None = None
        try:
            if not token:
                raise ApiError.invalid(
                    "BAD_STATE_TOKEN", "state is required: send the token you were given"
                )
            game = self.minted.get(token)
            if game is not None:
                return game
            try:
                payload, sealed = self.tokens.open_sealed(token)
                game = codec.decode_game(
                    payload, trusted=sealed and self.trust_sealed, events=events
                )
                return game
            except (TokenError, codec.StateDecodeError) as exc:
                raise ApiError.invalid("BAD_STATE_TOKEN", str(exc)) from None
            except RulesError as exc:
                raise ApiError.invalid(
                    "BAD_STATE_TOKEN", f"the state token does not hold a valid game: {exc}"
                ) from None
        finally:
            if self._observer is not None:
                self._observer.on_decoded(game, len(token))

    @staticmethod
    def _seat(game: Game, seat: int, what: str = "seat") -> int:
        if not 0 <= seat < game.match.players:
            raise ApiError.invalid(
                "BAD_SEAT",
                f"{what} {seat} is not at this table: seats are 0 to {game.match.players - 1}",
            )
        return seat


@dataclass(frozen=True, slots=True)
class ReplayJob:
    """A replay handed to a process of its own: the service's tokens (to open a first
    state and seal the answer's), the request as the door got it, and how to read it and
    write the answer (:meth:`RulesService.replay_call`)."""

    tokens: TokenCodec
    trust_sealed: bool
    data: Any
    parse: Callable[[Any], pb.ReplayRequest] | None
    render: Callable[[pb.ReplayResponse], Any] | None


def _replay_elsewhere(job: ReplayJob, stop: Callable[[], bool]) -> Any:
    """A replay, in a process of the room for replays: a service of its own with the
    serving process's tokens, no cache."""
    service = RulesService(job.tokens, minted=0, trust_sealed=job.trust_sealed)
    return service._replay_here(job.data, job.parse, job.render, stop)


def read_replay_request(data: bytes) -> pb.ReplayRequest:
    """A ``ReplayRequest`` from its protobuf bytes (the gRPC door's). Protobuf's parser
    is linear in the bytes and refuses nesting past its limit; the record's counts are
    then bounded (``records.check``) before any of it is replayed."""
    try:
        request = pb.ReplayRequest.FromString(data)
    except DecodeError as exc:
        raise ApiError.malformed(f"the request is not a ReplayRequest: {exc}") from None
    return request


def serialized(message: pb.ReplayResponse) -> bytes:
    """A message's protobuf bytes (what the gRPC door sends)."""
    return message.SerializeToString()


@dataclass(frozen=True, slots=True)
class BotJob:
    """What a bot is given to suggest a move: what the seat to act knows, no more."""

    ruleset: str
    options: Any
    players: int
    view: View
    level: bots.Level
    seed: str | None
    playouts: int | None


def _search(job: BotJob, stop: Callable[[], bool]) -> bots.Suggestion:
    """A bot's search, in whichever process :class:`Admission` runs it."""
    try:
        return bots.suggest(
            games.get(job.ruleset).ruleset, job.options, job.players, job.view, job.level,
            seed=job.seed, playouts=job.playouts, stop=stop,
        )  # fmt: skip
    except bots.SearchStopped:
        raise DeadlinePassed("the deadline passed during the search") from None


def _overloaded(exc: Overloaded) -> ApiError:
    return ApiError(
        code_pb2.RESOURCE_EXHAUSTED, "OVERLOADED", str(exc), retry_after=exc.retry_after
    )


def new_seed() -> str:
    """A server-chosen seed: 128 bits from :mod:`secrets`, as 32 hex digits."""
    return secrets.token_hex(16)


def _rules(call: Callable[[], T]) -> T:
    try:
        return call()
    except RulesError as exc:
        raise from_rules_error(exc) from None


def _status(status: Status) -> pb.Status:
    return codec.status_to_pb(status)


def _check_seed(seed: str) -> str:
    try:
        return codec.check_seed(seed)
    except ValueError as exc:
        raise ApiError.invalid("BAD_SEED", str(exc)) from None
