"""Move suggestions from one seat's view: the levels, the search and the API.

:func:`suggest` is the whole API. It reads the view of the seat to act, the ruleset, its
options and the player count, all public, and nothing else: a view holds no state and no
seed, so what a seat cannot see cannot reach the bot.

* ``RANDOM``: a uniform legal move.
* ``GREEDY``: the ruleset's heuristic, a function of the view (each game bot's
  docstring says what it is).
* ``STRONG``: determinized Monte Carlo (a rollout algorithm on sampled worlds).

  - *Worlds*: whole matches that agree with the view (:mod:`.worlds`), the tiles the
    seat cannot see dealt at random consistently with what it knows, and every later
    deal or throw drawn from the bot's own seed.
  - *Candidates*: the GREEDY heuristic's favourite moves, at most
    :attr:`GameBot.candidates` of them (8 in Tsair Deng and One Arm Joe, 4 in Tiu U and
    Throw-up); the other legal moves are not searched.
  - *Playouts*: a candidate is played in a world, then the hand is played out to its end
    by the GREEDY heuristic for every seat (seen from that seat's own hand in the
    world), and scored. Every candidate is played in the same worlds (common random
    numbers: the same hidden tiles, the same later deals and throws), so candidates are
    compared on equal terms. Playouts run the rules themselves
    (:class:`~.dealing.HandPlayouts`: :meth:`Ruleset.play_hand`, the game's own hooks);
    what depends on the view only (the hidden pool, Tsair Deng's reachable layouts, the
    fabricated history) is prepared once per suggestion (:func:`~.worlds.world_sampler`).
  - *Budget*: ``playouts`` in all (by default :attr:`GameBot.playouts`: 200, 100 in
    Block and Dancing Dragons, 80 in Tiu U and 60 in Throw-up, set so that a suggestion
    costs about the same CPU in every game, see ``bench/bots.py``; a budget in
    playouts, not in time, keeps the answer the same on any machine), spent by
    sequential halving: in each of ``ceil(log2(candidates))`` rounds, every candidate
    still in the running gets the same share of what is left, then the better half goes
    on; the GREEDY move always goes on.
  - *Choice*: the candidate with the best mean utility, if it beats the GREEDY move by
    :data:`SWITCH_Z` standard errors of their difference, world by world; otherwise
    the GREEDY move (the search leaves the heuristic only on evidence).

**The value of an estimate** is the move's expected *share of the win* (0 to 1), in every
ruleset: a playout scores ``1/k`` when the seat is one of ``k`` seats with the best match
total at the end of the hand (the highest total, or in Tsair Deng the lowest), else 0.
When the hand ends the match, that is the match's result exactly; when the match goes
on, it is the standing the hand leaves. The best total of the hand is that of:

* One Arm Joe: the hand's winner scores the pips left in the other hands ``[OAJ-9]``;
* Tsair Deng: a hand scores the pips discarded, doubled when another player discarded
  nothing, fewest winning ``[TD-8]`` ``[TD-10]``;
* Tiu U: a hand scores the catch count ``[TU-9]``, highest winning ``[TU-10]``;
* Throw-up: the pegs plus the bonus for the fewest tiles ``[THR-6]`` ``[THR-10]``.

The search's *utility* of a playout is its worth towards the match:

* when the hand ends the match (:meth:`GameBot.hands_after` is 0: a one-hand match, the
  last hand, a total past the target), the share of the win plus the seat's margin over
  the best other total as a soft sign ``m / (|m| + s)`` (``s`` =
  :attr:`GameBot.margin_scale`, a typical margin) times :attr:`GameBot.margin_weight`
  (0.1 in One Arm Joe and Tsair Deng, 0.5 in Throw-up, 1 in Tiu U, whose catch counts
  say more than who won): points break the ties of shares, and lose less when the hand
  is lost;
* otherwise the chance that the margin holds: ``Phi(m / (spread * sqrt(h)))`` (``Phi``
  the standard normal distribution) for ``h`` hands still to play, each hand's margin
  taken as a normal draw of that spread (:attr:`GameBot.hand_spread`, measured: 27
  points in One Arm Joe, 19 in Tsair Deng, 106 in Tiu U, 6.7 in Throw-up). Who leads
  after the first of four hands matters less than by how much.

An estimate's ``value`` is the plain share of the win at the end of the hand. The
estimates list every legal move once, best first: the move suggested, then the other
moves the search played by their mean utility, highest first (a value may be above the
one before it: the utility also weighs the margin and the hands to come), then the
moves it did not play; ties go in the order of the view's legal moves.

A forced move (the only legal move, such as a draw, a pass or ``NEXT_HAND``) is
suggested at once at every level: STRONG's estimate for it has ``playouts == 0`` and
``value`` 0.0, which says nothing; so has every move the search did not play.

**Determinism.** Every choice comes from one generator seeded with SHA-256 of the
ruleset id, the options, the player count, the level, the view's ``repr`` and the
``seed`` given (if any): the same view, options and seed give the same suggestion.
"""

