"""The framework every ruleset shares: its hooks, the deal, moves and their errors, how a
hand ended, and the complete check of a state from outside (``check_match``).

Random matches of every ruleset are played here too: every state met passes
``check_match``; states changed one field at a time (forged) raise
:class:`InvalidStateError` and nothing else, or pass and then let every rule run without
an error other than :class:`RulesError`; and no error message names a tile the request
did not name.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import re
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.bots.playout import hand_over, play_out
from domino_rules.rules import (
    End,
    Event,
    EventKind,
    GameOverError,
    HandEnd,
    HandResult,
    IllegalMoveError,
    InvalidMoveError,
    InvalidStateError,
    Match,
    Move,
    MoveError,
    MoveKind,
    NotYourTurnError,
    OptionsError,
    PlayerCountError,
    RulesError,
    Ruleset,
    Status,
    Tile,
    UnknownRulesetError,
    rng,
)
from domino_rules.rules.limits import MAX_EVENTS, MAX_HANDS

from ..cases import cases_for
from ..support.forgery import get_at, paths, set_at, set_field
from .positions import dealt

RULESETS = [r.id for r in rules.all_rulesets()]
#: Random matches per ruleset, with check_match after every move.
MATCHES = 200


def random_options(ruleset: Ruleset[Any, Any], chooser: random.Random) -> Any:
    """Options drawn at random: each integer from the values its game declares
    (``checked_int_values``), every bool and enum value; drawn again where the game
    refuses the combination (``[A5-14]``'s options that do not go together)."""
    int_values = cases_for(ruleset.id).checked_int_values
    while True:
        values: dict[str, Any] = {}
        for spec in ruleset.option_specs():
            if spec.type == "int":
                values[spec.name] = chooser.choice(int_values.get(spec.name, (spec.default,)))
            elif spec.type == "bool":
                values[spec.name] = chooser.random() < 0.5
            else:
                values[spec.name] = chooser.choice(spec.allowed)
        try:
            return ruleset.make_options(values)
        except OptionsError:
            continue


def random_match(
    ruleset: Ruleset[Any, Any], seed: str, chooser: random.Random
) -> Iterator[Match[Any, Any]]:
    """Every state of one random match, from the deal to MATCH_OVER."""
    options = random_options(ruleset, chooser)
    low, high = ruleset.player_range(options)
    match = ruleset.new_match(options, chooser.randint(low, min(high, 6)), seed)
    states = [match]
    play_out(ruleset, match, chooser, observe=lambda step: states.append(step.after))
    yield from states


def sample_states(ruleset_id: str, matches: int, rate: float = 0.1) -> list[Match[Any, Any]]:
    """States met in random matches: deals, mid-hand, hands over, matches over."""
    ruleset = rules.get(ruleset_id)
    chooser = random.Random(f"sample-{ruleset_id}")
    found: list[Match[Any, Any]] = []
    for n in range(matches):
        for match in random_match(ruleset, f"sample-{n}", chooser):
            if match.status is not Status.IN_PROGRESS or chooser.random() < rate:
                found.append(match)
    return found


# --------------------------------------------------------------------------- hooks


def test_every_game_implements_the_abstract_hooks_and_shares_the_rest() -> None:
    """The framework owns what is the same in every game; each ruleset only its hooks."""
    assert Ruleset.__abstractmethods__ == {
        "all_tiles",
        "check_hand_state",
        "deal_from",
        "full_set",
        "hand_apply",
        "hand_legal_moves",
        "hand_over",
        "match_over",
        "max_players",
        "score_hand",
        "stock",
        "table",
    }

    class Half(Ruleset[Any, Any]):
        def full_set(self, options: Any) -> tuple[Tile, ...]:
            return ()

    with pytest.raises(TypeError, match="abstract"):
        Half()  # type: ignore[abstract]
    for ruleset in rules.all_rulesets():
        kind = type(ruleset)
        for shared in ("deal", "hand_to_act", "hand_tiles", "apply", "check_match"):
            assert getattr(kind, shared) is getattr(Ruleset, shared), (ruleset.id, shared)
        assert ruleset.hand_ends <= set(HandEnd)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_deal_is_the_documented_shuffle_then_deal_from(ruleset_id: str) -> None:
    """``deal`` = the set shuffled with ``deal/<hand>/<attempt>``, then ``deal_from``."""
    ruleset = rules.get(ruleset_id)
    options = ruleset.make_options({})
    for n in range(5):
        seed = f"deal-{n}"
        match = ruleset.new_match(options, 3, seed)
        redeals = sum(1 for e in match.last_events if e.kind is EventKind.REDEAL)
        order = rng.shuffled(seed, f"deal/1/{redeals}", ruleset.deal_set(options, 1))
        again = dealt(ruleset, 3, order, options=options, seed=seed)
        assert again.hand_state == match.hand_state
        assert [e for e in match.last_events if e.kind is not EventKind.REDEAL] == list(
            again.last_events
        )


# --------------------------------------------------------------------------- moves


def test_move_repr_is_code_that_rebuilds_it_and_its_text_parses_back() -> None:
    namespace = {"Move": Move, "MoveKind": MoveKind, "Tile": Tile, "End": End}
    seen = 0
    for ruleset_id in RULESETS:
        chooser = random.Random(ruleset_id)
        for match in random_match(rules.get(ruleset_id), "repr", chooser):
            for move in rules.get(ruleset_id).legal_moves(match):
                assert eval(repr(move), namespace) == move
                assert Move.parse(str(move)) == move
                seen += 1
    assert seen > 100
    move = Move(2, MoveKind.CAPTURE_DRAWN, Tile(4, 2), target=Tile(5, 1))
    assert repr(move) == "Move(2, MoveKind.CAPTURE_DRAWN, Tile(4, 2), target=Tile(5, 1))"
    lead = Move(1, MoveKind.PLAY, Tile(6, 4), open_pip=4)
    assert repr(lead) == "Move(1, MoveKind.PLAY, Tile(6, 4), open_pip=4)"
    assert eval(repr(Tile(0, 0)), namespace) == Tile(0, 0)


def test_each_refusal_is_caught_where_the_error_tree_puts_it() -> None:
    """What a caller's ``except`` catches: every refusal of the library is a
    ``ValueError`` and a ``RulesError``; a refused move is a ``MoveError`` of its one
    cause (malformed, over, out of turn, illegal); a forged state is no ``MoveError``."""
    joe = rules.get("one_arm_joe")
    match = joe.new_match(joe.make_options({}), 2, "error tree")
    seat = joe.to_act(match)
    assert seat is not None
    over = dataclasses.replace(match, status=Status.MATCH_OVER)
    forged = dataclasses.replace(match, hand_number=0)
    refusals: list[tuple[Callable[[], object], type[RulesError], bool]] = [
        (lambda: rules.get("chess"), UnknownRulesetError, False),
        (lambda: joe.make_options({"chess": 1}), OptionsError, False),
        (lambda: joe.new_match(joe.make_options({}), 99, "x"), PlayerCountError, False),
        (lambda: joe.check_match(forged), InvalidStateError, False),
        (lambda: joe.apply(match, Move(seat, MoveKind.DRAW, Tile(6, 4))), InvalidMoveError, True),
        (lambda: joe.apply(over, Move(seat, MoveKind.DRAW)), GameOverError, True),
        (lambda: joe.apply(match, Move(1 - seat, MoveKind.DRAW)), NotYourTurnError, True),
        (lambda: joe.apply(match, Move(seat, MoveKind.DRAW)), IllegalMoveError, True),
    ]
    for refuse, cause, is_a_move in refusals:
        with pytest.raises(ValueError) as caught:
            refuse()
        assert type(caught.value) is cause
        assert isinstance(caught.value, RulesError)
        assert isinstance(caught.value, MoveError) is is_a_move, cause
    # a malformed move is never taken for an illegal one, nor the other way round
    with pytest.raises(MoveError) as malformed:
        joe.apply(match, Move(seat, MoveKind.PASS, target=Tile(6, 4)))
    assert not isinstance(malformed.value, IllegalMoveError)


MALFORMED = [
    Move(0, MoveKind.DRAW, Tile(6, 4)),  # DRAW names no tile
    Move(0, MoveKind.PASS, target=Tile(6, 4)),
    Move(0, MoveKind.NEXT_HAND, Tile(1, 1)),
    Move(0, MoveKind.PLAY),  # PLAY needs a tile
    Move(0, MoveKind.DISCARD),
    Move(0, MoveKind.PILE),
    Move(0, MoveKind.CAPTURE, Tile(4, 2)),  # CAPTURE needs a target
    Move(0, MoveKind.CAPTURE_DRAWN, target=Tile(4, 2)),
    Move(0, MoveKind.PLAY, Tile(6, 4), target=Tile(5, 1)),
    Move(0, MoveKind.DISCARD, Tile(6, 4), end=End.LEFT),  # only PLAY has an end
    Move(0, MoveKind.PILE, Tile(6, 4), open_pip=4),  # only PLAY names an open pip
    Move(0, MoveKind.PLAY, Tile(6, 4), open_pip=19),  # not a pip
    Move(0, MoveKind.PLAY, Tile(6, 4), open_pip=-1),
    Move(-1, MoveKind.PASS),  # a seat is never negative
    Move(True, MoveKind.PASS),  # a seat is an int, never a bool
    Move(0, "PASS"),  # type: ignore[arg-type]
    Move(0, MoveKind.PLAY, (6, 4)),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("move", MALFORMED, ids=repr)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_malformed_move_is_invalid_not_illegal(ruleset_id: str, move: Move) -> None:
    """A move whose fields do not fit its kind raises InvalidMoveError, before any other
    check (the seat to act, the match being over) and whatever the state."""
    ruleset = rules.get(ruleset_id)
    match = ruleset.new_match(ruleset.make_options({}), 2, "malformed")
    before = repr(match)
    with pytest.raises(InvalidMoveError, match="is malformed"):
        move.check()
    with pytest.raises(InvalidMoveError):
        ruleset.apply(match, move)
    assert repr(match) == before
    over = dataclasses.replace(match, status=Status.MATCH_OVER)
    with pytest.raises(InvalidMoveError):
        ruleset.apply(over, move)


def test_well_formed_moves_that_are_not_legal_are_illegal() -> None:
    ruleset = rules.get("one_arm_joe")
    match = ruleset.new_match(ruleset.make_options({}), 2, "illegal")
    seat = ruleset.to_act(match)
    assert seat is not None
    for move in (
        Move(seat, MoveKind.DRAW),
        Move(seat, MoveKind.CAPTURE, Tile(4, 2), Tile(5, 1)),  # well formed, not this game's
        Move(seat, MoveKind.PLAY, Tile(18, 18)),  # a tile of no double-six set
    ):
        move.check()
        with pytest.raises(IllegalMoveError, match="legal moves are PLAY moves"):
            ruleset.apply(match, move)
    with pytest.raises(NotYourTurnError):
        ruleset.apply(match, Move(1 - seat, MoveKind.DRAW))
    with pytest.raises(NotYourTurnError):
        ruleset.apply(match, Move(99, MoveKind.DRAW))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0",
        "x PLAY [6-4]",
        "0 JUMP",
        "0 play [6-4]",
        "0 PLAY [6-4] [5-5]",  # two tiles
        "0 PLAY [6-4] LEFT RIGHT",
        "0 PLAY [9-x]",
        "0 PLAY [19-1]",
        "0 PLAY [6-4] open=x",
        "0 PLAY [6-4] open=19",
        "0 DRAW [6-4]",
        "-1 PASS",
        "0 CAPTURE [4-2]",
    ],
)
def test_move_parse_refuses_text_that_is_not_a_well_formed_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)
    with pytest.raises(ValueError):  # still a ValueError, as every rules error is
        Move.parse(text)


