"""The One Arm Joe bot: its sampled worlds and its GREEDY heuristic.

**What the seat sees** (``OneArmJoeTable``): the arm (every tile laid, in order), the
open end, the bonus turn and the leader; its own hand, every hand's size and the
boneyard's size; the events of the last move, with other seats' drawn tiles hidden.

**Sampling.** The hidden tiles are the set less the seat's hand and the arm. They are
dealt at random into the other hands (their sizes as seen) and the boneyard (its size as
seen, in random order: the boneyard is drawn from its front). What the rules let the seat
infer is kept:

* ``[OAJ-3]`` before the lead, the seat to act leads, so it holds the highest double
  dealt: no other hand holds a higher double;
* ``[OAJ-8]`` the hand goes on, so with an empty boneyard some hand holds a tile that
  matches the open end;
* ``[OAJ-7]`` a seat that drew in the last move had no tile matching the open end it
  drew on, and the tiles it drew and kept did not match it either: its hand holds no
  tile with that pip (the pip is the one the auto-played tile was laid on, or the open
  end when the boneyard ran out); ``[OAJ-6]`` ``[OAJ-7]`` a seat that passed in the last
  move holds no tile matching the open end.

**Limits.** The view carries the last move's events only, so only the last mover's draw
or pass is known; an earlier draw or pass (and the pips it rules out) is not. Nor does
the view say which tiles a seat was dealt and which it drew, so "nobody was dealt a
double higher than the lead" is not used after the lead. A ``voids`` field of the table
would carry the rest (see the package docstring).

**GREEDY** (``[OAJ-7]``: a player with matching tiles must play one of them; every other
turn has one legal move). Among the matching tiles, the highest score of:

* the tile's pips (a heavy tile shed is a heavy tile that cannot count against the seat
  at the end, ``[OAJ-9]``);
* a double, worth 1.5 tiles of the set's top pip when the seat can follow it on its bonus
  turn ``[OAJ-6]`` (two tiles shed in one turn), half a top pip otherwise;
* per tile left in the seat's hand that matches the new open end, a top pip (the seat
  keeps a play), and per tile with that pip already on the arm, a third of one (the
  fewer such tiles remain hidden, the likelier the next seat must draw, ``[OAJ-7]``);
* per different pip left in the seat's hand, a sixth of a top pip (suits kept varied
  match more open ends later).

Rollouts play the same heuristic for every seat of a sampled world, from that seat's
hand and the arm, on bit sets of tile codes (:class:`_Playouts`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...bots.dealing import GameBot, Rollouts, Slot, deal_hidden, hidden_pool, seat_hands
from ...rules import EventKind, Match, Move, MoveKind, Tile, View
from ...rules.building import frozen_builder
from ...rules.tiles import MAX_PIP, double_n
from .rules import OneArmJoeHandState, OneArmJoeOptions, OneArmJoeTable, Scoring, Tie

__all__ = ["OneArmJoeBot", "play_key", "voids"]

#: About the points a hand's winner scores (GREEDY against GREEDY, 2 players).
_POINTS_A_HAND = 20.0
#: ``OneArmJoeHandState(*fields)``, every field in order, built the rules' fast way.
_hand_state = frozen_builder(OneArmJoeHandState)
#: Every tile of the largest set, by code.
_ALL = double_n(MAX_PIP)


def _by_code(allowed: list[bool]) -> Callable[[Tile], bool]:
    """Whether a tile is allowed, read from ``allowed`` by its code."""
    return lambda t: allowed[t.code]


def voids(view: View) -> dict[int, int]:
    """Per seat, a pip the last move shows that seat holds no tile of (``[OAJ-6]``,
    ``[OAJ-7]``): the pip it drew on, or the open end it passed on."""
    table: OneArmJoeTable = view.table
    out: dict[int, int] = {}
    for event in view.events:
        seat = event.seat
        if seat is None or seat == view.seat:
            continue
        if event.kind is EventKind.AUTO_PLAY:
            # [OAJ-7] drawn until a tile matched: it was laid on the pip the seat lacked
            assert event.tile is not None and event.open_pip is not None
            out[seat] = event.tile.other(event.open_pip)
        elif event.kind in (EventKind.TURN_PASSED, EventKind.PASS) and table.open_end is not None:
            # [OAJ-7] the boneyard ran out, or [OAJ-6] [OAJ-7] a pass: no matching tile
            out[seat] = table.open_end
    return out


def play_key(
    tile: Tile, hand: tuple[Tile, ...], open_end: int, line: tuple[Tile, ...], top: int
) -> float:
    """The GREEDY score of playing ``tile`` from ``hand`` on ``open_end`` (see the module
    docstring); ``top`` is the set's highest pip."""
    rest = list(hand)
    rest.remove(tile)
    new_end = tile.other(open_end)
    follow = sum(1 for t in rest if t.high == new_end or t.low == new_end)
    on_arm = sum(1 for t in line if t.high == new_end or t.low == new_end)
    pips = {p for t in rest for p in (t.high, t.low)}
    key = tile.pips + top * (follow + on_arm / 3 + len(pips) / 6)
    if tile.is_double:
        key += top * (1.5 if follow else 0.5)
    return key


