"""The fast playouts Tiu U and Throw-up still keep make the moves of the rules, step by step.

The other games' bots play their playouts through the rules' own hooks
(:meth:`Ruleset.play_hand`), which ``test_rollouts`` compares with the service's path.
Tiu U and Throw-up still play theirs on a compact copy of each world (``GameBot.rollouts``:
lists of tile codes, no ``Match``, no events), a second writing of each game's
transitions kept for speed until their rules are fast enough to be played out directly.
Here that copy and the rules core (``Ruleset.legal_moves`` / ``Ruleset.apply``, the
source of truth) play side by side from random positions: states of seeded random matches
(varied options and player counts, see :data:`SETUPS`), taken at random points, half of
them as they are and half as a world the bot deals from the view of the seat to act. From
each position both play the same random legal move, then every seat plays the GREEDY
heuristic (``GameBot.heuristic`` on the rules' side, the playout's own inlined scoring on
the other) to the end of the hand.

The fast playout returns only the hand's points, so what it decides along the way is
read while it runs (:class:`_Probe`: a trace on its ``play`` function that reads its
locals at a few lines, found by their text, and at the calls of its inner functions).
At every step both must agree on the seat to act, the legal moves (all of them, in the
order of ``legal_moves``, which breaks the heuristic's ties) and the move chosen; and at
the end the hand must end at the same step, with the same points as
``Ruleset.score(...).hand_points``.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import random
import sys
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import pytest

from domino_rules import rules
from domino_rules.bots.dealing import GameBot, Rollouts
from domino_rules.bots.playout import Step, random_match
from domino_rules.bots.worlds import bot_for, sample_world
from domino_rules.games.throw_up import bot as throw_up
from domino_rules.games.tiu_u import bot as tiu_u
from domino_rules.rules import End, Match, Move, MoveKind, Ruleset, Status, Tile

AnyMatch = Match[Any, Any]

#: Per ruleset: (players, options) of the random matches the positions come from.
SETUPS: dict[str, tuple[tuple[int, dict[str, Any]], ...]] = {
    "tiu_u": (
        (2, {"hands": 1}),
        (3, {"hands": 2, "may_decline": True}),
        (4, {"hands": 1, "red_sixes": "ALL_SIXES"}),
        (2, {"hands": 1, "may_decline": True, "red_sixes": "ALL_SIXES"}),
        (3, {"hands": 1}),
    ),
    "throw_up": (
        (2, {"hands_per_player": 1}),
        (3, {"hands_per_player": 1, "rethrow_repeats": True}),
        (2, {"hands_per_player": 2, "rethrow_repeats": True}),
        (3, {"hands_per_player": 1}),
    ),
}
RULESET_IDS = sorted(SETUPS)

#: Positions per ruleset: the default tier, and the slow one.
POSITIONS = 500
SLOW_POSITIONS = 10_000
#: Positions taken from each random match at most.
PER_MATCH = 6


# --------------------------------------------------------------------------- positions


def positions(ruleset_id: str, count: int, prefix: str) -> Iterator[tuple[AnyMatch, Move]]:
    """``count`` positions of ``ruleset_id`` (see the module docstring) with the first move
    both sides play: seeded random matches of each setup in turn, up to :data:`PER_MATCH`
    states each taken at random points, every second one replaced by a world dealt from
    the view of its seat to act."""
    ruleset = rules.get(ruleset_id)
    setups = SETUPS[ruleset_id]
    chooser = random.Random(f"{prefix}/{ruleset_id}")
    made = 0
    for n in itertools.count():
        players, values = setups[n % len(setups)]
        options = ruleset.make_options(values)
        states: list[AnyMatch] = []

        def keep(step: Step, states: list[AnyMatch] = states) -> None:
            if step.before.status is Status.IN_PROGRESS:
                states.append(step.before)

        random_match(ruleset, options, players, f"{prefix}/{ruleset_id}/{n}", observe=keep)
        for i in sorted(chooser.sample(range(len(states)), min(PER_MATCH, len(states)))):
            match = states[i]
            if made % 2:
                seat = ruleset.to_act(match)
                view = ruleset.view(match, seat)
                match = sample_world(ruleset, options, players, view, chooser)
            yield match, chooser.choice(ruleset.legal_moves(match))
            made += 1
            if made == count:
                return


# --------------------------------------------------------------------------- both sides


@dataclass(frozen=True)
class Decision:
    """One step of a playout: the seat to act, the legal moves it listed (of the kinds
    in ``kinds``, or all of them when ``kinds`` is ``None``), and the move chosen."""

    seat: int
    legal: tuple[Move, ...]
    chosen: Move
    kinds: frozenset[MoveKind] | None = None


def core_playout(
    ruleset: Ruleset[Any, Any], bot: GameBot, match: AnyMatch, first: Move
) -> tuple[list[Decision], tuple[int, ...]]:
    """The rules core's playout: ``first``, then the heuristic for every seat (a forced
    move at once, as ``CoreRollouts`` plays it); every step after ``first`` and the
    hand's points."""
    match, _ = ruleset.apply(match, first)
    steps: list[Decision] = []
    while match.status is Status.IN_PROGRESS:
        legal = ruleset.legal_moves(match)
        seat = ruleset.to_act(match)
        assert seat is not None
        chosen = legal[0] if len(legal) == 1 else bot.heuristic(match, legal)
        steps.append(Decision(seat, legal, chosen))
        match, _ = ruleset.apply(match, chosen)
    return steps, ruleset.score(match).hand_points