# --------------------------------------------------------------------------- check_match


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_state_of_random_matches_passes_check_match(ruleset_id: str) -> None:
    """Every state play reaches passes: the checks refuse no real game."""
    ruleset = rules.get(ruleset_id)
    chooser = random.Random(f"check-{ruleset_id}")
    states = 0
    ends: set[HandEnd] = set()
    for n in range(MATCHES):
        for match in random_match(ruleset, f"check-{ruleset_id}-{n}", chooser):
            ruleset.check_match(match)
            states += 1
        ends |= {result.end for result in match.history}
    assert states > MATCHES * 10
    assert ends == ruleset.hand_ends  # every way a hand ends was met, and no other


def _forgeries(ruleset: Ruleset[Any, Any], match: Match[Any, Any]) -> Iterator[tuple[str, Any]]:
    """(what, forged match) pairs that no play reaches: each must be refused."""
    state, players = match.hand_state, match.players
    replace = dataclasses.replace

    def with_state(**fields: Any) -> Match[Any, Any]:
        return replace(match, hand_state=replace(state, **fields))

    big = 2**63 - 1
    value: Any  # each loop below tries values of every type
    in_set = set(ruleset.full_set(match.options))
    every_tile = [Tile.from_code(code) for code in range(190)]
    stranger = next((t for t in every_tile if t not in in_set), None)
    yield "a string", "not a match"
    yield "players one more", replace(match, players=players + 1)
    yield "players huge", replace(match, players=big)
    yield "players a bool", replace(match, players=True)
    yield "players None", replace(match, players=None)
    yield "options None", replace(match, options=None)
    yield "another ruleset's options", replace(match, options=object())
    for spec in ruleset.option_specs():
        if spec.type == "int":
            for value in (-1, big, -big, "3", True, None):
                yield (
                    f"option {spec.name}={value!r}",
                    replace(match, options=set_field(match.options, spec.name, value)),
                )
            if spec.maximum is not None:
                yield (
                    f"option {spec.name} past its maximum",
                    replace(match, options=set_field(match.options, spec.name, spec.maximum + 1)),
                )
        else:
            for value in (None, 1, "x"):
                yield (
                    f"option {spec.name}={value!r}",
                    replace(match, options=set_field(match.options, spec.name, value)),
                )
    for seed in ("", "x" * 129, "\ud800", None, 7):
        yield f"seed {seed!r:.20}", replace(match, seed=seed)
    for number in (0, -1, MAX_HANDS + 1, big, match.hand_number + 1, None):
        yield f"hand_number {number}", replace(match, hand_number=number)
    yield "status None", replace(match, status=None)
    other = {
        Status.IN_PROGRESS: Status.HAND_OVER,
        Status.HAND_OVER: Status.MATCH_OVER,
        Status.MATCH_OVER: Status.HAND_OVER,
    }
    yield "another status", replace(match, status=other[match.status])
    yield "history None", replace(match, history=None)
    yield "history one more", replace(match, history=(*match.history, _any_result(players)))
    if match.history:
        last = match.history[-1]
        yield "history one less", replace(match, history=match.history[:-1])
        for name, value in (
            ("counts", (*last.counts, 0)),
            ("points", last.points[:-1]),
            ("points", (big,) * players),
            ("points", (-1,) * players),
            # a hand that nobody won is a state of a ruleset whose hands may end so
            *([] if ruleset.hands_may_have_no_winner else [("winners", ())]),
            ("winners", (players,)),
            ("winners", (0, 0)),
            ("settlement", (1,) * (players + 1)),
            ("end", None),
            ("counts", None),
        ):
            forged = replace(last, **{name: value})
            yield (
                f"last result {name}={value!r:.20}",
                replace(match, history=(*match.history[:-1], forged)),
            )
        if len(HandEnd) > len(ruleset.hand_ends):
            alien = next(e for e in HandEnd if e not in ruleset.hand_ends)
            forged = replace(last, end=alien)
            yield (
                "an end the ruleset has not",
                replace(match, history=(*match.history[:-1], forged)),
            )
    event = Event(EventKind.DICE, seat=0, dice=(1, 2, 3))
    yield "too many events", replace(match, last_events=(event,) * (MAX_EVENTS + 1))
    for name, value in (
        ("seat", players),
        ("seat", -1),
        ("target", stranger),
        ("dice", (1, 2, 3, 4)),
        ("dice", (0, 1, 1)),
        ("dice", (7, 1, 1)),
        ("tile", stranger),
        ("tiles", (stranger,)),
        ("tiles", ruleset.full_set(match.options) * 2),
        ("open_pip", 19),
        ("count", big),
        ("points", -big),
        ("seats", (players,)),
        ("seats", tuple(range(players)) * 2),
        ("scores", (big,)),
        ("hidden", True),
        ("private_to", players),
        ("kind", None),
        ("dice", None),
    ):
        if name in ("tile", "target") and value is None:
            continue  # every tile is in the set (double-eighteen)
        forged_event = replace(event, **{name: value})
        yield f"event {name}={value!r:.20}", replace(match, last_events=(forged_event,))
    yield "a tuple of no events", replace(match, last_events=(None,))
    # the hand state
    yield "hand state None", replace(match, hand_state=None)
    yield "hands one more", with_state(hands=(*state.hands, ()))
    yield "hands one less", with_state(hands=state.hands[:-1])
    yield "hands None", with_state(hands=None)
    for seat, tiles in enumerate(state.hands):
        if tiles:
            yield (
                "a hand tile None",
                with_state(hands=_replace_at(state.hands, seat, (None, *tiles[1:]))),
            )
            yield (
                "a tile outside the set",
                with_state(
                    hands=_replace_at(state.hands, seat, tuple(sorted((Tile(18, 17), *tiles[1:]))))
                ),
            )
            yield (
                "a tile twice",
                with_state(hands=_replace_at(state.hands, seat, tuple(sorted((tiles[0], *tiles))))),
            )
            yield "a tile fewer", with_state(hands=_replace_at(state.hands, seat, tiles[1:]))
            if len(set(tiles)) > 1:
                yield (
                    "a hand out of order",
                    with_state(hands=_replace_at(state.hands, seat, tuple(reversed(tiles)))),
                )
            break
    for name in ("to_act", "leader"):
        for value in (players, -1, big, None, "0"):
            yield f"{name}={value!r}", with_state(**{name: value})
    yield from _ruleset_forgeries(ruleset, match)


