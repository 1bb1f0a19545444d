"""Server reflection as the ecosystem's tools use it: grpcurl and ``buf curl``.

Both tools know the service only from what reflection tells them (no .proto file is
given): every service is listed and described in full, in both versions of the
reflection protocol, and a call made from those descriptors is answered.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domino_rules import games
from domino_rules.v1 import domino_rules_pb2 as pb

from .support.servers import Servers

SERVICES = {
    "domino_rules.v1.DominoRules",
    "grpc.health.v1.Health",
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
}


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: the test extra installs it (make test)")
    return found


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def _grpcurl(
    servers: Servers, *words: str, data: object = None
) -> subprocess.CompletedProcess[str]:
    """``grpcurl -plaintext [-d DATA] ADDRESS WORDS...``"""
    flags = () if data is None else ("-d", json.dumps(data))
    return _run(_tool("grpcurl"), "-plaintext", *flags, servers.grpc_target, *words)


def test_grpcurl_lists_every_service(servers: Servers) -> None:
    listed = _grpcurl(servers, "list")
    assert listed.returncode == 0, listed.stderr
    assert set(listed.stdout.split()) == SERVICES


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_grpcurl_describes_every_service(servers: Servers, service: str) -> None:
    described = _grpcurl(servers, "describe", service)
    assert described.returncode == 0, described.stderr
    assert f"{service} is a service:" in described.stdout
    assert "rpc " in described.stdout


def test_grpcurl_describes_every_message_of_the_contract(servers: Servers) -> None:
    """Every request and answer, with the types they import (google.rpc, options)."""
    methods = pb.DESCRIPTOR.services_by_name["DominoRules"].methods
    names = {m.input_type.full_name for m in methods} | {m.output_type.full_name for m in methods}
    for name in sorted(names):
        described = _grpcurl(servers, "describe", name)
        assert described.returncode == 0, (name, described.stderr)
        assert f"{name} is a message:" in described.stdout


def test_grpcurl_calls_the_service_from_reflection_alone(servers: Servers) -> None:
    new_game = f"{pb.DESCRIPTOR.package}.DominoRules/NewGame"
    called = _grpcurl(servers, new_game, data={"ruleset": "tiu_u", "players": 2, "seed": "reflect"})
    assert called.returncode == 0, called.stderr
    answer = json.loads(called.stdout)
    assert answer["status"] == "IN_PROGRESS" and answer["state"]
    refused = _grpcurl(servers, new_game, data={"ruleset": "no_such_game", "players": 2})
    assert refused.returncode != 0
    assert "InvalidArgument" in refused.stderr and "UNKNOWN_RULESET" in refused.stderr


@pytest.mark.parametrize("protocol", ["grpc-v1", "grpc-v1alpha"])
def test_buf_curl_lists_and_calls_with_either_reflection_version(
    servers: Servers, protocol: str
) -> None:
    base = f"http://{servers.grpc_target}"
    common = ("--protocol", "grpc", "--http2-prior-knowledge", "--reflect-protocol", protocol)
    listed = _run(_tool("buf"), "curl", *common, "--list-methods", base)
    assert listed.returncode == 0, listed.stderr
    methods = set(listed.stdout.split())
    for method in pb.DESCRIPTOR.services_by_name["DominoRules"].methods:
        assert f"domino_rules.v1.DominoRules/{method.name}" in methods
    assert "grpc.reflection.v1.ServerReflection/ServerReflectionInfo" in methods
    called = _run(
        _tool("buf"), "curl", *common, "-d", json.dumps({}),
        f"{base}/domino_rules.v1.DominoRules/ListRulesets",
    )  # fmt: skip
    assert called.returncode == 0, called.stderr
    ids = {r["id"] for r in json.loads(called.stdout)["rulesets"]}
    assert {game.id for game in games.all_games()} <= ids
