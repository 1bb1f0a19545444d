"""All Fives, Muggins and Fives and Threes: the Fives family, one ruleset with options.

Sources: RULES.md ``[A5-1]``..``[A5-15]`` (pagat's All Fives and Fives and Threes, Foster's
Hoyle, the usual rule pages, the Teesdale league). The deal, drawing, passing, sides and
counts are Block's; what differs is the spinner and its two more arms, the count after
every play and the points it scores at once, the hand's bonus, and a match that ends the
moment a side reaches the target.

Options (``AllFivesOptions``): ``set_max_pip`` (6..18, default 6), ``partnership``
(false), ``hand_size`` (0 = 7 to two players, else 5), ``draw`` (true), ``boneyard_keep``
(0), ``first_lead`` (``ANY_TILE``, ``HIGHEST_DOUBLE``), ``next_lead`` (``WINNER``,
``NEXT_SEAT``, ``AS_FIRST``), ``spinner`` (``FIRST_DOUBLE``, ``NONE``), ``play_scoring``
(``FIVES``, ``FIVES_AND_THREES``), ``divide_by_five`` (false), ``partners_play_out``
(false), ``hand_bonus`` (``OTHERS_ROUNDED``, ``OTHERS_MINUS_OWN_ROUNDED``,
``CHIP_OUT_POINT``, ``NONE``), ``target_score`` (200; 0 = a single hand), ``finish_hand``
(false), ``exact_target`` (false). :data:`PROFILES` are the section's named option sets.

The deal: the set in ascending order is shuffled with label ``deal/<hand>/0``; seat 0
takes the first k tiles, seat 1 the next k, and so on; the rest, in that order, is the
boneyard, drawn from its front ``[A5-2]``.

Decisions where RULES.md leaves a case open (each has a test in
``tests/rules/test_all_fives.py``):

* The lead "by lot" after a hand nobody dominoed under ``next_lead: WINNER``
  ``[A5-5]``: the seat ``Stream(seed, "lead/<hand>").below(players)`` (the stream of
  :mod:`domino_rules.rules.rng`, ``<hand>`` the new hand's number, 1-based), leading any
  tile. A hand nobody dominoed is a ``BLOCKED`` one (a ``TARGET_REACHED`` hand is the
  match's last).
* ``first_lead: ANY_TILE`` and ``next_lead: AS_FIRST``: every hand is led by seat 0, with
  any tile (every hand "as the first one", as Block's).
* The ``PEG`` of a play carries the points of the count it made (``[A5-9]``, after
  ``divide_by_five``); the bonus of the play that takes a side out is scored with it as
  one score (``[A5-12]``) but is shown in ``HAND_OVER``'s scores, not in the ``PEG``: a
  ``PEG`` always says what its count scored. A play whose count scores nothing, or
  whose score ``exact_target`` refuses, has no ``PEG``.
* A blocked hand: the last play's points are scored first (they may reach the target:
  the hand then ends ``TARGET_REACHED`` with no bonus), then the winning side's bonus
  (``exact_target`` refuses it on its own if it would pass the target; ``finish_hand``
  does not change it). The hand's ``end`` stays ``BLOCKED`` when the bonus reaches the
  target: the match ends with the hand.
* GetScore after ``TARGET_REACHED``: the hand's ``points`` and each seat's
  ``hand_points`` are the points scored in the hand up to and including the score that
  reached the target (no bonus); ``counts`` are each seat's pips left at that moment
  (the hands are turned up as after any hand); ``winners`` the side that reached it.
* ``exact_target``: a side's total is its seats' (partners carry the same total); a
  score is refused when the side's total plus it would pass ``target_score``. A side on
  the target exactly with ``finish_hand`` scores nothing more in that hand.
* A hand's reason in words (``explain_hand``) names how it ended, the winning side, the
  points pegged during play and the bonus with its rounding (``[A5-11]``): the bonus is
  found again from the counts, the play's points are the rest. Which counts scored is
  told by the ``PEG`` events; the reason does not list them.
* A spinner counts as a ``[A5-8]`` double end on whichever side of the line no tile lies
  against it (its left as the line's first tile, its right as the line's last); a
  double in an ``UP`` or ``DOWN`` arm lies crosswise like any other and is that arm's
  double end while it is the arm's outermost tile.
* A match played to ``target_score`` that no side reaches by hand 1,000 (``MAX_HANDS``)
  ends there, on the totals as they stand (the framework's bound on every match).

What a reachable hand state is (``check_hand_state``; everything else is refused):

* The line is a chain (``[A5-6]``); the spinner, when there is one, is a double of the
  line, and only ``spinner: FIRST_DOUBLE`` has one; the arms start only once both of the
  spinner's sides are touched, each a chain from the spinner's number ``[A5-7]``.
* The boneyard only shrinks by drawing, never below ``boneyard_keep``, and nothing is
  drawn without ``draw`` ``[A5-3]``; the hands and the layout hold the tiles dealt and
  drawn.
* The hand's points are never negative and partners carry the same ``[A5-9]``; a hand
  is over exactly when its ``end`` is set, and one whose side has gone out or that is
  blocked has it set ``[A5-10]``.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from typing import Any

from ...rules import rng
from ...rules.building import fields_of, made_of
from ...rules.checks import check_length, check_range, check_seat, fail, require
from ...rules.errors import OptionsError
from ...rules.events import Event, EventKind
from ...rules.lines import END_ORDER, LaidTile, check_chain, lay, play_event, play_table
from ...rules.match import HandEnd, HandResult, Match
from ...rules.moves import End, Move, MoveKind
from ...rules.options import option
from ...rules.ruleset import Profile, Ruleset, seats_text
from ...rules.tiles import Tile, double_n, insert_tile, remove_tile, sorted_tiles

__all__ = [
    "PROFILES",
    "AllFives",
    "AllFivesHandState",
    "AllFivesOptions",
    "AllFivesTable",
    "ArmTile",
    "FirstLead",
    "HandBonus",
    "NextLead",
    "PlayScoring",
    "Spinner",
    "bonus",
    "count",
    "end_pips",
    "hand_size",
    "open_ends",
    "play_points",
    "rank",
    "rounded",
    "sides",
]


class FirstLead(enum.Enum):
    ANY_TILE = "ANY_TILE"
    HIGHEST_DOUBLE = "HIGHEST_DOUBLE"


class NextLead(enum.Enum):
    WINNER = "WINNER"
    NEXT_SEAT = "NEXT_SEAT"
    AS_FIRST = "AS_FIRST"


class Spinner(enum.Enum):
    FIRST_DOUBLE = "FIRST_DOUBLE"
    NONE = "NONE"


class PlayScoring(enum.Enum):
    FIVES = "FIVES"
    FIVES_AND_THREES = "FIVES_AND_THREES"


class HandBonus(enum.Enum):
    OTHERS_ROUNDED = "OTHERS_ROUNDED"
    OTHERS_MINUS_OWN_ROUNDED = "OTHERS_MINUS_OWN_ROUNDED"
    CHIP_OUT_POINT = "CHIP_OUT_POINT"
    NONE = "NONE"


#: The most tiles of any set (double-18): the static bounds of the options whose real
#: bound depends on the set ``[A5-14]``.
_MOST_TILES = 190


@dataclass(frozen=True, slots=True)
class AllFivesOptions:
    set_max_pip: int = option(
        6, "the set is double-N, N from 6 to 18 [A5-1]", minimum=6, maximum=18
    )
    partnership: bool = option(
        False, "4 players in two sides, seats 0 and 2 against 1 and 3 [A5-2]"
    )
    hand_size: int = option(
        0,
        "tiles dealt to each player; 0: 7 to two players, 5 to three or more; at most half "
        "the set [A5-2] [A5-14]",
        minimum=0,
        maximum=_MOST_TILES // 2,
    )
    draw: bool = option(
        True, "a player who cannot play draws from the boneyard; false: nobody draws [A5-3]"
    )
    boneyard_keep: int = option(
        0,
        "tiles of the boneyard never drawn; at most the set [A5-3]",
        minimum=0,
        maximum=_MOST_TILES,
    )
    first_lead: FirstLead = option(
        FirstLead.ANY_TILE,
        "ANY_TILE: seat 0 leads any tile; HIGHEST_DOUBLE: the highest-ranked tile dealt "
        "leads [A5-4]",
    )
    next_lead: NextLead = option(
        NextLead.WINNER,
        "later hands: WINNER the player who dominoed (by lot after a block); NEXT_SEAT the "
        "seat after the last leader; AS_FIRST as the first hand [A5-5]",
    )
    spinner: Spinner = option(
        Spinner.FIRST_DOUBLE,
        "FIRST_DOUBLE: the first double laid opens UP and DOWN once both its sides are "
        "touched; NONE: a line with two ends [A5-7]",
    )
    play_scoring: PlayScoring = option(
        PlayScoring.FIVES,
        "FIVES: a count that is a multiple of 5 scores itself; FIVES_AND_THREES: a fifth "
        "and a third of it, where they are whole [A5-9]",
    )
    divide_by_five: bool = option(
        False, "every score is a fifth of itself (a cribbage board's pegging) [A5-9]"
    )
    partners_play_out: bool = option(
        False,
        "in a partnership a side goes out only when both partners have laid their last "
        "tile [A5-10]",
    )
    hand_bonus: HandBonus = option(
        HandBonus.OTHERS_ROUNDED,
        "the hand's winner scores OTHERS_ROUNDED the others' pips to the nearest 5; "
        "OTHERS_MINUS_OWN_ROUNDED less its own; CHIP_OUT_POINT 1 for going out; NONE "
        "[A5-11]",
    )
    target_score: int = option(
        200,
        "the match ends the moment a side reaches this total; 0 = a single hand [A5-12]",
        minimum=0,
        maximum=100_000,
    )
    finish_hand: bool = option(
        False, "the hand is played out, its bonus included, before the match ends [A5-12]"
    )
    exact_target: bool = option(False, "a score that would pass target_score is not scored [A5-12]")


@dataclass(frozen=True, slots=True)
class ArmTile:
    """A tile of the ``UP`` or ``DOWN`` arm: its pip facing the spinner (``inner``) and
    the one facing away (``outer``)."""

    tile: Tile
    inner: int
    outer: int


@dataclass(frozen=True)
class AllFivesHandState:
    hands: tuple[tuple[Tile, ...], ...]
    #: The tiles neither dealt nor drawn, drawn from the front.
    boneyard: tuple[Tile, ...]
    #: Left to right.
    line: tuple[LaidTile, ...]
    #: The spinner's index in ``line``; ``None`` while there is none.
    spinner: int | None
    #: From the spinner outwards.
    up: tuple[ArmTile, ...]
    down: tuple[ArmTile, ...]
    to_act: int
    leader: int
    #: True when the leader may lead any tile; false: the highest-ranked tile dealt.
    any_lead: bool
    #: Tiles that may still be drawn (0 without ``draw``).
    draws_left: int
    #: The seat that laid the last tile (``None`` before the lead).
    last_layer: int | None
    #: Per seat, the points scored in this hand so far (the bonus too, once it is over).
    points: tuple[int, ...]
    #: How the hand ended; ``None`` while it is in play.
    end: HandEnd | None


@dataclass(frozen=True, slots=True)
class AllFivesTable:
    line: tuple[LaidTile, ...]
    spinner: int | None
    up: tuple[ArmTile, ...]
    down: tuple[ArmTile, ...]
    left_end: int | None
    right_end: int | None
    up_end: int | None
    down_end: int | None
    count: int
    hand_points: tuple[int, ...]
    leader: int


#: ``_make_state(fields)`` from a changed copy of a state's fields (:func:`made_of`).
_make_state = made_of(AllFivesHandState)
_PLAY, _PASS = MoveKind.PLAY, MoveKind.PASS
_LEFT, _RIGHT, _UP, _DOWN = End.LEFT, End.RIGHT, End.UP, End.DOWN
_DOMINOED, _BLOCKED, _TARGET = HandEnd.DOMINOED, HandEnd.BLOCKED, HandEnd.TARGET_REACHED


# ---- the pieces of the rules ------------------------------------------------------


def rank(tile: Tile) -> tuple[int, int, int]:
    """[A5-4] a tile's rank for a ``HIGHEST_DOUBLE`` lead (Block's ``[BLK-4]``): doubles
    above every other tile, highest first; then by pip total, and of equal totals the
    higher high half."""
    return (1, tile.high, 0) if tile.is_double else (0, tile.pips, tile.high)


def hand_size(options: AllFivesOptions, players: int) -> int:
    """[A5-2] the tiles dealt to each player: 7 to two players, 5 to more, unless set."""
    if options.hand_size:
        return options.hand_size
    return 7 if players == 2 else 5


def sides(options: AllFivesOptions, players: int) -> tuple[tuple[int, ...], ...]:
    """[A5-2] the sides: seats 0 and 2 against 1 and 3 in a partnership, else each seat."""
    if options.partnership:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(players))


def _side_of(options: AllFivesOptions, seat: int) -> tuple[int, ...]:
    return (seat % 2, seat % 2 + 2) if options.partnership else (seat,)


def _draws_left(options: AllFivesOptions, boneyard: int) -> int:
    return max(0, boneyard - options.boneyard_keep) if options.draw else 0


def _arms_open(line: tuple[LaidTile, ...], spinner: int | None) -> bool:
    """[A5-7] UP and DOWN are open once both of the spinner's sides touch a tile."""
    return spinner is not None and 0 < spinner < len(line) - 1


