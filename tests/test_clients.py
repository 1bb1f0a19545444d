"""The clients (clients/) against real REST and gRPC servers. The packaging (Dockerfile,
deploy/) is tested in tests/test_deploy.py; the Python client installed as a package into
a fresh virtual environment, in tests/test_python_client_package.py.

The Python client (clients/python/src/domino_rules_client) is not installed in the
service's environment: these tests import it from its source folder.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from domino_rules import rules

from .support.servers import Servers

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = ROOT / "clients"
PYTHON_CLIENT = CLIENTS / "python"
SOURCE = PYTHON_CLIENT / "src"
LEVELS = ("RANDOM", "GREEDY", "STRONG")


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def client_module() -> Iterator[ModuleType]:
    """The package ``domino_rules_client``, imported from clients/python/src."""
    sys.path.insert(0, str(SOURCE))
    try:
        module = importlib.import_module("domino_rules_client")
        assert Path(module.__file__ or "").is_relative_to(SOURCE)
        yield module
    finally:
        sys.path.remove(str(SOURCE))


@pytest.fixture
def http_base(servers: Servers) -> str:
    """The REST gateway of the session's servers (tests/conftest.py)."""
    return servers.http_base


@pytest.fixture
def client(client_module: ModuleType, http_base: str) -> Any:
    return client_module.DominoRulesClient(http_base, timeout=30)


@pytest.fixture
def grpc_client(client_module: ModuleType, servers: Servers) -> Iterator[Any]:
    with client_module.DominoRulesGrpcClient(servers.grpc_target, timeout=30) as client:
        yield client


@pytest.fixture(params=["rest", "grpc"])
def either(request: pytest.FixtureRequest, client: Any, grpc_client: Any) -> Any:
    """The REST client, then the gRPC client: the same methods, the same answers."""
    return client if request.param == "rest" else grpc_client


def _error(client_module: ModuleType, call: Callable[[], object]) -> Any:
    with pytest.raises(client_module.DominoRulesError) as caught:
        call()
    return caught.value


def _what(error: Any) -> tuple[str, str, int | None]:
    return error.code, error.reason, error.http_status


def _play(client: Any, ruleset: str, seed: str, options: Any = None) -> list[Any]:
    """Play a 2-player match to MATCH_OVER with GREEDY suggestions for both seats; every
    answer of every call, in order."""
    answers: list[Any] = []
    game = client.new_game(ruleset, 2, options=options, seed=seed)
    answers.append(game)
    state, version = game["state"], game["version"]
    for _ in range(5_000):
        legal = client.get_legal_moves(state)
        answers.append(legal)
        if legal["status"] == "MATCH_OVER":
            break
        hint = client.suggest_move(state, level="GREEDY", seed="bot")
        answers.append(hint)
        assert hint["move"] in legal["moves"] and hint["seat"] == legal["to_act"]
        answer = client.apply_move(state, hint["move"], expected_version=version)
        answers.append(answer)
        assert answer["version"] == version + 1
        state, version = answer["state"], answer["version"]
    else:
        pytest.fail(f"{ruleset}: the match did not end")
    answers.append(client.get_score(state))
    answers.append(client.get_view(state, seat=0))
    return answers


# ------------------------------------------------------------------ both clients


def test_lists_the_rulesets(either: Any) -> None:
    rulesets = either.list_rulesets()
    assert {r["id"] for r in rulesets} == {r.id for r in rules.all_rulesets()}
    joe = next(r for r in rulesets if r["id"] == "one_arm_joe")
    assert (joe["min_players"], joe["max_players"]) == (2, 9)
    assert {b["level"] for b in joe["bots"]} == set(LEVELS)


def test_both_doors_play_the_same_match(client: Any, grpc_client: Any) -> None:
    """Every answer of a whole match, suggestions included, is the same dict over REST
    and over gRPC (states aside: a token is new each time it is made)."""

    def without_state(answers: list[Any]) -> list[Any]:
        return [{k: v for k, v in a.items() if k != "state"} for a in answers]

    options = {"hands_per_player": 1}
    rest = _play(client, "throw_up", "both-doors", options)
    grpc = _play(grpc_client, "throw_up", "both-doors", options)
    assert rest[-2]["status"] == "MATCH_OVER" and rest[-2]["seed"] == "both-doors"
    assert without_state(rest) == without_state(grpc)


