"""The clients (clients/) against a real REST server. The packaging (Dockerfile,
deploy/) is tested in tests/test_deploy.py.

clients/ is not a package on sys.path: the Python client is imported by file path.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from domino_rules import rules

from .support.servers import Servers

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = ROOT / "clients"


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def client_module() -> ModuleType:
    return _load(CLIENTS / "python" / "domino_rules_client.py", "domino_rules_client")


@pytest.fixture
def http_base(servers: Servers) -> str:
    """The REST gateway of the session's servers (tests/conftest.py)."""
    return servers.http_base


@pytest.fixture
def client(client_module: ModuleType, http_base: str) -> Any:
    return client_module.DominoRulesClient(http_base)


def _error(client_module: ModuleType, call: Any) -> Any:
    with pytest.raises(client_module.DominoRulesError) as caught:
        call()
    return caught.value


def _what(error: Any) -> tuple[str, str, int | None]:
    return error.code, error.reason, error.http_status


# ------------------------------------------------------------------ the Python client


def test_lists_the_rulesets(client: Any) -> None:
    rulesets = client.list_rulesets()
    assert {r["id"] for r in rulesets} == {r.id for r in rules.all_rulesets()}
    joe = next(r for r in rulesets if r["id"] == "one_arm_joe")
    assert (joe["min_players"], joe["max_players"]) == (2, 9)
    assert client.healthy()


def test_plays_a_full_one_arm_joe_match_to_match_over(client: Any) -> None:
    game = client.new_game("one_arm_joe", 3, options={"target_score": 40}, seed="client-full")
    assert game["status"] == "IN_PROGRESS" and game["version"] == 0
    state, version = game["state"], game["version"]
    for _ in range(5_000):
        legal = client.legal_moves(state)
        if legal["status"] == "MATCH_OVER":
            assert legal["moves"] == []
            break
        mine = client.legal_moves(state, seat=legal["to_act"])
        assert mine["moves"] == legal["moves"]
        answer = client.apply_move(state, legal["moves"][0], expected_version=version)
        assert answer["version"] == version + 1 and answer["game_id"] == game["game_id"]
        state, version = answer["state"], answer["version"]
    else:
        pytest.fail("the match did not end")
    assert any(e["kind"] == "MATCH_OVER" for e in answer["events"])
    score = client.score(state)
    assert score["status"] == "MATCH_OVER" and score["winners"]
    assert score["seed"] == "client-full"
    totals = [s["match_points"] for s in score["seats"]]
    assert max(totals) >= 40
    assert score["winners"] == [seat for seat, t in enumerate(totals) if t == max(totals)]
    spectator = client.view(state)
    assert spectator["status"] == "MATCH_OVER" and spectator["hand"] == []


def test_options_may_be_given_wrapped_and_views_are_per_seat(client: Any) -> None:
    options = {"one_arm_joe": {"set_max_pip": 9}}
    game = client.new_game("one_arm_joe", 2, options=options, seed="wrap")
    seat = game["to_act"]
    view = client.view(game["state"], seat=seat)
    assert view["seat"] == seat and view["legal_moves"] and view["hand"]
    assert view["stock"] == 55 - 2 * len(view["hand"])  # the double-nine set
    assert client.legal_moves(game["state"], seat=1 - seat)["moves"] == []
    assert "seed" not in client.score(game["state"])


def test_unknown_ruleset(client_module: ModuleType, client: Any) -> None:
    error = _error(client_module, lambda: client.new_game("chess", 2))
    assert _what(error) == ("INVALID_ARGUMENT", "UNKNOWN_RULESET", 400)
    assert "chess" in error.message and "UNKNOWN_RULESET" in str(error)


def test_bad_options_and_player_count(client_module: ModuleType, client: Any) -> None:
    error = _error(
        client_module, lambda: client.new_game("one_arm_joe", 2, options={"set_max_pip": 40})
    )
    assert error.reason == "BAD_OPTIONS"
    error = _error(client_module, lambda: client.new_game("one_arm_joe", 12))
    assert (error.code, error.reason) == ("INVALID_ARGUMENT", "BAD_PLAYER_COUNT")


