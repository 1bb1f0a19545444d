"""A finished hand in words: every hand's reason names how it ended and who won it, and
a tie-break or a special score the rules applied is named with its rule's tag.

The reasons (``Ruleset.explain_hand``) come from what the match holds: a hand's result,
the hands before it and, for the hand just over, its final state. They name seats and
counts, never a tile. Random matches of every ruleset check the general promise; scripted
positions, each played to its last move by the rules, check each tie-break.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

from domino_rules import rules
from domino_rules.api import RulesService
from domino_rules.bots.playout import AnyMatch, AnyRuleset, Step, random_match
from domino_rules.games.block.rules import BlockHandState
from domino_rules.games.dancing_dragons.rules import DancingDragonsHandState
from domino_rules.rules import End, HandEnd, HandResult, Match, Move, MoveKind, Status, Tile
from domino_rules.rules.ruleset import HAND_END_WORDS, seats_text
from domino_rules.rules.tiles import double_n
from domino_rules.v1 import domino_rules_pb2 as pb

from ..cases import cases_for
from . import positions
from .positions import laid, tiles
from .test_conformance import combinations

RULESET_IDS = [r.id for r in rules.all_rulesets()]
ROOT = Path(__file__).resolve().parents[2]
#: A tile as a reason would write it: digits on both sides (a rule tag has letters).
TILE = re.compile(r"\[\d+-\d+\]")
#: A rule tag in a reason.
TAG = re.compile(r"\[([A-Z]+)-([0-9]+)\]")
#: Words of a reason that say less than the hand's final state told, once the match no
#: longer holds it: a tie-break step (an earlier hand's discards); each game adds its own
#: (``reasons_later_say``: which of two seats left with 0 pips went out, say).
LESS_KNOWN = ("the first of these that separates them",)
#: Random matches per ruleset, spread over its option combinations.
MATCHES = 40


def _rulebook_tags() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^- `\[([A-Z]+-[0-9]+)\]`", text, re.MULTILINE))


RULEBOOK_TAGS = _rulebook_tags()


def prefix_of(ruleset: AnyRuleset) -> str:
    """The prefix of the ruleset's rule tags, as its ``source`` cites them."""
    found = TAG.search(ruleset.source)
    assert found, f"{ruleset.id}'s source cites no rule tag"
    return found.group(1)


def check_reason(ruleset: AnyRuleset, reason: str, result: HandResult) -> None:
    """What every reason says: the end first, the winners (or that nobody won), a rule
    tag of the ruleset's own; and never a tile."""
    assert reason.strip(), "an empty reason"
    assert reason.startswith(HAND_END_WORDS[result.end]), (result.end, reason)
    if result.winners:
        assert seats_text(result.winners) in reason, (result.winners, reason)
    else:
        assert "nobody" in reason or "no side wins" in reason, reason
    assert not TILE.search(reason), f"a reason names a tile: {reason}"
    tags = [f"{prefix}-{number}" for prefix, number in TAG.findall(reason)]
    assert tags, f"a reason cites no rule: {reason}"
    prefix = prefix_of(ruleset)
    for tag in tags:
        assert tag in RULEBOOK_TAGS and tag.startswith(prefix + "-"), (tag, reason)


class HandEnds:
    """A playout observer: each hand's reason as it stood when the hand ended."""

    def __init__(self, ruleset: AnyRuleset) -> None:
        self.ruleset = ruleset
        self.at_end: list[str] = []

    def step(self, step: Step) -> None:
        after = step.after
        if step.before.status is Status.IN_PROGRESS and after.status is not Status.IN_PROGRESS:
            reasons = self.ruleset.score(after).reasons
            assert len(reasons) == len(after.history)
            check_reason(self.ruleset, reasons[-1], after.history[-1])
            self.at_end.append(reasons[-1])