def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _any_result(players: int) -> HandResult:
    return HandResult((0,) * players, (0,) * players, (0,), HandEnd.BLOCKED)


def _ruleset_forgeries(
    ruleset: Ruleset[Any, Any], match: Match[Any, Any]
) -> Iterator[tuple[str, Any]]:
    """Forgeries of each ruleset's own fields, and of the invariants its docstring names:
    each game declares them (``forgeries``)."""
    forgeries = cases_for(ruleset.id).forgeries
    if forgeries is not None:
        yield from forgeries(match)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_forged_states_raise_invalid_state_error(ruleset_id: str) -> None:
    """Each forgery of a reachable state raises InvalidStateError, never another error."""
    ruleset = rules.get(ruleset_id)
    tried = 0
    for match in sample_states(ruleset_id, 6, rate=0.05):
        for what, forged in _forgeries(ruleset, match):
            try:
                ruleset.check_match(forged)
            except InvalidStateError:
                tried += 1
            else:
                pytest.fail(f"{what} ({match.status.value}): not refused")
    assert tried > 200


# ---- random forgeries: refused, or harmless

EDGE_INTS = (-(2**63), -(2**31), -1, 0, 1, 2, 3, 6, 7, 18, 19, 24, 255, 2**31, 2**63 - 1)


