"""Checking a match that came from outside: :meth:`Ruleset.check_match`.

The check raises :class:`InvalidStateError` unless ``match`` is a state of this ruleset that
play can reach, as far as any rule relies on it.

``typed``: the caller vouches that every field has its declared type all the way
down, so the walk over the types is skipped. Only for a match just built by this
ruleset's unpacker (:func:`domino_rules.state.packing.unpack`), which makes every value
of its declared type by construction (the tests check it on every kind of state);
every other check runs.

A state decoded from a client's token may be forged: any field can hold any value.
This checks everything before a rule runs, so that afterwards ``legal_moves``,
``view`` (of a seat at the table or a spectator), ``score`` and ``apply`` raise
nothing but :class:`RulesError`, and their work is bounded by the ruleset's own
sizes. It is cheap (no sorting, one pass over the tiles) and never re-derives a deal
from the seed. In order:

* every field has its declared type, all the way down;
* the options pass the same checks as in :meth:`make_options`; the number of
  players is in the ruleset's range for them; the seed has 1 to
  :data:`MAX_SEED_CHARS` characters and is valid Unicode text;
* ``hand_number`` is 1 to :meth:`max_hands` (at most :data:`MAX_HANDS`);
  ``history`` holds the hands before the current one (``IN_PROGRESS``) or up to
  and including it (``HAND_OVER``, ``MATCH_OVER``); each result has one count,
  point and (where the ruleset settles hand by hand) settlement per seat, within
  :data:`MAX_HAND_POINTS` (counts and points never negative), winners (at least one,
  unless the ruleset's hands may have none) in
  ascending seat order, an ``end`` the ruleset uses; match totals and
  settlements are within :data:`MAX_TOTAL`;
* ``last_events``: at most :data:`MAX_EVENTS`, each with seats at the table, tiles
  of the set, pips of the set, dice of 1 to 6 (at most 3), and bounded numbers;
* the hand state: one sorted hand per seat, no larger than the set; ``to_act`` and
  ``leader`` are seats; then the ruleset's own :meth:`check_hand_state`; then all
  its tiles together are exactly one copy of the set;
* the status fits the hand: ``IN_PROGRESS`` exactly when the hand is not over, the
  last result is the score of the finished hand, ``MATCH_OVER`` exactly when the
  match ends with it, and a hand in progress follows one that did not end the
  match; a hand in progress has a legal move.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import operator
import typing
from collections.abc import Callable
from typing import Any

from .building import fields_of, made_of, type_ok
from .checks import (
    TypeCheck,
    check_length,
    check_range,
    check_seat,
    fail,
    is_sorted,
    require,
    type_check,
)
from .errors import (
    InvalidStateError,
    OptionsError,
)
from .events import Event
from .limits import (
    MAX_COUNT,
    MAX_EVENTS,
    MAX_HAND_POINTS,
    MAX_HANDS,
    MAX_SEED_CHARS,
    MAX_TOTAL,
)
from .match import HandEnd, HandResult, Match, Status
from .moves import MAX_TRAIN, Move
from .options import (
    OptionSpec,
    _checked_option,
    _int_option_ranges,
    _option_hints,
)
from .tiles import SetCodes, Tile, set_codes

__all__ = ["check_match"]


class _Ruleset(typing.Protocol):
    """What the check reads of a ruleset: a :class:`~.ruleset.Ruleset`, named by what it
    offers, since the base imports this module (it is its ``check_match``)."""

    @property
    def name(self) -> str: ...
    @property
    def options_type(self) -> type: ...
    @property
    def hand_state_type(self) -> type: ...
    @property
    def hand_ends(self) -> frozenset[HandEnd]: ...
    @property
    def settles_hands(self) -> bool: ...
    @property
    def hands_may_have_no_winner(self) -> bool: ...
    def option_specs(self) -> tuple[OptionSpec, ...]: ...
    def check_options(self, options: Any) -> None: ...
    def player_range(self, options: Any) -> tuple[int, int]: ...
    def max_hands(self, options: Any, players: int) -> int: ...
    def full_set(self, options: Any) -> tuple[Tile, ...]: ...
    def all_tiles(self, state: Any) -> tuple[Tile, ...]: ...
    def check_hand_state(self, match: Match[Any, Any]) -> None: ...
    def hand_over(self, state: Any) -> bool: ...
    def score_hand(self, match: Match[Any, Any]) -> HandResult: ...
    def ends_match(self, match: Match[Any, Any]) -> bool: ...
    def legal_moves(self, match: Match[Any, Any]) -> tuple[Move, ...]: ...


_IN_PROGRESS, _HAND_OVER, _MATCH_OVER = Status.IN_PROGRESS, Status.HAND_OVER, Status.MATCH_OVER
_make_match = made_of(Match)
# The fields of hand results, read over a whole history at once (``map``).
_COUNTS = operator.attrgetter("counts")
_POINTS = operator.attrgetter("points")
_WINNERS = operator.attrgetter("winners")
_END = operator.attrgetter("end")
_SETTLEMENT = operator.attrgetter("settlement")


def check_match(ruleset: _Ruleset, match: Match[Any, Any], *, typed: bool = False) -> None:
    """Raise :class:`InvalidStateError` unless ``match`` is a state of ``ruleset`` that play
    can reach, as far as any rule relies on it (the checks, in order: the module
    docstring). Every ruleset has it as its method ``check_match``. ``typed``: the caller
    vouches that every field has its declared type all the way down (only the unpacker
    may), so the walk over the types is skipped."""
    if not typed:
        _check_match_types(ruleset, match)
    options, players = match.options, match.players
    if not _options_in_range(ruleset, options):
        try:
            hints = _option_hints(ruleset.options_type)
            for spec in ruleset.option_specs():
                _checked_option(spec, hints[spec.name], getattr(options, spec.name), by_name=False)
        except OptionsError as exc:
            raise InvalidStateError(f"the options are not valid: {exc}") from None
    try:
        ruleset.check_options(options)
    except OptionsError as exc:
        raise InvalidStateError(f"the options are not valid: {exc}") from None
    low, high = ruleset.player_range(options)
    if not low <= players <= high:
        check_range(players, low, high, "players")
    seed = match.seed
    if not 1 <= len(seed) <= MAX_SEED_CHARS:
        check_range(len(seed), 1, MAX_SEED_CHARS, "the length of the seed")
    try:
        seed.encode("utf-8")
    except UnicodeError:
        fail("the seed is not valid Unicode text")
    number, status, history = match.hand_number, match.status, match.history
    if not 1 <= number <= MAX_HANDS:
        check_range(number, 1, MAX_HANDS, "hand_number")
    last = min(ruleset.max_hands(options, players), MAX_HANDS)
    if number > last:
        check_range(number, 1, last, "hand_number")
    over = status is not _IN_PROGRESS
    if len(history) != number - (0 if over else 1):
        fail(f"{len(history)} hands in the history do not fit hand {number} ({status.value})")
    _check_history(ruleset, history, players)
    full = ruleset.full_set(options)
    codes = set_codes(full)
    _check_events(ruleset, match, codes)
    _check_hand_state_shape(ruleset, match, len(full))
    ruleset.check_hand_state(match)
    # all the tiles together are exactly one copy of the set
    if sorted([tile.code for tile in ruleset.all_tiles(match.hand_state)]) != list(codes.codes):
        fail("the tiles are not exactly one copy of the set")
    _check_status(ruleset, match)


def _options_in_range(ruleset: _Ruleset, options: Any) -> bool:
    """Every int option within its range (the option types are checked already):
    ``False`` sends :meth:`check_match` to the checks of :meth:`make_options`."""
    for name, low, high in _int_option_ranges(ruleset.options_type):
        value = getattr(options, name)
        if (low is not None and value < low) or (high is not None and value > high):
            return False
    return True


def _check_match_types(ruleset: _Ruleset, match: Match[Any, Any]) -> None:
    if type(match) is not Match:
        fail(f"a match must be a Match, not a {type(match).__name__}")
    for name, limit in (("history", MAX_HANDS), ("last_events", MAX_EVENTS)):
        items = getattr(match, name)
        if type(items) is tuple and len(items) > limit:  # bounded before a deeper look
            check_length(items, 0, limit, name)
    if _match_type_ok(ruleset.options_type, ruleset.hand_state_type)(match):
        return
    # some field is not of its type: find the first, for the message
    for name, check in _match_checks(ruleset.options_type, ruleset.hand_state_type):
        check(getattr(match, name), name)
    raise AssertionError("type_ok and type_check disagree")  # pragma: no cover


def _check_history(ruleset: _Ruleset, history: tuple[HandResult, ...], players: int) -> None:
    if not _history_ok(ruleset, history, players):
        _explain_history(ruleset, history, players)


def _explain_history(ruleset: _Ruleset, history: tuple[HandResult, ...], players: int) -> None:
    """The checks of the history hand by hand, in order: raise the error of the first
    that fails (:meth:`_history_ok` found one); pass a history that fails none."""
    totals = [0] * players
    nets = [0] * players
    settled = players if ruleset.settles_hands else 0
    hand_ends = ruleset.hand_ends
    least = 0 if ruleset.hands_may_have_no_winner else 1
    for number, result in enumerate(history, start=1):
        counts, points, settlement = result.counts, result.points, result.settlement
        for name, values, size, low in (
            ("counts", counts, players, 0),
            ("points", points, players, 0),
            ("settlement", settlement, settled, -MAX_HAND_POINTS),
        ):
            if len(values) != size:
                check_length(values, size, size, f"the result of hand {number}: {name}")
            if values and (min(values) < low or max(values) > MAX_HAND_POINTS):
                for value in values:
                    check_range(
                        value,
                        low,
                        MAX_HAND_POINTS,
                        f"the result of hand {number}: one of its {name}",
                    )
        winners = result.winners
        if not least <= len(winners) <= players:
            check_length(winners, least, players, f"the result of hand {number}: winners")
        if winners and (min(winners) < 0 or max(winners) >= players):
            for seat in winners:
                check_seat(seat, players, f"the result of hand {number}: a winner")
        last = -1
        for seat in winners:
            if seat <= last:
                fail(
                    f"the result of hand {number}: "
                    "winners are not distinct seats in ascending order"
                )
            last = seat
        if result.end not in hand_ends:
            fail(f"the result of hand {number}: {ruleset.name} has no end {result.end}")
        for seat in range(players):
            totals[seat] += points[seat]
        if settled:
            for seat in range(players):
                nets[seat] += settlement[seat]
    for seat in range(players):
        if not 0 <= totals[seat] <= MAX_TOTAL:
            check_range(totals[seat], 0, MAX_TOTAL, f"seat {seat}'s match total")
        if not -MAX_TOTAL <= nets[seat] <= MAX_TOTAL:
            check_range(nets[seat], -MAX_TOTAL, MAX_TOTAL, f"seat {seat}'s settlement")


def _history_ok(ruleset: _Ruleset, history: tuple[HandResult, ...], players: int) -> bool:
    """True exactly when :meth:`_explain_history` raises nothing: the same checks by
    columns, each a builtin over all the hands at once (a history has up to 1,000
    hands, and a loop per hand and seat cost more than the rest of a decode; the
    tests check that the two agree). ``False`` sends to the loop for the message."""
    if not history:
        return True
    size = {players}
    counts = list(map(_COUNTS, history))
    points = list(map(_POINTS, history))
    settlements = list(map(_SETTLEMENT, history))
    if set(map(len, counts)) != size or set(map(len, points)) != size:
        return False
    if set(map(len, settlements)) != (size if ruleset.settles_hands else {0}):
        return False
    # (points are often the counts themselves: then the counts' check is theirs)
    ranges = [(counts, 0)] if points == counts else [(counts, 0), (points, 0)]
    if ruleset.settles_hands:
        ranges.append((settlements, -MAX_HAND_POINTS))
    for column, low in ranges:
        if low == 0:
            # bytes() takes numbers from 0 to 255 only: the range check of the usual
            # small numbers in one pass in C; anything else is checked by min and max
            with contextlib.suppress(ValueError):
                bytes(itertools.chain.from_iterable(column))
                continue
        values = list(itertools.chain.from_iterable(column))  # min of each tuple: slower
        if min(values) < low or max(values) > MAX_HAND_POINTS:
            return False
    # every end one the ruleset uses, counted by identity (an enum's hash is Python
    # code, a set of a thousand ends costs more than this)
    ends = list(map(_END, history))
    if sum(map(ends.count, ruleset.hand_ends)) != len(ends):
        return False
    least = 0 if ruleset.hands_may_have_no_winner else 1
    for winners in set(map(_WINNERS, history)):  # a few distinct tuples of seats
        if not least <= len(winners) <= players:
            return False
        if winners and not 0 <= winners[0] <= winners[-1] < players:
            return False
        if any(a >= b for a, b in itertools.pairwise(winners)):
            return False
    if not all(0 <= total <= MAX_TOTAL for total in map(sum, zip(*points, strict=True))):
        return False
    return not ruleset.settles_hands or all(
        -MAX_TOTAL <= net <= MAX_TOTAL for net in map(sum, zip(*settlements, strict=True))
    )


def _check_events(ruleset: _Ruleset, match: Match[Any, Any], codes: SetCodes) -> None:
    events, players = match.last_events, match.players
    in_set, size, top = codes.distinct, len(codes.codes), codes.top
    if len(events) > MAX_EVENTS:
        check_length(events, 0, MAX_EVENTS, "last_events")
    for event in events:
        seat, private_to, open_pip = event.seat, event.private_to, event.open_pip
        train = event.train
        tile, target, tiles = event.tile, event.target, event.tiles
        dice, count, points = event.dice, event.count, event.points
        seats, scores = event.seats, event.scores
        if (
            (seat is not None and not 0 <= seat < players)
            or (private_to is not None and not 0 <= private_to < players)
            or (tile is not None and tile.code not in in_set)
            or (target is not None and target.code not in in_set)
            or len(tiles) > size
            or (open_pip is not None and not 0 <= open_pip <= top)
            or (train is not None and not 0 <= train <= MAX_TRAIN)
            or len(dice) > 3
            or (dice and (min(dice) < 1 or max(dice) > 6))
            or (count is not None and not 0 <= count <= MAX_COUNT)
            or (points is not None and not -MAX_HAND_POINTS <= points <= MAX_HAND_POINTS)
            or len(seats) > players
            or (seats and (min(seats) < 0 or max(seats) >= players))
            or len(scores) > players
            or (scores and (min(scores) < -MAX_TOTAL or max(scores) > MAX_TOTAL))
            or event.hidden
        ):
            _explain_event(ruleset, event, players, codes)
        for t in tiles:
            if t.code not in in_set:
                _explain_event(ruleset, event, players, codes)


def _explain_event(ruleset: _Ruleset, event: Event, players: int, codes: SetCodes) -> None:
    """Raise the error of the first check ``event`` fails (see :meth:`check_match`)."""
    in_set, size, top = codes.distinct, len(codes.codes), codes.top
    what = f"a {event.kind.value} event"
    for seat in (event.seat, event.private_to):
        if seat is not None:
            check_seat(seat, players, f"{what}: seat")
    tiles = (event.tile, event.target, *event.tiles)
    require(
        all(tile is None or tile.code in in_set for tile in tiles),
        f"{what} names a tile that is not in the set",
    )
    check_length(event.tiles, 0, size, f"{what}: tiles")
    if event.open_pip is not None:
        check_range(event.open_pip, 0, top, f"{what}: open_pip")
    if event.train is not None:
        check_range(event.train, 0, MAX_TRAIN, f"{what}: train")
    check_length(event.dice, 0, 3, f"{what}: dice")
    for die in event.dice:
        check_range(die, 1, 6, f"{what}: a die")
    if event.count is not None:
        check_range(event.count, 0, MAX_COUNT, f"{what}: count")
    if event.points is not None:
        check_range(event.points, -MAX_HAND_POINTS, MAX_HAND_POINTS, f"{what}: points")
    check_length(event.seats, 0, players, f"{what}: seats")
    for seat in event.seats:
        check_seat(seat, players, f"{what}: one of its seats")
    check_length(event.scores, 0, players, f"{what}: scores")
    for score in event.scores:
        check_range(score, -MAX_TOTAL, MAX_TOTAL, f"{what}: one of its scores")
    require(not event.hidden, f"{what} is a redacted copy; a state keeps the original")
    raise AssertionError("an event refused by no check")  # pragma: no cover


def _check_hand_state_shape(ruleset: _Ruleset, match: Match[Any, Any], size: int) -> None:
    state, players = match.hand_state, match.players
    hands = state.hands
    if len(hands) != players:
        check_length(hands, players, players, "hands")
    for seat, tiles in enumerate(hands):
        if len(tiles) > size:
            check_length(tiles, 0, size, f"seat {seat}'s hand")
        if not is_sorted(tiles):
            fail(f"seat {seat}'s hand is not in ascending order")
    if not 0 <= state.to_act < players:
        check_seat(state.to_act, players, "to_act")
    if not 0 <= state.leader < players:
        check_seat(state.leader, players, "leader")


def _check_status(ruleset: _Ruleset, match: Match[Any, Any]) -> None:
    status, state = match.status, match.hand_state
    if status is _IN_PROGRESS:
        require(not ruleset.hand_over(state), "the hand is over, but the status is IN_PROGRESS")
        if match.hand_number > 1:
            before = fields_of(match)
            before["hand_number"] = match.hand_number - 1
            before["status"] = _HAND_OVER
            ended = ruleset.ends_match(_make_match(before))
            require(not ended, "a hand is played after the match ended")
        require(bool(ruleset.legal_moves(match)), "nobody has a legal move")
        return
    require(ruleset.hand_over(state), f"the hand is not over, but the status is {status.value}")
    earlier = fields_of(match)
    earlier["history"] = match.history[:-1]
    require(
        ruleset.score_hand(_make_match(earlier)) == match.history[-1],
        "the last result is not the score of the finished hand",
    )
    ends = ruleset.ends_match(match)
    require(ends == (status is _MATCH_OVER), f"the match end does not fit {status.value}")


@functools.cache
def _match_type_ok(options_type: type, hand_state_type: type) -> Callable[[Any], bool]:
    """:func:`.building.type_ok` of a ``Match`` of one ruleset, all fields at once."""
    hints = dict(typing.get_type_hints(Match))
    hints["options"] = options_type
    hints["hand_state"] = hand_state_type
    checks = [(f.name, type_ok(hints[f.name])) for f in dataclasses.fields(Match)]
    players, options, seed, number, hand, history, status, events = (ok for _, ok in checks)

    def ok(match: Any) -> bool:
        return (
            players(match.players)
            and options(match.options)
            and seed(match.seed)
            and number(match.hand_number)
            and hand(match.hand_state)
            and history(match.history)
            and status(match.status)
            and events(match.last_events)
        )

    assert [name for name, _ in checks] == [
        "players",
        "options",
        "seed",
        "hand_number",
        "hand_state",
        "history",
        "status",
        "last_events",
    ]
    return ok


@functools.cache
def _match_checks(options_type: type, hand_state_type: type) -> tuple[tuple[str, TypeCheck], ...]:
    """The type check of each field of a ``Match`` of one ruleset."""
    hints = dict(typing.get_type_hints(Match))
    hints["options"] = options_type
    hints["hand_state"] = hand_state_type
    return tuple((f.name, type_check(hints[f.name])) for f in dataclasses.fields(Match))