#: The places of a lead, ``LEFT``, ``RIGHT``, ``UP`` and ``DOWN`` in :data:`END_ORDER`.
_AT_LEAD, _AT_LEFT, _AT_RIGHT, _AT_UP, _AT_DOWN = (
    END_ORDER.index(end) for end in (None, _LEFT, _RIGHT, _UP, _DOWN)
)


def _open(
    line: tuple[LaidTile, ...],
    spinner: int | None,
    up: tuple[ArmTile, ...],
    down: tuple[ArmTile, ...],
) -> list[tuple[int, int]]:
    """[A5-6] [A5-7] each open end (its place in ``END_ORDER``) and the number showing
    there, ``LEFT``, ``RIGHT``, ``UP``, ``DOWN`` in that order (none before the lead)."""
    if not line:
        return []
    ends = [(_AT_LEFT, line[0].left), (_AT_RIGHT, line[-1].right)]
    if spinner is not None and 0 < spinner < len(line) - 1:
        pip = line[spinner].tile.high
        ends.append((_AT_UP, up[-1].outer if up else pip))
        ends.append((_AT_DOWN, down[-1].outer if down else pip))
    return ends


def open_ends(
    line: tuple[LaidTile, ...],
    spinner: int | None,
    up: tuple[ArmTile, ...],
    down: tuple[ArmTile, ...],
) -> tuple[tuple[End, int], ...]:
    """[A5-6] [A5-7] each open end and the number showing there, ``LEFT``, ``RIGHT``,
    ``UP``, ``DOWN`` in that order (none before the lead)."""
    ends = []
    for at, pip in _open(line, spinner, up, down):
        end = END_ORDER[at]
        assert end is not None
        ends.append((end, pip))
    return tuple(ends)