class OneArmJoeBot(GameBot):
    greedy_text = (
        "of the matching tiles, the heaviest, a double when the seat can follow it, "
        "keeping tiles that match the new end and pips of every kind"
    )
    margin_scale = 15.0
    hand_spread = 27.0

    def hands_after(
        self, options: OneArmJoeOptions, players: int, hand_number: int, totals: list[int]
    ) -> float:
        target = options.target_score
        if target <= 0:
            return 0.0  # [OAJ-10] a single hand
        # [OAJ-10] until a total reaches the target: the hand's winner scores some 20
        return self.hands_to_target(target, totals, _POINTS_A_HAND)

    def deal_world(
        self,
        view: View,
        options: OneArmJoeOptions,
        players: int,
        rng: random.Random,
        *,
        infer: bool,
    ) -> OneArmJoeHandState | None:
        return self.dealer(view, options, players)(rng, infer)

    def dealer(
        self, view: View, options: OneArmJoeOptions, players: int
    ) -> Callable[[random.Random, bool], OneArmJoeHandState | None]:
        """The deals of one view: the hidden pool, what each hand allows (by tile code)
        and the places the tiles go are made once, each deal only cuts the pool
        (:func:`deal_hidden`, as :func:`deal_hands` calls it)."""
        table: OneArmJoeTable = view.table
        me = view.seat
        assert me is not None
        pool = hidden_pool(self.ruleset.full_set(options), view.hand, table.line)
        top_double = -1
        if not table.line:
            # [OAJ-3] the seat to act leads: it holds the highest double dealt
            top_double = max(t.code for t in view.hand if t.is_double)
        others = [s for s in range(players) if s != me]

        def slots(lacking: dict[int, int]) -> list[Slot]:
            """The other hands, in seat order, then the boneyard; a hand allows no tile
            with the pip it lacks, and none a double above the lead's."""
            out = []
            for seat in others:
                pip = lacking.get(seat, -1)
                allows = None
                if pip >= 0 or top_double >= 0:
                    allowed = [
                        not (t.has(pip) or (t.is_double and t.code > top_double >= 0)) for t in _ALL
                    ]
                    allows = _by_code(allowed)
                out.append(Slot(view.hand_sizes[seat], allows))
            out.append(Slot(view.stock))
            return out

        inferred, plain = slots(voids(view)), slots({})
        open_end = table.open_end
        accept = None
        if view.stock == 0 and open_end is not None and not any(t.has(open_end) for t in view.hand):
            # [OAJ-8] not blocked: somebody else can match the open end

            def accept(parts: list[list[Tile]]) -> bool:
                return any(t.has(open_end) for part in parts[:-1] for t in part)

        line, bonus, leader = table.line, table.bonus_turn, table.leader
        to_act = view.to_act if view.to_act is not None else me

        def deal(rng: random.Random, infer: bool) -> OneArmJoeHandState | None:
            parts = deal_hidden(pool, inferred if infer else plain, rng, accept)
            if parts is None:
                return None
            hands = seat_hands(view.hand, players, others, parts)
            boneyard = tuple(parts[-1])
            return _hand_state(hands, boneyard, line, open_end, to_act, bonus, leader, None)

        return deal

    def move_keys(self, view: View, options: OneArmJoeOptions) -> list[Any]:
        table: OneArmJoeTable = view.table
        return _keys(view.legal_moves, view.hand, table.open_end, table.line, options)

    def heuristic(self, match: Match[Any, Any], legal: tuple[Move, ...]) -> Move:
        state: OneArmJoeHandState = match.hand_state
        hand = state.hands[state.to_act]
        return _choose(legal, hand, state.open_end, state.line, match.options)

    def rollouts(self, match: Match[Any, Any]) -> Rollouts:
        return _Playouts(match)