def test_plays_a_full_one_arm_joe_match_to_match_over(either: Any) -> None:
    game = either.new_game("one_arm_joe", 3, options={"target_score": 40}, seed="client-full")
    assert game["status"] == "IN_PROGRESS" and game["version"] == 0
    state, version = game["state"], game["version"]
    for _ in range(5_000):
        legal = either.get_legal_moves(state)
        if legal["status"] == "MATCH_OVER":
            assert legal["moves"] == []
            break
        mine = either.legal_moves(state, seat=legal["to_act"])  # the older name
        assert mine["moves"] == legal["moves"]
        answer = either.apply_move(state, legal["moves"][0], expected_version=version)
        assert answer["version"] == version + 1 and answer["game_id"] == game["game_id"]
        state, version = answer["state"], answer["version"]
    else:
        pytest.fail("the match did not end")
    assert any(e["kind"] == "MATCH_OVER" for e in answer["events"])
    score = either.get_score(state)
    assert score == either.score(state)
    assert score["status"] == "MATCH_OVER" and score["winners"]
    assert score["seed"] == "client-full"
    totals = [s["match_points"] for s in score["seats"]]
    assert max(totals) >= 40
    assert score["winners"] == [seat for seat, t in enumerate(totals) if t == max(totals)]
    spectator = either.get_view(state)
    assert spectator == either.view(state)
    assert spectator["status"] == "MATCH_OVER" and spectator["hand"] == []


def test_options_may_be_given_wrapped_and_views_are_per_seat(either: Any) -> None:
    options = {"one_arm_joe": {"set_max_pip": 9}}
    game = either.new_game("one_arm_joe", 2, options=options, seed="wrap")
    seat = game["to_act"]
    view = either.get_view(game["state"], seat=seat)
    assert view["seat"] == seat and view["legal_moves"] and view["hand"]
    assert view["stock"] == 55 - 2 * len(view["hand"])  # the double-nine set
    assert either.get_legal_moves(game["state"], seat=1 - seat)["moves"] == []
    assert "seed" not in either.get_score(game["state"])
    # a legal move of the view goes back unchanged
    assert either.apply_move(game["state"], view["legal_moves"][-1])["version"] == 1


@pytest.mark.parametrize("level", LEVELS)
def test_suggest_move_gives_a_legal_move_of_the_seat_to_act(either: Any, level: str) -> None:
    game = either.new_game("tiu_u", 3, seed=f"suggest-{level}")
    legal = either.get_legal_moves(game["state"])
    hint = either.suggest_move(game["state"], level=level, seed="s", playouts=30)
    assert (hint["level"], hint["seat"], hint["version"]) == (level, legal["to_act"], 0)
    assert hint["move"] in legal["moves"]
    assert hint == either.suggest_move(game["state"], level=level, seed="s", playouts=30)
    if level == "STRONG":  # every legal move, each with its share of the win
        estimated = [e["move"] for e in hint["estimates"]]
        assert sorted(map(json.dumps, estimated)) == sorted(map(json.dumps, legal["moves"]))
        assert all(0 <= e["value"] <= 1 and e["playouts"] >= 0 for e in hint["estimates"])
        assert 0 < sum(e["playouts"] for e in hint["estimates"]) <= 30
    else:
        assert hint["estimates"] == []
    answer = either.apply_move(game["state"], hint["move"], expected_version=0)
    assert answer["version"] == 1


def test_suggest_move_refusals(client_module: ModuleType, either: Any) -> None:
    game = either.new_game("one_arm_joe", 2, seed="suggest-refused")
    state, seat = game["state"], game["to_act"]
    error = _error(client_module, lambda: either.suggest_move(state, playouts=0))
    assert (error.code, error.reason) == ("INVALID_ARGUMENT", "BAD_PLAYOUTS")
    error = _error(client_module, lambda: either.suggest_move(state, seat=1 - seat))
    assert (error.code, error.reason) == ("FAILED_PRECONDITION", "NOT_YOUR_TURN")
    assert error.reason == client_module.Reason.NOT_YOUR_TURN


