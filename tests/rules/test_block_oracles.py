"""Block checked against implementations nobody here wrote: OpenSpiel's
``python_block_dominoes`` and ``python_team_dominoes``, and the ``dominoes`` library
(6.1.0), each played in lockstep with the ruleset under its profile (RULES.md, "Profiles").

* The same deal: handed to OpenSpiel through its chance actions (block: seven tiles to
  player 0, then seven to player 1; team: one tile at a time round the table), to the
  library as its hands.
* At every decision the legal moves are compared, as (tile, the number it covers); where
  both ends show one number this service has two moves (``LEFT``, ``RIGHT``) and the
  others one, and a player who cannot play ``PASS``\\ es here where the others skip them
  ``[BLK-5]`` ``[BLK-7]``.
* At the end: OpenSpiel's returns are each side's hand score less the other side's; the
  library's ``Result.points`` is the score of seats 0 and 2 less that of seats 1 and 3,
  and its series scores are the match totals of seats 0 and 1 ``[BLK-10]`` ``[BLK-11]``
  ``[BLK-12]`` ``[BLK-13]``.

OpenSpiel's own unit tests (their deals, moves and returns) are replayed as golden tests,
read from the test files OpenSpiel ships, and so are its playthroughs of the two games
(their deals and actions, kept in ``openspiel_playthroughs.json``).
"""

from __future__ import annotations

import ast
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domino_rules.games.block.rules import BlockHandState
from domino_rules.rules import Match, Move, MoveKind, Status, Tile
from domino_rules.rules.lines import ends
from domino_rules.rules.moves import End
from domino_rules.rules.registry import get

pyspiel = pytest.importorskip("pyspiel")
dominoes = pytest.importorskip("dominoes")
from open_spiel.python.games import block_dominoes, team_dominoes  # type: ignore[import-untyped]  # noqa: E402

RULES = get("block")
BLOCK_PROFILE = {"first_lead": "ANY_TILE", "domino_wins": False, "target_score": 0}
TEAM_PROFILE = {**BLOCK_PROFILE, "partnership": True}
SERIES_PROFILE = {
    "partnership": True,
    "first_lead": "HIGHEST_DOUBLE",
    "next_lead": "WINNER",
    "scoring": "ALL_PIPS",
    "domino_wins": True,
    "target_score": 200,
}
DEFAULT_MATCHES = 300
SLOW_MATCHES = 10_000


@dataclass
class Tally:
    matches: int = 0
    decisions: int = 0


# ------------------------------------------------------------------ OpenSpiel


def _spiel_tile(tile: Tile) -> tuple[float, float]:
    return (float(tile.low), float(tile.high))


def _our_tile(tile: tuple[float, float]) -> Tile:
    return Tile.of(int(tile[0]), int(tile[1]))


def _covered(match: Match[Any, Any], move: Move) -> int | None:
    """The number a PLAY covers: the end it is laid at (``None`` on the lead)."""
    left, right = ends(match.hand_state.line)
    return None if move.end is None else left if move.end is End.LEFT else right


def _spiel_deal(module: Any, hands: tuple[tuple[Tile, ...], ...]) -> Any:
    game = pyspiel.load_game(module._GAME_TYPE.short_name)
    state = game.new_initial_state()
    if len(hands) == 2:
        order = [tile for hand in hands for tile in hand]
    else:
        order = [hands[s][k] for k in range(len(hands[0])) for s in range(4)]
    for tile in order:
        state.apply_action(module._DECK.index(_spiel_tile(tile)))
    assert not state.is_chance_node()
    return state


def _spiel_moves(module: Any, state: Any) -> set[tuple[Tile, int | None]]:
    out = set()
    for index in state.legal_actions():
        action = module._ACTIONS[index]
        edge = None if action.edge is None else int(action.edge)
        out.add((_our_tile(action.tile), edge))
    return out


def _spiel_action(module: Any, seat: int, tile: Tile, covered: int | None) -> int:
    edge = None if covered is None else float(covered)
    action = module.Action(seat, _spiel_tile(tile), edge)
    return int(module._ACTIONS_STR.index(str(action)))