def _keys(
    legal: tuple[Move, ...],
    hand: tuple[Tile, ...],
    open_end: int | None,
    line: tuple[Tile, ...],
    options: OneArmJoeOptions,
) -> list[float]:
    if open_end is None:
        return [0.0] * len(legal)  # the lead of the highest double [OAJ-3]
    top = options.set_max_pip
    return [
        play_key(move.tile, hand, open_end, line, top)
        if move.kind is MoveKind.PLAY and move.tile is not None
        else 0.0
        for move in legal
    ]


def _choose(
    legal: tuple[Move, ...],
    hand: tuple[Tile, ...],
    open_end: int | None,
    line: tuple[Tile, ...],
    options: OneArmJoeOptions,
) -> Move:
    if len(legal) == 1:
        return legal[0]  # a forced move, or the lead of the highest double [OAJ-3]
    keys = _keys(legal, hand, open_end, line, options)
    return legal[max(range(len(legal)), key=lambda i: (keys[i], -i))]


# --------------------------------------------------------------------------- playouts

_PLAY, _DRAW, _PASS = MoveKind.PLAY, MoveKind.DRAW, MoveKind.PASS
_SHARED, _MINUS_OWN = Tie.SHARED, Scoring.OTHERS_MINUS_OWN


#: Per tile code (every set up to double-eighteen): the high half, the low half and the
#: halves as a bit set of pips.
_HIGH = tuple(t.high for t in _ALL)
_LOW = tuple(t.low for t in _ALL)
_HALVES = tuple(t.halves for t in _ALL)
#: The set has no two equal tiles ``[OAJ-1]``: a hand is a bit set of tile codes. Per
#: pip, the tiles that have it, as a bit set.
_WITH_PIP = tuple(sum(1 << t.code for t in _ALL if t.has(pip)) for pip in range(MAX_PIP + 1))
#: Per tile code, the one play of that tile alone, as :func:`_codes` lists plays.
_ALONE: tuple[tuple[int, ...], ...] = tuple((code,) for code in range(len(_ALL)))
#: :func:`_codes` remembers this many bit sets at most (then starts again).
_CODES_CACHE = 1 << 14
_codes_cache: dict[int, tuple[int, ...]] = {}


def _codes(tiles: int) -> tuple[int, ...]:
    """The codes of the bit set ``tiles``, ascending (the order of the legal moves)."""
    found = _codes_cache.get(tiles)
    if found is None:
        if len(_codes_cache) >= _CODES_CACHE:
            _codes_cache.clear()
        found = _codes_cache[tiles] = tuple(
            code for code in range(tiles.bit_length()) if tiles >> code & 1
        )
    return found