def _forge(old: Any, hint: Any, chooser: random.Random) -> Any:
    """A value chosen to hurt: mostly of the declared type, sometimes not."""
    if chooser.random() < 0.08:
        return chooser.choice((None, "x", 1.5, (), True))
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        if old is not None and chooser.random() < 0.4:
            return None
        return _forge(old, inner, chooser)
    if hint is bool:
        return not old if isinstance(old, bool) else chooser.random() < 0.5
    if hint is int:
        return chooser.choice((*EDGE_INTS, chooser.randint(-50, 50)))
    if hint is str:
        return chooser.choice(("", "x" * 5000, "\u202e\U0001f600", "one_arm_joe", "\ud800"))
    if hint is Tile:
        return Tile.from_code(chooser.randrange(190))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return chooser.choice(list(hint))
    if origin is tuple:
        item = typing.get_args(hint)[0]
        items = list(old or ())
        how = chooser.randrange(6)
        if how == 0 and items:
            del items[chooser.randrange(len(items))]
        elif how == 1 and items:
            items.append(items[chooser.randrange(len(items))])
        elif how == 2:
            return ()
        elif how == 3 and items:
            return tuple(items * chooser.choice((8, 24, 200)))
        elif how == 4 and item in (int, Tile):
            make: Callable[[], Any] = (
                (lambda: Tile.from_code(chooser.randrange(190)))
                if item is Tile
                else (lambda: chooser.randint(1, 6))
            )
            return tuple(make() for _ in range(chooser.choice((4, 24, 64))))
        elif items:
            i = chooser.randrange(len(items))
            items[i] = _forge(items[i], item, chooser)
        return tuple(items)
    return old  # a nested dataclass: forged through its own fields