Handler = Callable[[FrameType], None]


@dataclass
class _Probe:
    """Runs one fast playout under a trace that reads what it decides (see the module
    docstring). A game's probe names the lines of ``play`` to stop at (by their text) and
    the inner functions of ``play`` to see called or returning; each handler reads the
    frame's locals and appends to :attr:`decisions`."""

    playouts: type[Rollouts]
    lines: dict[str, Handler] = field(default_factory=dict)
    #: Lines of other functions the playout calls (the kernel's), by function and text.
    kernel_lines: dict[tuple[Callable[..., Any], str], Handler] = field(default_factory=dict)
    calls: dict[str, Handler] = field(default_factory=dict)
    returns: dict[str, Callable[[FrameType, Any], None]] = field(default_factory=dict)
    decisions: list[Decision] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.play_code = self.playouts.play.__code__
        consts = self.play_code.co_consts
        self.code = {c.co_name: c for c in consts if isinstance(c, types.CodeType)}

    def prepare(self) -> None:
        """Find the lines and inner functions the handlers name (once they are all set)."""
        play, inner = self.playouts.play, self.code
        #: the handlers of each traced function's lines, by line number
        self.at_line: dict[types.CodeType, dict[int, Handler]] = {}
        wanted = [((play, text), handler) for text, handler in self.lines.items()]
        for (function, text), handler in [*wanted, *self.kernel_lines.items()]:
            found = _line_numbers(function).get(text, [])
            assert len(found) == 1, f"{function.__qualname__}: {len(found)} lines {text!r}"
            self.at_line.setdefault(function.__code__, {})[found[0]] = handler
        self.at_call = {inner[name]: h for name, h in self.calls.items()}
        self.at_return = {inner[name]: h for name, h in self.returns.items()}

    def caller_is(self, frame: FrameType, name: str) -> bool:
        back = frame.f_back
        code = self.play_code if name == "play" else self.code[name]
        return back is not None and back.f_code is code

    def run(self, fast: Rollouts, move: Move) -> tuple[int, ...]:
        """``fast.play(move)`` under the trace."""
        self.prepare()
        at_line, at_call, at_return = self.at_line, self.at_call, self.at_return

        def line_tracer(handlers: dict[int, Handler]) -> Any:
            """The local trace of a function whose lines ``handlers`` has, by number."""

            def on_line(frame: FrameType, event: str, arg: Any) -> Any:
                if event == "line":
                    handler = handlers.get(frame.f_lineno)
                    if handler is not None:
                        handler(frame)
                return on_line

            return on_line

        tracers = {code: line_tracer(handlers) for code, handlers in at_line.items()}

        def on_call(frame: FrameType, event: str, arg: Any) -> Any:
            code = frame.f_code
            tracer = tracers.get(code)
            if tracer is not None:
                return tracer
            handler = at_call.get(code)
            if handler is not None:
                handler(frame)
            returned = at_return.get(code)
            if returned is None:
                return None
            frame.f_trace_lines = False

            def on_return(frame: FrameType, event: str, arg: Any) -> Any:
                if event == "return":
                    returned(frame, arg)
                return on_return

            return on_return

        before = sys.gettrace()
        sys.settrace(on_call)
        try:
            return fast.play(move)
        finally:
            sys.settrace(before)