def end_pips(
    line: tuple[LaidTile, ...],
    spinner: int | None,
    up: tuple[ArmTile, ...],
    down: tuple[ArmTile, ...],
) -> int:
    """[A5-6] the numbers showing at the open ends, as a bit set (``1 << pip``): a tile
    fits where ``tile.halves & end_pips(...)``."""
    bits = 0
    for _, pip in _open(line, spinner, up, down):
        bits |= 1 << pip
    return bits


def _end_pips(state: AllFivesHandState) -> int:
    return end_pips(state.line, state.spinner, state.up, state.down)


def count(
    line: tuple[LaidTile, ...],
    spinner: int | None,
    up: tuple[ArmTile, ...],
    down: tuple[ArmTile, ...],
) -> int:
    """[A5-8] the count: over the open ends, the number showing, twice where the end's
    outermost tile is a double; UP and DOWN add nothing until a tile lies there; a line
    of one tile adds its pips once."""
    if not line:
        return 0
    first, last = line[0], line[-1]
    if len(line) == 1:
        return first.tile.pips  # a lone tile, a lone double too, counts its pips once
    total = first.left * (2 if first.tile.is_double else 1)
    total += last.right * (2 if last.tile.is_double else 1)
    for arm in (up, down):
        if arm:
            outer = arm[-1]
            total += outer.outer * (2 if outer.tile.is_double else 1)
    return total


