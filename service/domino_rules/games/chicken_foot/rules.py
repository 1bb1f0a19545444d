"""Chicken Foot: arms from a centre double, and a foot of three toes on every later double.

Sources: RULES.md ``[CF-1]``..``[CF-11]``, written on Mexican Train's machinery: the deal,
the engines, the first player, drawing, counts and the match are ``[MT-2]``, ``[MT-3]``,
``[MT-4]``, ``[MT-8]``, ``[MT-12]`` and ``[MT-13]`` (Wikipedia, htfbw, reference.com,
ourpastimes, flash.net).

Options (``ChickenFootOptions``): ``set_max_pip`` (6, 9 or 12, default 9), ``hand_size``
(0 = by the table of ``[CF-1]``), ``hands`` (0 = one per double), ``engine``
(``SET_ASIDE``, ``FROM_HAND``), ``centre_toes`` (4 or 6), ``double_blank_points``
(0..100, default 50).

The layout is a tree of *arms*, numbered in the order they are created: the centre's
arms 0..k-1 grow from foot 0 (the engine), and each later double that closes an arm is
foot j, whose three toes are arms k+3(j-1) .. k+3(j-1)+2 ``[CF-3]``. A ``PLAY`` names
the arm as ``train``. The hand state keeps each arm's tiles from its foot outwards; the
half that touches, and the open end, follow from the foot's number.

Decisions where RULES.md leaves a case open (each has a test):

* While the centre has an empty arm, ``pending_foot`` is 0: the centre is the foot
  every play must go on ``[CF-4]``.
* A double laid on an arm always grows its foot of three toes, even when its number is
  dead: the toes are shown, empty, and no play can ever reach them ``[CF-5]``.
* The pending foot is the last foot while it has an empty toe and its number is not
  dead (a foot is only ever laid when no foot is pending, so only the last can be).
* A seat that draws a tile that fits lays it by a move of its own; a drawn double that
  fits grows a foot and the turn passes as after any tile ``[CF-5]`` ``[CF-6]``.
* Placing the centre double from the hands is not laying a tile (``[MT-3]``: it is not
  the placer's turn), so a seat dealt only the centre double (``FROM_HAND``,
  ``hand_size`` 1) has not gone out: it plays first with an empty hand, so it draws
  ``[CF-7]``.

What a reachable hand state is (``check_hand_state``; everything else is refused):

* The engine is the hand's ([N-N] in hand 1, one lower each hand) ``[CF-2]``; ``feet``
  starts with its number, and there are k centre arms and three toes a later foot.
* Every arm is a chain from its foot: its first tile shows the foot's number, each next
  tile the number left open; only an arm's last tile may be a double, and the arms that
  end in a double are exactly the later feet, each laid on an arm made before its toes.
  A foot's toes fill lowest first; a later foot is laid only once the foot before it is
  complete or dead, and once the centre is full ``[CF-4]`` ``[CF-5]``.
* The boneyard only shrinks: the tiles held and laid are those dealt and drawn; with
  ``SET_ASIDE`` the first player is seat h mod P ``[MT-4]``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...rules import trains
from ...rules.building import fields_of, made_of, next_seat
from ...rules.checks import check_length, check_range, fail, require
from ...rules.errors import OptionsError
from ...rules.events import Event, EventKind
from ...rules.lines import LaidTile
from ...rules.match import HandEnd, HandResult, Match
from ...rules.moves import Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Ruleset, points_text, seats_text
from ...rules.tiles import Tile, double_n
from ...rules.trains import Engine

__all__ = [
    "HAND_SIZES",
    "Arm",
    "ChickenFoot",
    "ChickenFootHandState",
    "ChickenFootOptions",
    "ChickenFootTable",
    "Engine",
    "arm_foot",
    "open_end",
    "pending_foot",
]


#: [CF-1] the tiles dealt to each player when option ``hand_size`` is 0, by the set's
#: highest pip, for 2, 3, ... 8 players (``None``: that count needs an explicit
#: ``hand_size``); double-12 deals as Mexican Train [MT-2].
HAND_SIZES: Mapping[int, Sequence[int | None]] = {
    6: (5, 5, 5, 5, None, None, None),
    9: (9, 7, 7, 7, 7, 7, 6),
    12: trains.MEXICAN_TRAIN_HAND_SIZES[12],
}
_SETS = (6, 9, 12)
_TOES = 3


@dataclass(frozen=True, slots=True)
class ChickenFootOptions:
    set_max_pip: int = option(9, "the set is double-N: 6, 9 or 12 [CF-1]", minimum=6, maximum=12)
    hand_size: int = option(
        0,
        "tiles dealt to each player; 0: by the table of the rules; at most half the set "
        "[CF-1] [MT-15]",
        minimum=0,
        maximum=45,
    )
    hands: int = option(
        0,
        "hands in the match, each with the next lower centre double; 0: one per double [CF-2]",
        minimum=0,
        maximum=13,
    )
    engine: Engine = option(
        Engine.SET_ASIDE,
        "SET_ASIDE: the centre double is taken out before the deal; FROM_HAND: the whole "
        "set is dealt and its holder places it and plays first [CF-2]",
    )
    centre_toes: int = option(
        4, "arms around the centre double: 4 or 6 [CF-4]", minimum=4, maximum=6
    )
    double_blank_points: int = option(
        50, "what a [0-0] left in hand counts [CF-8]", minimum=0, maximum=100
    )


@dataclass(frozen=True)
class ChickenFootHandState:
    hands: tuple[tuple[Tile, ...], ...]
    #: The tiles neither dealt nor drawn, drawn from the front.
    boneyard: tuple[Tile, ...]
    #: The centre double.
    engine: Tile
    #: Each arm's tiles from its foot outwards, in the order the arms were made.
    arms: tuple[tuple[Tile, ...], ...]
    #: Each foot's number, foot 0 the centre.
    feet: tuple[int, ...]
    to_act: int
    leader: int
    #: Tiles drawn in the hunt for the engine (``FROM_HAND``) [MT-3].
    hunt: int


@dataclass(frozen=True, slots=True)
class Arm:
    arm: int
    foot: int
    #: From the foot outwards: ``left`` the half towards the foot.
    tiles: tuple[LaidTile, ...]
    #: The number its next tile must show; ``None`` once it ends in a double.
    open_end: int | None


@dataclass(frozen=True, slots=True)
class ChickenFootTable:
    engine: Tile
    leader: int
    arms: tuple[Arm, ...]
    feet: tuple[int, ...]
    pending_foot: int | None


_make_state = made_of(ChickenFootHandState)
_PLAY, _DRAW, _PASS = MoveKind.PLAY, MoveKind.DRAW, MoveKind.PASS


def _hand_size(options: ChickenFootOptions, players: int) -> int | None:
    """[CF-1] the tiles each seat is dealt; ``None``: this count needs ``hand_size``."""
    return trains.hand_size(HAND_SIZES, options.set_max_pip, players, options.hand_size)


def _set_tiles(options: ChickenFootOptions) -> int:
    return (options.set_max_pip + 1) * (options.set_max_pip + 2) // 2


# ---- the layout ------------------------------------------------------------------------


def arm_foot(arm: int, centre: int) -> int:
    """[CF-3] the foot arm ``arm`` grows from: the centre's ``centre`` arms come first,
    then three toes a foot."""
    return 0 if arm < centre else 1 + (arm - centre) // _TOES


def open_end(tiles: tuple[Tile, ...], foot: int) -> int | None:
    """[CF-3] the number an arm of ``tiles`` from a foot of number ``foot`` shows: the
    foot's while empty; ``None`` once it ends in a double (its toes carry it on)."""
    if tiles and tiles[-1].is_double:
        return None
    return trains.open_end(foot, tiles)