def play_matches(ruleset_id: str) -> list[tuple[AnyMatch, list[str]]]:
    ruleset, cases = rules.get(ruleset_id), cases_for(ruleset_id)
    combos = combinations(ruleset)
    chooser = random.Random(f"reasons-{ruleset_id}")
    played = []
    for n in range(MATCHES):
        values = {**combos[(n * 7) % len(combos)], **cases.short.options}
        options = ruleset.make_options(values)
        low, high = ruleset.player_range(options)
        players = chooser.choice([p for p in cases.players if low <= p <= high])
        ends = HandEnds(ruleset)
        end = random_match(
            ruleset, options, players, f"reasons-{n}", chooser=chooser, observe=ends.step
        )
        played.append((end, ends.at_end))
    return played


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_finished_hand_has_a_reason(ruleset_id: str) -> None:
    """At each hand's end and at the match's end, every hand's reason names its end and
    its winners (or says nobody won), cites a rule of its game and names no tile. An
    earlier hand's words stay as they were at its end, but for what only the hand's final
    state told (an earlier hand's discards, or which of two seats with 0 pips went out)."""
    ruleset = rules.get(ruleset_id)
    less_known = (*LESS_KNOWN, *cases_for(ruleset_id).reasons_later_say)
    hands = 0
    for end, at_end in play_matches(ruleset_id):
        reasons = ruleset.score(end).reasons
        assert len(reasons) == len(end.history) == len(at_end)
        for reason, result, first in zip(reasons, end.history, at_end, strict=True):
            check_reason(ruleset, reason, result)
            assert reason == first or any(words in reason for words in less_known), (
                first,
                reason,
            )
            hands += 1
    assert hands >= MATCHES


def any_result(ruleset: AnyRuleset, players: int, chooser: random.Random) -> HandResult:
    """A result that passes the check of a state from outside, whether or not the rules
    could give it (a token's earlier hands are checked only so far)."""
    least = 0 if ruleset.hands_may_have_no_winner else 1
    winners = sorted(chooser.sample(range(players), chooser.randint(least, players)))
    return HandResult(
        tuple(chooser.choice((0, 0, 1, 5, 12)) for _ in range(players)),
        tuple(chooser.choice((0, 0, 2, 7)) for _ in range(players)),
        tuple(winners),
        chooser.choice(sorted(ruleset.hand_ends, key=lambda end: end.value)),
        tuple(chooser.randint(-9, 9) for _ in range(players)) if ruleset.settles_hands else (),
    )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_earlier_results_from_outside_get_a_reason_too(ruleset_id: str) -> None:
    """A token's earlier hands are checked for their shape, not replayed: a result the
    rules could not give still gets a reason (the plain facts), never an error."""
    ruleset, cases = rules.get(ruleset_id), cases_for(ruleset_id)
    chooser = random.Random(f"outside-{ruleset_id}")
    options = ruleset.make_options(cases.short.options)
    players = cases.short.players
    current = ruleset.new_match(options, players, "outside")
    for _ in range(200):
        history = tuple(any_result(ruleset, players, chooser) for _ in range(3))
        match = Match(players, options, "outside", 4, current.hand_state, history)
        for reason, result in zip(ruleset.score(match).reasons, history, strict=True):
            assert reason.startswith(HAND_END_WORDS[result.end]), reason
            if result.winners:
                assert seats_text(result.winners) in reason, (result, reason)
            assert not TILE.search(reason), reason


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_getscore_carries_each_hands_reason(ruleset_id: str) -> None:
    """Through the service: ``GetScore``'s ``hands[i].reason`` is each hand's reason, at
    every hand's end and when the match is over."""
    ruleset, setup = rules.get(ruleset_id), cases_for(ruleset_id).short
    service = RulesService()
    request = {
        "ruleset": ruleset_id,
        "players": setup.players,
        "seed": f"reasons-{ruleset_id}",
        "options": {ruleset_id: dict(setup.options)},
    }
    answer = service.NewGame(json_format.ParseDict(request, pb.NewGameRequest()))
    state, chooser, finished = answer.state, random.Random(ruleset_id), 0
    while True:
        legal = service.GetLegalMoves(pb.GetLegalMovesRequest(state=state))
        if not legal.moves:
            break
        applied = service.ApplyMove(
            pb.ApplyMoveRequest(state=state, move=chooser.choice(list(legal.moves)))
        )
        state = applied.state
        if applied.status == pb.IN_PROGRESS:
            continue
        score = service.GetScore(pb.GetScoreRequest(state=state))
        assert [hand.hand for hand in score.hands] == list(range(1, len(score.hands) + 1))
        finished = len(score.hands)
        for hand in score.hands:
            result = HandResult(
                tuple(hand.counts),
                tuple(hand.points),
                tuple(hand.winners),
                HandEnd[pb.HandEnd.Name(hand.end)],
                tuple(hand.settlement),
            )
            check_reason(ruleset, hand.reason, result)
        as_json = json_format.MessageToDict(score, preserving_proto_field_name=True)
        assert as_json["hands"][-1]["reason"] == score.hands[-1].reason
    assert finished >= 1 and score.status == pb.MATCH_OVER