def test_illegal_move_changes_nothing(client_module: ModuleType, client: Any) -> None:
    game = client.new_game("one_arm_joe", 3, seed="client-illegal")
    seat = game["to_act"]
    view = client.view(game["state"], seat=seat)
    lead = view["legal_moves"][0]
    other = next(t for t in view["hand"] if t != lead["tile"])
    error = _error(
        client_module,
        lambda: client.apply_move(game["state"], {"seat": seat, "kind": "PLAY", "tile": other}),
    )
    assert _what(error) == ("FAILED_PRECONDITION", "ILLEGAL_MOVE", 400)
    error = _error(
        client_module, lambda: client.apply_move(game["state"], {**lead, "seat": (seat + 1) % 3})
    )
    assert error.reason == "NOT_YOUR_TURN"
    assert client.apply_move(game["state"], lead)["version"] == 1


def test_bad_state_token(client_module: ModuleType, client: Any) -> None:
    game = client.new_game("one_arm_joe", 2, seed="client-token")
    garbled = game["state"][:-8] + ("A" * 8 if not game["state"].endswith("A" * 8) else "B" * 8)
    for call in (
        lambda: client.legal_moves(garbled),
        lambda: client.score("AAAA"),
        lambda: client.view(""),
        lambda: client.apply_move(garbled, {"seat": 0, "kind": "PASS"}),
    ):
        error = _error(client_module, call)
        assert _what(error) == ("INVALID_ARGUMENT", "BAD_STATE_TOKEN", 400)


def test_stale_state(client_module: ModuleType, client: Any) -> None:
    game = client.new_game("one_arm_joe", 2, seed="client-stale")
    move = client.legal_moves(game["state"])["moves"][0]
    error = _error(
        client_module, lambda: client.apply_move(game["state"], move, expected_version=3)
    )
    assert _what(error) == ("ABORTED", "STALE_STATE", 409)


def test_unreachable_service(client_module: ModuleType) -> None:
    with socket.socket() as probe:  # a port that nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = client_module.DominoRulesClient(f"http://127.0.0.1:{port}/", timeout=5)
    error = _error(client_module, client.list_rulesets)
    assert _what(error) == ("UNAVAILABLE", "", None)
    assert not client.healthy()


def test_error_bodies(client_module: ModuleType) -> None:
    body = {
        "code": 9,
        "message": "no",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "GAME_OVER",
                "domain": "domino-rules",
                "metadata": {},
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
    error = client_module.DominoRulesError.from_body(502, b"<html>Bad Gateway</html>")
    assert _what(error) == ("UNKNOWN", "", 502)
    assert "Bad Gateway" in error.message


def test_unknown_path_is_an_error(client_module: ModuleType, client: Any) -> None:
    error = _error(client_module, lambda: client._call("GET", "/v1/nothing"))
    assert _what(error) == ("NOT_FOUND", "NOT_FOUND", 404)


# ------------------------------------------------------------------ the example scripts


def test_example_play_prints_the_final_score(
    http_base: str,
    client_module: ModuleType,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # the script puts its folder first
    example = _load(CLIENTS / "python" / "example_play.py", "domino_rules_example_play")
    assert example.main([http_base, "--players", "2", "--target-score", "30", "--seed", "ex"]) == 0
    out = capsys.readouterr().out
    assert "MATCH_OVER after" in out and "winners: [" in out
    assert re.search(r"seat 0: \d+ points", out) and re.search(r"seat 1: \d+ points", out)


@pytest.mark.skipif(
    shutil.which("curl") is None or shutil.which("bash") is None, reason="needs bash and curl"
)
def test_curl_script_starts_a_match_and_plays_a_move(http_base: str) -> None:
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
    assert '"line":[{' in result.stdout


def test_docs_name_the_commands_they_rely_on() -> None:
    clients_readme = (CLIENTS / "README.md").read_text()
    for path in (
        "python/domino_rules_client.py",
        "python/example_play.py",
        "curl/play.sh",
    ):
        assert (CLIENTS / path).is_file() and Path(path).name in clients_readme, path
