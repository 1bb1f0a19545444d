"""The test cases of each ruleset, declared once.

Every test that runs over the registered rulesets (``rules.all_rulesets()``) reads its
cases here, through :func:`cases_for`: the conformance test, the hidden-information
and checkable-deal tests, whole matches through the doors, and the token tests. A
ruleset registered without an entry in :data:`CASES` fails those tests loudly (and
``test_conformance.test_every_registered_ruleset_declares_its_cases`` says why); an id
declared here but not registered fails too.

Options are written as RULES.md names them, which is also how ``make_options`` and the
proto3 JSON of ``NewGame`` take them (``{"tile_set": "DOUBLE_SIX"}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .support import redeal, visibility
from .support.redeal import Redealer
from .support.visibility import Judge

__all__ = ["CASES", "DealCase", "RulesetCases", "Setup", "cases_for"]


@dataclass(frozen=True)
class Setup:
    """Matches to start: how many players, which options, and their seeds."""

    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    seeds: tuple[str, ...] = ()


@dataclass(frozen=True)
class DealCase:
    """A match played to the end through a door, then re-dealt from its revealed seed.

    ``name`` also seeds the choice of moves; ``shows`` are the rarer events the seed is
    known to produce (counts the re-dealer returns), so that a check cannot go vacuous.
    """

    name: str
    players: int
    seed: str
    options: Mapping[str, Any]
    shows: tuple[str, ...]


@dataclass(frozen=True)
class RulesetCases:
    """Everything the generic tests need to know of one ruleset."""

    # -- random matches in process (tests/rules/test_conformance.py)
    #: Values tried for each integer option (others keep their default; every bool and
    #: enum value is tried).
    int_values: Mapping[str, tuple[int, ...]]
    #: Matches played, spread over the option combinations.
    conformance_matches: int
    #: Player counts drawn from (those the options allow).
    players: tuple[int, ...]
    # -- whole matches through the doors (tests/api/test_play.py)
    #: A short match: to MATCH_OVER through each door, and the same through both.
    short: Setup
    # -- state tokens (tests/api/test_tokens_codec.py)
    #: Matches whose every state goes through the codec and the token, and must fit.
    tokens: Setup
    # -- hidden information (tests/api/test_hidden_information.py)
    #: What a seat sees at the table, judged apart from the service.
    judge: Judge
    #: Matches checked after every move: the option combinations that change what is
    #: hidden (set size, tile set, forced play, declining, rethrows), kept short.
    leak_games: tuple[Setup, ...]
    #: Whether the ruleset has private events (a draw into a hand, a face-down discard):
    #: the leak runs must then meet one, so that the redaction check is not vacuous.
    private_events: bool
    # -- checkable deals (tests/api/test_checkable_deals.py)
    #: Re-deals a recorded match from its seed, from the documentation only.
    redeal: Redealer
    #: Matches re-dealt; the first is also played with a seed the server chooses.
    deals: tuple[DealCase, ...]


def _seeds(prefix: str, count: int) -> tuple[str, ...]:
    return tuple(f"{prefix}-{n}" for n in range(count))


def _leak(players: int, options: Mapping[str, Any], prefix: str, count: int) -> Setup:
    return Setup(players, options, _seeds(f"leak-{prefix}", count))


CASES: Mapping[str, RulesetCases] = MappingProxyType(
    {
        "one_arm_joe": RulesetCases(
            int_values={"set_max_pip": (6, 9, 12), "target_score": (0, 50, 100)},
            conformance_matches=1200,
            players=tuple(range(2, 10)),
            short=Setup(4, {"target_score": 40}),
            tokens=Setup(9, {}, _seeds("rt", 3)),
            judge=visibility.ONE_ARM_JOE,
            leak_games=(
                _leak(2, {"target_score": 0}, "oaj2", 4),
                _leak(3, {"target_score": 30, "lead_double_bonus": True}, "oaj3", 3),
                _leak(4, {"target_score": 0, "set_max_pip": 9}, "oaj4", 3),
                _leak(6, {"target_score": 0, "set_max_pip": 12}, "oaj6", 2),
                _leak(9, {"target_score": 0}, "oaj9", 2),
            ),
            private_events=True,
            redeal=redeal.redeal_one_arm_joe,
            deals=(
                DealCase(
                    "one_arm_joe", 2, "check-one_arm_joe-0", {"target_score": 30}, ("redeals",)
                ),
            ),
        ),
        "throw_up": RulesetCases(
            int_values={"hands_per_player": (1, 2)},
            conformance_matches=300,
            players=(2, 3),
            short=Setup(3, {"hands_per_player": 1}),
            tokens=Setup(3, {}, _seeds("rt", 3)),
            judge=visibility.THROW_UP,
            leak_games=(
                _leak(2, {"hands_per_player": 1}, "thr2", 5),
                _leak(3, {"hands_per_player": 1, "rethrow_repeats": True}, "thr3", 4),
            ),
            private_events=True,
            redeal=redeal.redeal_throw_up,
            deals=(
                # a tied throw-off, and a repeated round throw kept
                DealCase(
                    "throw_up",
                    3,
                    "check-throw_up-20",
                    {"hands_per_player": 1},
                    ("throw-off rethrows", "repeats kept"),
                ),
                # a repeated round throw thrown again
                DealCase(
                    "throw_up_rethrow",
                    3,
                    "check-throw_up_rethrow-0",
                    {"hands_per_player": 1, "rethrow_repeats": True},
                    ("rethrows",),
                ),
            ),
        ),
        "tiu_u": RulesetCases(
            int_values={"hands": (1, 2)},
            conformance_matches=300,
            players=(2, 3, 4),
            short=Setup(3, {"hands": 1}),
            tokens=Setup(4, {}, _seeds("rt", 3)),
            judge=visibility.TIU_U,
            leak_games=(
                _leak(2, {"hands": 1}, "tu2", 4),
                _leak(3, {"hands": 2, "may_decline": True}, "tu3", 2),
                _leak(4, {"hands": 1}, "tu4", 4),
                _leak(4, {"hands": 1, "may_decline": True, "red_sixes": "ALL_SIXES"}, "tu4d", 2),
            ),
            private_events=False,
            redeal=redeal.redeal_tiu_u,
            deals=(
                # a pair of [6-6] laid at a deal
                DealCase("tiu_u", 3, "check-tiu_u-3", {"hands": 2}, ("pairs laid",)),
            ),
        ),
        "tsair_deng": RulesetCases(
            int_values={"hands": (1, 3), "target_score": (0, 120)},
            conformance_matches=300,
            players=(2, 3, 4),
            short=Setup(4, {"hands": 2}),
            tokens=Setup(4, {}, _seeds("rt", 3)),
            judge=visibility.TSAIR_DENG,
            leak_games=(
                _leak(2, {"tile_set": "CHINESE", "hands": 2}, "tdc2", 3),
                _leak(3, {"tile_set": "CHINESE", "hands": 2}, "tdc3", 3),
                _leak(4, {"tile_set": "CHINESE", "hands": 2, "must_play_if_able": True}, "tdc4", 3),
                _leak(2, {"tile_set": "DOUBLE_SIX", "hands": 2}, "td62", 3),
                _leak(3, {"tile_set": "DOUBLE_SIX", "hands": 2}, "td63", 3),
                _leak(
                    4, {"tile_set": "DOUBLE_SIX", "hands": 2, "must_play_if_able": True}, "td64", 3
                ),
            ),
            private_events=True,
            redeal=redeal.redeal_tsair_deng,
            deals=(DealCase("tsair_deng", 3, "check-tsair_deng-0", {"hands": 2}, ("aside",)),),
        ),
        "block": RulesetCases(
            int_values={"set_max_pip": (6, 9), "hand_size": (0, 3), "target_score": (0, 60)},
            conformance_matches=600,
            players=(2, 3, 4, 5),
            short=Setup(4, {"partnership": True, "target_score": 40}),
            tokens=Setup(4, {"draw": True}, _seeds("rt", 3)),
            judge=visibility.BLOCK,
            leak_games=(
                _leak(2, {"target_score": 0}, "blk2", 4),
                _leak(4, {"target_score": 0, "partnership": True}, "blkp", 4),
                _leak(3, {"target_score": 0, "draw": True}, "blkd3", 4),
                _leak(4, {"target_score": 0, "partnership": True, "draw": True}, "blkpd", 3),
                _leak(2, {"target_score": 40, "draw": True, "boneyard_keep": 2}, "blkk", 2),
            ),
            private_events=True,
            redeal=redeal.redeal_block,
            deals=(
                DealCase(
                    "block",
                    2,
                    "check-block-0",
                    {"target_score": 60, "draw": True},
                    (),
                ),
            ),
        ),
        "dancing_dragons": RulesetCases(
            int_values={"hands": (1, 2), "target_score": (0, 60)},
            conformance_matches=300,
            players=(2, 3, 4),
            short=Setup(3, {"hands": 2}),
            tokens=Setup(4, {}, _seeds("rt", 3)),
            judge=visibility.DANCING_DRAGONS,
            leak_games=(
                _leak(2, {"hands": 1}, "dd2", 3),
                _leak(3, {"hands": 2}, "dd3", 3),
                _leak(4, {"hands": 1, "must_play_if_able": False}, "dd4", 3),
            ),
            private_events=True,
            redeal=redeal.redeal_dancing_dragons,
            deals=(DealCase("dancing_dragons", 3, "check-dancing_dragons-0", {"hands": 2}, ()),),
        ),
    }
)


def cases_for(ruleset_id: str) -> RulesetCases:
    """The cases of a registered ruleset; an error naming this file if it has none."""
    try:
        return CASES[ruleset_id]
    except KeyError:
        raise LookupError(
            f"ruleset {ruleset_id!r} is registered but tests/cases.py declares no test cases"
            f" for it (declared: {', '.join(sorted(CASES))})"
        ) from None
