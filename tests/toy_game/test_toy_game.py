"""The extension point, proved by a game the service does not ship: High Tile, installed
by ``DOMINO_RULES_GAMES`` alone, played through both doors, GetView, SuggestMove and the
playground, with no file outside this package naming it.

Its package has no options and no table, so no proto message of its own: a view's shared
parts are all it shows. A game that lacks a part fails when the service imports it, with
a message that names the part (the variants in :mod:`.broken`).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import random
import subprocess
import sys
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from selenium.webdriver import Chrome

from domino_rules.games.testing import HandRecord, MatchRecord, declarations_of
from domino_rules.rules import Status
from domino_rules.v1 import domino_rules_pb2 as pb
from domino_rules.v1 import domino_rules_pb2_grpc as pb_grpc

from ..browser.conftest import browser  # noqa: F401  (the headless Chromium)
from ..browser.page import Match, Playground
from ..rules.test_conformance import play_match
from ..served import Served, serving
from . import GAME as TOY
from .testing import TESTS

#: Starts serve with the game installed from outside, and drives Chromium: alone on the machine.
pytestmark = pytest.mark.serial("chromium")

ROOT = Path(__file__).resolve().parents[2]
GAME = __package__ or "tests.toy_game"
ID = "high_tile"
#: The service with the toy game installed, as an operator installs a game from outside.
ENV = {
    "DOMINO_RULES_GAMES": GAME,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
}


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    with serving(env=ENV) as served:
        yield served


@pytest.fixture(scope="module")
def stub(served: Served) -> Iterator[pb_grpc.DominoRulesStub]:
    with grpc.insecure_channel(f"127.0.0.1:{served.grpc_port}") as channel:
        yield pb_grpc.DominoRulesStub(channel)  # type: ignore[no-untyped-call]


def rest(served: Served, path: str, body: dict[str, Any] | None = None) -> Any:
    request = urllib.request.Request(
        served.base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_the_catalogue_describes_it_on_both_doors(
    served: Served, stub: pb_grpc.DominoRulesStub
) -> None:
    listed = {r.id: r for r in stub.ListRulesets(pb.ListRulesetsRequest()).rulesets}
    info = listed[ID]
    assert (info.name, info.min_players, info.max_players) == ("High Tile", 2, 3)
    assert not info.options
    assert [b.level for b in info.bots] == [pb.RANDOM, pb.GREEDY, pb.STRONG]
    assert info.bots[1].description.endswith(": the heaviest tile")
    assert info.drawing.layout == pb.Drawing.LAYOUT_UNSPECIFIED
    assert info.drawing.count_label == "pips played"
    assert len(listed) >= 5  # the games the service ships are still there
    described = {r["id"]: r for r in rest(served, "/v1/rulesets")["rulesets"]}[ID]
    assert described["drawing"]["count_label"] == "pips played"
    assert described["low_wins"] is False
    document = rest(served, "/openapi.json")
    ruleset = document["components"]["schemas"]["NewGameRequest"]["properties"]["ruleset"]
    assert ID in ruleset["enum"] and len(ruleset["enum"]) == len(listed)


def test_a_match_plays_to_its_end_through_both_doors(
    served: Served, stub: pb_grpc.DominoRulesStub
) -> None:
    started = rest(served, "/v1/games", {"ruleset": ID, "players": 3, "seed": "toy"})
    state = base64.b64decode(started["state"])
    played = [0, 0, 0]
    for turn in range(9):
        seat = turn % 3
        door = "rest" if turn % 2 else "grpc"
        view = stub.GetView(pb.GetViewRequest(state=state, seat=seat))
        assert view.ruleset == ID and view.WhichOneof("table") is None
        assert len(view.hand) == 3 - turn // 3 and view.stock == 1
        assert list(view.hand_sizes) == [3 - (turn + 2 - s) // 3 for s in range(3)]
        spectator = stub.GetView(pb.GetViewRequest(state=state))
        assert not spectator.hand and not spectator.legal_moves
        legal = stub.GetLegalMoves(pb.GetLegalMovesRequest(state=state)).moves
        assert sorted((m.tile.high, m.tile.low) for m in legal) == sorted(
            (t.high, t.low) for t in view.hand
        )
        move = legal[turn % len(legal)]
        played[seat] += move.tile.high + move.tile.low
        if door == "grpc":
            state = stub.ApplyMove(pb.ApplyMoveRequest(state=state, move=move)).state
        else:
            body = {
                "state": base64.b64encode(state).decode(),
                "move": {
                    "seat": seat,
                    "kind": "PLAY",
                    "tile": {"high": move.tile.high, "low": move.tile.low},
                },
            }
            state = base64.b64decode(rest(served, "/v1/games:applyMove", body)["state"])
    score = stub.GetScore(pb.GetScoreRequest(state=state))
    assert score.status == pb.MATCH_OVER
    assert [s.match_points for s in score.seats] == played
    assert list(score.winners) == [s for s in range(3) if played[s] == max(played)]
    over = rest(served, "/v1/games:score", {"state": base64.b64encode(state).decode()})
    assert over["winners"] == list(score.winners)
    with pytest.raises(grpc.RpcError) as refused:
        stub.ApplyMove(pb.ApplyMoveRequest(state=state, move=legal[0]))
    assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION


@pytest.mark.parametrize("level", [pb.RANDOM, pb.GREEDY, pb.STRONG])
def test_every_bot_level_suggests_a_legal_move(
    served: Served, stub: pb_grpc.DominoRulesStub, level: pb.BotLevel
) -> None:
    state = stub.NewGame(pb.NewGameRequest(ruleset=ID, players=2, seed="bots")).state
    for _ in range(3):  # seat 0, seat 1, seat 0: a world is dealt at every step
        legal = list(stub.GetLegalMoves(pb.GetLegalMovesRequest(state=state)).moves)
        suggested = stub.SuggestMove(pb.SuggestMoveRequest(state=state, level=level)).move
        assert suggested in legal
        if level == pb.GREEDY:
            heaviest = max(m.tile.high + m.tile.low for m in legal)
            assert suggested.tile.high + suggested.tile.low == heaviest
        state = stub.ApplyMove(pb.ApplyMoveRequest(state=state, move=suggested)).state
    body = {"state": base64.b64encode(state).decode(), "level": "STRONG", "playouts": 20}
    answer = rest(served, "/v1/games:suggestMove", body)
    assert len(answer["estimates"]) == len(
        stub.GetLegalMoves(pb.GetLegalMovesRequest(state=state)).moves
    )


def test_the_playground_draws_it_from_the_catalogue(
    browser: Chrome,  # noqa: F811  (the fixture imported above)
    served: Served,
) -> None:
    page = Playground(browser, f"{served.base}/play?delay=0")
    declared = TESTS.playground
    page.set_up(Match(ID, declared.players, declared.seat, declared.level, declared.seed))
    page.await_person()
    played = page.play_to_the_end(random.Random(7))
    assert page.status() == "MATCH_OVER"
    assert played.moves == 3 and played.kinds == {"PLAY"}
    assert "pips played" in page.by_id("result").text
    assert page.severe_console_messages() == []


def test_its_declarations_are_found_and_fit_its_rules() -> None:
    """Its package declares what the tests over the catalogue need (``testing.TESTS``),
    found as every game's are; its declared matches pass the conformance checks, its
    judge sees every tile a view shows (the hand, and the events just after a move), and
    its re-dealer deals its checkable deals again from their seeds."""
    declared = declarations_of(TOY)
    assert declared is TESTS
    ruleset, options = TOY.ruleset, TOY.ruleset.make_options({})
    fields = {f.name for f in dataclasses.fields(ruleset.hand_state_type)}
    assert fields == declared.judge.fields
    chooser = random.Random(ID)
    for n in range(declared.conformance_matches):
        players = chooser.choice(declared.players)
        play_match(ruleset, options, players, f"conformance-{n}", chooser)
    for setup in declared.leak_games:
        for seed in setup.seeds:
            match, before = ruleset.new_match(options, setup.players, seed), None
            while True:
                for seat in [None, *range(setup.players)]:
                    view = ruleset.view(match, seat)
                    seen = declared.judge.visible(match.hand_state, seat)
                    if before is not None:
                        seen |= declared.judge.visible(before.hand_state, seat)
                    shown = [*view.hand, *(e.tile for e in view.events if e.tile is not None)]
                    assert not Counter(shown) - seen, (seed, seat)
                if match.status is Status.MATCH_OVER:
                    break
                before = match
                match, _ = ruleset.apply(match, chooser.choice(ruleset.legal_moves(match)))
    for case in declared.deals:
        match = ruleset.new_match(options, case.players, case.seed)
        views = [ruleset.view(match, seat) for seat in range(case.players)]
        assert views[0].to_act is not None
        dealt = HandRecord(
            number=1,
            to_act=views[0].to_act,
            deal_events=[],
            hands=[sorted((t.high, t.low) for t in view.hand) for view in views],
            stock=views[0].stock,
            table={},
            internal=match.hand_state,
        )
        record = MatchRecord(ID, case.players, "", [dealt])
        assert declared.redeal(record, case.seed, case.options) == {}


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("no_game", "has no GAME"),
        ("a_table_without_a_message", "has a view table (Hand) but no message for it"),
        ("options_without_a_message", "has options but no message for them"),
        ("a_drawing_of_nothing", "drawing.open_field reads 'open_end', not in its table"),
    ],
)
def test_a_game_missing_a_part_fails_at_import(variant: str, message: str) -> None:
    env = {**os.environ, **ENV, "DOMINO_RULES_GAMES": f"{GAME}.broken.{variant}"}
    result = subprocess.run(
        [sys.executable, "-c", "import domino_rules.api"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert message in result.stderr, result.stderr[-2000:]


def test_serve_refuses_to_start_with_a_game_missing_a_part() -> None:
    env = {**os.environ, **ENV, "DOMINO_RULES_GAMES": f"{GAME}.broken.a_table_without_a_message"}
    result = subprocess.run(
        [sys.executable, "-m", "domino_rules.cli", "serve", "--grpc-port", "0", "--http-port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("domino-rules: the games could not be installed: ")
    assert "has a view table (Hand) but no message for it" in result.stderr
    assert len(result.stderr.splitlines()) == 1
