"""The fast paths of the rules core give exactly what the plain ones give.

Every shortcut taken for speed is checked against the plain way it stands for: the legal
moves a ruleset remembers, ``apply`` on one of them, the builders of frozen states, the
compiled type checks, the tile helpers, and the generator's bulk reads.
No timing is asserted here (``bench/inprocess.py`` measures).
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import random
import typing
from collections.abc import Iterator
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.rules import (
    Event,
    EventKind,
    HandEnd,
    HandResult,
    InvalidStateError,
    Match,
    Move,
    Ruleset,
    Status,
    Tile,
    rng,
)
from domino_rules.rules.building import fields_of, frozen_builder, made_of, type_ok
from domino_rules.rules.checks import type_check
from domino_rules.rules.match import build_match
from domino_rules.rules.tiles import (
    chinese_set,
    distinct,
    double_n,
    insert_tile,
    remove_tile,
    set_codes,
    sorted_tiles,
    tile_index,
    two_chinese_sets,
)

RULESETS = [r.id for r in rules.all_rulesets()]


def playout(ruleset_id: str, seed: str, matches: int = 3) -> Iterator[tuple[Match[Any, Any], Move]]:
    """(match, legal move chosen) for every move of a few seeded random matches."""
    ruleset = rules.get(ruleset_id)
    chooser = random.Random(seed)
    for n in range(matches):
        options = ruleset.make_options({})
        low, high = ruleset.player_range(options)
        match = ruleset.new_match(options, chooser.randint(low, min(high, 4)), f"{seed}-{n}")
        while match.status is not Status.MATCH_OVER:
            move = chooser.choice(ruleset.legal_moves(match))
            yield match, move
            match, _ = ruleset.apply(match, move)


def fresh(match: Match[Any, Any]) -> Match[Any, Any]:
    """The same match value, built by its constructor: nothing cached on it."""
    return Match(*(getattr(match, f.name) for f in dataclasses.fields(Match)))


# --------------------------------------------------------------------------- the match


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_checked_and_the_fast_apply_agree(ruleset_id: str) -> None:
    """``apply`` on the very move ``legal_moves`` returned takes the fast path; an equal
    move (parsed from its text) and a fresh copy of the match take every check: same
    result, same events, and the input unchanged."""
    ruleset = rules.get(ruleset_id)
    for match, move in playout(ruleset_id, "fast-apply"):
        before = repr(match)
        fast, fast_events = ruleset.apply(match, move)
        slow, slow_events = ruleset.apply(fresh(match), Move.parse(str(move)))
        assert (fast, fast_events) == (slow, slow_events)
        assert fast.last_events == fast_events
        assert repr(match) == before


def test_listing_legal_moves_leaves_the_match_a_plain_value() -> None:
    joe = rules.get("one_arm_joe")
    match = joe.new_match(joe.make_options({}), 4, "cache")
    before = pickle.dumps(match)
    legal = joe.legal_moves(match)
    assert joe.legal_moves(match) == legal
    assert pickle.dumps(match) == before and vars(match) == vars(fresh(match))
    assert match == fresh(match) and hash(match) == hash(fresh(match))

    class Stricter(type(joe)):  # type: ignore[misc]
        """Another ruleset over the same states: it must not see Joe's legal moves."""

        def hand_legal_moves(self, state: Any, options: Any) -> tuple[Move, ...]:
            return ()

    stricter = Stricter()
    assert stricter.legal_moves(match) == ()
    with pytest.raises(rules.IllegalMoveError):
        stricter.apply(match, legal[0])  # the moves Joe listed are not Stricter's
    assert joe.apply(match, legal[0]) == joe.apply(fresh(match), legal[0])


def test_a_move_equal_to_a_legal_one_is_checked_and_accepted() -> None:
    joe = rules.get("one_arm_joe")
    match = joe.new_match(joe.make_options({}), 3, "equal-move")
    (move,) = joe.legal_moves(match)
    equal = Move(move.seat, move.kind, Tile(move.tile.high, move.tile.low))  # type: ignore[union-attr]
    assert equal == move and equal is not move
    assert joe.apply(match, equal) == joe.apply(fresh(match), move)


# --------------------------------------------------------------------------- builders