def lockstep_openspiel(module: Any, options: dict[str, Any], players: int, seed: str) -> int:
    """Play one random match in both; return the decisions compared."""
    match = RULES.new_match(RULES.make_options(options), players, seed)
    state = _spiel_deal(module, match.hand_state.hands)
    chooser = random.Random(seed)
    decisions = 0
    while match.status is Status.IN_PROGRESS:
        legal = RULES.legal_moves(match)
        seat = match.hand_state.to_act
        if legal[0].kind is MoveKind.PASS:
            assert state.current_player() != seat, "OpenSpiel lets a blocked seat move"
            match, _ = RULES.apply(match, legal[0])
            continue
        assert state.current_player() == seat
        ours = {(move.tile, _covered(match, move)) for move in legal}
        assert ours == _spiel_moves(module, state), (seed, decisions)
        decisions += 1
        move = chooser.choice(legal)
        assert move.tile is not None
        action = _spiel_action(module, seat, move.tile, _covered(match, move))
        match, _ = RULES.apply(match, move)
        state.apply_action(action)
    assert state.is_terminal()
    points = match.history[-1].points
    expected = [points[s] - points[(s + 1) % players] for s in range(players)]
    assert [int(r) for r in state.returns()] == expected, seed
    return decisions


@pytest.mark.parametrize(
    ("module", "options", "players"),
    [(block_dominoes, BLOCK_PROFILE, 2), (team_dominoes, TEAM_PROFILE, 4)],
    ids=["python_block_dominoes", "python_team_dominoes"],
)
def test_random_matches_agree_with_openspiel(
    module: Any, options: dict[str, Any], players: int
) -> None:
    """[BLK-4] [BLK-5] [BLK-6] [BLK-7] [BLK-9] [BLK-10] [BLK-11] the profile's matches,
    move by move."""
    tally = Tally()
    for n in range(DEFAULT_MATCHES):
        tally.decisions += lockstep_openspiel(module, options, players, f"os-{players}-{n}")
        tally.matches += 1
    assert tally.decisions > DEFAULT_MATCHES * 5
    print(f"{module.__name__}: {tally.matches} matches, {tally.decisions} decisions, 0 apart")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "options", "players"),
    [(block_dominoes, BLOCK_PROFILE, 2), (team_dominoes, TEAM_PROFILE, 4)],
    ids=["python_block_dominoes", "python_team_dominoes"],
)
def test_ten_thousand_matches_agree_with_openspiel(
    module: Any, options: dict[str, Any], players: int
) -> None:
    """[BLK-5] [BLK-10] the slow tier: 10,000 matches per profile."""
    decisions = sum(
        lockstep_openspiel(module, options, players, f"os-slow-{players}-{n}")
        for n in range(SLOW_MATCHES)
    )
    print(f"{module.__name__}: {SLOW_MATCHES} matches, {decisions} decisions, 0 apart")


# ------------------------------------------------------------------ OpenSpiel's own tests


@dataclass(frozen=True)
class SpielCase:
    name: str
    hands: list[list[tuple[float, float]]]
    actions: list[tuple[int, tuple[float, float], float | None]]
    returns: dict[int, int]


def _spiel_cases(module: Any) -> Iterator[SpielCase]:
    """The deterministic games of OpenSpiel's unit tests for ``module``: the deal, the
    moves and the returns they assert, read from the test file OpenSpiel ships."""
    path = Path(module.__file__).with_name(Path(module.__file__).stem + "_test.py")
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_single")):
            continue
        hands: dict[str, Any] = {}
        actions, returns = [], {}
        for inner in ast.walk(node):
            target = inner.targets[0] if isinstance(inner, ast.Assign) else None
            if isinstance(target, ast.Name) and target.id.startswith("hand"):
                hands[target.id] = ast.literal_eval(inner.value)  # type: ignore[attr-defined]
            if isinstance(inner, ast.Call) and getattr(inner.func, "attr", "") == "Action":
                actions.append(tuple(ast.literal_eval(a) for a in inner.args))
            if isinstance(inner, ast.Call) and getattr(inner.func, "attr", "") == "assertEqual":
                first = inner.args[0]
                if isinstance(first, ast.Subscript) and "returns" in ast.unparse(first):
                    returns[ast.literal_eval(first.slice)] = ast.literal_eval(inner.args[1])
        ordered = [hands[k] for k in sorted(hands)]
        yield SpielCase(node.name, ordered, sorted(actions, key=lambda a: 0), returns)


def _golden(module: Any, options: dict[str, Any]) -> list[Any]:
    return [pytest.param(module, options, case, id=case.name) for case in _spiel_cases(module)]