def _match_paths(ruleset: Ruleset[Any, Any], match: Match[Any, Any]) -> list[Any]:
    hints = dict(typing.get_type_hints(Match))
    hints["options"] = ruleset.options_type
    hints["hand_state"] = ruleset.hand_state_type
    return [
        pair
        for f in dataclasses.fields(Match)
        for pair in paths(getattr(match, f.name), hints[f.name], (f.name,))
    ]


def exercise(ruleset: Ruleset[Any, Any], match: Match[Any, Any], chooser: random.Random) -> None:
    """Every rule on a state that passed check_match: nothing but RulesError may come out,
    and a legal move must apply."""
    legal = ruleset.legal_moves(match)
    for seat in (*range(match.players), None):
        ruleset.view(match, seat)
    ruleset.score(match)
    ruleset.to_act(match)
    for move in legal:
        ruleset.apply(match, move)
    for move in _bad_moves(ruleset, match, chooser, 4):
        if move not in legal:
            with pytest.raises(RulesError):
                ruleset.apply(match, move)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_random_forgeries_are_refused_or_harmless(ruleset_id: str) -> None:
    """One field at a time set to anything: check_match raises InvalidStateError (and
    nothing else), or the state is one every rule handles."""
    ruleset = rules.get(ruleset_id)
    chooser = random.Random(f"forge-{ruleset_id}")
    states = sample_states(ruleset_id, 8, rate=0.05)
    outcomes = {"refused": 0, "passed": 0}
    for _ in range(600):
        match = chooser.choice(states)
        path, hint = chooser.choice(_match_paths(ruleset, match))
        forged = set_at(match, path, _forge(get_at(match, path), hint, chooser))
        try:
            ruleset.check_match(forged)
        except InvalidStateError:
            outcomes["refused"] += 1
            continue
        outcomes["passed"] += 1
        exercise(ruleset, forged, chooser)
    assert outcomes["refused"] > 300 and outcomes["passed"] > 10, outcomes


