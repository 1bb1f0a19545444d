"""The base of every ruleset: the hand hooks a game implements, and the match around them.

A ruleset implements a handful of *hand hooks* (deal a hand from a given tile order, its
legal moves, apply one legal move, is the hand over, score it, what a seat sees of the
table, what its hand states may hold). The framework owns everything that is the same in
every game:

* the generic checks of :meth:`Ruleset.apply`: a malformed move, game over, wrong seat,
  move not legal (legality has one home, :meth:`Ruleset.legal_moves`);
* the deal: the set in its canonical ascending order is shuffled with the documented
  generator (:mod:`.rng`, label ``deal/<hand>/<attempt>``) and handed to the ruleset's
  :meth:`Ruleset.deal_from`, which a test can call with an exact order;
* the match: hand numbers, ``HAND_OVER`` -> ``NEXT_HAND`` (seat 0 acts for it), totals,
  match end and winners (equal best totals share the win);
* options: typed, with defaults and ranges declared on the options dataclass;
* views: own hand, others' hand sizes, the stock, the seat's legal moves, the last
  move's events with other seats' secrets removed;
* :meth:`Ruleset.check_match`: the complete check of a state that came from outside
  (a client's token), before any rule runs on it;
* a finished hand in words (:meth:`Ruleset.explain_hand`): how it ended, who won, the
  points, and any tie-break with its rule's tag, for people; a game with tie-breaks or
  special scoring says it in its own words, from the helpers here (:func:`seats_text`,
  :func:`points_text`, :func:`tie_break_text`).

States are frozen dataclasses: applying a move returns a new state and never changes
the one passed in. Every hand state has ``hands`` (one sorted tuple of tiles per seat),
``to_act`` and ``leader`` (:class:`HandState`).

The framework's bounds on every match are in :mod:`.limits`.
"""

from __future__ import annotations

import abc
import functools
import operator
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic

from . import rng
from .consistency import check_match
from .errors import (
    GameOverError,
    IllegalMoveError,
    NotYourTurnError,
    OptionsError,
    PlayerCountError,
)
from .events import Event, EventKind
from .limits import (
    MAX_DEAL_ATTEMPTS,
    MAX_HANDS,
    MAX_PLAYOUT_MOVES,
)
from .match import HandEnd, HandResult, Match, OptionsT, StateT, Status, build_match, with_hand
from .moves import Move, MoveKind
from .options import (
    OptionSpec,
    _checked_option,
    _option_hints,
    _option_specs,
)
from .tiles import Tile
from .views import HandReasons, Score, View

__all__ = [
    "HAND_END_WORDS",
    "Profile",
    "Ruleset",
    "TieBreak",
    "points_text",
    "seats_text",
    "tie_break_text",
]


#: The only legal move of a hand that is over (RULES: seat 0 applies NEXT_HAND).
_NEXT_HAND_MOVES = (Move(0, MoveKind.NEXT_HAND),)
# Members the framework reads on every move, as module constants: reading a member off its
# Enum class is a slow lookup (the metaclass defines __getattr__).
_NEXT_HAND = MoveKind.NEXT_HAND
_IN_PROGRESS, _HAND_OVER, _MATCH_OVER = Status.IN_PROGRESS, Status.HAND_OVER, Status.MATCH_OVER
_POINTS = operator.attrgetter("points")


@functools.lru_cache(maxsize=1024)
def _event_of(
    kind: EventKind, count: int | None, seats: tuple[int, ...], scores: tuple[int, ...]
) -> Event:
    """The events of a hand's end and of a new hand recur: each is made once while it does."""
    return Event(kind, count=count, seats=seats, scores=scores)


_NEXT_HAND_EVENT, _HAND_OVER_EVENT, _MATCH_OVER_EVENT = (
    EventKind.NEXT_HAND,
    EventKind.HAND_OVER,
    EventKind.MATCH_OVER,
)


# ---- a finished hand in words ------------------------------------------------------