def test_unknown_ruleset(client_module: ModuleType, either: Any) -> None:
    error = _error(client_module, lambda: either.new_game("chess", 2))
    assert (error.code, error.reason) == ("INVALID_ARGUMENT", "UNKNOWN_RULESET")
    assert error.grpc_code == "INVALID_ARGUMENT"
    assert "chess" in error.message and "UNKNOWN_RULESET" in str(error)


def test_bad_options_and_player_count(client_module: ModuleType, either: Any) -> None:
    error = _error(
        client_module, lambda: either.new_game("one_arm_joe", 2, options={"set_max_pip": 40})
    )
    assert error.reason == "BAD_OPTIONS"
    error = _error(client_module, lambda: either.new_game("one_arm_joe", 12))
    assert (error.code, error.reason) == ("INVALID_ARGUMENT", "BAD_PLAYER_COUNT")


def test_illegal_move_changes_nothing(client_module: ModuleType, either: Any) -> None:
    game = either.new_game("one_arm_joe", 3, seed="client-illegal")
    seat = game["to_act"]
    view = either.get_view(game["state"], seat=seat)
    lead = view["legal_moves"][0]
    other = next(t for t in view["hand"] if t != lead["tile"])
    error = _error(
        client_module,
        lambda: either.apply_move(game["state"], {"seat": seat, "kind": "PLAY", "tile": other}),
    )
    assert (error.code, error.reason) == ("FAILED_PRECONDITION", "ILLEGAL_MOVE")
    assert isinstance(error, client_module.DominoRulesError)
    error = _error(
        client_module, lambda: either.apply_move(game["state"], {**lead, "seat": (seat + 1) % 3})
    )
    assert error.reason == "NOT_YOUR_TURN"
    assert either.apply_move(game["state"], lead)["version"] == 1


def test_bad_state_token(client_module: ModuleType, either: Any) -> None:
    game = either.new_game("one_arm_joe", 2, seed="client-token")
    garbled = game["state"][:-8] + ("A" * 8 if not game["state"].endswith("A" * 8) else "B" * 8)
    for call in (
        lambda: either.get_legal_moves(garbled),
        lambda: either.get_score("AAAA"),
        lambda: either.get_view(""),
        lambda: either.suggest_move(garbled),
        lambda: either.apply_move(garbled, {"seat": 0, "kind": "PASS"}),
    ):
        error = _error(client_module, call)
        assert (error.code, error.reason) == ("INVALID_ARGUMENT", "BAD_STATE_TOKEN")


def test_stale_state(client_module: ModuleType, either: Any) -> None:
    game = either.new_game("one_arm_joe", 2, seed="client-stale")
    move = either.get_legal_moves(game["state"])["moves"][0]
    error = _error(
        client_module, lambda: either.apply_move(game["state"], move, expected_version=3)
    )
    assert (error.code, error.reason) == ("ABORTED", "STALE_STATE")


# ------------------------------------------------------------------ one door each


def test_rest_errors_carry_the_http_status_and_request_id(
    client_module: ModuleType, client: Any
) -> None:
    error = _error(client_module, lambda: client.new_game("chess", 2))
    assert _what(error) == ("INVALID_ARGUMENT", "UNKNOWN_RULESET", 400)
    assert error.request_id and re.fullmatch(r"[0-9a-f]{32}", error.request_id)
    game = client.new_game("one_arm_joe", 2, seed="client-409")
    move = client.get_legal_moves(game["state"])["moves"][0]
    error = _error(client_module, lambda: client.apply_move(game["state"], move, 7))
    assert _what(error) == ("ABORTED", "STALE_STATE", 409)
    assert client.healthy()


def test_grpc_errors_have_no_http_status(client_module: ModuleType, grpc_client: Any) -> None:
    error = _error(client_module, lambda: grpc_client.new_game("chess", 2))
    assert _what(error) == ("INVALID_ARGUMENT", "UNKNOWN_RULESET", None)
    # a request the client cannot even encode is refused before it is sent
    game = grpc_client.new_game("tiu_u", 2, seed="grpc-encode")
    error = _error(client_module, lambda: grpc_client.suggest_move(game["state"], level="BEST"))
    assert _what(error) == ("INVALID_ARGUMENT", "MALFORMED_REQUEST", None)