# --------------------------------------------------------------------------- One Arm Joe

OAJ = rules.get("one_arm_joe")


def oaj_blocked(hands: list[str], **values: Any) -> AnyMatch:
    """Seat 0 plays [5-4] on the open 4 and blocks the hand: nobody holds a 5 and the
    boneyard is empty."""
    match = positions.one_arm_joe(
        ["5-4 " + hands[0], *hands[1:]], line="6-6 6-4", open_end=4, target_score=0, **values
    )
    after, _ = OAJ.apply(match, Move(0, MoveKind.PLAY, Tile(5, 4)))
    assert after.status is Status.MATCH_OVER and after.history[-1].end is HandEnd.BLOCKED
    return after


def test_oaj9_reason_a_tie_for_the_lowest_count_scores_nothing() -> None:
    """[OAJ-9] a tie for the lowest count: the reason names the tied seats, their count,
    and that the tie scores nothing (tie NO_SCORE)."""
    after = oaj_blocked(["2-0", "1-1", "6-2"])
    result = after.history[-1]
    assert result.counts == (2, 2, 8) and result.winners == (0, 1)  # the tie happened
    assert result.points == (0, 0, 0)
    assert OAJ.score(after).reasons == (
        "Blocked: seats 0 and 1 tie for the fewest pips, 2 each; under tie NO_SCORE a tie "
        "scores nothing for anyone [OAJ-9].",
    )


def test_oaj9_reason_a_shared_tie_and_everyone_tied() -> None:
    """[OAJ-9] tie SHARED: each tied seat scores the pips of the seats not tied (less its
    own under OTHERS_MINUS_OWN); with every seat tied nobody scores."""
    after = oaj_blocked(["2-0", "1-1", "6-2"], tie="SHARED", scoring="OTHERS_MINUS_OWN")
    assert after.history[-1].points == (6, 6, 0)
    (reason,) = OAJ.score(after).reasons
    assert reason == (
        "Blocked: seats 0 and 1 tie for the fewest pips, 2 each, and share the hand under "
        "tie SHARED [OAJ-9]: each scores the 8 pips of the seats not tied less their own 2, 6."
    )
    everyone = oaj_blocked(["2-0", "1-1"], tie="SHARED")
    assert everyone.history[-1].winners == (0, 1) and everyone.history[-1].points == (0, 0)
    assert OAJ.score(everyone).reasons == (
        "Blocked: seats 0 and 1 both hold 2 pips; with every seat tied nobody scores [OAJ-9].",
    )


def test_oaj9_reason_a_domino_wins_outright_even_against_a_count_of_0() -> None:
    """[OAJ-9] the seat that dominoed wins outright, even against a seat left with 0 pips
    (a hand of [0-0]): the reason says so."""
    match = positions.one_arm_joe(["4-1", "0-0", "6-3"], line="6-6 6-4", open_end=4, target_score=0)
    after, _ = OAJ.apply(match, Move(0, MoveKind.PLAY, Tile(4, 1)))
    result = after.history[-1]
    assert result.end is HandEnd.DOMINOED and result.counts == (0, 0, 9)
    assert OAJ.score(after).reasons == (
        "Dominoed: seat 0 laid their last tile and wins the hand outright, even against "
        "seat 1 left with 0 pips [OAJ-9]. Seat 0 scores 9, the pips left in the other hands.",
    )


# --------------------------------------------------------------------------- Tsair Deng

TD = rules.get("tsair_deng")