@pytest.mark.parametrize(
    ("module", "options", "case"),
    _golden(block_dominoes, BLOCK_PROFILE) + _golden(team_dominoes, TEAM_PROFILE),
)
def test_openspiels_own_games_give_its_returns(
    module: Any, options: dict[str, Any], case: SpielCase
) -> None:
    """[BLK-5] [BLK-7] [BLK-10] [BLK-11] OpenSpiel's unit-test games, move for move, and
    the returns they assert."""
    game = pyspiel.load_game(module._GAME_TYPE.short_name)
    state = game.new_initial_state()
    for hand in case.hands:
        for tile in hand:
            state.apply_action(module._DECK.index(tile))
    players = len(state.hands)
    match = _from_openspiel(state, options)
    for seat, tile, edge in case.actions:
        while RULES.legal_moves(match)[0].kind is MoveKind.PASS:
            match, _ = RULES.apply(match, RULES.legal_moves(match)[0])
        wanted = (_our_tile(tile), None if edge is None else int(edge))
        move = next(m for m in RULES.legal_moves(match) if (m.tile, _covered(match, m)) == wanted)
        assert move.seat == seat
        match, _ = RULES.apply(match, move)
        state.apply_action(module._ACTIONS_STR.index(str(module.Action(seat, tile, edge))))
    assert match.status is Status.MATCH_OVER and state.is_terminal()
    points = match.history[-1].points
    ours = {s: points[s] - points[(s + 1) % players] for s in range(players)}
    assert {s: ours[s] for s in case.returns} == case.returns


# ------------------------------------------------------------------ OpenSpiel's playthroughs

PLAYTHROUGHS = json.loads((Path(__file__).with_name("openspiel_playthroughs.json")).read_text())


@pytest.mark.parametrize(
    ("module", "options"),
    [(block_dominoes, BLOCK_PROFILE), (team_dominoes, TEAM_PROFILE)],
    ids=["python_block_dominoes", "python_team_dominoes"],
)
def test_openspiels_playthroughs_give_their_returns(module: Any, options: dict[str, Any]) -> None:
    """[BLK-4] [BLK-5] [BLK-7] [BLK-10] [BLK-11] the deal and every move of OpenSpiel's
    playthrough of the game, and the returns it ends with ([13, -13]; [20, -20, 20, -20])."""
    record = PLAYTHROUGHS[module._GAME_TYPE.short_name]
    state = pyspiel.load_game(module._GAME_TYPE.short_name).new_initial_state()
    actions = record["actions"]
    deals = [a for a in actions if a.startswith("Deal ")]
    for text in deals:
        high_low = ast.literal_eval(text.removeprefix("Deal "))
        state.apply_action(module._DECK.index(tuple(float(p) for p in high_low)))
    players = len(state.hands)
    match = _from_openspiel(state, options)
    for text in actions[len(deals) :]:
        seat, tile, edge = _parse_action(text)
        while RULES.legal_moves(match)[0].kind is MoveKind.PASS:
            match, _ = RULES.apply(match, RULES.legal_moves(match)[0])
        wanted = (tile, edge)
        move = next(m for m in RULES.legal_moves(match) if (m.tile, _covered(match, m)) == wanted)
        assert move.seat == seat
        match, _ = RULES.apply(match, move)
        state.apply_action(module._ACTIONS_STR.index(text))
    assert match.status is Status.MATCH_OVER and state.is_terminal()
    points = match.history[-1].points
    ours = [points[s] - points[(s + 1) % players] for s in range(players)]
    assert ours == record["returns"] == [int(r) for r in state.returns()]


def _parse_action(text: str) -> tuple[int, Tile, int | None]:
    """``"p1 tile:(3.0, 5.0) pip:3.0"``: the seat, the tile and the number it covers."""
    player, rest = text.split(" tile:")
    tile_text, pip = rest.split(" pip:")
    low, high = ast.literal_eval(tile_text)
    return int(player[1:]), Tile.of(int(low), int(high)), None if pip == "None" else int(float(pip))


def _from_openspiel(state: Any, options: dict[str, Any]) -> Match[Any, Any]:
    """The first hand of a match of ``options`` dealt as OpenSpiel dealt ``state``."""
    hands = tuple(tuple(sorted(_our_tile(t) for t in hand)) for hand in state.hands)
    opts = RULES.make_options(options)
    boneyard = tuple(t for t in RULES.full_set(opts) if not any(t in h for h in hands))
    start = BlockHandState(hands, boneyard, (), 0, 0, True, 0, None)
    match: Match[Any, Any] = Match(len(hands), opts, "openspiel", 1, start)
    RULES.check_match(match)
    return match


# ------------------------------------------------------------------ the dominoes library


