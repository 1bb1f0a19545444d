"""Fair bots: a move suggestion that sees only what its seat sees.

Pure game logic like the rules core: no protobuf, no I/O, no clocks; it imports only
:mod:`domino_rules.rules` and the standard library.

The API is :func:`suggest` (in :mod:`.engine`)::

    suggest(ruleset, options, players, view, Level.STRONG, seed=None, playouts=None)
        -> Suggestion(move, estimates)

and :func:`default_playouts` (STRONG's budget in a ruleset when a request names none).
It raises a :class:`BotError` of the class of its cause (:class:`BotArgumentError`,
:class:`NoTurnError`, :class:`MismatchError`, :class:`SearchError`; see
:class:`BotError`), as a caller may tell its own mistake from the bot's.

For example, the first hand of a 2-player Tsair Deng match, where the leader may lead
any tile and leave either half open:

>>> from domino_rules import rules
>>> from domino_rules.bots import Level, suggest
>>> tsair_deng = rules.get("tsair_deng")
>>> options = tsair_deng.make_options({"hands": 1})
>>> match = tsair_deng.new_match(options, 2, "example")
>>> view = tsair_deng.view(match, tsair_deng.to_act(match))
>>> suggestion = suggest(tsair_deng, options, 2, view, Level.STRONG, playouts=40)
>>> suggestion.move in view.legal_moves
True
>>> suggestion.estimates[0].move == suggestion.move  # every legal move, best first
True
>>> sorted(str(e.move) for e in suggestion.estimates) == sorted(map(str, view.legal_moves))
True
>>> suggestion == suggest(tsair_deng, options, 2, view, Level.STRONG, playouts=40)
True

**Fair by construction.** The bot is given the view of the seat to act, the ruleset, the
options and the player count, all of which that seat knows, and nothing else: a
:class:`~domino_rules.rules.View` holds no state and no seed, so no hidden tile and no
future deal or throw can reach the bot. Where the bot needs the hidden tiles (STRONG), it
deals them itself, at random, consistently with what the seat knows: its hand, every
public tile of the table, the sizes of the hands and of the stock, and what the rules let
it infer (the sampling of each game is described in its bot, the ``bot`` module of its
package in :mod:`domino_rules.games`; the worlds in :mod:`.worlds`). The
future deals and dice of those worlds come from the bot's own generator.

**Levels** (:class:`Level`): ``RANDOM`` a uniform legal move; ``GREEDY`` a per-ruleset
heuristic; ``STRONG`` determinized Monte Carlo search (:mod:`.engine`), whose estimates
are each legal move's expected share of the win, best first (the move suggested first).

**What the view does not carry.** A view holds the events of the last move only, so the
bot infers from the last move (a seat that drew had nothing to play) but not from the
ones before. These public facts (every seat at the table saw them happen) would let the
sampler use the whole hand. None is in a state or a view yet; this is how each would be
carried: a field of the hand state, set to its empty value when a hand is dealt, updated
by ``hand_apply`` as below, checked by ``check_hand_state`` against the hands (no seat
holds what it is known not to hold), and copied into the ruleset's table for every
viewer, spectators included:

* One Arm Joe, ``voids: tuple[tuple[int, ...], ...]`` in ``OneArmJoeHandState`` and
  ``OneArmJoeTable``: per seat, ascending, the pips that seat holds no tile of. A
  ``DRAW`` by seat ``s`` on open end ``e`` that kept ``k`` tiles sets ``voids[s]`` to
  ``(e,)`` when ``k > 0`` (a kept tile may hold any pip but ``e``) and adds ``e`` when
  ``k == 0``; a ``PASS`` on ``e`` (bonus turn or empty boneyard) adds ``e``; a ``PLAY``
  leaves it (a hand only shrinks).
* Tsair Deng, ``voids: tuple[tuple[int, ...], ...]`` in ``TsairDengHandState`` and
  ``TsairDengTable``, used under ``must_play_if_able`` only: a ``DISCARD`` by ``s`` on
  open half ``o`` adds ``o`` (hands only shrink, so it stays true).
* Tiu U, ``excluded: tuple[tuple[Tile, ...], ...]`` in ``TiuUHandState`` and
  ``TiuUTable``: per seat, ascending and distinct, the tiles that seat holds none of.
  A ``PASS`` by ``s`` when ``may_decline`` is off adds every tile of the set that matches
  ``[TU-3]`` a lake tile of that hand step, and every piled tile (hands only shrink).
* Throw-up, ``stuck: tuple[Stuck | None, ...]`` in ``ThrowUpHandState`` and
  ``ThrowUpTable``, with ``Stuck(totals: tuple[int, ...], left: int | None,
  right: int | None, drawn: int)``: per seat, the last time it could lay nothing, that
  is no tile of its hand had a total among ``totals`` (the qualifying totals of the
  dice then) and matched ``left`` or ``right`` (the ends then; ``None`` before the first
  tile, when every qualifying tile could be laid), except at most ``drawn`` tiles drawn
  since. A ``DRAW`` by ``s`` sets ``Stuck(totals, left, right, 1)``; a ``PASS``, or the
  end of a turn in which ``s`` laid (``TURN_PASSED``), sets it with ``drawn = 0``; a
  later ``DRAW`` replaces it; a ``PLAY`` leaves it (a hand that only shrinks stays
  stuck).
* Throw-up, ``laid_this_round: bool`` in ``ThrowUpTable``: the state has it (it decides
  whether the round ends idle, ``[THR-9]``), the view does not; the bot infers it where
  it can and otherwise guesses (see Throw-up's bot).

Tsair Deng's covered tiles stay out of every view on purpose (the memory element,
``[TD-6]``): the bot samples them, as a player who forgot would.
"""

from __future__ import annotations

from .engine import (
    DEFAULT_PLAYOUTS,
    MAX_PLAYOUTS,
    BotArgumentError,
    BotError,
    Estimate,
    Level,
    MatchOverError,
    MismatchError,
    NotToActError,
    NoTurnError,
    PlayoutsError,
    SearchError,
    SearchStopped,
    Suggestion,
    UnknownLevelError,
    default_playouts,
    suggest,
)

__all__ = [
    "DEFAULT_PLAYOUTS",
    "MAX_PLAYOUTS",
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