def test_builders_make_what_the_constructors_make() -> None:
    match = Match(3, None, "seed", 2, None, (), Status.HAND_OVER, ())
    built = build_match(3, None, "seed", 2, None, (), Status.HAND_OVER, ())
    assert built == match and type(built) is Match and repr(built) == repr(match)
    changed = fields_of(match)
    changed["hand_number"] = 3
    assert made_of(Match)(changed) == dataclasses.replace(match, hand_number=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.seed = "other"  # type: ignore[misc]
    result = frozen_builder(HandResult)((1, 2), (0, 3), (1,), HandEnd.BLOCKED, ())
    assert result == HandResult((1, 2), (0, 3), (1,), HandEnd.BLOCKED)
    with pytest.raises(TypeError, match="slots"):
        frozen_builder(Move)


# --------------------------------------------------------------------------- type checks


def _mutations(value: Any, hint: Any, chooser: random.Random) -> Iterator[Any]:
    """Values near ``value``: itself, and one part of it changed to something else."""
    yield value
    odd = (None, "x", 1.5, True, 3, (), Tile(1, 0), (None,), (1, 2), Status.IN_PROGRESS)
    yield from odd
    origin = typing.get_origin(hint)
    if origin is tuple and value:
        item = typing.get_args(hint)[0]
        i = chooser.randrange(len(value))
        for inner in _mutations(value[i], item, chooser):
            yield (*value[:i], inner, *value[i + 1 :])
    elif dataclasses.is_dataclass(value) and not isinstance(value, type | Tile):
        own = typing.get_type_hints(type(value))
        f = chooser.choice(dataclasses.fields(value))
        for inner in _mutations(getattr(value, f.name), own[f.name], chooser):
            forged = copy.copy(value)
            object.__setattr__(forged, f.name, inner)
            yield forged


def _passes(hint: Any, value: Any) -> bool:
    try:
        type_check(hint)(value, "value")
    except InvalidStateError:
        return False
    return True


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_compiled_type_checks_agree_with_the_walk(ruleset_id: str) -> None:
    ruleset = rules.get(ruleset_id)
    chooser = random.Random(ruleset_id)
    hints: list[Any] = [
        ruleset.hand_state_type,
        ruleset.options_type,
        tuple[Event, ...],
        tuple[HandResult, ...],
    ]
    tried = 0
    for match, _ in playout(ruleset_id, "types", matches=1):
        values = [match.hand_state, match.options, match.last_events, match.history]
        for hint, value in zip(hints, values, strict=True):
            for candidate in _mutations(value, hint, chooser):
                assert type_ok(hint)(candidate) is _passes(hint, candidate), candidate
                tried += 1
    assert tried > 100


# --------------------------------------------------------------------------- tiles


def test_tiles_carry_their_code_pips_and_halves() -> None:
    for tile in double_n(18):
        assert tile.code == tile.high * (tile.high + 1) // 2 + tile.low
        assert tile.pips == tile.high + tile.low
        assert tile.is_double is (tile.high == tile.low)
        assert all(bool(tile.halves & 1 << pip) is tile.has(pip) for pip in range(19))
        assert pickle.loads(pickle.dumps(tile)) == tile == copy.deepcopy(tile)
        assert dataclasses.replace(tile).code == tile.code
    assert [f.name for f in dataclasses.fields(Tile)] == ["high", "low"]


def test_tile_helpers_agree_with_the_plain_ways() -> None:
    chooser = random.Random("tiles")
    pool = two_chinese_sets() + double_n(9)
    for _ in range(500):
        tiles = tuple(chooser.choice(pool) for _ in range(chooser.randrange(8)))
        assert sorted_tiles(tiles) == tuple(sorted(tiles))
        assert distinct(tiles) == tuple(sorted(set(tiles)))
        ordered = tuple(sorted(tiles))
        tile = chooser.choice(pool)
        assert insert_tile(ordered, tile) == tuple(sorted((*ordered, tile)))
        if tile in tiles:
            assert tile_index(tiles, tile) == tiles.index(tile)
            i = tiles.index(tile)
            assert remove_tile(tiles, tile) == tiles[:i] + tiles[i + 1 :]
        else:
            with pytest.raises(ValueError):
                remove_tile(tiles, tile)


def test_set_codes_of_known_and_other_sets() -> None:
    for tiles in (double_n(6), chinese_set(), two_chinese_sets(), tuple(sorted(chinese_set()))):
        codes = set_codes(tiles)
        assert codes.codes == tuple(sorted(t.code for t in tiles))
        assert codes.distinct == {t.code for t in tiles}
        assert codes.top == max(t.high for t in tiles)


# --------------------------------------------------------------------------- generator


def _shuffled_one_by_one(seed: str, label: str, items: list[int]) -> list[int]:
    """The documented shuffle, one draw at a time (:meth:`rng.Stream.below`)."""
    stream = rng.Stream(seed, label)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("span", [None, 3 << 30])
def test_bulk_reads_draw_as_one_draw_at_a_time(span: int | None, monkeypatch: Any) -> None:
    """Shuffles and dice read their words at once; with a smaller span a quarter of the
    draws are rejected, and the bulk reads still give the one-by-one results."""
    if span is not None:
        monkeypatch.setattr(rng, "_SPAN", span)
        monkeypatch.setattr(rng, "_DIE_LIMIT", span - span % 6)
    rng._limits.cache_clear()
    try:
        for n in range(60):
            items = list(range(n % 40))
            assert list(rng.shuffled(f"s{n}", "deal", items)) == _shuffled_one_by_one(
                f"s{n}", "deal", items
            )
            stream = rng.Stream(f"d{n}", "dice")
            assert rng.throw(f"d{n}", "dice", 3) == tuple(stream.die() for _ in range(3))
    finally:
        rng._limits.cache_clear()


def test_words_are_big_endian_wherever_they_are_read() -> None:
    data = rng.Stream("words", "x").read(40)
    expected = [int.from_bytes(data[i : i + 4], "big") for i in range(0, 40, 4)]
    assert rng.Stream("words", "x").words(10) == expected


# --------------------------------------------------------------------------- events


def test_shared_events_are_equal_to_new_ones() -> None:
    """Events made once and shared are values: equal to the ones the constructor makes."""
    for ruleset_id in RULESETS:
        for match, _ in playout(ruleset_id, "events", matches=1):
            for event in match.last_events:
                assert event == Event(
                    **{f.name: getattr(event, f.name) for f in dataclasses.fields(Event)}
                )
                assert event.kind in EventKind


def test_the_fast_event_constructor_makes_what_the_dataclass_makes() -> None:
    """Events are built by an ``__init__`` that sets their dict at once: the same
    signature and defaults as the dataclass's own, and the same event for every event
    the rules make, given by keyword or by position, and with the defaults left out."""
    from domino_rules.rules import events

    assert inspect.signature(Event.__init__) == inspect.signature(events.dataclass_init)
    names = [f.name for f in dataclasses.fields(Event)]
    for ruleset_id in RULESETS:
        for match, _ in playout(ruleset_id, "fast-init", matches=1):
            for event in match.last_events:
                values = {name: getattr(event, name) for name in names}
                plain = object.__new__(Event)
                events.dataclass_init(plain, **values)
                assert Event(**values) == plain == Event(*values.values())
                assert repr(Event(**values)) == repr(plain)
                assert hash(Event(**values)) == hash(plain)
                defaults = Event.__dataclass_fields__
                given = {n: v for n, v in values.items() if v != defaults[n].default}
                assert Event(**given) == plain
                for seat in (None, 0, 1):
                    hidden = event.for_seat(seat)
                    assert hidden == dataclasses.replace(
                        event, tile=None, target=None, tiles=(), open_pip=None, hidden=True,
                        private_to=None,
                    ) if event.private_to not in (None, seat) else hidden is event  # fmt: skip
    with pytest.raises(dataclasses.FrozenInstanceError):
        Event(EventKind.PASS, seat=0).seat = 1  # type: ignore[misc]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_check_match_passes_fresh_copies_of_played_states(ruleset_id: str) -> None:
    ruleset: Ruleset[Any, Any] = rules.get(ruleset_id)
    for match, _ in playout(ruleset_id, "check", matches=1):
        ruleset.check_match(fresh(match))