def _library_hands(hands: tuple[tuple[Tile, ...], ...]) -> list[Any]:
    return [dominoes.Hand([dominoes.Domino(t.high, t.low) for t in hand]) for hand in hands]


def _library_moves(game: Any) -> set[tuple[Tile, int]]:
    board = game.board
    out = set()
    for domino, left in game.valid_moves:
        end = board.left_end() if left else board.right_end()
        out.add((Tile.of(domino.first, domino.second), end))
    return out


def lockstep_series(seed: str) -> tuple[int, int]:
    """One series in lockstep; returns (decisions compared, hands)."""
    match = RULES.new_match(RULES.make_options(SERIES_PROFILE), 4, seed)
    series = dominoes.Series(target_score=200)
    game = series.games[0]
    chooser = random.Random(seed)
    decisions = hands_played = 0
    # the library dealt at random and laid [6-6]: give it this deal instead
    _give(game, match.hand_state.hands, first=True)
    while True:
        if match.status is Status.HAND_OVER or match.status is Status.MATCH_OVER:
            hands_played += 1
            assert game.result is not None
            points = match.history[-1].points
            assert game.result.points == points[0] - points[1], seed
            nxt = series.next_game()
            assert list(series.scores) == [RULES.totals(match)[0], RULES.totals(match)[1]]
            if match.status is Status.MATCH_OVER:
                assert nxt is None and series.is_over()
                return decisions, hands_played
            assert nxt is not None
            match, _ = RULES.apply(match, Move(0, MoveKind.NEXT_HAND))
            game = nxt
            assert game.starting_player == match.hand_state.leader, seed
            _give(game, match.hand_state.hands, first=False)
            continue
        legal = RULES.legal_moves(match)
        seat = match.hand_state.to_act
        if legal[0].kind is MoveKind.PASS:
            match, _ = RULES.apply(match, legal[0])
            continue
        if not match.hand_state.line and match.hand_number == 1:
            # the library laid the first hand's [6-6] itself
            assert legal == (Move(seat, MoveKind.PLAY, Tile(6, 6)),)
            match, _ = RULES.apply(match, legal[0])
            continue
        assert game.turn == seat, seed
        if match.hand_state.line:
            ours = {(m.tile, _covered(match, m)) for m in legal}
            assert ours == _library_moves(game), (seed, decisions)
        else:
            assert {m.tile for m in legal} == {
                Tile.of(d.first, d.second) for d, _ in game.valid_moves
            }
        decisions += 1
        move = chooser.choice(legal)
        assert move.tile is not None
        covered = _covered(match, move)
        left = True if covered is None else game.board.left_end() == covered
        match, _ = RULES.apply(match, move)
        game.make_move(dominoes.Domino(move.tile.high, move.tile.low), left)


def _give(game: Any, hands: tuple[tuple[Tile, ...], ...], *, first: bool) -> None:
    """Replace the library's random deal by this one (before any move of its own, but the
    first game's [6-6], which it laid: the board keeps it, the hands take ours less it)."""
    library = _library_hands(hands)
    if first:
        six = dominoes.Domino(6, 6)
        holder = next(s for s, hand in enumerate(library) if six in hand)
        library[holder].play(six)
        game.hands = library
        game.starting_player = game.turn = holder
        for _ in range(4):  # as the library's own make_move: the next seat that can play
            game.turn = (game.turn + 1) % 4
            game._update_valid_moves()
            if game.valid_moves:
                break
    else:
        game.hands = library
        game.valid_moves = tuple((d, True) for d in library[game.turn])


def test_random_series_agree_with_the_dominoes_library() -> None:
    """[BLK-4] [BLK-11] [BLK-12] [BLK-13] the library's partnership series to 200, hand by
    hand: the leader, every decision, each hand's points, the series scores."""
    decisions = hands = 0
    for n in range(DEFAULT_MATCHES):
        d, h = lockstep_series(f"lib-{n}")
        decisions, hands = decisions + d, hands + h
    assert hands > DEFAULT_MATCHES
    print(f"dominoes Series: {DEFAULT_MATCHES} series, {hands} hands, {decisions} decisions")


@pytest.mark.slow
def test_ten_thousand_series_agree_with_the_dominoes_library() -> None:
    """[BLK-13] the slow tier: 10,000 series."""
    total = sum(lockstep_series(f"lib-slow-{n}")[0] for n in range(SLOW_MATCHES))
    print(f"dominoes Series: {SLOW_MATCHES} series, {total} decisions, 0 apart")