def test_throw_up_with_24_dice_is_refused_before_any_rule_runs() -> None:
    """[THR-4] a throw is three dice: 24 would make the qualifying totals cost 2**24 sums."""
    ruleset = rules.get("throw_up")
    match = ruleset.new_match(ruleset.make_options({}), 2, "dice")
    forged = dataclasses.replace(
        match, hand_state=dataclasses.replace(match.hand_state, dice=(1, 2, 3) * 8)
    )
    with pytest.raises(InvalidStateError, match="dice"):
        ruleset.check_match(forged)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_match_ends_at_max_hands(ruleset_id: str) -> None:
    """Framework decision: a match ends after hand MAX_HANDS at the latest, so that every
    state play reaches passes check_match."""
    ruleset = rules.get(ruleset_id)
    chooser = random.Random(ruleset_id)
    options = random_options(ruleset, chooser)
    match = ruleset.new_match(options, 2, "last hand")
    match = dataclasses.replace(match, hand_number=MAX_HANDS)
    match = play_out(ruleset, match, chooser, until=hand_over)
    assert match.status is Status.MATCH_OVER


# --------------------------------------------------------------------------- messages

_TILE_TEXT = re.compile(r"\[(\d+)-(\d+)\]|Tile\((\d+), (\d+)\)")