def _dead(number: int, state: ChickenFootHandState) -> bool:
    """[MT-9] [CF-5] every tile showing ``number`` is on the table."""
    return not trains.live_numbers(state.hands, state.boneyard) >> number & 1


def _toes(foot: int, centre: int) -> range:
    """The arms of ``foot``: the centre's, or a later foot's three toes."""
    if foot == 0:
        return range(centre)
    first = centre + _TOES * (foot - 1)
    return range(first, first + _TOES)


def pending_foot(state: ChickenFootHandState, options: ChickenFootOptions) -> int | None:
    """[CF-4] [CF-5] the foot every play must go on: the centre while it has an empty arm,
    else the last foot while it has an empty toe and its number is not dead."""
    centre, arms = options.centre_toes, state.arms
    if not all(arms[:centre]):
        return 0
    last = len(state.feet) - 1
    if last == 0:
        return None
    if all(arms[arm] for arm in _toes(last, centre)):
        return None
    if _dead(state.feet[last], state):
        return None  # [CF-5] a dead foot needs no more toes
    return last


def _targets(state: ChickenFootHandState, options: ChickenFootOptions) -> list[tuple[int, int]]:
    """``(arm, number)`` of every place a tile may go now: the pending foot's first empty
    toe alone, or every open end (each foot's empty toes by its first) [CF-4] [CF-5]."""
    centre, feet, arms = options.centre_toes, state.feet, state.arms
    pending = pending_foot(state, options)
    if pending is not None:
        first = next(arm for arm in _toes(pending, centre) if not arms[arm])
        return [(first, feet[pending])]
    return [(arm, end) for arm, end in _ends(arms, feet, centre) if end is not None]