def test_grpc_client_sends_its_metadata(client_module: ModuleType, servers: Servers) -> None:
    metadata = {"x-request-id": "client-test-1"}
    with client_module.DominoRulesGrpcClient(servers.grpc_target, metadata=metadata) as client:
        error = _error(client_module, lambda: client.new_game("chess", 2))
    assert error.request_id == "client-test-1"


def _free_port() -> int:
    with socket.socket() as probe:  # a port that nobody listens on
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_unreachable_service(client_module: ModuleType) -> None:
    port = _free_port()
    rest = client_module.DominoRulesClient(f"http://127.0.0.1:{port}/", timeout=5)
    error = _error(client_module, rest.list_rulesets)
    assert _what(error) == ("UNAVAILABLE", "", None)
    assert not rest.healthy()
    with client_module.DominoRulesGrpcClient(f"127.0.0.1:{port}", timeout=5) as grpc_client:
        error = _error(client_module, grpc_client.list_rulesets)
    assert _what(error) == ("UNAVAILABLE", "", None)


def test_a_service_that_never_answers_times_out(client_module: ModuleType) -> None:
    """A listening socket that never answers: each call gives up after its timeout."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        rest = client_module.DominoRulesClient(f"http://127.0.0.1:{port}", timeout=60)
        error = _error(client_module, lambda: rest.list_rulesets(timeout=0.2))
        assert _what(error) == ("DEADLINE_EXCEEDED", "", None)
        rest = client_module.DominoRulesClient(f"http://127.0.0.1:{port}", timeout=0.2)
        error = _error(client_module, lambda: rest.new_game("tiu_u", 2))
        assert _what(error) == ("DEADLINE_EXCEEDED", "", None)
        with client_module.DominoRulesGrpcClient(f"127.0.0.1:{port}", timeout=60) as grpc_client:
            error = _error(client_module, lambda: grpc_client.list_rulesets(timeout=0.2))
        assert _what(error) == ("DEADLINE_EXCEEDED", "", None)


def test_error_bodies(client_module: ModuleType) -> None:
    body = {
        "code": 9,
        "message": "no",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "GAME_OVER",
                "domain": "domino-rules",
                "metadata": {"seat": "1"},
            }
        ],
    }
    error = client_module.DominoRulesError.from_body(400, json.dumps(body).encode())
    assert (error.code, error.reason, error.message, error.http_status) == (
        "FAILED_PRECONDITION",
        "GAME_OVER",
        "no",
        400,
    )
    assert error.metadata == {"seat": "1"}
    body["code"], body["details"] = (
        8,
        [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "OVERLOADED"},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retry_delay": "1.500s"},
        ],
    )
    error = client_module.DominoRulesError.from_body(429, json.dumps(body).encode())
    assert _what(error) == ("RESOURCE_EXHAUSTED", "OVERLOADED", 429)
    assert error.retry_after == 1.5 and error.reason == client_module.Reason.OVERLOADED
    error = client_module.DominoRulesError.from_body(502, b"<html>Bad Gateway</html>")
    assert _what(error) == ("UNKNOWN", "", 502)
    assert "Bad Gateway" in error.message


def test_unknown_path_is_an_error(client_module: ModuleType, client: Any) -> None:
    error = _error(client_module, lambda: client.request("GET", "/v1/nothing"))
    assert _what(error) == ("NOT_FOUND", "NOT_FOUND", 404)


def test_reasons_are_those_the_service_documents(client_module: ModuleType) -> None:
    """Every reason of the README's error table is a ``Reason``, and every ``Reason`` is
    in that table or in the service's own (``domino_rules.api.errors``)."""
    readme = (ROOT / "README.md").read_text()
    table = readme.split("### Errors", 1)[1].split("\n\n", 3)[2]
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.M))
    assert {"ILLEGAL_MOVE", "STALE_STATE", "BAD_PLAYOUTS"} <= documented
    errors_doc = (ROOT / "service" / "domino_rules" / "api" / "errors.py").read_text()
    listed = set(re.findall(r"^([A-Z_]{4,}) +[A-Z_]{4,} ", errors_doc, re.M))
    assert "GAME_OVER" in listed
    known = {r.value for r in client_module.Reason}
    assert documented <= known
    assert known <= documented | listed | {"NOT_FOUND"}