@functools.cache
def _line_numbers(function: Callable[..., Any]) -> dict[str, list[int]]:
    """The numbers of the lines of ``function``'s source, by their text (stripped)."""
    source, first = inspect.getsourcelines(function)
    numbers: dict[str, list[int]] = {}
    for i, line in enumerate(source):
        numbers.setdefault(line.strip(), []).append(first + i)
    return numbers


def _tile(code: int) -> Tile:
    return Tile.from_code(code)


_ENDS = (None, End.LEFT, End.RIGHT)


def throw_up_probe() -> _Probe:
    """``play`` makes each move at the top of its loop (the first is the move given): a
    play of ``tile`` at ``end`` when its bit set ``fitting`` of the tiles the seat could
    lay is not empty, each at every end it matches (``left``, ``right``: the ends then;
    ``-1`` before the first tile), the plays it chose among; otherwise a draw while the
    boneyard (``drawn_at`` of ``stock`` drawn) has tiles, or a pass."""
    probe = _Probe(throw_up._Playouts)
    started = [False]

    def given() -> bool:
        """Whether this move is the first, given: the playout did not choose it."""
        first = not started[0]
        started[0] = True
        return first

    def play(frame: FrameType) -> None:
        if given():
            return
        local = frame.f_locals
        seat, fitting, left, right = local["seat"], local["fitting"], local["left"], local["right"]
        kind = MoveKind.PLAY
        legal = []
        for t in (t for t in range(fitting.bit_length()) if fitting >> t & 1):
            tile = _tile(t)
            if left < 0:
                legal.append(Move(seat, kind, tile))
                continue
            if tile.has(left):
                legal.append(Move(seat, kind, tile, end=End.LEFT))
            if tile.has(right):
                legal.append(Move(seat, kind, tile, end=End.RIGHT))
        chosen = Move(seat, kind, _tile(local["tile"]), end=_ENDS[local["end"]])
        probe.decisions.append(Decision(seat, tuple(legal), chosen))

    def draw_or_pass(frame: FrameType) -> None:
        if given():
            return
        local = frame.f_locals
        seat = local["seat"]
        assert not local["fitting"], "a draw or a pass with tiles to lay"
        kind = MoveKind.DRAW if local["drawn_at"] < local["stock"] else MoveKind.PASS
        probe.decisions.append(Decision(seat, (Move(seat, kind),), Move(seat, kind)))

    probe.lines["if end == 1:"] = play
    probe.lines["elif drawn_at < stock:"] = draw_or_pass
    return probe