def td_earlier(points: tuple[int, ...], winner: int) -> HandResult:
    """An earlier hand with these points, won by ``winner`` (the next hand's leader)."""
    return HandResult(points, points, (winner,), HandEnd.ALL_TILES_PLACED)


def td_finish(
    held: list[str], discards: list[str], leader: int, history: tuple[HandResult, ...]
) -> AnyMatch:
    """The last move of a hand: the one seat holding a tile plays it on the open 3."""
    last = next(seat for seat, text in enumerate(held) if text)
    state = positions.tsair_deng_state(
        held, discards=discards, played="6-3", open_pip=3, to_act=last, leader=leader
    )
    match = positions.match_of(
        TD, state, options={"hands": 4}, hand_number=len(history) + 1, history=history
    )
    (tile,) = state.hands[last]
    after, _ = TD.apply(match, Move(last, MoveKind.PLAY, tile))
    assert after.status is Status.HAND_OVER
    return after


def test_td9_reason_fewer_discarded_tiles_breaks_the_tie() -> None:
    """[TD-9] equal fewest points, one discarded tile against two: the reason names the
    tie, the step that broke it with both counts, and the tag. Once the next hand is
    dealt, the hand's discards are no longer held: its reason gives the rule's order."""
    after = td_finish(
        ["", "3-1", ""], ["6-6", "6-5 6-4", "3-3 3-3"], 2, (td_earlier((10, 5, 0), 2),)
    )
    result = after.history[-1]
    assert result.points == (12, 21, 12) and result.winners == (0,)  # the tie happened
    assert TD.score(after).reasons[-1] == (
        "Every tile played or discarded [TD-7]: seats 0 and 2 tie for the fewest points, "
        "12 each; seat 0 wins the tie on fewer discarded tiles (1, against 2 for seat 2) "
        "[TD-9]. Each seat scores its discarded pips [TD-8]: seat 0 12, seat 1 21 and "
        "seat 2 12."
    )
    later, _ = TD.apply(after, Move(0, MoveKind.NEXT_HAND))
    assert TD.score(later).reasons[-1] == (
        "Every tile played or discarded [TD-7]: seats 0 and 2 tie for the fewest points, "
        "12 each; seat 0 wins the tie on the first of these that separates them: fewer "
        "discarded tiles, the lower match total before this hand, the first in turn order "
        "from this hand's leader, seat 2 [TD-9]. Each seat scores its discarded pips "
        "[TD-8]: seat 0 12, seat 1 21 and seat 2 12."
    )


def test_td9_reason_the_lower_match_total_before_breaks_the_tie() -> None:
    """[TD-9] equal points and equal discards: the lower match total before this hand."""
    history = (td_earlier((20, 0, 15), winner=1), td_earlier((10, 0, 0), winner=1))
    after = td_finish(["3-3", "", ""], ["6-6", "6-5 6-4", "6-6"], 1, history)
    result = after.history[-1]
    assert result.points == (12, 21, 12) and result.winners == (2,)
    assert TD.totals(after) == (42, 21, 27)  # 30 and 15 before this hand
    reason = TD.score(after).reasons[-1]
    assert (
        "seats 0 and 2 tie for the fewest points, 12 each; seat 2 wins the tie on the lower "
        "match total before this hand (15, against 30 for seat 0) [TD-9]."
    ) in reason


@pytest.mark.parametrize(("leader", "winner"), [(2, 3), (0, 0), (3, 3), (1, 3)])
def test_td9_reason_turn_order_from_the_leader_breaks_the_tie(leader: int, winner: int) -> None:
    """[TD-9] all else equal: the first of the tied seats in turn order from this hand's
    leader, named in the reason."""
    held = ["", "", "", ""]
    held[(leader - 1) % 4] = "3-3"
    history = (td_earlier((7, 7, 7, 7), winner=leader),)
    after = td_finish(held, ["5-1", "6-6", "6-5", "4-2"], leader, history)
    result = after.history[-1]
    assert result.points == (6, 12, 11, 6) and result.winners == (winner,)
    reason = TD.score(after).reasons[-1]
    assert (
        f"seats 0 and 3 tie for the fewest points, 6 each; seat {winner} wins the tie on the "
        f"first in turn order from this hand's leader, seat {leader} [TD-9]."
    ) in reason