def test_the_shipped_contract_is_the_services(client_module: ModuleType) -> None:
    """The compiled contract the gRPC client builds its messages from is up to date
    (``clients/python/update_contract.py`` writes it)."""
    update = _load(PYTHON_CLIENT / "update_contract.py", "domino_rules_update_contract")
    shipped = SOURCE / "domino_rules_client" / "contract.binpb"
    assert shipped.read_bytes() == update.contract(), "run clients/python/update_contract.py"


# ------------------------------------------------------------------ the examples


def test_example_plays_every_ruleset(client_module: ModuleType, http_base: str) -> None:
    example = importlib.import_module("domino_rules_client.example")
    out = io.StringIO()
    score = example.play(
        client_module.DominoRulesClient(http_base),
        "tsair_deng",
        3,
        options={"hands": 1},
        seed="ex",
        out=out,
    )
    assert score["status"] == "MATCH_OVER" and len(score["hands"]) == 1
    assert "tsair_deng: game " in out.getvalue() and "hand over after move" in out.getvalue()


def test_example_main_prints_the_final_scores(
    client_module: ModuleType, servers: Servers, capsys: pytest.CaptureFixture[str]
) -> None:
    example = importlib.import_module("domino_rules_client.example")
    options = json.dumps({"one_arm_joe": {"target_score": 30}, "tsair_deng": {"hands": 1}})
    args = ["--ruleset", "all", "--seed", "ex", "--options", options]
    assert example.main([servers.http_base, *args]) == 0
    rest = capsys.readouterr().out
    for ruleset in rules.all_rulesets():
        assert re.search(rf"^{ruleset.id}: MATCH_OVER after \d+ moves", rest, re.M), rest
    assert re.search(r"seat 0: \d+ points", rest) and "winners: [" in rest
    assert example.main(["--grpc", servers.grpc_target, *args]) == 0
    grpc = capsys.readouterr().out
    strip = re.compile(r"game [0-9a-f]+")  # the same matches, move for move
    assert strip.sub("game", grpc) == strip.sub("game", rest)


def test_example_reports_an_error(client_module: ModuleType, http_base: str) -> None:
    example = importlib.import_module("domino_rules_client.example")
    assert example.main([http_base, "--ruleset", "chess"]) == 1


@pytest.mark.skipif(
    shutil.which("curl") is None or shutil.which("bash") is None, reason="needs bash and curl"
)
def test_curl_script_starts_a_match_and_plays_moves(http_base: str) -> None:
    env = {**os.environ, "URL": http_base}
    python_dir = str(Path(sys.executable).parent)  # python3 for the script's JSON handling
    env["PATH"] = python_dir + os.pathsep + env.get("PATH", "")
    result = subprocess.run(
        ["bash", str(CLIENTS / "curl" / "play.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "one_arm_joe" in result.stdout
    assert "version 1, status IN_PROGRESS" in result.stdout
    assert "version 2, status IN_PROGRESS" in result.stdout
    assert re.search(r"suggested \{.*\"kind\":\"[A-Z_]+\"", result.stdout), result.stdout
    assert '"line":[{' in result.stdout


@pytest.mark.skipif(
    shutil.which("curl") is None or shutil.which("bash") is None, reason="needs bash and curl"
)
def test_curl_script_reports_a_refusal(http_base: str) -> None:
    env = {**os.environ, "URL": http_base + "/nowhere"}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    result = subprocess.run(
        ["bash", str(CLIENTS / "curl" / "play.sh")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "HTTP 404" in result.stderr


def test_docs_name_the_files_they_rely_on() -> None:
    clients_readme = (CLIENTS / "README.md").read_text()
    for path in (
        "python/pyproject.toml",
        "python/src/domino_rules_client/example.py",
        "python/update_contract.py",
        "curl/play.sh",
        "typescript/package.json",
    ):
        assert (CLIENTS / path).is_file() and path in clients_readme, path
    for name in ("suggest_move", "SuggestMove", "suggestMove", "DominoRulesGrpcClient"):
        assert name in clients_readme, name