def _ends(
    arms: tuple[tuple[Tile, ...], ...], feet: tuple[int, ...], centre: int
) -> list[tuple[int, int | None]]:
    """``(arm, open end)`` of each arm (:func:`open_end`), each foot's empty arms by its
    first alone [CF-4]."""
    out: list[tuple[int, int | None]] = []
    append = out.append
    foot, left = 0, centre  # the foot of the arms that follow, and its arms still to come
    empty_seen = False
    for arm, tiles in enumerate(arms):
        if not left:
            foot, left, empty_seen = foot + 1, _TOES, False
        left -= 1
        if not tiles:
            if not empty_seen:  # [CF-4] empty arms of a foot are interchangeable
                empty_seen = True
                append((arm, feet[foot]))
            continue
        append((arm, open_end(tiles, feet[foot])))
    return out


@functools.lru_cache(maxsize=64)
def _move(seat: int, kind: MoveKind) -> Move:
    """A ``DRAW`` or ``PASS``, made once and shared (moves are listed on every turn)."""
    return Move(seat, kind)


def _plays(seat: int, hand: tuple[Tile, ...], targets: list[tuple[int, int]]) -> tuple[Move, ...]:
    wanted = 0
    for _, number in targets:
        wanted |= 1 << number
    out = []
    for tile in hand:
        halves = tile.halves
        if halves & wanted:
            for arm, number in targets:
                if halves >> number & 1:
                    out.append(trains.play_move(seat, tile, arm))
    return tuple(out)


def _open_ends(state: ChickenFootHandState, centre: int) -> list[int]:
    """Every open end's number [CF-7]: an arm ending in a double has none."""
    return [end for _, end in _ends(state.arms, state.feet, centre) if end is not None]


