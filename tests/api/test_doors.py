"""What each door adds: gRPC health and reflection; REST CORS, JSON names, health."""

from __future__ import annotations

import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2

from domino_rules.doors import rest
from domino_rules.v1 import domino_rules_pb2 as pb

from .doors import CallError, GrpcDoor, RestDoor


def test_grpc_health(grpc_door: GrpcDoor) -> None:
    stub = health_pb2_grpc.HealthStub(grpc_door.channel)
    for service in ("", "domino_rules.v1.DominoRules"):
        answer = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_grpc_reflection_lists_the_service(grpc_door: GrpcDoor, version: str) -> None:
    """Both reflection services answer (tools such as grpcurl try v1 first)."""
    call = grpc_door.channel.stream_stream(
        f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    answer = next(iter(call(iter([request]), timeout=10)))
    names = {s.name for s in answer.list_services_response.service}
    assert {"domino_rules.v1.DominoRules", "grpc.health.v1.Health"} <= names
    assert f"grpc.reflection.{version}.ServerReflection" in names
    request = reflection_pb2.ServerReflectionRequest(
        file_containing_symbol="domino_rules.v1.DominoRules"
    )
    answer = next(iter(call(iter([request]), timeout=10)))
    assert answer.file_descriptor_response.file_descriptor_proto


def test_routes_come_from_the_annotations() -> None:
    assert {(verb, path) for _, verb, path, _ in rest.routes()} == {
        ("GET", "/v1/rulesets"),
        ("POST", "/v1/games"),
        ("POST", "/v1/games:legalMoves"),
        ("POST", "/v1/games:applyMove"),
        ("POST", "/v1/games:score"),
        ("POST", "/v1/games:view"),
        ("POST", "/v1/games:suggestMove"),
        ("POST", "/v1/records:replay"),
    }
    assert len(rest.routes()) == len(pb.DESCRIPTOR.services_by_name["DominoRules"].methods)


def test_rest_cors_lets_a_page_on_another_origin_call(rest_door: RestDoor) -> None:
    headers = {
        "Origin": "https://table.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    status, _, answer_headers = rest_door.raw("OPTIONS", "/v1/games", None, headers)
    assert status == 200
    assert answer_headers.get("Access-Control-Allow-Origin") in ("*", "https://table.example")
    assert "POST" in answer_headers.get("Access-Control-Allow-Methods", "")
    status, _, answer_headers = rest_door.raw(
        "GET", "/v1/rulesets", None, {"Origin": "https://table.example"}
    )
    assert status == 200 and answer_headers.get("Access-Control-Allow-Origin")


def test_rest_accepts_camel_case_and_prints_proto_names(rest_door: RestDoor) -> None:
    game = rest_door.call(
        "NewGame",
        {
            "ruleset": "tsair_deng",
            "players": 2,
            "seed": "names",
            "options": {"tsair_deng": {"tileSet": "DOUBLE_SIX", "mustPlayIfAble": True}},
        },
    )
    assert {"game_id", "seed_commitment", "to_act", "state", "version", "status"} <= set(game)
    view = rest_door.call("GetView", {"state": game["state"], "seat": game["to_act"]})
    assert len(view["hand"]) == 14  # double-six, 2 players
    assert all("open_pip" in m for m in view["legal_moves"])


def test_rest_health(rest_door: RestDoor) -> None:
    status, answer, _ = rest_door.raw("GET", "/healthz", None)
    assert status == 200 and answer == {"status": "SERVING"}


def test_grpc_and_rest_report_the_same_error(grpc_door: GrpcDoor, rest_door: RestDoor) -> None:
    errors: list[tuple[str, str, str]] = []
    for door in (grpc_door, rest_door):
        with pytest.raises(CallError) as caught:
            door.call("NewGame", {"ruleset": "one_arm_joe", "players": 12})
        errors.append((caught.value.code, caught.value.reason, caught.value.message))
    assert errors[0] == errors[1]