def named_tiles(message: str) -> set[Tile]:
    """Every tile a message names, as ``[6-4]`` or ``Tile(6, 4)``."""
    found = set()
    for match in _TILE_TEXT.finditer(message):
        high, low = (int(g) for g in match.groups() if g is not None)
        found.add(Tile.of(high, low))
    return found


def _bad_moves(
    ruleset: Ruleset[Any, Any], match: Match[Any, Any], chooser: random.Random, count: int
) -> list[Move]:
    """Out-of-turn, illegal and malformed moves for ``match``."""
    full = ruleset.full_set(match.options)
    legal = ruleset.legal_moves(match)
    moves: list[Move] = []
    for move in legal[:2]:
        moves.append(dataclasses.replace(move, seat=(move.seat + 1) % match.players))
        moves.append(dataclasses.replace(move, seat=move.seat + match.players))
    seat = ruleset.to_act(match) or 0
    for _ in range(count):
        kind = chooser.choice(list(MoveKind))
        tile = chooser.choice(full)
        target = chooser.choice(full)
        moves.append(
            Move(
                seat,
                kind,
                tile if chooser.random() < 0.8 else None,
                target if chooser.random() < 0.4 else None,
                chooser.choice((None, End.LEFT, End.RIGHT)),
                chooser.choice((None, None, 0, 6, 19, -1)),
            )
        )
    moves.append(Move(-1, MoveKind.PASS))
    moves.append(Move(seat, MoveKind.DRAW, chooser.choice(full)))
    return moves


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_error_messages_name_no_tile_but_the_moves_own(ruleset_id: str) -> None:
    """Messages end up in logs and before other people: a rejected move's message names
    the move's own tile and target, and no other tile (no hand, no legal move's tile)."""
    ruleset = rules.get(ruleset_id)
    chooser = random.Random(f"messages-{ruleset_id}")
    kinds: dict[type, int] = {}
    for match in sample_states(ruleset_id, 10, rate=0.3):
        legal = ruleset.legal_moves(match)
        for move in _bad_moves(ruleset, match, chooser, 6):
            if move in legal:
                continue
            with pytest.raises(MoveError) as caught:
                ruleset.apply(match, move)
            message = str(caught.value)
            own = {t for t in (move.tile, move.target) if t is not None}
            assert named_tiles(message) <= own, message
            kinds[type(caught.value)] = kinds.get(type(caught.value), 0) + 1
    assert set(kinds) == {InvalidMoveError, NotYourTurnError, IllegalMoveError, GameOverError}


def test_illegal_move_message_names_the_kinds_not_the_tiles() -> None:
    """ILLEGAL_MOVE says what the request named and the kinds of the legal moves."""
    ruleset = rules.get("tsair_deng")
    match = ruleset.new_match(ruleset.make_options({}), 2, "message")
    seat = ruleset.to_act(match)
    assert seat is not None
    hand = set(match.hand_state.hands[seat])
    stranger = next(t for t in ruleset.full_set(match.options) if t not in hand)
    move = Move(seat, MoveKind.PLAY, stranger, open_pip=stranger.high)
    with pytest.raises(IllegalMoveError) as caught:
        ruleset.apply(match, move)
    assert str(caught.value) == f"{move} is not legal: seat {seat}'s legal moves are PLAY moves"