def tiu_u_probe(may_decline: bool) -> _Probe:
    """``play`` inlines the hand step: it starts where ``choice`` is reset, lists each
    capture where ``piled_target`` is set and each pile where its key is, calls
    ``capture`` or ``pile`` for the move chosen (none: a pass) and ends at the call of
    ``draw``. In the draw step, a drawn tile whose ``targets`` are more than one is a
    ``CAPTURE_DRAWN`` choice, the ``capture`` that ``draw`` calls."""
    probe = _Probe(tiu_u._Playouts)
    step: dict[str, Any] = {"on": False}
    drawn: dict[str, Any] = {"targets": ()}

    def start(frame: FrameType) -> None:
        step.update(on=True, seat=frame.f_locals["seat"], legal=[], chosen=None)

    def capture_listed(frame: FrameType) -> None:
        local = frame.f_locals
        move = Move(step["seat"], MoveKind.CAPTURE, _tile(local["tile"]), _tile(local["target"]))
        step["legal"].append(move)

    def pile_listed(frame: FrameType) -> None:
        step["legal"].append(Move(step["seat"], MoveKind.PILE, _tile(frame.f_locals["tile"])))

    def capture(frame: FrameType) -> None:
        local = frame.f_locals
        seat, tile, target = local["seat"], _tile(local["tile"]), _tile(local["target"])
        if probe.caller_is(frame, "play"):
            if step["on"]:
                step["chosen"] = Move(seat, MoveKind.CAPTURE, tile, target)
        elif len(drawn["targets"]) > 1:
            kind = MoveKind.CAPTURE_DRAWN
            legal = tuple(Move(seat, kind, tile, _tile(t)) for t in drawn["targets"])
            probe.decisions.append(Decision(seat, legal, Move(seat, kind, tile, target)))

    def pile(frame: FrameType) -> None:
        if step["on"]:
            step["chosen"] = Move(step["seat"], MoveKind.PILE, _tile(frame.f_locals["tile"]))

    def draw(frame: FrameType) -> None:
        drawn["targets"] = ()
        if not step["on"]:
            return  # after the first move, given
        seat, legal = step["seat"], step["legal"]
        if not legal or may_decline:
            legal.append(Move(seat, MoveKind.PASS))
        chosen = step["chosen"] or Move(seat, MoveKind.PASS)
        probe.decisions.append(Decision(seat, tuple(legal), chosen))
        step["on"] = False

    def targets(frame: FrameType, found: Any) -> None:
        if probe.caller_is(frame, "draw"):
            drawn["targets"] = tuple(found)

    probe.lines.update(
        {
            "choice, choice_key, choice_target = -1, -1.0e9, -1": start,
            "piled_target = target == tile and piled[tile]": capture_listed,
            "key = 3 * fish[tile] if hand.count(tile) >= 2 else -fish[tile]": pile_listed,
        }
    )
    probe.calls.update(capture=capture, pile=pile, draw=draw)
    probe.returns["targets"] = targets
    return probe


def probe_for(ruleset_id: str, options: Any) -> _Probe:
    if ruleset_id == "throw_up":
        return throw_up_probe()
    assert ruleset_id == "tiu_u"
    return tiu_u_probe(options.may_decline)


# --------------------------------------------------------------------------- comparing


def compare(ruleset: Ruleset[Any, Any], match: AnyMatch, first: Move) -> None:
    """Play ``first`` and the hand out both ways from ``match``; fail on the first step
    at which they disagree."""
    bot = bot_for(ruleset)
    assert bot is not None
    expected, points = core_playout(ruleset, bot, match, first)
    probe = probe_for(ruleset.id, match.options)
    fast = bot.rollouts(match)
    got = probe.run(fast, first)

    def where(step: int | None = None) -> str:
        """The position, for a failure's message only: a match's repr is long, and an
        assertion's message is made only when it fails."""
        at = f"{ruleset.id}: from {match!r} after {first}"
        return at if step is None else f"{at}, step {step}"

    for n, (core, seen) in enumerate(zip(expected, probe.decisions, strict=False), 1):
        assert seen.seat == core.seat, (
            f"{where(n)}: seat {seen.seat} to act, the rules say {core.seat}"
        )
        listed = core.legal
        if seen.kinds is not None:
            listed = tuple(m for m in core.legal if m.kind in seen.kinds)
            assert seen.legal, f"{where(n)}: no legal move listed of {core.legal}"
        assert seen.legal == listed, f"{where(n)}: legal {seen.legal}, the rules say {listed}"
        assert seen.chosen == core.chosen, (
            f"{where(n)}: chose {seen.chosen}, the rules {core.chosen}"
        )
    assert len(probe.decisions) == len(expected), (
        f"{where()}: the playout ended after {len(probe.decisions)} steps, the rules after "
        f"{len(expected)}"
    )
    assert got == points, f"{where()}: points {got}, the rules say {points}"
    assert fast.play(first) == points, f"{where()}: a second playout differs"


def compare_positions(ruleset_id: str, count: int, prefix: str) -> None:
    ruleset = rules.get(ruleset_id)
    played = 0
    for match, first in positions(ruleset_id, count, prefix):
        compare(ruleset, match, first)
        played += 1
    assert played == count


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_fast_playouts_make_the_moves_of_the_rules(ruleset_id: str) -> None:
    compare_positions(ruleset_id, POSITIONS, "playouts")


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_fast_playouts_make_the_moves_of_the_rules_at_many_positions(ruleset_id: str) -> None:
    compare_positions(ruleset_id, SLOW_POSITIONS, "playouts-slow")