class _Playouts(Rollouts):
    """One Arm Joe playouts on bit sets of tile codes (see :class:`~.dealing.Rollouts`):
    the moves of ``[OAJ-4]``..``[OAJ-8]`` as the rules core makes them, the GREEDY
    heuristic's choice among them (:func:`play_key`, computed the same way; the first of
    equal scores in the order of the legal moves), and the points of ``[OAJ-9]``.

    A hand is a bit set, so the tiles a seat can play are one ``&``; so are the tiles
    held in every hand, so whether the hand is blocked ``[OAJ-8]`` (asked after every
    move once the boneyard is empty) is one ``&`` too, and the arm's tiles with a pip
    one count of bits. Each seat's pips are kept as its tiles come and go.

    Every move is one call of ``step``, and ``playable`` lists the plays the seat chose
    among, ascending: the test that plays these moves beside the rules core reads both."""

    def __init__(self, match: Match[OneArmJoeOptions, OneArmJoeHandState]) -> None:
        state, options = match.hand_state, match.options
        self.options = options
        self.players = match.players
        self.shared, self.minus_own = options.tie is _SHARED, options.scoring is _MINUS_OWN
        self.hands: list[int] = []
        self.counts: list[int] = []  # per seat, the pips in its hand
        self.held = 0  # every tile in a hand
        for hand in state.hands:
            bits = count = 0
            for t in hand:
                bits |= 1 << t.code
                count += t.pips
            self.hands.append(bits)
            self.counts.append(count)
            self.held |= bits
        self.boneyard = [t.code for t in state.boneyard]  # drawn from the front
        self.arm = 0  # the tiles of the line
        for t in state.line:
            self.arm |= 1 << t.code
        self.open_end = -1 if state.open_end is None else state.open_end  # -1: the lead
        self.to_act = state.to_act
        self.bonus = state.bonus

    def play(self, move: Move) -> tuple[int, ...]:
        options, players = self.options, self.players
        top, lead_bonus = options.set_max_pip, options.lead_double_bonus
        high_of, low_of, halves_of, with_pip = _HIGH, _LOW, _HALVES, _WITH_PIP
        hands, counts, held, arm = self.hands[:], self.counts[:], self.held, self.arm
        boneyard, drawn_at, stock = self.boneyard, 0, len(self.boneyard)
        open_end, seat, bonus = self.open_end, self.to_act, self.bonus
        dominoed = -1

        def step(kind: MoveKind, tile: int) -> bool:
            """Apply a move of the seat to act; whether the hand is over."""
            nonlocal open_end, seat, bonus, drawn_at, dominoed, held, arm
            if kind is _PASS:
                seat, bonus = (seat + 1 if seat + 1 < players else 0), False
                # [OAJ-8] blocked: the boneyard is empty and nobody can match the open end
                return drawn_at == stock and not held & with_pip[open_end]
            hand = hands[seat]
            if kind is _PLAY:
                high, low, bit = high_of[tile], low_of[tile], 1 << tile
                hands[seat] = hand = hand ^ bit
                held ^= bit
                counts[seat] -= high + low
                # [OAJ-5] after the lead, play passes on unless the lead earns a bonus turn
                extra = open_end >= 0 or lead_bonus
            else:
                # [OAJ-7] draw until a tile matches; it is laid at once, the others kept
                end = with_pip[open_end]
                while True:
                    if drawn_at == stock:
                        hands[seat] = hand
                        seat, bonus = (seat + 1 if seat + 1 < players else 0), False
                        return not held & end
                    tile = boneyard[drawn_at]
                    drawn_at += 1
                    bit = 1 << tile
                    if end & bit:
                        break
                    hand |= bit
                    held |= bit
                    counts[seat] += high_of[tile] + low_of[tile]
                hands[seat] = hand
                high, low = high_of[tile], low_of[tile]
                extra = True
            # [OAJ-4] the tile is laid on the arm; a double leaves the open end as it was
            arm |= bit
            open_end = high if open_end < 0 or low == open_end else low
            if not hand:
                dominoed = seat  # [OAJ-8] the seat dominoed
                return True
            over = drawn_at == stock and not held & with_pip[open_end]
            if high == low and extra:
                bonus = True  # [OAJ-6] a double earns a bonus turn at once
            else:
                seat, bonus = (seat + 1 if seat + 1 < players else 0), False
            return over

        over = step(move.kind, move.tile.code if move.tile is not None else -1)
        while not over:
            # after the lead (the first move at the latest) there is an open end
            hand = hands[seat]
            fitting = hand & with_pip[open_end]
            if not fitting:
                over = step(_PASS if bonus or drawn_at == stock else _DRAW, -1)
                continue
            if not fitting & (fitting - 1):
                chosen = fitting.bit_length() - 1
                playable = _ALONE[chosen]  # the one legal play
                over = step(_PLAY, chosen)
                continue
            # the matching tiles, ascending; play_key of each, as the heuristic computes
            # it: the tile played has the new open end, so ``follow`` counts it out
            playable = _codes(fitting)
            kinds = 0  # the pips of the hand, as a bit set
            rest = hand
            while rest:
                t = rest.bit_length() - 1
                rest ^= 1 << t
                kinds |= halves_of[t]
            kinds = kinds.bit_count()
            chosen, top_key = -1, -1.0
            for tile in playable:
                high, low = high_of[tile], low_of[tile]
                new_end = low if high == open_end else high
                ending = with_pip[new_end]
                follow = (hand & ending).bit_count() - 1
                # the different pips left once the tile is played
                bit = 1 << tile
                left = kinds - (hand & with_pip[high] == bit)
                if low != high:
                    left -= hand & with_pip[low] == bit
                key = high + low + top * (follow + (arm & ending).bit_count() / 3 + left / 6)
                if high == low:
                    key += top * (1.5 if follow else 0.5)
                if key > top_key:
                    chosen, top_key = tile, key
            over = step(_PLAY, chosen)
        return _points(counts, dominoed, self.shared, self.minus_own)


def _points(counts: list[int], dominoed: int, shared: bool, minus_own: bool) -> tuple[int, ...]:
    """[OAJ-9] the points of a hand that is over, from the pips left in each hand, as
    ``OneArmJoe.score_hand`` gives them (``shared``: ties share the hand; ``minus_own``:
    a winner scores the others' pips less its own)."""
    if dominoed >= 0:
        winners = [dominoed]  # dominoing wins outright
    else:
        low = min(counts)
        winners = [s for s, c in enumerate(counts) if c == low]
    points = [0] * len(counts)
    if len(winners) == 1 or shared:
        others = sum(counts)
        for s in winners:
            others -= counts[s]
        if others:  # everyone tied: nobody scores
            for s in winners:
                points[s] = others - counts[s] if minus_own else others
    return tuple(points)
