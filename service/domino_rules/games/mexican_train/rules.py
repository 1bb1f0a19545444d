"""Mexican Train: personal trains and the Mexican train from a hub, one ruleset with
options.

Sources: RULES.md ``[MT-1]``..``[MT-16]`` (pagat as quoted, Wikipedia, Celko, htfbw,
idahogoodsam, the Puremco-type insert, behar, ourpastimes, Good Sam, tablegameshub,
reference.com, moltheavy, rondeetbelle; PeteyPii and dcrescim read only). What Mexican
Train shares with Chicken Foot (the hand sizes, the engine of each hand and its hunt, the
first player, dead numbers, the blocked test, counts, the match) is written once in
:mod:`domino_rules.rules.trains`.

Options (``MexicanTrainOptions``): ``set_max_pip`` (9, 12 or 15; 12), ``hand_size`` (0:
by the table), ``hands`` (0: one per double), ``engine`` (``SET_ASIDE``,
``FROM_HAND``), ``mexican_train`` (true), ``follow_up`` (``ANY_TRAIN``, ``ON_DOUBLE``),
``opening`` (``SINGLE``, ``CHAIN``), ``double_blank_points`` (0..100; 0).

Trains are numbered as the contract numbers them: a seat's train by its seat, the
Mexican train P (the number of players), so a ``PLAY`` names ``tile`` and ``train``.

Decisions where RULES.md leaves a case open (each has a test):

* With the engine set aside, the shuffle is of the set less the engine (the deal of
  ``[MT-2]``); with ``FROM_HAND`` it is of the whole set. Both use the label
  ``deal/<hand>/0``; a deal is never void.
* In a ``CHAIN`` opening turn the seat may stop with ``PASS`` only once it has laid a
  tile, and a seat whose opening turn ends by itself inside a ``PLAY`` gets
  ``TURN_PASSED`` even on its last turn of the round; when the last seat of the round ends
  its turn, every unsatisfied double binds, oldest first, from the next move on.
* A double laid in a ``CHAIN`` opening turn is still dropped at once when its number is
  dead (it could never be satisfied), as any double.
* A seat dealt only the engine (``FROM_HAND``) has not gone out by placing it: placing
  the engine is not laying a tile. It plays first with an empty hand, and draws.
* A ``BONUS_TURN`` is never given for a double that ends the hand (a seat's last tile);
  the finished hand's ``pending`` still lists that double, unsatisfied (``[MT-9]``,
  ``[MT-11]``), and binding, as the hand's end ends the turn.
* A ``DRAW`` or ``PASS`` that ends a follow-up puts the seat's marker up, as any turn
  that ends without its tile (``[MT-6]``), and the doubles of the turn then bind.
* The hand's explanation names the seat that went out, or the seats with the lowest
  count after a block.

What a reachable hand state is (``check_hand_state``; everything else is refused):

* Every train is a chain from the engine's number: its first tile shows it, and each
  tile shows the open end before it. The engine is the hand's double; it lies in no hand,
  train or boneyard.
* There are P trains, and the Mexican train when it is in play; markers are bits of
  seats; ``pending`` names distinct trains that end in a double whose number is not
  dead; ``binding`` is at most their number; ``opening`` is empty unless ``CHAIN``,
  and lists seats in play order from the leader, with no double binding meanwhile.
* The hunt for the engine is a count, 0 with the engine set aside.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ...rules import trains
from ...rules.building import fields_of, made_of
from ...rules.checks import check_length, check_range, check_seat, require
from ...rules.errors import OptionsError
from ...rules.events import Event, EventKind
from ...rules.lines import LaidTile
from ...rules.match import HandEnd, HandResult, Match
from ...rules.moves import Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Profile, Ruleset, points_text, seats_text
from ...rules.tiles import Tile, double_n, insert_tile, remove_tile
from ...rules.trains import Engine, play_move

__all__ = [
    "HAND_SIZES",
    "PROFILES",
    "Engine",
    "FollowUp",
    "MexicanTrain",
    "MexicanTrainHandState",
    "MexicanTrainOptions",
    "MexicanTrainTable",
    "Opening",
    "PendingDouble",
    "Train",
    "open_ends",
    "usable_trains",
]


class FollowUp(enum.Enum):
    """``[MT-9]`` where the tile after a double may go."""

    ANY_TRAIN = "ANY_TRAIN"
    ON_DOUBLE = "ON_DOUBLE"


class Opening(enum.Enum):
    """``[MT-10]`` the opening turn."""

    SINGLE = "SINGLE"
    CHAIN = "CHAIN"


#: ``[MT-2]`` the hand sizes by the table.
HAND_SIZES = trains.MEXICAN_TRAIN_HAND_SIZES
#: ``[MT-1]`` the sets.
SETS = (9, 12, 15)


@dataclass(frozen=True, slots=True)
class MexicanTrainOptions:
    set_max_pip: int = option(12, "the set is double-N: 9, 12 or 15 [MT-1]", minimum=9, maximum=15)
    hand_size: int = option(
        0,
        "tiles dealt to each player; 0: by the table (15, 12 or 10 with double-12 and "
        "double-15; 12, 11 or 10 with double-9); at most half the set [MT-2] [MT-15]",
        minimum=0,
        maximum=68,
    )
    hands: int = option(
        0, "hands in the match; 0: one per double, from [N-N] down [MT-3]", minimum=0, maximum=16
    )
    engine: Engine = option(
        Engine.SET_ASIDE,
        "SET_ASIDE: the engine is taken out before the deal; FROM_HAND: its holder places "
        "it, after a hunt when nobody holds it [MT-3]",
    )
    mexican_train: bool = option(True, "there is a Mexican train, open to everybody [MT-5]")
    follow_up: FollowUp = option(
        FollowUp.ANY_TRAIN,
        "ANY_TRAIN: the tile after a double goes on any train the seat may use, and the "
        "double binds when the turn ends; ON_DOUBLE: it must satisfy the double [MT-9]",
    )
    opening: Opening = option(
        Opening.SINGLE,
        "SINGLE: every turn is one tile; CHAIN: each seat's first turn lays as many tiles "
        "as it likes on its own train [MT-10]",
    )
    double_blank_points: int = option(
        0, "what a [0-0] left in hand counts; 0: its pips [MT-12]", minimum=0, maximum=100
    )


@dataclass(frozen=True)
class MexicanTrainHandState:
    hands: tuple[tuple[Tile, ...], ...]
    #: The tiles neither dealt nor drawn, drawn from the front.
    boneyard: tuple[Tile, ...]
    #: The hand's engine, in the hub.
    engine: Tile
    #: Each train's tiles from the hub outwards: the seats' trains 0..P-1, then the
    #: Mexican train P when it is in play (option ``mexican_train``).
    trains: tuple[tuple[Tile, ...], ...]
    #: Each train's open end, by train number: the engine's number while it is empty
    #: (what the tiles of :attr:`trains` give, kept for speed).
    ends: tuple[int, ...]
    #: The seats whose marker is up, as bits (bit s for seat s) ``[MT-6]``.
    public: int
    #: The trains that end in an unsatisfied double, oldest first ``[MT-9]``.
    pending: tuple[int, ...]
    #: How many of ``pending``, from the oldest, bind.
    binding: int
    #: ``CHAIN``: the seats still to take their opening turn, in play order ``[MT-10]``.
    opening: tuple[int, ...]
    to_act: int
    leader: int
    #: Tiles drawn in the hunt for the engine (``FROM_HAND``) ``[MT-3]``.
    hunt: int


@dataclass(frozen=True, slots=True)
class Train:
    train: int
    tiles: tuple[LaidTile, ...]
    open_end: int
    public: bool


@dataclass(frozen=True, slots=True)
class PendingDouble:
    train: int
    binding: bool


@dataclass(frozen=True, slots=True)
class MexicanTrainTable:
    engine: Tile
    leader: int
    trains: tuple[Train, ...]
    pending: tuple[PendingDouble, ...]
    opening: tuple[int, ...]


PROFILES = (
    Profile(
        "pagat",
        "pagat",
        "The engine is dealt and hunted for, and each seat's first turn lays a chain on "
        "its own train (pagat's text as quoted; its 11 tiles for 5-6 players need "
        "hand_size 11).",
        {"engine": "FROM_HAND", "opening": "CHAIN"},
    ),
    Profile(
        "satisfy_own_double",
        "Satisfy your own double",
        "The engine is dealt, and the tile after a double must satisfy it (idahogoodsam, htfbw).",
        {"engine": "FROM_HAND", "follow_up": "ON_DOUBLE"},
    ),
    Profile(
        "fifty_blank",
        "Double blank 50",
        "A [0-0] left in hand counts 50.",
        {"double_blank_points": 50},
    ),
    Profile(
        "private_trains",
        "Private trains",
        "No Mexican train: only the seats' own trains (Wikipedia's private trains).",
        {"mexican_train": False},
    ),
)

_make_state = made_of(MexicanTrainHandState)
_PLAY, _DRAW, _PASS = MoveKind.PLAY, MoveKind.DRAW, MoveKind.PASS
_CHAIN = Opening.CHAIN
_ON_DOUBLE = FollowUp.ON_DOUBLE


def open_ends(state: MexicanTrainHandState) -> list[int]:
    """``[MT-5]`` every train's open end, by train number (the engine's number while it
    is empty), from its tiles."""
    start = state.engine.high
    return [trains.open_end(start, tiles) for tiles in state.trains]


def usable_trains(state: MexicanTrainHandState, seat: int, players: int) -> list[int]:
    """``[MT-7]`` ``[MT-9]`` ``[MT-10]`` the trains ``seat`` may lay on now: the oldest
    binding double's alone while one binds; its own alone in a ``CHAIN`` opening turn;
    else its own, the Mexican train when in play, and every public train."""
    if state.binding:
        return [state.pending[0]]
    if seat in state.opening:
        return [seat]
    usable = [seat]
    public = state.public
    for other in range(players):
        if other != seat and public >> other & 1:
            usable.append(other)
    if len(state.trains) > players:
        usable.append(players)
    usable.sort()
    return usable


def _plays(state: MexicanTrainHandState, seat: int, players: int) -> list[Move]:
    ends = state.ends
    usable = [(train, 1 << ends[train]) for train in usable_trains(state, seat, players)]
    wanted = 0
    for _, want in usable:
        wanted |= want
    return [
        play_move(seat, tile, train)
        for tile in state.hands[seat]
        if tile.halves & wanted
        for train, want in usable
        if tile.halves & want
    ]


def _fits(state: MexicanTrainHandState, tile: Tile, seat: int, players: int) -> bool:
    ends = state.ends
    return any(tile.halves >> ends[t] & 1 for t in usable_trains(state, seat, players))


def _end_turn(
    fields: dict[str, Any], state: MexicanTrainHandState, seat: int, players: int
) -> None:
    """The seat's turn is over: it leaves the opening round if it was in it, every
    unsatisfied double binds (``[MT-9]``; in a ``CHAIN`` opening round once the round is
    over, ``[MT-10]``), and the next seat is to act."""
    opening = fields.get("opening", state.opening)
    if seat in opening:
        opening = tuple(s for s in opening if s != seat)
        fields["opening"] = opening
    pending = fields.get("pending", state.pending)
    fields["binding"] = 0 if opening else len(pending)
    fields["to_act"] = (seat + 1) % players


class MexicanTrain(Ruleset[MexicanTrainOptions, MexicanTrainHandState]):
    id = "mexican_train"
    name = "Mexican Train"
    source = (
        "RULES.md [MT-1]..[MT-16]; pagat (as quoted), Wikipedia, Celko's Cardinal sheet, "
        "htfbw, idahogoodsam, ourpastimes, Good Sam, reference.com"
    )
    description = (
        "Trains from a hub: each player builds a train of matching tiles from the engine "
        "double, may use the Mexican train and any train whose marker is up, must satisfy "
        "a double before anything else, and draws when it cannot play; the lowest total "
        "after a hand per double wins."
    )
    options_type = MexicanTrainOptions
    hand_state_type = MexicanTrainHandState
    table_type = MexicanTrainTable
    low_wins = True
    hand_ends = frozenset({HandEnd.DOMINOED, HandEnd.BLOCKED})
    profiles = PROFILES

    players_text = (
        "2 to 8 (double-9: 2 to 4 unless hand_size is set); players times hand_size at most "
        "the tiles dealt from"
    )

    def full_set(self, options: MexicanTrainOptions) -> tuple[Tile, ...]:
        return double_n(options.set_max_pip)  # [MT-1]

    def check_options(self, options: MexicanTrainOptions) -> None:
        # [MT-15] the bounds that depend on the set
        if options.set_max_pip not in SETS:
            raise OptionsError(f"option set_max_pip must be 9, 12 or 15, not {options.set_max_pip}")
        trains.check_sizes(
            len(self.full_set(options)), options.set_max_pip, options.hand_size, options.hands
        )

    def max_players(self, options: MexicanTrainOptions) -> int:
        return self.player_range(options)[1]

    def player_range(self, options: MexicanTrainOptions) -> tuple[int, int]:
        # [MT-2] 2 to 8, each with a hand size, and enough tiles to deal
        return trains.player_range(
            HAND_SIZES,
            options.set_max_pip,
            options.hand_size,
            options.engine,
            len(self.full_set(options)),
        )

    def max_hands(self, options: MexicanTrainOptions, players: int) -> int:
        return trains.hands_in_match(options.set_max_pip, options.hands)  # [MT-13]

    # ---- the deal ----------------------------------------------------------------

    def deal_set(self, options: MexicanTrainOptions, hand_number: int) -> tuple[Tile, ...]:
        # [MT-2] [MT-3] the shuffle: the set, less the engine when it is set aside
        engine = trains.engine_of(options.set_max_pip, hand_number)
        return trains.deal_set(self.full_set(options), engine, options.engine)

    def deal_from(
        self, match: Match[MexicanTrainOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[MexicanTrainHandState, tuple[Event, ...]]:
        players, options = match.players, match.options
        size = trains.hand_size(HAND_SIZES, options.set_max_pip, players, options.hand_size)
        assert size is not None, "the player count was checked against the table"
        engine = trains.engine_of(options.set_max_pip, hand_number)
        dealt = trains.deal_hand(order, players, size, engine, options.engine, hand_number)
        # [MT-10] CHAIN: every seat's first turn, from the first player round the table
        lines = players + 1 if options.mexican_train else players
        opening: tuple[int, ...] = ()
        if options.opening is _CHAIN:
            opening = tuple((dealt.leader + k) % players for k in range(players))
        state = MexicanTrainHandState(
            dealt.hands,
            dealt.boneyard,
            engine,
            # [MT-5] the seats' trains, then the Mexican train when it is in play
            ((),) * lines,
            (engine.high,) * lines,
            0,  # [MT-6] every marker is down
            (),
            0,
            opening,
            dealt.leader,
            dealt.leader,
            dealt.hunt,
        )
        return state, dealt.events

    # ---- play --------------------------------------------------------------------

    def stock(self, state: MexicanTrainHandState) -> int:
        return len(state.boneyard)  # [MT-14] the engine is on the table, not in the stock

    def all_tiles(self, state: MexicanTrainHandState) -> tuple[Tile, ...]:
        laid = [tile for train in state.trains for tile in train]
        held = [tile for hand in state.hands for tile in hand]
        return (*held, *state.boneyard, *laid, state.engine)

    def hand_legal_moves(
        self, state: MexicanTrainHandState, options: MexicanTrainOptions
    ) -> tuple[Move, ...]:
        seat, players = state.to_act, len(state.hands)
        # [MT-7] a seat that can lay a tile must; [MT-9] a binding double first
        plays = _plays(state, seat, players)
        if plays:
            if seat in state.opening and state.trains[seat]:
                plays.append(Move(seat, _PASS))  # [MT-10] the chain may stop
            return tuple(plays)
        if state.boneyard:
            return (Move(seat, _DRAW),)  # [MT-8] one tile
        return (Move(seat, _PASS),)  # [MT-8] nothing to draw

    def hand_apply(
        self, match: Match[MexicanTrainOptions, MexicanTrainHandState], move: Move
    ) -> tuple[MexicanTrainHandState, tuple[Event, ...]]:
        state, seat, players = match.hand_state, move.seat, match.players
        fields = fields_of(state)
        kind = move.kind
        if kind is _PLAY:
            return self._play(match, move, fields)
        events: list[Event]
        if kind is _DRAW:
            tile = state.boneyard[0]
            hands = list(state.hands)
            hands[seat] = insert_tile(hands[seat], tile)
            fields["hands"] = tuple(hands)
            fields["boneyard"] = state.boneyard[1:]
            events = [Event(EventKind.DRAW, seat=seat, tile=tile, private_to=seat)]
            if _fits(state, tile, seat, players):
                return _make_state(fields), tuple(events)  # [MT-8] the drawer lays it
        else:
            events = [Event(EventKind.PASS, seat=seat)]
            if seat in state.opening and state.trains[seat]:
                # [MT-10] the PASS that stops an opening chain puts up no marker
                _end_turn(fields, state, seat, players)
                return _make_state(fields), tuple(events)
        # [MT-6] [MT-8] the turn ends without its tile: the marker goes up
        if not state.public >> seat & 1:
            fields["public"] = state.public | 1 << seat
            events.append(Event(EventKind.MARKER_UP, seat=seat))
        _end_turn(fields, state, seat, players)
        return _make_state(fields), tuple(events)

    def _play(
        self,
        match: Match[MexicanTrainOptions, MexicanTrainHandState],
        move: Move,
        fields: dict[str, Any],
    ) -> tuple[MexicanTrainHandState, tuple[Event, ...]]:
        state, seat, players = match.hand_state, move.seat, match.players
        tile, train = move.tile, move.train
        assert tile is not None and train is not None
        hands = list(state.hands)
        hand = remove_tile(hands[seat], tile)
        hands[seat] = hand
        fields["hands"] = tuple(hands)
        lines = list(state.trains)
        lines[train] = (*lines[train], tile)
        fields["trains"] = tuple(lines)
        ends = list(state.ends)
        number = ends[train]  # a double's number is the end it is laid on
        ends[train] = tile.other(number)
        fields["ends"] = tuple(ends)
        events = [trains.play_event(seat, tile, train)]
        if train == seat and state.public >> seat & 1:
            # [MT-6] a tile on one's own train takes the marker down
            fields["public"] = state.public & ~(1 << seat)
            events.append(Event(EventKind.MARKER_DOWN, seat=seat))
        # [MT-9] a tile laid on a train satisfies its double; a dead number's is dropped
        pending, binding = list(state.pending), state.binding
        if train in pending:
            if pending.index(train) < binding:
                binding -= 1
            pending.remove(train)
        live = trains.live_numbers(hands, state.boneyard) if pending or tile.is_double else 0
        if pending:
            kept = []
            for index, waiting in enumerate(pending):
                if live >> ends[waiting] & 1:
                    kept.append(waiting)
                elif index < binding:
                    binding -= 1
            pending = kept
        in_opening = seat in state.opening
        # [MT-9] a double stays unsatisfied until a tile is laid after it, even the seat's
        # last, which ends the hand ([MT-11]) with no follow-up: it binds as the turn ends
        unsatisfied = tile.is_double and bool(live >> number & 1)
        double_waits = unsatisfied and bool(hand)
        if unsatisfied:
            pending.append(train)
            if match.options.follow_up is _ON_DOUBLE and not in_opening:
                binding = len(pending)  # [MT-9] ON_DOUBLE: it binds at once
        fields["pending"] = tuple(pending)
        fields["binding"] = binding
        if in_opening:
            # [MT-10] a chain goes on while a tile fits the seat's own train
            end = ends[seat]
            if any(t.halves >> end & 1 for t in hand):
                fields["to_act"] = seat
            else:
                if hand:
                    events.append(Event(EventKind.TURN_PASSED, seat=seat))
                _end_turn(fields, state, seat, players)
        elif double_waits:
            fields["to_act"] = seat  # [MT-9] the follow-up
            events.append(Event(EventKind.BONUS_TURN, seat=seat))
        else:
            _end_turn(fields, state, seat, players)
        return _make_state(fields), tuple(events)

    def hand_over(self, state: MexicanTrainHandState) -> bool:
        # [MT-11] a seat went out, or the boneyard is empty and no hand shows an open end
        hands = state.hands
        if not all(hands):
            # a seat dealt only the engine has not gone out: it places it, then draws
            return trains.gone_out(hands, any(state.trains))
        if state.boneyard:
            return False
        return trains.blocked(hands, 0, state.ends)

    def score_hand(self, match: Match[MexicanTrainOptions, MexicanTrainHandState]) -> HandResult:
        # [MT-12] each seat's count is its points; the seat that went out wins alone
        return trains.score_hand(match.hand_state.hands, match.options.double_blank_points)

    def match_over(self, match: Match[MexicanTrainOptions, MexicanTrainHandState]) -> bool:
        # [MT-13] the match is `hands` hands
        options = match.options
        return len(match.history) >= trains.hands_in_match(options.set_max_pip, options.hands)

    def explain_hand(
        self,
        match: Match[MexicanTrainOptions, MexicanTrainHandState],
        number: int,
        before: tuple[int, ...],
    ) -> str:
        # [MT-11] how the hand ended, [MT-12] who wins it and what each seat scores
        result = match.history[number - 1]
        if result.end is HandEnd.DOMINOED and len(result.winners) == 1:
            head = (
                f"Dominoed: seat {result.winners[0]} laid their last tile and wins the hand "
                "[MT-11]."
            )
        elif result.end is HandEnd.BLOCKED and result.winners:
            low = result.counts[result.winners[0]]
            verb = "has" if len(result.winners) == 1 else "share"
            head = (
                "Blocked: the boneyard is empty and no hand can match an open end [MT-11]; "
                f"{seats_text(result.winners)} {verb} the lowest count, {low}, and "
                f"{'wins' if len(result.winners) == 1 else 'win'} the hand [MT-12]."
            )
        else:
            return super().explain_hand(match, number, before)
        scored = [seat for seat, points in enumerate(result.points) if points]
        if not scored:
            return f"{head} Nobody scores."
        return f"{head} Each seat scores the pips left in its hand: {points_text(result.points)}."

    def table(
        self, match: Match[MexicanTrainOptions, MexicanTrainHandState], seat: int | None
    ) -> MexicanTrainTable:
        # [MT-14] the trains with their markers, the doubles to satisfy, the opening round
        state, players = match.hand_state, match.players
        start = state.engine.high
        ends = state.ends
        shown = len(state.trains)
        lines = tuple(
            Train(
                train,
                trains.laid_tiles(start, state.trains[train]),
                ends[train],
                train == players or bool(state.public >> train & 1),
            )
            for train in range(shown)
        )
        pending = tuple(
            PendingDouble(train, index < state.binding) for index, train in enumerate(state.pending)
        )
        return MexicanTrainTable(state.engine, state.leader, lines, pending, state.opening)

    # ---- checks ------------------------------------------------------------------

    def check_hand_state(self, match: Match[MexicanTrainOptions, MexicanTrainHandState]) -> None:
        state, options, players = match.hand_state, match.options, match.players
        full = len(self.full_set(options))
        check_length(state.boneyard, 0, full, "the boneyard")
        lines = players + 1 if options.mexican_train else players
        check_length(state.trains, lines, lines, "the trains")
        for tiles in state.trains:
            check_length(tiles, 0, full, "a train")
        engine = trains.engine_of(options.set_max_pip, match.hand_number)
        require(state.engine == engine, "the engine is not this hand's double")  # [MT-3]
        # [MT-5] every train is a chain from the engine's number
        for tiles in state.trains:
            end = engine.high
            for tile in tiles:
                require(tile.has(end), "a train's tile does not match the end before it")
                end = tile.other(end)
        require(tuple(open_ends(state)) == state.ends, "the open ends do not fit the trains")
        check_range(state.public, 0, (1 << players) - 1, "the markers")
        check_length(state.pending, 0, players + 1, "the unsatisfied doubles")
        require(len(set(state.pending)) == len(state.pending), "a train pending twice")
        ends = open_ends(state)
        live = trains.live_numbers(state.hands, state.boneyard)
        for train in state.pending:
            check_range(train, 0, lines - 1, "an unsatisfied double's train")
            tiles = state.trains[train]
            require(bool(tiles) and tiles[-1].is_double, "a pending train ends in no double")
            require(bool(live >> ends[train] & 1), "a pending double of a dead number")
        check_range(state.binding, 0, len(state.pending), "the binding doubles")
        if options.opening is _CHAIN:
            check_length(state.opening, 0, players, "the opening round")
            for seat in state.opening:
                check_seat(seat, players, "a seat of the opening round")
            order = [(seat - state.leader) % players for seat in state.opening]
            require(order == sorted(set(order)), "the opening round is not in play order")
            if state.opening:
                require(state.binding == 0, "a double binds during the opening round")
        else:
            require(not state.opening, "an opening round without CHAIN")
        if options.engine is Engine.SET_ASIDE:
            require(state.hunt == 0, "a hunt for an engine set aside")
        check_range(state.hunt, 0, full, "the hunt")