def test_td9_reason_of_an_earlier_first_hand_names_the_leader_its_deal_gave() -> None:
    """[TD-8] [TD-9] an earlier first hand tied at 0 points (two seats discarded nothing,
    so the others' scores doubled): the Chinese set has no blank, so both discarded
    nothing, and the turn order from the leader the seed's deal gave breaks the tie."""
    options = TD.make_options({"hands": 4})
    leader = TD.new_match(options, 4, positions.SEED).hand_state.leader
    winner = min((0, 1), key=lambda seat: (seat - leader) % 4)
    first = HandResult((0, 0, 5, 7), (0, 0, 10, 14), (winner,), HandEnd.ALL_TILES_PLACED)
    now = TD.new_match(options, 4, positions.SEED)
    match = Match(4, options, positions.SEED, 2, now.hand_state, (first,))
    (reason,) = TD.score(match).reasons
    assert reason == (
        "Every tile played or discarded [TD-7]: seats 0 and 1 tie for the fewest points, 0 "
        f"each; seat {winner} wins the tie on the first in turn order from this hand's "
        f"leader, seat {leader} [TD-9]. Each seat scores its discarded pips, doubled because "
        "seats 0 and 1 discarded nothing [TD-8]: seat 0 0, seat 1 0, seat 2 10 and seat 3 14."
    )


# --------------------------------------------------------------------------- Dancing Dragons

DD = rules.get("dancing_dragons")


def dd_finish(discards: list[str]) -> AnyMatch:
    """Seat 0 lays its last tile, [2-1], on the right end (1): the hand is over."""
    state = DancingDragonsHandState(
        (tiles("2-1"), ()), tuple(tiles(text) for text in discards), laid("4-1"), 0, 0
    )
    match = Match(2, DD.make_options({"hands": 1}), "dd", 1, state)
    after, _ = DD.apply(match, Move(0, MoveKind.PLAY, Tile(2, 1), end=End.RIGHT))
    assert after.status is Status.MATCH_OVER
    return after


def test_dd8_reason_names_the_tie_break() -> None:
    """[DD-8] equal fewest points: fewer discarded tiles, else the turn order from the
    leader; the reason names the step and the tag."""
    fewer = dd_finish(["2-2 1-1", "5-1"])
    assert fewer.history[-1].points == (6, 6) and fewer.history[-1].winners == (1,)
    assert DD.score(fewer).reasons == (
        "Every tile played or discarded [DD-6]: seats 0 and 1 tie for the fewest points, "
        "6 each; seat 1 wins the tie on fewer discarded tiles (1, against 2 for seat 0) "
        "[DD-8]. Each seat scores its discarded pips [DD-7]: seat 0 6 and seat 1 6.",
    )
    turn = dd_finish(["3-3", "5-1"])
    assert turn.history[-1].points == (6, 6) and turn.history[-1].winners == (0,)
    assert (
        "seat 0 wins the tie on the first in turn order from this hand's leader, seat 0 [DD-8]"
    ) in DD.score(turn).reasons[0]


def test_dd7_reason_names_the_doubling() -> None:
    """[DD-7] a seat that discarded nothing doubles the others' scores: the reason says
    which seat and why."""
    after = dd_finish(["", "6-5"])
    assert after.history[-1].points == (0, 22)
    assert DD.score(after).reasons == (
        "Every tile played or discarded [DD-6]: seat 0 has the fewest points, 0, and wins "
        "the hand [DD-8]. Each seat scores its discarded pips, doubled because seat 0 "
        "discarded nothing [DD-7]: seat 0 0 and seat 1 22.",
    )


# --------------------------------------------------------------------------- Block

BLK = rules.get("block")


def blk_finish(hands: list[str], line: str, move: Move, **values: Any) -> AnyMatch:
    """A Block game position (the boneyard every tile not held or laid) and its last move."""
    options = BLK.make_options({"target_score": 0, **values})
    held = [tiles(text) for text in hands]
    on_line = laid(line)
    used = {tile for hand in held for tile in hand} | {lt.tile for lt in on_line}
    boneyard = tuple(tile for tile in double_n(options.set_max_pip) if tile not in used)
    last = (move.seat - 1) % len(hands)
    state = BlockHandState(tuple(held), boneyard, on_line, move.seat, 0, True, 0, last)
    after, _ = BLK.apply(Match(len(hands), options, "blk", 1, state), move)
    assert after.status is Status.MATCH_OVER
    return after


