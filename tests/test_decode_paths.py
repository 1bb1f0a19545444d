"""The fast paths of opening a token, checked against what they stand for.

Opening a token of a long match is dominated by its history (up to 1,000 hand results),
so three paths avoid per-hand work there; each must be exact:

* the generated unpacker reads a list of numbers packed with the same bytes as the list
  before it (a hand's points that are its counts) as the same tuple, and lists of one-
  and two-byte numbers without a call per number;
* ``codec.decode_game`` skips the type walk of ``check_match`` (``typed=True``): the
  unpacker builds every value of its declared type, whatever the bytes;
* ``check_match`` checks the history by columns (``Ruleset._history_ok``) and only
  walks it hand by hand (``_explain_history``) for the message of a failure: the two
  agree on every history;
* the calls that do not use the last move's events (ApplyMove, GetLegalMoves, GetScore)
  leave them unread (``packing.unpack(payload, events=False)``): the match read is the
  whole one without them, and what those calls answer is the same whatever they were.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.api import ApiError, RulesService
from domino_rules.bots.playout import play_out
from domino_rules.rules import Event, EventKind, HandEnd, HandResult, Status, consistency
from domino_rules.rules.errors import InvalidStateError
from domino_rules.rules.limits import MAX_EVENTS, MAX_HAND_POINTS, MAX_TOTAL
from domino_rules.state import codec, packing
from domino_rules.state.tokens import TokenCodec
from domino_rules.v1 import domino_rules_pb2 as pb

from .support.forgery import set_field

GAME_ID = "0123456789abcdef01234567"
SERVICE = RulesService(TokenCodec(), minted=0)
RULESETS = rules.all_rulesets()


def states(ruleset: rules.Ruleset[Any, Any], seed: str) -> list[rules.Match[Any, Any]]:
    """States of a random match with a few hands of history: mid-hand and hands over."""
    options = ruleset.make_options({})
    players = 3 if ruleset.id == "throw_up" else 4
    found: list[rules.Match[Any, Any]] = []
    chooser = random.Random(seed)

    def keep(step: Any) -> None:
        if step.after.status is not Status.IN_PROGRESS or chooser.random() < 0.02:
            found.append(step.after)

    play_out(ruleset, ruleset.new_match(options, players, seed), chooser, observe=keep)
    return found


# --------------------------------------------------------------------------- unpacking

EDGES = (0, 1, 63, 64, 127, 128, 16383, 16384, 10**6, -1, -64, -65, -8192, -8193, -(10**6))


def _numbers(chooser: random.Random, n: int) -> tuple[int, ...]:
    pick = (0, 0, chooser.choice(EDGES), chooser.randint(-300, 900), chooser.randint(0, 60))
    return tuple(chooser.choice(pick) for _ in range(n))


def test_hand_results_read_back_as_they_were_packed() -> None:
    """Random results through the generated code: numbers of one, two and three bytes,
    dense and sparse lists, points equal to the counts or not, in a row."""
    compiler = packing._Compiler()
    pack, unpack = compiler.build(HandResult, {})
    chooser = random.Random("results")
    results = []
    for _ in range(3000):
        n = chooser.choice((0, 1, 2, 4, 9, 12, 13, 31, 32, 40))
        counts = _numbers(chooser, n)
        points = counts if chooser.random() < 0.4 else _numbers(chooser, n)
        winners = points if chooser.random() < 0.1 else _numbers(chooser, chooser.randint(0, 3))
        settlement = _numbers(chooser, chooser.choice((0, n)))
        results.append(
            HandResult(counts, points, winners, chooser.choice(list(HandEnd)), settlement)
        )
    out = bytearray()
    for result in results:
        pack(out, result)
    data, pos = bytes(out), 0
    for result in results:
        read, pos = unpack(data, pos)
        assert read == result
        if result.points == result.counts and result.points:
            assert read.points is read.counts  # the same bytes: the same tuple
    assert pos == len(data)


def test_a_truncated_list_of_two_byte_numbers_is_refused() -> None:
    ruleset = rules.get("tiu_u")
    match = states(ruleset, "truncated")[-1]
    payload = packing.pack(ruleset, match, GAME_ID, 1)
    raw = packing.fingerprint(ruleset) + b"\x00" + _inflated(payload)[: -len(payload) // 3]
    with pytest.raises(packing.PackError):
        packing.unpack(raw)


def _inflated(payload: bytes) -> bytes:
    import zlib

    body = payload[5:]
    return zlib.decompress(body) if payload[4] & 1 else body


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_whatever_the_bytes_the_unpacker_builds_values_of_their_declared_types(
    ruleset: rules.Ruleset[Any, Any],
) -> None:
    """What ``typed=True`` relies on: payloads with random bytes changed, inserted or
    removed either unpack to a match whose every value has its declared type, or are
    refused (``PackError``)."""
    type_ok = consistency._match_type_ok(ruleset.options_type, ruleset.hand_state_type)
    chooser = random.Random(ruleset.id)
    unpacked = 0
    for match in states(ruleset, "types")[:12]:
        body = bytearray(_inflated(packing.pack(ruleset, match, GAME_ID, 7)))
        head = packing.fingerprint(ruleset) + b"\x00"
        for _ in range(400):
            forged = bytearray(body)
            for _ in range(chooser.randint(1, 3)):
                at = chooser.randrange(len(forged))
                action = chooser.random()
                if action < 0.7:
                    forged[at] = chooser.randrange(256)
                elif action < 0.85:
                    forged.insert(at, chooser.randrange(256))
                else:
                    del forged[at]
            try:
                packed = packing.unpack(head + bytes(forged))
            except packing.PackError:
                continue
            unpacked += 1
            assert type_ok(packed.match), bytes(forged).hex()
    assert unpacked > 40  # the mutations reached the values, not only the refusals


# --------------------------------------------------------------------------- checks


def test_decoding_skips_the_type_walk_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_walk(*args: Any) -> Any:
        raise AssertionError("the type walk ran on an unpacked state")

    ruleset = rules.get("tsair_deng")
    match = states(ruleset, "walk")[-2]
    token = SERVICE.encode(codec.Game(ruleset, match, GAME_ID, 3))
    monkeypatch.setattr(consistency, "_match_type_ok", no_walk)
    assert SERVICE.decode(token).match == match
    result = match.history[0]
    forged = set_field(match, "history", (set_field(result, "winners", (3, 1)), *match.history[1:]))
    with pytest.raises(ApiError, match="winners are not distinct seats in ascending order"):
        SERVICE.decode(SERVICE.encode(codec.Game(ruleset, forged, GAME_ID, 3)))
    with pytest.raises(AssertionError, match="type walk"):
        ruleset.check_match(match)  # from anywhere else, the walk runs


def _mutations(result: HandResult, players: int, chooser: random.Random) -> list[HandResult]:
    """One result changed in the ways a forger would, each past or at a bound."""
    seat = chooser.randrange(players)
    out = []
    for name in ("counts", "points", "settlement"):
        values = getattr(result, name) or (0,) * players
        for value in (-1, -MAX_HAND_POINTS - 1, MAX_HAND_POINTS, MAX_HAND_POINTS + 1, 10**30):
            changed = (*values[:seat], value, *values[seat + 1 :])
            out.append(set_field(result, name, changed))
        out.append(set_field(result, name, values[:-1]))
        out.append(set_field(result, name, (*values, 0)))
        out.append(set_field(result, name, ()))
    for winners in ((), (seat, seat), (players,), (-1,), (1, 0), tuple(range(players + 1))):
        out.append(dataclasses.replace(result, winners=winners))
    out.extend(dataclasses.replace(result, end=end) for end in HandEnd)
    return out


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_the_history_checked_by_columns_agrees_with_the_check_hand_by_hand(
    ruleset: rules.Ruleset[Any, Any],
) -> None:
    chooser = random.Random(ruleset.id)
    checked = refused = 0
    for match in states(ruleset, "columns")[-8:]:
        history, players = match.history, match.players
        if not history:
            continue
        candidates = [history, ()]
        for _ in range(4):
            at = chooser.randrange(len(history))
            for result in _mutations(history[at], players, chooser):
                candidates.append((*history[:at], result, *history[at + 1 :]))
        big = dataclasses.replace(history[0], points=(MAX_HAND_POINTS,) * players)
        candidates.append((big,) * (MAX_TOTAL // MAX_HAND_POINTS + 1))  # totals past MAX_TOTAL
        for candidate in candidates:
            try:
                consistency._explain_history(ruleset, candidate, players)
            except InvalidStateError:
                explained = False
            else:
                explained = True
            assert consistency._history_ok(ruleset, candidate, players) is explained, candidate
            checked += 1
            refused += not explained
    assert refused > checked // 2


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_totals_by_columns_are_the_sums_of_the_points(ruleset: rules.Ruleset[Any, Any]) -> None:
    for match in states(ruleset, "totals"):
        running = ruleset.running_points(match.hand_state, match.players)
        expected = [
            sum(result.points[seat] for result in match.history)
            + (running[seat] if match.status is Status.IN_PROGRESS else 0)
            for seat in range(match.players)
        ]
        assert ruleset.totals(match) == tuple(expected)


# --------------------------------------------------------------------------- events unread


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_a_match_read_without_its_events_is_the_match_less_them(
    ruleset: rules.Ruleset[Any, Any],
) -> None:
    with_events = 0
    found = [m for k in range(3) for m in states(ruleset, f"unread/{k}")]
    for n, match in enumerate(found):
        payload = packing.pack(ruleset, match, GAME_ID, n)
        whole, part = packing.unpack(payload), packing.unpack(payload, events=False)
        assert whole.match == match
        assert part.match == dataclasses.replace(match, last_events=())
        assert (part.ruleset, part.game_id, part.version) == (ruleset, GAME_ID, n)
        with_events += bool(match.last_events)
    assert with_events > 3


def _answers(service: RulesService, token: bytes, move: pb.Move) -> list[bytes]:
    """What ApplyMove, GetLegalMoves and GetScore answer for ``token``."""
    return [
        service.ApplyMove(pb.ApplyMoveRequest(state=token, move=move)).SerializeToString(),
        service.GetLegalMoves(pb.GetLegalMovesRequest(state=token)).SerializeToString(),
        service.GetScore(pb.GetScoreRequest(state=token)).SerializeToString(),
    ]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.id)
def test_the_calls_that_do_not_use_the_last_events_answer_the_same_whatever_they_were(
    ruleset: rules.Ruleset[Any, Any],
) -> None:
    """A move makes its own events, and the legal moves and the score do not read them:
    a forged token whose last events no game could have (more than a move makes, or
    bytes that are no events at all) gets the same answers from those calls as the true
    token; GetView, which shows them, refuses it."""
    match = ruleset.new_match(ruleset.make_options({}), 3, "unread-calls")
    chooser = random.Random(ruleset.id)
    for _ in range(4):
        match, _events = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
    assert match.status is Status.IN_PROGRESS and match.last_events
    move = codec.move_to_pb(ruleset.legal_moves(match)[0])
    too_many = (Event(EventKind.PASS, seat=0),) * (MAX_EVENTS + 1)
    forgeries = [
        SERVICE.encode(codec.Game(ruleset, set_field(match, "last_events", too_many), GAME_ID, 5)),
        _unsealed(_with_garbage_for_events(ruleset, match)),
    ]
    expected = _answers(SERVICE, SERVICE.encode(codec.Game(ruleset, match, GAME_ID, 5)), move)
    for token in forgeries:
        assert _answers(SERVICE, token, move) == expected
        with pytest.raises(ApiError) as refused:
            SERVICE.GetView(pb.GetViewRequest(state=token))
        assert refused.value.reason == "BAD_STATE_TOKEN"


def _with_garbage_for_events(ruleset: rules.Ruleset[Any, Any], match: Any) -> bytes:
    """The payload of ``match`` with its events' bytes (the last ones) replaced by bytes
    that are no events: a count of 2,000 (more than a move makes), then two bytes."""
    whole = packing.pack(ruleset, match, GAME_ID, 5)
    bare = packing.pack(ruleset, dataclasses.replace(match, last_events=()), GAME_ID, 5)
    assert whole[4] == bare[4] == 0, "a short state is not deflated"
    # the presence mask takes a byte more for the events' bit (128)
    events = len(whole) - len(bare) - 1
    forged = whole[:-events] + bytes([0xD0, 0x0F, 7, 7])
    with pytest.raises(packing.PackError, match="holds 2000 items"):
        packing.unpack(forged)
    return forged


def _unsealed(payload: bytes) -> bytes:
    """An unsealed token of ``payload`` (see ``state.tokens``)."""
    header = bytes((2, 0))
    return header + payload + hashlib.sha256(header + payload).digest()[:8]