def play_points(options: AllFivesOptions, value: int) -> int:
    """[A5-9] what a count scores: ``FIVES`` a positive multiple of 5 itself;
    ``FIVES_AND_THREES`` a fifth of it where whole plus a third of it where whole;
    ``divide_by_five`` a fifth of the ``FIVES`` score."""
    if value <= 0:
        return 0
    if options.play_scoring is PlayScoring.FIVES:
        if value % 5:
            return 0
        return value // 5 if options.divide_by_five else value
    return (0 if value % 5 else value // 5) + (0 if value % 3 else value // 3)


def rounded(pips: int) -> int:
    """[A5-11] ``pips`` to the nearest multiple of 5 (one ending in 1 or 2 rounds down, in
    3 or 4 up): 12 -> 10, 13 -> 15."""
    return (pips + 2) // 5 * 5


def bonus(options: AllFivesOptions, own: int, others: int, *, went_out: bool) -> int:
    """[A5-11] what the winning side scores at the hand's end, from its own count and the
    other sides' (``divide_by_five`` after the rounding)."""
    kind = options.hand_bonus
    if kind is HandBonus.CHIP_OUT_POINT:
        return 1 if went_out else 0
    if kind is HandBonus.NONE:
        return 0
    pips = others if kind is HandBonus.OTHERS_ROUNDED else max(0, others - own)
    points = rounded(pips)
    return points // 5 if options.divide_by_five else points


def _hand_winner(
    options: AllFivesOptions, hands: tuple[tuple[Tile, ...], ...], out: int | None
) -> tuple[tuple[int, ...] | None, int, int]:
    """[A5-11] the winning side (``None`` on a tie), its count and the other sides':
    the side of seat ``out`` when it went out, else the lowest count."""
    players = len(hands)
    pips = [sum(tile.pips for tile in hand) for hand in hands]
    if out is not None:
        side: tuple[int, ...] | None = _side_of(options, out)
    else:
        counts = [(sum(pips[s] for s in team), team) for team in sides(options, players)]
        low = min(value for value, _ in counts)
        lowest = [team for value, team in counts if value == low]
        side = lowest[0] if len(lowest) == 1 else None
    if side is None:
        return None, 0, 0
    own = sum(pips[s] for s in side)
    return side, own, sum(pips) - own


# ---- profiles ----------------------------------------------------------------------

#: The section's named option sets (``ListRulesets``).
PROFILES: tuple[Profile, ...] = (
    Profile(
        "all_fives",
        "All Fives",
        "pagat's All Fives with the majority's deal (7 tiles to two players, 5 to more) "
        "and a 200-point target: the defaults",
        {},
    ),
    Profile(
        "muggins",
        "Muggins",
        "pagat's name for All Fives without a spinner: a line with two ends",
        {"spinner": "NONE"},
    ),
    Profile(
        "hoyle_muggins",
        "Muggins (Hoyle)",
        "Foster's Hoyle, 'Muggins, or All Fives': no spinner, the highest double sets, 7 "
        "tiles each, the last two of the stock never drawn, 100 points",
        {
            "spinner": "NONE",
            "first_lead": "HIGHEST_DOUBLE",
            "boneyard_keep": 2,
            "hand_size": 7,
            "target_score": 100,
        },
    ),
    Profile(
        "pagat_two_hands",
        "All Fives, pagat's deal for two",
        "pagat's deal and target for two players: 9 tiles each, 250 points (for three "
        "players pagat deals 7: set hand_size 7)",
        {"hand_size": 9, "target_score": 250},
    ),
    Profile(
        "cribbage_board",
        "All Fives on a cribbage board",
        "pagat: every score divided by five, pegged on a cribbage board to 61",
        {"divide_by_five": True, "target_score": 61},
    ),
    Profile(
        "fives_and_threes",
        "Fives and Threes",
        "pagat's Fives and Threes, the British pub game: fives and threes scored, no "
        "spinner, no drawing, the lead passes to the left, a point for chipping out, 61 "
        "exactly (with 4 players, add partnership: true)",
        {
            "play_scoring": "FIVES_AND_THREES",
            "spinner": "NONE",
            "draw": False,
            "next_lead": "NEXT_SEAT",
            "hand_bonus": "CHIP_OUT_POINT",
            "partners_play_out": True,
            "target_score": 61,
            "exact_target": True,
        },
    ),
)


class AllFives(Ruleset[AllFivesOptions, AllFivesHandState]):
    id = "all_fives"
    name = "All Fives, Muggins and Fives and Threes"
    source = (
        "RULES.md [A5-1]..[A5-15]; pagat's All Fives and Fives and Threes, Foster's Hoyle, "
        "the Teesdale Fives and Threes league"
    )
    description = (
        "The Western line game that scores as it is played: after every tile the open "
        "ends are added up, and a count that is a multiple of five (and of three, in Fives "
        "and Threes) scores at once; the first double is a spinner with four arms; the "
        "side that goes out scores the others' pips, rounded to five; the match ends the "
        "moment a side reaches the target."
    )
    options_type = AllFivesOptions
    hand_state_type = AllFivesHandState
    table_type = AllFivesTable
    hand_ends = frozenset({HandEnd.DOMINOED, HandEnd.BLOCKED, HandEnd.TARGET_REACHED})
    hands_may_have_no_winner = True  # [A5-11] equal lowest counts: nobody wins
    profiles = PROFILES

    players_text = (
        "2 up to as many as the set deals (5 with double-six and 5 tiles each); "
        "exactly 4 in a partnership"
    )

    def full_set(self, options: AllFivesOptions) -> tuple[Tile, ...]:
        return double_n(options.set_max_pip)  # [A5-1]

    def check_options(self, options: AllFivesOptions) -> None:
        # [A5-14] the bounds that depend on the set
        tiles = len(self.full_set(options))
        if options.hand_size > tiles // 2:
            raise OptionsError(
                f"option hand_size must be from 0 to {tiles // 2} with this set, "
                f"not {options.hand_size}"
            )
        if options.boneyard_keep > tiles:
            raise OptionsError(
                f"option boneyard_keep must be from 0 to {tiles} with this set, "
                f"not {options.boneyard_keep}"
            )
        # [A5-14] the options that do not go together
        if options.divide_by_five and options.play_scoring is PlayScoring.FIVES_AND_THREES:
            raise OptionsError(
                "option divide_by_five does not go with play_scoring FIVES_AND_THREES: "
                "its scores are not multiples of five"
            )
        if options.divide_by_five and options.hand_bonus is HandBonus.CHIP_OUT_POINT:
            raise OptionsError(
                "option divide_by_five does not go with hand_bonus CHIP_OUT_POINT: "
                "a point cannot be divided by five"
            )
        fives_only = (
            options.play_scoring is PlayScoring.FIVES
            and not options.divide_by_five
            and options.hand_bonus is not HandBonus.CHIP_OUT_POINT
        )
        if options.exact_target and options.target_score % 5 and fives_only:
            raise OptionsError(
                f"option exact_target needs a target_score a score can land on: every score "
                f"is a multiple of 5 with these options, and {options.target_score} is not"
            )

    def max_players(self, options: AllFivesOptions) -> int:
        return self.player_range(options)[1]

    def player_range(self, options: AllFivesOptions) -> tuple[int, int]:
        # [A5-2] exactly 4 in a partnership; else 2 up to the most the set can deal
        tiles = len(self.full_set(options))
        if options.partnership:
            return (4, 4) if 4 * hand_size(options, 4) <= tiles else (4, 3)
        most = 1
        for players in range(2, tiles + 1):
            if players * hand_size(options, players) <= tiles:
                most = players
            elif options.hand_size or players > 2:
                break
        return 2, most

    def max_hands(self, options: AllFivesOptions, players: int) -> int:
        return 1 if options.target_score == 0 else super().max_hands(options, players)

    # ---- the deal ----------------------------------------------------------------

    def deal_from(
        self, match: Match[AllFivesOptions, Any], hand_number: int, order: tuple[Tile, ...]
    ) -> tuple[AllFivesHandState, tuple[Event, ...]]:
        players, options = match.players, match.options
        size = hand_size(options, players)
        hands = tuple([sorted_tiles(order[s * size : (s + 1) * size]) for s in range(players)])
        boneyard = order[players * size :]
        previous = match.hand_state
        lead = options.next_lead if isinstance(previous, AllFivesHandState) else None
        any_lead = True
        if lead is None or lead is NextLead.AS_FIRST:
            if options.first_lead is FirstLead.HIGHEST_DOUBLE:
                # [A5-4] the holder of the highest-ranked tile dealt leads it
                top = max((tile for hand in hands for tile in hand), key=rank)
                leader = next(s for s, hand in enumerate(hands) if top in hand)
                any_lead = False
            else:
                leader = 0  # [A5-4] ANY_TILE: seat 0, any tile
        elif lead is NextLead.WINNER:
            assert isinstance(previous, AllFivesHandState)
            if previous.end is _DOMINOED and previous.last_layer is not None:
                leader = previous.last_layer  # [A5-5] the player who dominoed
            else:
                # [A5-5] after a block, by lot: a seat from the game's seed
                leader = rng.Stream(match.seed, f"lead/{hand_number}").below(players)
        else:
            assert isinstance(previous, AllFivesHandState)
            leader = (previous.leader + 1) % players  # [A5-5] NEXT_SEAT
        state = AllFivesHandState(
            hands,
            boneyard,
            (),
            None,
            (),
            (),
            leader,
            leader,
            any_lead,
            _draws_left(options, len(boneyard)),
            None,
            (0,) * players,
            None,
        )
        events = (Event(EventKind.DEAL, count=size), Event(EventKind.LEADER, seat=leader))
        return state, events

    # ---- play --------------------------------------------------------------------

    def stock(self, state: AllFivesHandState) -> int:
        return len(state.boneyard)  # [A5-13] every tile neither dealt nor drawn

    def all_tiles(self, state: AllFivesHandState) -> tuple[Tile, ...]:
        laid = [laid.tile for laid in state.line] + [arm.tile for arm in state.up + state.down]
        return tuple([tile for hand in state.hands for tile in hand]) + state.boneyard + tuple(laid)

    def running_points(self, state: AllFivesHandState, players: int) -> tuple[int, ...]:
        return state.points  # [A5-9] scored at once

    def hand_legal_moves(
        self, state: AllFivesHandState, options: AllFivesOptions
    ) -> tuple[Move, ...]:
        seat, hand = state.to_act, state.hands[state.to_act]
        if not state.line:
            if state.any_lead:
                table = play_table(seat)
                return tuple([table[tile.code][_AT_LEAD] for tile in hand])
            # [A5-4] the highest-ranked tile dealt is the leader's only move
            return (Move(seat, _PLAY, tile=max(hand, key=rank)),)
        # [A5-3] [A5-6] a tile that fits must be played, at every open end it fits
        ends = _open(state.line, state.spinner, state.up, state.down)
        table = play_table(seat)
        plays = [
            table[tile.code][at] for tile in hand for at, pip in ends if tile.halves >> pip & 1
        ]
        if plays:
            return tuple(plays)
        if state.draws_left > 0:
            return (Move(seat, MoveKind.DRAW),)  # [A5-3]
        return (Move(seat, _PASS),)  # [A5-3] the knock

    def hand_apply(
        self, match: Match[AllFivesOptions, AllFivesHandState], move: Move
    ) -> tuple[AllFivesHandState, tuple[Event, ...]]:
        state, seat = match.hand_state, move.seat
        if move.kind is _PLAY:
            return self._play(match, move)
        if move.kind is _PASS:
            fields = fields_of(state)
            fields["to_act"] = _next_seat(state.hands, seat)
            return _make_state(fields), (Event(EventKind.PASS, seat=seat),)
        # [A5-3] draw one tile at a time until one fits or nothing more may be drawn
        hand, boneyard, left = state.hands[seat], state.boneyard, state.draws_left
        pips = _end_pips(state)
        events: list[Event] = []
        found = False
        while left > 0:
            tile, boneyard, left = boneyard[0], boneyard[1:], left - 1
            hand = insert_tile(hand, tile)
            events.append(Event(EventKind.DRAW, seat=seat, tile=tile, private_to=seat))
            if tile.halves & pips:
                found = True
                break
        hands = list(state.hands)
        hands[seat] = hand
        fields = fields_of(state)
        fields["hands"] = tuple(hands)
        fields["boneyard"] = boneyard
        fields["draws_left"] = left
        fields["to_act"] = seat if found else _next_seat(fields["hands"], seat)
        after = _make_state(fields)
        if not found and left <= 0 and _blocked(after):
            # [A5-10] a DRAW that finds nothing can block the hand
            after = _blocked_end(match, after)
        return after, tuple(events)

    def _play(
        self, match: Match[AllFivesOptions, AllFivesHandState], move: Move
    ) -> tuple[AllFivesHandState, tuple[Event, ...]]:
        state, options, seat = match.hand_state, match.options, move.seat
        tile, end = move.tile, move.end
        assert tile is not None
        fields = fields_of(state)
        held = list(state.hands)
        held[seat] = remove_tile(held[seat], tile)
        fields["hands"] = hands = tuple(held)
        line, spinner, up, down = state.line, state.spinner, state.up, state.down
        if end is _UP or end is _DOWN:
            # [A5-7] an arm grows from the spinner like an end of the line
            arm = up if end is _UP else down
            showing = arm[-1].outer if arm else line[spinner or 0].tile.high
            other = tile.low if tile.high == showing else tile.high
            grown = (*arm, ArmTile(tile, showing, other))
            if end is _UP:
                fields["up"] = up = grown
            else:
                fields["down"] = down = grown
        else:
            fields["line"] = line = lay(line, tile, end)  # [A5-6]
            if spinner is not None and end is _LEFT:
                spinner += 1
            elif spinner is None and tile.is_double and options.spinner is Spinner.FIRST_DOUBLE:
                # [A5-7] the first double laid, the lead included, is the spinner
                spinner = len(line) - 1 if end is _RIGHT else 0
            fields["spinner"] = spinner
        fields["last_layer"] = seat
        fields["to_act"] = _next_seat(hands, seat)
        value = count(line, spinner, up, down)  # [A5-8]
        points = play_points(options, value)  # [A5-9]
        side = _side_of(options, seat)
        out = not hands[seat] and (
            not (options.partners_play_out and options.partnership)
            or all(not hands[s] for s in side)
        )
        events = play_event(seat, tile, end)
        if out:
            # [A5-10] the side goes out; [A5-12] the play's points and the bonus are one score
            _, own, others = _hand_winner(options, hands, seat)
            extra = bonus(options, own, others, went_out=True)
            scored = _scored(match, fields["points"], side, points + extra)
            if scored is not None:
                fields["points"] = scored
                if points:
                    events += (_peg(seat, points, value),)
            fields["end"] = _DOMINOED
            return _make_state(fields), events
        if points:
            scored = _scored(match, fields["points"], side, points)
            if scored is not None:
                fields["points"] = scored
                events += (_peg(seat, points, value),)
                if _reached(match, scored, side):
                    fields["end"] = _TARGET  # [A5-12] the match ends mid-hand
                    return _make_state(fields), events
        after = _make_state(fields)
        if after.draws_left <= 0 and _blocked(after):
            after = _blocked_end(match, after)  # [A5-10]
        return after, events

    def hand_over(self, state: AllFivesHandState) -> bool:
        return state.end is not None  # [A5-10] set by the move that ends the hand

    def score_hand(self, match: Match[AllFivesOptions, AllFivesHandState]) -> HandResult:
        state, options = match.hand_state, match.options
        counts = tuple([sum(tile.pips for tile in hand) for hand in state.hands])
        end = state.end or _BLOCKED
        if end is _BLOCKED:
            side, _, _ = _hand_winner(options, state.hands, None)  # [A5-11] lowest count
        else:
            assert state.last_layer is not None
            side = _side_of(options, state.last_layer)  # went out, or reached the target
        winners = tuple(sorted(side)) if side is not None else ()
        return HandResult(counts, state.points, winners, end)

    def explain_hand(
        self,
        match: Match[AllFivesOptions, AllFivesHandState],
        number: int,
        before: tuple[int, ...],
    ) -> str:
        # [A5-10] how the hand ended, [A5-11] who won it and the bonus, [A5-9] the play
        result, options = match.history[number - 1], match.options
        counts, winners, points = result.counts, result.winners, result.points
        pair = options.partnership

        def who(side: tuple[int, ...]) -> str:
            return f"the side of {seats_text(side)}" if pair else seats_text(side)

        teams = sides(options, match.players)
        if (winners and winners not in teams) or (result.end is _TARGET and not winners):
            # not a result these rules give (a state from outside): the facts
            return super().explain_hand(match, number, before)
        if result.end is _TARGET:
            return (
                f"The target was reached during the hand: {who(winners)} reached "
                f"{options.target_score} with {_points(points[winners[0]])} scored in this "
                "hand [A5-12]; the hand ends there, with no bonus."
            )
        side_counts = [sum(counts[s] for s in team) for team in teams]
        pegged = ", ".join(f"{seats_text(t)} {points[t[0]]}" for t in teams if points[t[0]])
        if result.end is _DOMINOED:
            if not winners:
                return super().explain_hand(match, number, before)
            head = f"Dominoed: {who(winners)} went out and wins the hand [A5-11]."
        elif not winners:
            low = min(side_counts)
            head = (
                f"Blocked: the lowest count, {low}, is tied: nobody wins the hand and nobody "
                "scores a bonus [A5-11]."
            )
            tail = f" Pegged during play: {pegged} [A5-9]." if pegged else ""
            return head + tail
        else:
            own_count = sum(counts[s] for s in winners)
            head = (
                f"Blocked: {who(winners)} has the lowest count, {own_count}, and wins the "
                "hand [A5-11]."
            )
        own = sum(counts[s] for s in winners)
        others = sum(counts) - own
        extra = bonus(options, own, others, went_out=result.end is _DOMINOED)
        kind = options.hand_bonus
        if kind is HandBonus.CHIP_OUT_POINT:
            what = "1 point for going out" if extra else "no point: nobody went out"
        elif kind is HandBonus.NONE:
            what = "none (hand_bonus NONE)"
        else:
            pips = others if kind is HandBonus.OTHERS_ROUNDED else max(0, others - own)
            said = (
                f"the others' {others} pips"
                if pips == others
                else (f"the others' {others} pips less their own {own}, {pips}")
            )
            what = f"{said}, rounded to {rounded(pips)}"
            if options.divide_by_five:
                what += f", divided by five: {extra}"
        text = f"{head} Bonus: {what} [A5-11]."
        if options.exact_target and options.target_score and extra:
            text += " Under exact_target a score that would pass the target is not scored."
        if pegged:
            text += f" Hand points, play and bonus: {pegged} [A5-9]."
        return text

    def match_over(self, match: Match[AllFivesOptions, AllFivesHandState]) -> bool:
        # [A5-12] a side's total reached target_score; 0 means a single hand. The totals
        # of the history alone: the hand just scored is in it (its points are no longer
        # running ones, whatever the match's status says yet)
        target = match.options.target_score
        return target == 0 or max(_totals_before(match)) >= target

    def table(
        self, match: Match[AllFivesOptions, AllFivesHandState], seat: int | None
    ) -> AllFivesTable:
        state = match.hand_state
        line, spinner, up, down = state.line, state.spinner, state.up, state.down
        ends = dict(open_ends(line, spinner, up, down))
        return AllFivesTable(  # [A5-13]
            line,
            spinner,
            up,
            down,
            ends.get(_LEFT),
            ends.get(_RIGHT),
            ends.get(_UP),
            ends.get(_DOWN),
            count(line, spinner, up, down),
            state.points,
            state.leader,
        )

    # ---- checks ------------------------------------------------------------------

    def check_hand_state(self, match: Match[AllFivesOptions, AllFivesHandState]) -> None:
        state, options, players = match.hand_state, match.options, match.players
        full = len(self.full_set(options))
        dealt = players * hand_size(options, players)
        check_length(state.line, 0, full, "the line")
        check_length(state.up, 0, full, "the UP arm")
        check_length(state.down, 0, full, "the DOWN arm")
        check_length(state.boneyard, 0, full - dealt, "the boneyard")
        check_length(state.points, players, players, "the hand's points")
        check_chain(state.line)  # [A5-6]
        line, spinner = state.line, state.spinner
        if spinner is not None:
            require(options.spinner is Spinner.FIRST_DOUBLE, "a spinner under spinner NONE")
            check_range(spinner, 0, max(0, len(line) - 1), "the spinner")
            require(bool(line) and line[spinner].tile.is_double, "the spinner is no double")
        elif options.spinner is Spinner.FIRST_DOUBLE:
            require(not any(laid.tile.is_double for laid in line), "a double laid with no spinner")
        if state.up or state.down:
            require(_arms_open(line, spinner), "an arm before the spinner's sides are touched")
        for arm in (state.up, state.down):
            showing = line[spinner].tile.high if arm and spinner is not None else None
            for laid in arm:
                tile = laid.tile
                halves = sorted((laid.inner, laid.outer))
                require(halves == [tile.low, tile.high], "an arm tile shows wrong halves")
                require(laid.inner == showing, "touching ends of an arm do not match")
                showing = laid.outer
        drawn = full - dealt - len(state.boneyard)
        if not options.draw:
            require(drawn == 0, "a tile was drawn without draw")  # [A5-3]
        else:
            stop = min(options.boneyard_keep, full - dealt)
            require(len(state.boneyard) >= stop, "tiles were drawn past boneyard_keep")
        check_range(state.draws_left, 0, full, "draws_left")
        require(
            state.draws_left == _draws_left(options, len(state.boneyard)),
            "draws_left does not fit the boneyard",
        )
        on_table = len(line) + len(state.up) + len(state.down)
        held = sum(len(hand) for hand in state.hands)
        require(held + on_table == dealt + drawn, "the hands do not fit the deal")
        for value in state.points:
            check_range(value, 0, 10_000_000, "the hand's points")
        if options.partnership:
            require(
                state.points[0] == state.points[2] and state.points[1] == state.points[3],
                "partners carry different hand points",
            )
        if not line:
            require(state.last_layer is None, "a last layer before the lead")
            require(state.to_act == state.leader, "before the lead the leader acts")
            require(not any(state.points), "points before the lead")
            require(state.end is None, "a hand over before the lead")
            for hand in state.hands:
                size = hand_size(options, players)
                check_length(hand, size, size, "a hand")
            if not state.any_lead:
                top = max((tile for hand in state.hands for tile in hand), key=rank)
                require(top in state.hands[state.leader], "the leader does not hold the top tile")
            return
        if state.last_layer is None:
            fail("a line with no seat that laid its last tile")
        check_seat(state.last_layer, players, "last_layer")
        require(state.end in (None, *self.hand_ends), "an unknown end of hand")
        side = _side_of(options, state.last_layer)
        out = not state.hands[state.last_layer] and (
            not (options.partners_play_out and options.partnership)
            or all(not state.hands[s] for s in side)
        )
        if state.end is None:
            require(not out, "a side went out and the hand goes on")  # [A5-10]
            require(not (state.draws_left <= 0 and _blocked(state)), "a blocked hand goes on")
            require(bool(state.hands[state.to_act]), "a seat out is to act")
        elif state.end is _DOMINOED:
            require(out, "a hand dominoed with no side out")
        elif state.end is _TARGET:
            require(options.target_score > 0, "a target reached with no target")
            require(not out, "a side went out: the hand is dominoed")  # [A5-12]
        else:
            require(state.draws_left <= 0 and _blocked(state), "a hand blocked that is not")


def _blocked_end(match: Match[AllFivesOptions, Any], state: AllFivesHandState) -> AllFivesHandState:
    """``state``, a blocked hand, over: the lowest side's bonus scored [A5-10] [A5-11]."""
    fields = fields_of(state)
    fields["end"] = _BLOCKED
    side, own, others = _hand_winner(match.options, state.hands, None)
    if side is not None:
        extra = bonus(match.options, own, others, went_out=False)
        scored = _scored(match, state.points, side, extra)
        if scored is not None:
            fields["points"] = scored
    return _make_state(fields)


def _next_seat(hands: tuple[tuple[Tile, ...], ...], seat: int) -> int:
    """[A5-10] the next seat in turn order that still holds tiles (a seat already out
    under ``partners_play_out`` is skipped)."""
    players = len(hands)
    for step in range(1, players + 1):
        following = (seat + step) % players
        if hands[following]:
            return following
    return (seat + 1) % players


def _blocked(state: AllFivesHandState) -> bool:
    """[A5-10] no tile of any hand fits an open end (the caller checks the boneyard)."""
    pips = _end_pips(state)
    for hand in state.hands:
        for tile in hand:
            if tile.halves & pips:
                return False
    return True


def _totals_before(match: Match[AllFivesOptions, Any]) -> list[int]:
    """Each seat's match total before this hand."""
    totals = [0] * match.players
    for result in match.history:
        for seat, value in enumerate(result.points):
            totals[seat] += value
    return totals


def _scored(
    match: Match[AllFivesOptions, Any],
    points: tuple[int, ...],
    side: tuple[int, ...],
    score: int,
) -> tuple[int, ...] | None:
    """The hand's ``points`` with ``score`` credited to every seat of ``side`` [A5-9];
    ``None`` when it is not scored: nothing to score, or ``exact_target`` refuses a score
    that would take the side past the target [A5-12]."""
    if score <= 0:
        return None
    options = match.options
    target = options.target_score
    if options.exact_target and target:
        total = _totals_before(match)[side[0]] + points[side[0]]
        if total + score > target:
            return None
    new = list(points)
    for seat in side:
        new[seat] += score
    return tuple(new)


def _reached(
    match: Match[AllFivesOptions, Any], points: tuple[int, ...], side: tuple[int, ...]
) -> bool:
    """[A5-12] the side's total has reached the target, and the match ends now (not under
    ``finish_hand``)."""
    options = match.options
    target = options.target_score
    if not target or options.finish_hand:
        return False
    return _totals_before(match)[side[0]] + points[side[0]] >= target


@functools.lru_cache(maxsize=4096)
def _peg(seat: int, points: int, value: int) -> Event:
    """[A5-15] the ``PEG`` of a play: its seat, the points and the count."""
    return Event(EventKind.PEG, seat=seat, points=points, count=value)


def _points(number: int) -> str:
    """``number`` points, in words: "1 point", "15 points"."""
    return f"{number} point" if number == 1 else f"{number} points"