from __future__ import annotations

import enum
import hashlib
import math
import operator
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..rules import Move, Ruleset, Status, View
from .dealing import GameBot, HandPlayouts
from .worlds import NoWorldError, bot_for, world_sampler

__all__ = [
    "DEFAULT_PLAYOUTS",
    "MAX_PLAYOUTS",
    "SWITCH_Z",
    "BotArgumentError",
    "BotError",
    "Estimate",
    "Level",
    "MatchOverError",
    "MismatchError",
    "NoTurnError",
    "NotToActError",
    "PlayoutsError",
    "SearchError",
    "SearchStopped",
    "Suggestion",
    "UnknownLevelError",
    "default_playouts",
    "suggest",
]

#: STRONG's playouts per suggestion when none is given, in most rulesets;
#: :func:`default_playouts` gives each ruleset's.
DEFAULT_PLAYOUTS = 200
#: The largest budget a caller may ask for.
MAX_PLAYOUTS = 20_000
#: The search leaves the GREEDY move only for a move better by this many standard errors.
SWITCH_Z = 1.0


class BotError(ValueError):
    """No suggestion was made. Each cause is a subclass, so that a caller tells its own
    mistake from what the game allows and from what the bot could not do:

    * :class:`BotArgumentError`: an argument that is wrong whatever the game (an unknown
      level, :class:`UnknownLevelError`; a budget out of range, :class:`PlayoutsError`;
      a seed that is not text);
    * :class:`NoTurnError`: the view has no move to suggest (:class:`MatchOverError`,
      :class:`NotToActError`);
    * :class:`MismatchError`: the ruleset, options, players and view do not belong
      together, or no world agrees with the view (:class:`~.worlds.NoWorldError`);
    * :class:`SearchError`: the search itself went wrong (a bug of the bot).
    """


class BotArgumentError(BotError):
    """An argument of :func:`suggest` that is wrong whatever the game."""


class UnknownLevelError(BotArgumentError):
    """A level that is not a :class:`Level`."""


class PlayoutsError(BotArgumentError):
    """A budget that is not an integer from 1 to :data:`MAX_PLAYOUTS`."""


class NoTurnError(BotError):
    """The view is not of a seat with a move to make."""


class MatchOverError(NoTurnError):
    """The match is over: no seat is to act."""


class NotToActError(NoTurnError):
    """The view is of a spectator or of a seat that is not to act."""


class MismatchError(BotError):
    """The ruleset, options, player count and view do not belong together: no bot plays
    the ruleset, options of another ruleset, a player count it does not seat, a view of
    another table or without a legal move, or a view that no deal of the hidden tiles
    agrees with (the :class:`~.worlds.NoWorldError` is its ``__cause__``)."""


class SearchError(BotError):
    """STRONG's search went wrong on a view it was given in order: a bug of the bot."""


class SearchStopped(Exception):
    """STRONG's search gave up because its ``stop`` said so (the caller's deadline)."""


class Level(enum.Enum):
    """How well the bot plays."""

    RANDOM = "RANDOM"  # a uniform legal move
    GREEDY = "GREEDY"  # the ruleset's heuristic
    STRONG = "STRONG"  # determinized Monte Carlo search


@dataclass(frozen=True, slots=True)
class Estimate:
    """What the search found of one legal move: its expected share of the win and the
    playouts behind it (0: not searched, the value says nothing)."""

    move: Move
    value: float
    playouts: int


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The move suggested; for STRONG, one estimate per legal move, best first: the move
    suggested, then the other moves the search played by their mean utility, then the
    moves it did not play; ties in the order of the view's legal moves."""

    move: Move
    estimates: tuple[Estimate, ...] = ()