def test_blk10_reason_equal_lowest_counts_are_a_tie_nobody_wins() -> None:
    """[BLK-10] equal lowest counts in a blocked hand: no side wins, nobody scores."""
    after = blk_finish(["6-5 3-3", "4-2"], "5-5", Move(0, MoveKind.PLAY, Tile(6, 5), end=End.LEFT))
    result = after.history[-1]
    assert result.end is HandEnd.BLOCKED and result.counts == (6, 6) and result.winners == ()
    assert BLK.score(after).reasons == (
        "Blocked: seats 0 and 1 tie for the lowest count, 6 each: no side wins and nobody "
        "scores [BLK-10].",
    )


def test_blk10_blk11_reason_a_side_that_went_out_and_lost() -> None:
    """[BLK-10] [BLK-11] domino_wins false: seat 0 goes out, yet the other side's count is
    lower; the reason says both, and what the winning side scores."""
    after = blk_finish(
        ["5-1", "6-5", "6-6", "0-0"],
        "5-3",
        Move(0, MoveKind.PLAY, Tile(5, 1), end=End.LEFT),
        partnership=True,
        domino_wins=False,
    )
    result = after.history[-1]
    assert result.end is HandEnd.DOMINOED and result.winners == (1, 3)
    assert BLK.score(after).reasons == (
        "Dominoed: seat 0 laid their last tile; under domino_wins false the lowest count "
        "wins [BLK-10]: the side of seats 1 and 3 has the lowest count, 11, and wins the "
        "hand [BLK-10]. Seats 1 and 3 each score 12: the 12 pips left in the other side's "
        "hands [BLK-11].",
    )


# --------------------------------------------------------------------------- Throw-up

THR = rules.get("throw_up")


def test_thr10_reason_a_tie_for_the_fewest_tiles_scores_no_one() -> None:
    """[THR-10] a tie for the fewest tiles in hand scores no bonus; the pegs stand
    ([THR-6]); the reason names the tie, the tag and the hand points."""
    match = positions.throw_up(
        ["6-1 5-2 3-2", "5-4 4-3", "2-0 5-0 4-0"], line="6-6", dice=(3, 4, 2), pegs=(0, 2, 1)
    )
    after, _ = THR.apply(match, Move(0, MoveKind.PLAY, Tile(6, 1), end=End.LEFT))
    result = after.history[-1]
    assert result.counts == (2, 2, 3) and result.winners == (0, 1)  # the tie happened
    assert THR.score(after).reasons == (
        "Blocked: no tile in any hand matches either end [THR-9]; seats 0 and 1 tie for the "
        "fewest tiles in hand, 2 each, and a tie scores no one [THR-10]. Hand points, with "
        "those pegged for tiles laid [THR-6]: seat 0 1, seat 1 2 and seat 2 1.",
    )


# --------------------------------------------------------------------------- Tiu U

TU = rules.get("tiu_u")


def test_tu10_reason_equal_highest_counts_collect_and_pay_each_other_nothing() -> None:
    """[TU-10] equal highest counts each collect the difference from every lower seat and
    pay each other nothing: the reason says so, with the tag."""
    match = positions.tiu_u([""] * 3, "5-5", "1-1", catches=["6-5 6-5", "6-5 6-5", "5-5 4-1"])
    after, _ = TU.apply(match, Move(0, MoveKind.PASS))
    result = after.history[-1]
    assert result.counts == (44, 44, 30) and result.winners == (0, 1)  # the tie happened
    assert TU.score(after).reasons == (
        "The woodpile is exhausted [TU-8]: seats 0 and 1 tie for the highest count, 44 each: "
        "each collects the difference from every lower seat, 14 in all, and they pay each "
        "other nothing [TU-10]. Catch counts [TU-9]: seat 0 44, seat 1 44 and seat 2 30.",
    )