#: How each end of a hand opens its explanation (:meth:`Ruleset.explain_hand`).
HAND_END_WORDS: Mapping[HandEnd, str] = {
    HandEnd.DOMINOED: "Dominoed",
    HandEnd.BLOCKED: "Blocked",
    HandEnd.IDLE_ROUNDS: "Two rounds in a row without a tile laid",
    HandEnd.WOODPILE_EXHAUSTED: "The woodpile is exhausted",
    HandEnd.ALL_TILES_PLACED: "Every tile played or discarded",
    HandEnd.TARGET_REACHED: "The target was reached during the hand",
}


def _listed(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def seats_text(seats: Iterable[int]) -> str:
    """Seats in words, as a sentence names them (seats are numbered from 0).

    >>> seats_text([1]), seats_text((1, 2)), seats_text([0, 1, 3]), seats_text(())
    ('seat 1', 'seats 1 and 2', 'seats 0, 1 and 3', 'no seat')
    """
    listed = [str(seat) for seat in seats]
    if not listed:
        return "no seat"
    return f"seat {listed[0]}" if len(listed) == 1 else f"seats {_listed(listed)}"


def points_text(values: Sequence[int], seats: Iterable[int] | None = None) -> str:
    """Each seat's value (of ``seats``, default all), as a sentence lists them.

    >>> points_text((12, 6, 40)), points_text((12, 6, 40), [2])
    ('seat 0 12, seat 1 6 and seat 2 40', 'seat 2 40')
    """
    chosen = range(len(values)) if seats is None else seats
    return _listed([f"seat {seat} {values[seat]}" for seat in chosen])


@dataclass(frozen=True, slots=True)
class TieBreak:
    """One step of a tie-break, for :func:`tie_break_text`: how it reads (``words``),
    each seat's value (the seats with the lowest go on; ``None`` where the match no
    longer holds them) and whether the values are worth naming (not a turn order)."""

    words: str
    values: Sequence[int] | None
    shown: bool = True


def tie_break_text(winner: int, tied: Sequence[int], steps: Sequence[TieBreak]) -> str:
    """How ``winner`` came out of ``tied`` (seats equal before the tie-break) by
    ``steps`` in order: each step that separated seats, with the values that did.

    A step whose values the match no longer holds (or values that do not lead to
    ``winner``) ends the account with the rule's order from there on, without saying
    which step separated them.

    >>> fewer = TieBreak("fewer tiles", (1, 2, 1))
    >>> lower = TieBreak("the lower total", (30, 0, 5))
    >>> print(tie_break_text(2, (0, 1, 2), [fewer, lower]))
    fewer tiles (1, against 2 for seat 1), then the lower total (5, against 30 for seat 0)
    >>> print(tie_break_text(0, (0, 1), [TieBreak("fewer tiles", None), lower]))
    the first of these that separates them: fewer tiles, the lower total
    """
    left = list(tied)
    said: list[str] = []
    for index, step in enumerate(steps):
        if len(left) <= 1:
            break
        values = step.values
        if values is None:
            return _in_order(said, steps[index:])
        best = min(values[seat] for seat in left)
        out = [seat for seat in left if values[seat] != best]
        left = [seat for seat in left if values[seat] == best]
        if out and step.shown:
            against = _listed([f"{values[seat]} for seat {seat}" for seat in out])
            said.append(f"{step.words} ({best}, against {against})")
        elif out:
            said.append(step.words)
    if left != [winner]:
        return _in_order([], steps)  # values that do not lead to the winner
    return ", then ".join(said)


def _in_order(said: list[str], steps: Sequence[TieBreak]) -> str:
    """``said``, then the rest of a tie-break as the rule orders it."""
    order = ", ".join(step.words for step in steps)
    return ", then ".join([*said, f"the first of these that separates them: {order}"])


@dataclass(frozen=True, slots=True)
class Profile:
    """A named set of options a client can pick (``ListRulesets``): the options it names
    (by name, enums by their names, as :meth:`Ruleset.make_options` takes them), every
    other at its default. The catalogue refuses a game whose profile is not valid."""

    #: A lowercase identifier, unique in its ruleset: ``"fives_and_threes"``.
    id: str
    #: Its name for people: ``"Fives and Threes"``.
    name: str
    #: Where it comes from and what it changes, in words.
    description: str
    options: Mapping[str, Any]


class Ruleset(abc.ABC, Generic[OptionsT, StateT]):
    """Base of every ruleset. Subclasses set the class attributes and implement the
    abstract hooks; the other hooks have defaults that fit most games.

    Hooks see only states the framework has checked: ``hand_apply`` is given a move that
    is in ``hand_legal_moves``, and a state from outside has passed :meth:`check_match`.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    source: ClassVar[str]
    description: ClassVar[str]
    options_type: ClassVar[type]
    hand_state_type: ClassVar[type]
    #: The frozen dataclass :meth:`table` returns (a view's own part of this ruleset,
    #: whose message is the field of ``GetViewResponse`` named like the id); ``None``
    #: where :meth:`table` returns ``None`` and a view has only the parts every game has.
    table_type: ClassVar[type | None] = None
    min_players: ClassVar[int] = 2
    #: True where the fewest match points win (Tsair Deng).
    low_wins: ClassVar[bool] = False
    #: How this ruleset's hands can end (``HandResult.end``).
    hand_ends: ClassVar[frozenset[HandEnd]]
    #: True where every hand carries its own settlement (``HandResult.settlement``).
    settles_hands: ClassVar[bool] = False
    #: True where a hand may end with no winner (a tie that nobody wins, ``[BLK-10]``):
    #: its ``HandResult.winners`` is then empty.
    hands_may_have_no_winner: ClassVar[bool] = False
    #: Named sets of options (:class:`Profile`), in the order ``ListRulesets`` lists them.
    profiles: ClassVar[tuple[Profile, ...]] = ()

    # ---- hooks every ruleset implements ---------------------------------------

    @abc.abstractmethod
    def full_set(self, options: OptionsT) -> tuple[Tile, ...]:
        """The tiles of the game, in canonical ascending order (the order the deal shuffles)."""

    @abc.abstractmethod
    def max_players(self, options: OptionsT) -> int: ...

    @abc.abstractmethod
    def deal_from(
        self, match: Match[OptionsT, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[StateT, tuple[Event, ...]]:
        """Deal hand ``hand_number`` (1-based) from ``order``, the whole set in the order a
        shuffle left it; ``match.hand_state`` is the previous hand's state (``None`` for
        the first). :meth:`deal` shuffles; a test passes an exact order instead."""

    @abc.abstractmethod
    def hand_legal_moves(self, state: StateT, options: OptionsT) -> tuple[Move, ...]: ...

    @abc.abstractmethod
    def hand_apply(
        self, match: Match[OptionsT, StateT], move: Move
    ) -> tuple[StateT, tuple[Event, ...]]:
        """Apply a legal move to ``match.hand_state``; the match gives the options, the seed
        (for dice thrown mid-hand) and the hand number."""

    @abc.abstractmethod
    def hand_over(self, state: StateT) -> bool: ...

    @abc.abstractmethod
    def score_hand(self, match: Match[OptionsT, StateT]) -> HandResult:
        """The result of the hand just over (``match.history`` holds the hands before it)."""

    @abc.abstractmethod
    def match_over(self, match: Match[OptionsT, StateT]) -> bool:
        """Called once the hand just scored is in ``match.history``."""

    @abc.abstractmethod
    def stock(self, state: StateT) -> int:
        """Tiles left to draw (boneyard, woodpile)."""

    @abc.abstractmethod
    def table(self, match: Match[OptionsT, StateT], seat: int | None) -> Any:
        """The ruleset's part of a view: the table as ``seat`` sees it."""

    @abc.abstractmethod
    def all_tiles(self, state: StateT) -> tuple[Tile, ...]:
        """Every tile of the set, wherever it lies (for conservation checks)."""

    @abc.abstractmethod
    def check_hand_state(self, match: Match[OptionsT, StateT]) -> None:
        """Raise :class:`InvalidStateError` unless ``match.hand_state`` is one that play can
        reach, as far as the rules rely on it (see :meth:`check_match`).

        Called by :meth:`check_match` once every field has its declared type, the options,
        the players and the rest of the match are valid, ``hands`` holds one sorted hand per
        seat, no larger than the set, and ``to_act`` and ``leader`` are seats. It must bound
        the size of every other tuple before :meth:`all_tiles` is called on the state."""

    # ---- hooks with defaults --------------------------------------------------

    def check_options(self, options: OptionsT) -> None:
        """Checks across options; raise :class:`OptionsError`."""

    def max_hands(self, options: OptionsT, players: int) -> int:
        """The most hands a match of these options and players can have: it ends with
        this hand at the latest (:data:`MAX_HANDS` unless the options say fewer). A
        token's history is bounded by it before it is read, so ``options`` and
        ``players`` may still be unchecked: only arithmetic on them, no exception."""
        return MAX_HANDS

    def deal_set(self, options: OptionsT, hand_number: int) -> tuple[Tile, ...]:
        """The tiles the deal of hand ``hand_number`` shuffles, in canonical ascending
        order: the whole set (:meth:`full_set`), unless a game deals from less (the trains
        games set their hand's engine aside before the shuffle)."""
        return self.full_set(options)

    def void_deal(self, match: Match[OptionsT, Any], order: tuple[Tile, ...]) -> bool:
        """True when a deal from ``order`` is void and is dealt again (event ``REDEAL``)."""
        return False

    def hand_to_act(self, state: StateT) -> int:
        return state.to_act

    def hand_tiles(self, state: StateT, seat: int) -> tuple[Tile, ...]:
        return state.hands[seat]

    def running_points(self, state: StateT, players: int) -> tuple[int, ...]:
        """Points scored so far in a hand still in progress (pegging)."""
        return (0,) * players

    def settlement(self, match: Match[OptionsT, StateT]) -> tuple[int, ...] | None:
        """Each seat's net payment, where the ruleset settles; ``None`` otherwise."""
        return None

    # ---- options --------------------------------------------------------------

    @classmethod
    def option_specs(cls) -> tuple[OptionSpec, ...]:
        return _option_specs(cls.options_type)

    def make_options(self, values: Mapping[str, Any] | None = None) -> OptionsT:
        """Options from ``{name: value}``; omitted names take their defaults.

        Enum values may be given as members or by name.
        """
        values = dict(values or {})
        specs = {s.name: s for s in self.option_specs()}
        unknown = sorted(set(values) - set(specs))
        if unknown:
            raise OptionsError(f"{self.id} has no option {unknown[0]!r}; it has {sorted(specs)}")
        hints = _option_hints(self.options_type)
        checked = {
            name: _checked_option(specs[name], hints[name], value, by_name=True)
            for name, value in values.items()
        }
        options = typing.cast(OptionsT, self.options_type(**checked))
        self.check_options(options)
        return options

    @property
    def players_text(self) -> str:
        """How many players, in words (``ListRulesets``)."""
        return f"{self.min_players} to {self.max_players(self.make_options({}))} players"

    def player_range(self, options: OptionsT) -> tuple[int, int]:
        return self.min_players, self.max_players(options)

    # ---- the match ------------------------------------------------------------

    def new_match(self, options: OptionsT, players: int, seed: str) -> Match[OptionsT, StateT]:
        low, high = self.player_range(options)
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise PlayerCountError(
                f"{self.name} takes {low} to {high} players with these options, not {players!r}"
            )
        blank: Match[OptionsT, Any] = build_match(
            players, options, seed, 0, None, (), _IN_PROGRESS, ()
        )
        state, events = self.deal(blank, 1)
        return build_match(players, options, seed, 1, state, (), _IN_PROGRESS, events)

    def deal(
        self, match: Match[OptionsT, Any], hand_number: int
    ) -> tuple[StateT, tuple[Event, ...]]:
        """Deal hand ``hand_number``: the set in canonical order (:meth:`deal_set`) is
        shuffled with label ``deal/<hand>/<attempt>`` (:func:`.rng.shuffled`) and dealt by
        :meth:`deal_from`. Attempt 0 is the deal, unless :meth:`void_deal` finds it void:
        then attempt 1, 2, ..., each void deal reported by a ``REDEAL`` event (count =
        attempts so far), placed after the ``DEAL`` event."""
        tiles = self.deal_set(match.options, hand_number)
        redeals: list[Event] = []
        for attempt in range(MAX_DEAL_ATTEMPTS):
            order = rng.shuffled(match.seed, f"deal/{hand_number}/{attempt}", tiles)
            if not self.void_deal(match, order):
                state, events = self.deal_from(match, hand_number, order)
                if not redeals:
                    return state, events
                return state, (*events[:1], *redeals, *events[1:])
            redeals.append(Event(EventKind.REDEAL, count=attempt + 1))
        raise RuntimeError("every deal was void")  # pragma: no cover - probability ~ 0

    def ends_match(self, match: Match[OptionsT, StateT]) -> bool:
        """Is the match over once the hand just scored is in ``match.history``: the
        ruleset's :meth:`match_over`, or hand :data:`MAX_HANDS` reached."""
        return match.hand_number >= MAX_HANDS or self.match_over(match)

    def to_act(self, match: Match[OptionsT, StateT]) -> int | None:
        if match.status is _MATCH_OVER:
            return None
        if match.status is _HAND_OVER:
            return 0  # RULES: seat 0 applies NEXT_HAND
        return self.hand_to_act(match.hand_state)

    def legal_moves(self, match: Match[OptionsT, StateT]) -> tuple[Move, ...]:
        """The legal moves of the seat to act; empty once the match is over.

        The ruleset remembers the last match it listed them for (:attr:`_listed`), so that
        :meth:`apply` of one of those moves to that match object does not list them again.
        """
        status = match.status
        legal: tuple[Move, ...]
        if status is _IN_PROGRESS:
            legal = self.hand_legal_moves(match.hand_state, match.options)
        elif status is _HAND_OVER:
            legal = _NEXT_HAND_MOVES
        else:
            legal = ()
        self._listed = (match, legal)
        return legal

    #: The match :meth:`legal_moves` was last asked about, and its answer: one pair, read
    #: and replaced whole (threads that share the ruleset at worst miss it). It keeps that
    #: match alive, so an identity test on it cannot mistake another match for it.
    _listed: tuple[object, tuple[Move, ...]] = (None, ())

    def is_legal(self, match: Match[OptionsT, StateT], move: Move) -> bool:
        return move in self.legal_moves(match)

    def apply(
        self, match: Match[OptionsT, StateT], move: Move
    ) -> tuple[Match[OptionsT, StateT], tuple[Event, ...]]:
        """Apply a move after the generic checks; returns the new match and its events.

        The checks, in order: the move is well formed (:class:`InvalidMoveError`), the match
        is not over (:class:`GameOverError`), the move's seat is to act
        (:class:`NotYourTurnError`), the move is legal (:class:`IllegalMoveError`). The
        messages name the move and public facts only (the kinds of the legal moves, never
        their tiles).

        A move that *is* one of the moves :meth:`legal_moves` just listed for this match
        object (the same object, as a playout passes it back) has passed them all.
        """
        listed_match, listed = self._listed
        if listed_match is not match or not any(legal is move for legal in listed):
            self._check(match, move)
        return self._apply(match, move)

    def _check(self, match: Match[OptionsT, StateT], move: Move) -> None:
        """The generic checks of :meth:`apply`, in order."""
        move.check()
        if match.status is _MATCH_OVER:
            raise GameOverError(f"the match is over; no move is legal (got {move})")
        to_act = self.to_act(match)
        if move.seat != to_act:
            raise NotYourTurnError(f"seat {to_act} is to act, not seat {move.seat} (got {move})")
        legal = self.legal_moves(match)
        if move not in legal:
            kinds = " or ".join(dict.fromkeys(m.kind.value for m in legal))
            raise IllegalMoveError(
                f"{move} is not legal: seat {to_act}'s legal moves are {kinds} moves"
            )

    def _apply(
        self, match: Match[OptionsT, StateT], move: Move
    ) -> tuple[Match[OptionsT, StateT], tuple[Event, ...]]:
        """Apply a move known to be legal: the unchecked path behind :meth:`apply`."""
        if move.kind is _NEXT_HAND:
            players, options, seed = match.players, match.options, match.seed
            number = match.hand_number + 1
            state, dealt = self.deal(match, number)
            events = (_event_of(_NEXT_HAND_EVENT, number, (), ()), *dealt)
            new = build_match(
                players, options, seed, number, state, match.history, _IN_PROGRESS, events
            )
            return new, events
        state, events = self.hand_apply(match, move)
        if self.hand_over(state):
            return self._hand_ended(match, state, events)
        return with_hand(match, state, events), events

    def _hand_ended(
        self, match: Match[OptionsT, StateT], state: StateT, events: tuple[Event, ...]
    ) -> tuple[Match[OptionsT, StateT], tuple[Event, ...]]:
        """The match after a move that ended the hand (``state``, ``events``): the hand is
        scored, then the match may be over."""
        result = self.score_hand(with_hand(match, state))
        history = (*match.history, result)
        events += (_event_of(_HAND_OVER_EVENT, None, result.winners, result.points),)
        status = _HAND_OVER
        if self.ends_match(with_hand(match, state, history=history)):
            status = _MATCH_OVER
            ended = with_hand(match, state, history=history, status=_MATCH_OVER)
            events += (_event_of(_MATCH_OVER_EVENT, None, self.winners(ended), self.totals(ended)),)
        return with_hand(match, state, events, history=history, status=status), events

    # ---- the bots' playouts ---------------------------------------------------

    def play_hand(
        self,
        match: Match[OptionsT, StateT],
        move: Move,
        choose: Callable[[Match[OptionsT, StateT], tuple[Move, ...]], Move],
    ) -> HandResult:
        """The result of the hand in progress in ``match`` once ``move`` (one of its legal
        moves) is played, then the move ``choose(match, legal)`` picks at every turn with
        a choice (a forced move is made at once), until the hand is over: a bot's playout.

        The hand is played by the ruleset's own hooks, as :meth:`apply` plays it, without
        the match-level steps a playout does not need (the generic checks: every move is
        one the hooks listed; the match's events). ``match`` is not changed.
        """
        options = match.options
        hand_apply, hand_over, hand_legal_moves = (
            self.hand_apply,
            self.hand_over,
            self.hand_legal_moves,
        )
        for _ in range(MAX_PLAYOUT_MOVES):
            state, _events = hand_apply(match, move)
            match = with_hand(match, state)
            if hand_over(state):
                return self.score_hand(match)
            legal = hand_legal_moves(state, options)
            move = legal[0] if len(legal) == 1 else choose(match, legal)
        raise RuntimeError(f"a hand of {self.id} did not end in {MAX_PLAYOUT_MOVES} moves")

    # ---- scores and views -----------------------------------------------------

    def totals(self, match: Match[OptionsT, StateT]) -> tuple[int, ...]:
        players = match.players
        history = match.history
        # by columns: one sum per seat over all the hands (a history has up to 1,000)
        totals = (
            list(map(sum, zip(*map(_POINTS, history), strict=True))) if history else [0] * players
        )
        if match.status is _IN_PROGRESS:
            running = self.running_points(match.hand_state, players)
            if any(running):  # points pegged in this hand (none in most games)
                for seat, value in enumerate(running):
                    totals[seat] += value
        return tuple(totals)

    def winners(self, match: Match[OptionsT, StateT]) -> tuple[int, ...]:
        """Seats with the best match total (equal best share the win); empty until the end."""
        if match.status is not _MATCH_OVER:
            return ()
        totals = self.totals(match)
        best = min(totals) if self.low_wins else max(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == best)

    def score(self, match: Match[OptionsT, StateT]) -> Score:
        if match.status is _IN_PROGRESS:
            hand_points = self.running_points(match.hand_state, match.players)
        else:
            hand_points = match.history[-1].points
        return Score(
            status=match.status,
            hand_points=hand_points,
            match_points=self.totals(match),
            hands=match.history,
            winners=self.winners(match),
            settlement=self.settlement(match),
            reasons=HandReasons(functools.partial(self.hand_reasons, match)),
        )

    # ---- a finished hand in words ------------------------------------------------

    def hand_reasons(self, match: Match[OptionsT, StateT]) -> tuple[str, ...]:
        """How each finished hand of ``match.history`` was decided, in order
        (:meth:`explain_hand`)."""
        before = (0,) * match.players
        reasons = []
        for number, result in enumerate(match.history, start=1):
            reasons.append(self.explain_hand(match, number, before))
            before = tuple(map(operator.add, before, result.points))
        return tuple(reasons)

    def explain_hand(
        self, match: Match[OptionsT, StateT], number: int, before: tuple[int, ...]
    ) -> str:
        """How hand ``number`` (1-based, ``match.history[number - 1]``) was decided, in a
        plain English sentence or two for people: how it ended, who won, the points, and
        any tie-break the rules applied, with its rule's tag. ``before`` is each seat's
        match total before this hand.

        The words come only from what the match holds: the hand's result, the options,
        the hands before it and, for the hand just over, its final state
        (:meth:`finished_state`); never a tile of a hand. This default names the end,
        the winners and the points; a ruleset with tie-breaks or special scoring says
        more in its own words.
        """
        result = match.history[number - 1]
        head = HAND_END_WORDS.get(result.end, result.end.value.replace("_", " ").capitalize())
        if result.winners:
            verb = "wins" if len(result.winners) == 1 else "win"
            who = f"{seats_text(result.winners)} {verb} the hand"
        else:
            who = "nobody wins the hand"
        scored = [seat for seat, points in enumerate(result.points) if points]
        if not scored:
            points = "Nobody scores."
        elif len(scored) == 1:
            points = f"Seat {scored[0]} scores {result.points[scored[0]]}."
        else:
            points = f"Points: {points_text(result.points, scored)}."
        return f"{head}: {who}. {points}"

    def finished_state(self, match: Match[OptionsT, StateT], number: int) -> StateT | None:
        """The final state of finished hand ``number`` where the match still holds it:
        the last hand of the history while the match is ``HAND_OVER`` or ``MATCH_OVER``;
        ``None`` for an earlier hand (only its result is kept)."""
        if match.status is not _IN_PROGRESS and number == len(match.history):
            return match.hand_state
        return None

    def view(self, match: Match[OptionsT, StateT], seat: int | None) -> View:
        """What ``seat`` may see; ``None`` is a spectator, who sees only the public part."""
        to_act = self.to_act(match)
        state = match.hand_state
        return View(
            seat=seat,
            status=match.status,
            to_act=to_act,
            hand_number=match.hand_number,
            hand=self.hand_tiles(state, seat) if seat is not None else (),
            hand_sizes=tuple(len(self.hand_tiles(state, s)) for s in range(match.players)),
            stock=self.stock(state),
            legal_moves=self.legal_moves(match) if seat is not None and seat == to_act else (),
            events=tuple(e.for_seat(seat) for e in match.last_events),
            match_points=self.totals(match),
            table=self.table(match, seat),
            shown_hands=self.shown_hands(match),
        )

    def shown_hands(self, match: Match[OptionsT, StateT]) -> tuple[tuple[Tile, ...], ...]:
        """Once the hand is over, every seat's tiles left in hand, as the table turns them
        up to count them; ``()`` while a hand is in play. Nothing else is shown: the stock,
        and tiles laid face down, stay hidden."""
        if match.status is Status.IN_PROGRESS:
            return ()
        state = match.hand_state
        return tuple(self.hand_tiles(state, s) for s in range(match.players))

    # ---- the check of a state from outside --------------------------------------

    #: ``check_match(match, *, typed=False)``: raise :class:`InvalidStateError` unless
    #: ``match`` is a state of this ruleset that play can reach, as far as any rule relies
    #: on it: the complete check of a state that came from outside (a client's token),
    #: before any rule runs on it. ``typed``: the caller vouches that every field has its
    #: declared type all the way down (only the unpacker may). The checks, in order, are
    #: in :mod:`.consistency` (the function itself, as a method: no call in between).
    check_match = check_match