def suggest(
    ruleset: Ruleset[Any, Any],
    options: Any,
    players: int,
    view: View,
    level: Level,
    *,
    seed: str | None = None,
    playouts: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> Suggestion:
    """The move ``level`` suggests to the seat whose ``view`` this is.

    ``view`` must be of the seat to act (``view.seat == view.to_act``) with at least one
    legal move; ``options`` and ``players`` are the match's. ``seed`` (optional) varies the
    choice; without it the seed is the view itself. ``playouts`` is STRONG's budget, 1 to
    :data:`MAX_PLAYOUTS` (default :func:`default_playouts`); every legal move gets at least
    one playout, so a budget below the number of moves is exceeded. Raises a
    :class:`BotError` for a request it cannot answer, of the class of its cause.

    ``stop`` (optional) is asked before every playout; once it answers true the search
    gives up with :class:`SearchStopped` (the caller's deadline has passed: an answer cut
    short would not be the same for the same request, so there is none).
    """
    if not isinstance(level, Level):
        raise UnknownLevelError(
            f"unknown level {level!r}; the levels are {[m.name for m in Level]}"
        )
    if playouts is not None and (type(playouts) is not int or not 1 <= playouts <= MAX_PLAYOUTS):
        raise PlayoutsError(
            f"playouts must be an integer from 1 to {MAX_PLAYOUTS}, not {playouts!r}"
        )
    if seed is not None and type(seed) is not str:
        raise BotArgumentError(f"the seed must be text, not {seed!r}")
    bot = _checked(ruleset, options, players, view)
    budget = bot.playouts if playouts is None else playouts
    legal = view.legal_moves
    rng = random.Random(_seed(ruleset, options, players, view, level, seed))
    if level is Level.RANDOM:
        return Suggestion(legal[rng.randrange(len(legal))])
    if level is Level.GREEDY:
        return Suggestion(bot.greedy(view, options))
    if len(legal) == 1:
        return Suggestion(legal[0], (Estimate(legal[0], 0.0, 0),))
    try:
        return _search(bot, ruleset, options, players, view, rng, budget, stop)
    except NoWorldError as exc:
        raise MismatchError(str(exc)) from exc


def default_playouts(ruleset: Ruleset[Any, Any]) -> int:
    """STRONG's playouts per suggestion in ``ruleset`` when the request names none
    (:data:`DEFAULT_PLAYOUTS`, or the ruleset's own: :attr:`GameBot.playouts`)."""
    bot = bot_for(ruleset) if isinstance(ruleset, Ruleset) else None
    return bot.playouts if bot is not None else DEFAULT_PLAYOUTS


def _checked(ruleset: Ruleset[Any, Any], options: Any, players: int, view: View) -> GameBot:
    """The game bot, once the request is known to be one it can answer."""
    bot = bot_for(ruleset) if isinstance(ruleset, Ruleset) else None
    if bot is None:
        raise MismatchError(f"no bot plays {ruleset!r}")
    if type(options) is not ruleset.options_type:
        raise MismatchError(f"options must be {ruleset.options_type.__name__}, not {options!r}")
    low, high = ruleset.player_range(options)
    if type(players) is not int or not low <= players <= high:
        raise MismatchError(f"{ruleset.name} takes {low} to {high} players, not {players!r}")
    if not isinstance(view, View):
        raise MismatchError(f"a suggestion is made from a View, not a {type(view).__name__}")
    if view.status is Status.MATCH_OVER:
        raise MatchOverError("the match is over: no seat is to act and no move is legal")
    if view.seat is None or view.seat != view.to_act:
        raise NotToActError(
            f"the view must be of the seat to act (seat {view.to_act}), not of "
            + ("a spectator" if view.seat is None else f"seat {view.seat}")
        )
    if not view.legal_moves:
        raise MismatchError(f"seat {view.seat} has no legal move in this view")
    if len(view.hand_sizes) != players:
        raise MismatchError(f"the view is of a {len(view.hand_sizes)}-player match, not {players}")
    return bot


def _seed(
    ruleset: Ruleset[Any, Any],
    options: Any,
    players: int,
    view: View,
    level: Level,
    seed: str | None,
) -> int:
    text = "\x00".join(
        (ruleset.id, repr(options), str(players), level.value, repr(view), seed or "")
    )
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


@dataclass(slots=True)
class _Tally:
    """One move's playouts: the utility of each, by world, and the shares summed."""

    utilities: list[float] = field(default_factory=list)
    shares: float = 0.0

    def mean(self) -> float:
        return statistics.fmean(self.utilities) if self.utilities else -math.inf


def _search(
    bot: GameBot,
    ruleset: Ruleset[Any, Any],
    options: Any,
    players: int,
    view: View,
    rng: random.Random,
    budget: int,
    stop: Callable[[], bool] | None = None,
) -> Suggestion:
    """STRONG: sequential halving over the legal moves (see the module docstring)."""
    legal = view.legal_moves
    seat = view.seat
    assert seat is not None
    worlds: list[tuple[HandPlayouts, tuple[Move, ...], tuple[int, ...]]] = []
    sample_world = world_sampler(ruleset, options, players, view)

    def world(j: int) -> tuple[HandPlayouts, tuple[Move, ...], tuple[int, ...]]:
        while len(worlds) <= j:
            match = sample_world(rng)
            if worlds:
                moves = worlds[0][1]  # every world gives the seat its view, legal moves too
            else:
                # a world is made to give the seat exactly its view: the first world of
                # each search is held to it (a bug of the bot otherwise), and its moves,
                # equal to every world's, are the ones the others play
                moves = ruleset.legal_moves(match)
                if moves != legal:
                    raise SearchError(
                        f"a sampled world's legal moves differ from the view's: {moves}"
                    )
            before = [0] * players  # the match totals before this hand
            for result in match.history:
                for s, points in enumerate(result.points):
                    before[s] += points
            worlds.append((HandPlayouts(bot, match), moves, tuple(before)))
        return worlds[j]

    ranking = bot.ranking(view, options)
    greedy = ranking[0]
    tallies = [_Tally() for _ in legal]
    alive = sorted(ranking[: bot.candidates])
    rounds = max(1, (len(alive) - 1).bit_length())
    value = _valuer(bot, ruleset, options, players, view.hand_number, seat)
    add = operator.add
    spent = 0
    for round_number in range(rounds):
        each = max(1, (budget - spent) // (len(alive) * (rounds - round_number)))
        for c in alive:
            tally = tallies[c]
            utilities = tally.utilities
            done = len(utilities)
            for j in range(done, done + each):
                if stop is not None and stop():
                    raise SearchStopped("the search was stopped before its budget was spent")
                rollouts, moves, before = worlds[j] if j < len(worlds) else world(j)
                # the match totals the playout leaves, and what they are worth
                share, utility = value(list(map(add, before, rollouts.play(moves[c]))))
                tally.shares += share
                utilities.append(utility)
            spent += each
        if round_number < rounds - 1:
            # the better half goes on, and the GREEDY move always does
            ranked = sorted(alive, key=lambda c: (-tallies[c].mean(), c))
            alive = sorted(set(ranked[: (len(alive) + 1) // 2]) | {greedy})
    chosen = min(alive, key=lambda c: (-tallies[c].mean(), c))
    if chosen != greedy and not _better(tallies[chosen], tallies[greedy]):
        chosen = greedy
    # best first: the move chosen, then by mean utility; moves not played last
    order = sorted(
        range(len(legal)),
        key=lambda c: (c != chosen, not tallies[c].utilities, -tallies[c].mean(), c),
    )
    estimates = tuple(
        Estimate(legal[c], _value(tallies[c]), len(tallies[c].utilities)) for c in order
    )
    return Suggestion(legal[chosen], estimates)


def _value(tally: _Tally) -> float:
    """An estimate's value: the mean share of the win (0.0 for a move not played)."""
    return tally.shares / len(tally.utilities) if tally.utilities else 0.0


def _better(tally: _Tally, greedy: _Tally) -> bool:
    """Is ``tally``'s move better than the GREEDY move by :data:`SWITCH_Z` standard errors
    of their difference, world by world (both were played in the same worlds)?"""
    n = min(len(tally.utilities), len(greedy.utilities))
    diffs = [a - b for a, b in zip(tally.utilities[:n], greedy.utilities[:n], strict=True)]
    mean = statistics.fmean(diffs)
    if mean <= 0:
        return False
    if n < 2:
        return SWITCH_Z <= 0
    return mean * math.sqrt(n) > SWITCH_Z * statistics.stdev(diffs)


def _valuer(
    bot: GameBot,
    ruleset: Ruleset[Any, Any],
    options: Any,
    players: int,
    hand_number: int,
    seat: int,
) -> Callable[[list[int]], tuple[float, float]]:
    """What a playout is worth to the search (see the module docstring), as a function
    of the match totals it leaves: ``(share, utility)``, the seat's share of the win and
    the utility. The utility is the share and a soft sign of the margin over the best
    other total when the hand ends the match, the chance that the margin holds over the
    hands to come otherwise. What depends on the search only is read once."""
    low_wins = ruleset.low_wins
    hands_after = bot.hands_after
    weight, scale = bot.margin_weight, bot.margin_scale
    erf, sqrt = math.erf, math.sqrt

    def value(totals: list[int]) -> tuple[float, float]:
        own = totals[seat]
        others = totals[:seat] + totals[seat + 1 :]
        if low_wins:
            best_total, margin = min(totals), min(others) - own
        else:
            best_total, margin = max(totals), own - max(others)
        share = 1.0 / totals.count(best_total) if own == best_total else 0.0
        after = hands_after(options, players, hand_number, totals)
        if after <= 0:
            return share, share + weight * margin / (abs(margin) + scale)
        # the margins of the hands to come as independent normal draws
        return share, 0.5 * (1.0 + erf(margin / (bot.hand_spread * sqrt(2.0 * after))))

    return value