class ChickenFoot(Ruleset[ChickenFootOptions, ChickenFootHandState]):
    id = "chicken_foot"
    name = "Chicken Foot"
    source = "RULES.md [CF-1]..[CF-11] on [MT-*]; Wikipedia, htfbw, reference.com, flash.net"
    description = (
        "Lay tiles on the arms around a centre double, matching numbers; every later "
        "double grows a chicken foot of three toes that must be laid before anything "
        "else. Draw when you cannot play; the lowest total after a hand per double wins."
    )
    options_type = ChickenFootOptions
    hand_state_type = ChickenFootHandState
    table_type = ChickenFootTable
    hand_ends = frozenset({HandEnd.DOMINOED, HandEnd.BLOCKED})
    low_wins = True

    players_text = (
        "2 to 8 with double-nine and double-twelve; 2 to 5 with double-six unless hand_size is set"
    )

    def full_set(self, options: ChickenFootOptions) -> tuple[Tile, ...]:
        return double_n(options.set_max_pip)  # [CF-1]

    def check_options(self, options: ChickenFootOptions) -> None:
        # [CF-11] the values in range that are not offered, and the bounds of the set
        if options.set_max_pip not in _SETS:
            raise OptionsError(f"option set_max_pip must be 6, 9 or 12, not {options.set_max_pip}")
        if options.centre_toes not in (4, 6):
            raise OptionsError(f"option centre_toes must be 4 or 6, not {options.centre_toes}")
        trains.check_sizes(
            len(self.full_set(options)), options.set_max_pip, options.hand_size, options.hands
        )

    def max_players(self, options: ChickenFootOptions) -> int:
        return self.player_range(options)[1]

    def player_range(self, options: ChickenFootOptions) -> tuple[int, int]:
        # [CF-1] [MT-2] 2 to 8, as the table (or hand_size) and the set allow
        return trains.player_range(
            HAND_SIZES, options.set_max_pip, options.hand_size, options.engine, _set_tiles(options)
        )

    def max_hands(self, options: ChickenFootOptions, players: int) -> int:
        # [CF-2] [CF-9] [MT-13] `hands` hands, one per double by default
        return trains.hands_in_match(options.set_max_pip, options.hands)

    # ---- the deal ----------------------------------------------------------------

    def deal_set(self, options: ChickenFootOptions, hand_number: int) -> tuple[Tile, ...]:
        # [CF-1] [CF-2] [MT-2] the set, less the centre double when it is set aside
        engine = trains.engine_of(options.set_max_pip, hand_number)
        return trains.deal_set(self.full_set(options), engine, options.engine)

    def deal_from(
        self,
        match: Match[ChickenFootOptions, Any],
        hand_number: int,
        order: tuple[Tile, ...],
    ) -> tuple[ChickenFootHandState, tuple[Event, ...]]:
        """Deal hand ``hand_number`` from ``order``: the set less the centre double when
        it is set aside (:meth:`deal_set`), the whole set otherwise."""
        options, players = match.options, match.players
        size = _hand_size(options, players)
        assert size is not None
        engine = trains.engine_of(options.set_max_pip, hand_number)
        # [CF-2] [MT-3] [MT-4] the hands, the hunt for a centre double dealt, the leader
        dealt = trains.deal_hand(order, players, size, engine, options.engine, hand_number)
        state = ChickenFootHandState(
            dealt.hands,
            dealt.boneyard,
            engine,
            ((),) * options.centre_toes,  # [CF-4] the centre's empty arms
            (engine.high,),
            dealt.leader,
            dealt.leader,
            dealt.hunt,
        )
        return state, dealt.events

    # ---- play --------------------------------------------------------------------

    def stock(self, state: ChickenFootHandState) -> int:
        return len(state.boneyard)

    def all_tiles(self, state: ChickenFootHandState) -> tuple[Tile, ...]:
        laid = [tile for arm in state.arms for tile in arm]
        held = [tile for hand in state.hands for tile in hand]
        return (*held, *state.boneyard, state.engine, *laid)

    def hand_legal_moves(
        self, state: ChickenFootHandState, options: ChickenFootOptions
    ) -> tuple[Move, ...]:
        seat = state.to_act
        # [CF-6] a seat that can lay a tile must; [CF-4] [CF-5] only on the pending foot
        plays = _plays(seat, state.hands[seat], _targets(state, options))
        if plays:
            return plays
        if state.boneyard:
            return (_move(seat, _DRAW),)  # [CF-6] [MT-8] one tile
        return (_move(seat, _PASS),)  # [CF-6] nothing to draw

    def hand_apply(
        self, match: Match[ChickenFootOptions, ChickenFootHandState], move: Move
    ) -> tuple[ChickenFootHandState, tuple[Event, ...]]:
        state, seat, options = match.hand_state, move.seat, match.options
        following = next_seat(seat, match.players)
        kind = move.kind
        if kind is _PLAY:
            tile, arm = move.tile, move.train
            assert tile is not None and arm is not None
            fields = fields_of(state)
            hands = list(state.hands)
            hands[seat] = trains.take_from_hand(hands[seat], tile)
            fields["hands"] = tuple(hands)
            arms = list(state.arms)
            arms[arm] = (*arms[arm], tile)
            if tile.is_double:
                # [CF-5] a double closes its arm and grows a foot of three toes; the turn
                # passes as after any tile
                arms.extend([()] * _TOES)
                fields["feet"] = (*state.feet, tile.high)
            fields["arms"] = tuple(arms)
            fields["to_act"] = following
            return _make_state(fields), (trains.play_event(seat, tile, arm),)
        if kind is _PASS:
            fields = fields_of(state)
            fields["to_act"] = following
            return _make_state(fields), (Event(EventKind.PASS, seat=seat),)
        # [CF-6] [MT-8] one tile; a tile that fits is laid by the drawer's next move
        tile, boneyard = state.boneyard[0], state.boneyard[1:]
        hand = trains.add_to_hand(state.hands[seat], tile)
        fits = any(tile.halves & 1 << number for _, number in _targets(state, options))
        hands = list(state.hands)
        hands[seat] = hand
        fields = fields_of(state)
        fields["hands"] = tuple(hands)
        fields["boneyard"] = boneyard
        fields["to_act"] = seat if fits else following
        event = Event(EventKind.DRAW, seat=seat, tile=tile, private_to=seat)
        return _make_state(fields), (event,)

    def hand_over(self, state: ChickenFootHandState) -> bool:
        # [CF-7] a seat laid its last tile; or nothing to draw and no hand shows an open
        # end (an arm ending in a double has none). A hand emptied by placing the centre
        # double (FROM_HAND, one tile dealt) is not out: no tile is laid yet.
        hands = state.hands
        if trains.gone_out(hands, any(state.arms)):
            return True
        if state.boneyard:
            return False
        centre = len(state.arms) - _TOES * (len(state.feet) - 1)
        return trains.blocked(hands, 0, _open_ends(state, centre))

    def score_hand(self, match: Match[ChickenFootOptions, ChickenFootHandState]) -> HandResult:
        # [CF-8] [MT-12] each seat scores its count; a [0-0] counts double_blank_points
        options = match.options
        return trains.score_hand(match.hand_state.hands, options.double_blank_points)

    def explain_hand(
        self,
        match: Match[ChickenFootOptions, ChickenFootHandState],
        number: int,
        before: tuple[int, ...],
    ) -> str:
        # [CF-7] how the hand ended, [CF-8] who wins it and what each seat scores
        result = match.history[number - 1]
        if result.end is HandEnd.DOMINOED and len(result.winners) == 1:
            head = (
                f"Dominoed: seat {result.winners[0]} laid their last tile and wins the hand [CF-7]."
            )
        elif result.end is HandEnd.BLOCKED and result.winners:
            low = result.counts[result.winners[0]]
            alone = len(result.winners) == 1
            head = (
                "Blocked: the boneyard is empty and no hand can match an open end [CF-7]; "
                f"{seats_text(result.winners)} {'has' if alone else 'share'} the lowest "
                f"count, {low}, and {'wins' if alone else 'win'} the hand [CF-8]."
            )
        else:
            return super().explain_hand(match, number, before)
        if not any(result.points):
            return f"{head} Nobody scores."
        blank = match.options.double_blank_points
        return (
            f"{head} Each seat scores the pips left in its hand, a double blank counting {blank} "
            f"[CF-8]: {points_text(result.points)}."
        )

    def match_over(self, match: Match[ChickenFootOptions, ChickenFootHandState]) -> bool:
        # [CF-9] [MT-13] after `hands` hands
        return match.hand_number >= self.max_hands(match.options, match.players)

    def table(
        self, match: Match[ChickenFootOptions, ChickenFootHandState], seat: int | None
    ) -> ChickenFootTable:
        # [CF-10] the same for every seat and for spectators
        state, options = match.hand_state, match.options
        centre, feet = options.centre_toes, state.feet
        arms = []
        for number, tiles in enumerate(state.arms):
            foot = arm_foot(number, centre)
            end = open_end(tiles, feet[foot])
            arms.append(Arm(number, foot, trains.laid_tiles(feet[foot], tiles), end))
        return ChickenFootTable(
            state.engine, state.leader, tuple(arms), feet, pending_foot(state, options)
        )

    # ---- checks ------------------------------------------------------------------

    def check_hand_state(self, match: Match[ChickenFootOptions, ChickenFootHandState]) -> None:
        state, options, players = match.hand_state, match.options, match.players
        centre, top = options.centre_toes, options.set_max_pip
        full = len(self.full_set(options))
        size = _hand_size(options, players)
        assert size is not None  # the player count is checked against the options first
        require(
            state.engine == trains.engine_of(top, match.hand_number),
            "the engine is not this hand's",  # [CF-2]
        )
        feet, arms = state.feet, state.arms
        check_length(feet, 1, top + 2, "the feet")
        check_length(arms, centre, centre + _TOES * (top + 1), "the arms")
        require(feet[0] == state.engine.high, "foot 0 is not the engine's number")
        require(
            len(arms) == centre + _TOES * (len(feet) - 1),
            "the arms do not fit the feet",  # [CF-3]
        )
        dealt_from = trains.tiles_dealt_from(full, options.engine)
        check_length(state.boneyard, 0, dealt_from - players * size, "the boneyard")
        check_range(state.hunt, 0, full, "hunt")
        # [CF-3] every arm a chain from its foot; only its last tile may be a double
        closed: dict[int, int] = {}
        for number, tiles in enumerate(arms):
            check_length(tiles, 0, full, f"arm {number}")
            end = feet[arm_foot(number, centre)]
            for index, tile in enumerate(tiles):
                if not tile.has(end):
                    fail(f"arm {number} is not a chain from its foot")
                if tile.is_double:
                    require(index == len(tiles) - 1, f"arm {number} goes on past a double")
                    closed[tile.high] = number
                end = tile.other(end)
        require(
            sorted(closed) == sorted(feet[1:]) and len(set(feet)) == len(feet),
            "the feet are not the doubles that close arms",
        )
        for foot in range(len(feet)):
            toes = [arm for arm in _toes(foot, centre)]
            filled = [bool(arms[arm]) for arm in toes]
            require(filled == sorted(filled, reverse=True), f"foot {foot}'s toes skip one")
            if foot >= 1:
                # [CF-5] laid on an arm made before its toes, once the foot before it
                # was complete or dead, and the centre full [CF-4]
                require(closed[feet[foot]] < toes[0], f"foot {foot} grows from a later arm")
                before = feet[foot - 1]
                require(
                    all(arms[arm] for arm in _toes(foot - 1, centre))
                    or (foot - 1 >= 1 and _dead(before, state)),
                    f"foot {foot} was laid while foot {foot - 1} was pending",
                )
        # [MT-2] [MT-3] the tiles held and laid are those dealt and drawn
        drawn = dealt_from - players * size - len(state.boneyard)
        require(drawn >= state.hunt, "fewer tiles drawn than the hunt")
        held = sum(len(hand) for hand in state.hands)
        laid = sum(len(arm) for arm in arms)
        from_hand = 0 if options.engine is Engine.SET_ASIDE else 1
        require(held + laid + from_hand == players * size + drawn, "the hands do not fit the deal")
        if options.engine is Engine.SET_ASIDE:
            require(state.hunt == 0, "a hunt for a centre double set aside")
            require(
                state.leader == trains.first_player(match.hand_number, players),
                "the first player is not seat h mod P",  # [MT-4]
            )
        if not laid and state.hunt == drawn and state.boneyard:
            # nothing laid, drawn or passed yet: the first player acts
            require(state.to_act == state.leader, "before the first tile the leader acts")
