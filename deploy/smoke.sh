#!/usr/bin/env bash
# deploy/smoke.sh IMAGE: run the image as a container, check that it is healthy and that
# both doors serve, then stop it and check that it stopped cleanly.
#
#   deploy/smoke.sh domino-rules:0.2.0
#   ENGINE=podman deploy/smoke.sh localhost/domino-rules:0.2.0
#
# The engine is $ENGINE (a command, options allowed: ENGINE="podman --log-level warn"),
# else docker if its daemon answers, else podman. The container
# runs with sealed tokens (a key made by the image's own `domino-rules keygen`) and no
# network at all: every check runs inside it, with the image's Python:
#   1. the image has its HEALTHCHECK (an image built by podman or buildah without
#      `--format docker` has none), and the check passes;
#   2. GET /readyz is SERVING (both doors: the gateway asks the gRPC door);
#   3. REST: POST /v1/games starts a game, and GET /v1/rulesets lists four rulesets;
#   4. gRPC: grpc.health.v1 Check of "" and "domino_rules.v1.DominoRules" is SERVING,
#      and a NewGame over gRPC answers a token the REST door then accepts;
#   5. GET /metrics counts those calls;
#   6. a stop (SIGTERM) ends it with exit status 0, no traceback in its log, and an
#      access line for each call.
# Exit status 0 when every check passed; the failed check is named otherwise.
set -euo pipefail

IMAGE=${1:?usage: deploy/smoke.sh IMAGE}
# $ENGINE, else docker or podman; with none, engine.sh says what to do (exit 2)
ENGINE=$("$(dirname "$0")/engine.sh") || exit 2
read -r -a engine <<<"$ENGINE"
kind=${engine[0]##*/}
NAME=domino-rules-smoke-$$
START_TIMEOUT=${START_TIMEOUT:-90}

step() { printf 'smoke: %s\n' "$*"; }
fail() {
    printf 'smoke: FAILED: %s\n' "$*" >&2
    printf -- '--- container log ---\n' >&2
    "${engine[@]}" logs "$NAME" >&2 2>&1 || true
    exit 1
}
cleanup() { "${engine[@]}" rm -f "$NAME" >/dev/null 2>&1 || true; }
trap cleanup EXIT

# Python run inside the container (the image's venv: grpc and the generated stubs).
inside() { "${engine[@]}" exec "$NAME" python -c "$1"; }

step "${engine[*]}, image $IMAGE"
healthcheck=$("${engine[@]}" image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE")
[[ $healthcheck == *healthz* ]] || fail "the image has no HEALTHCHECK (podman/buildah: build with --format docker)"

if [[ $kind == podman ]]; then
    health_flags=(--health-interval disable) # no timer: `podman healthcheck run` below
else
    health_flags=(--health-interval 2s --health-start-period 60s)
fi
key=$("${engine[@]}" run --rm --network none "${health_flags[@]}" "$IMAGE" domino-rules keygen --id smoke)
"${engine[@]}" run -d --name "$NAME" --network none "${health_flags[@]}" \
    -e DOMINO_RULES_SEAL_KEYS="$key" -e DOMINO_RULES_REQUIRE_SEALED=1 \
    "$IMAGE" >/dev/null

step "waiting for /readyz (at most ${START_TIMEOUT} s)"
ready='
import sys, urllib.request
try:
    sys.exit(0 if urllib.request.urlopen("http://127.0.0.1:8080/readyz", timeout=2).status == 200 else 1)
except OSError:
    sys.exit(1)
'
for ((waited = 0; ; waited++)); do
    if inside "$ready" 2>/dev/null; then break; fi
    [[ $("${engine[@]}" inspect --format '{{.State.Running}}' "$NAME") == true ]] || fail "the container exited"
    ((waited < START_TIMEOUT)) || fail "/readyz not SERVING within ${START_TIMEOUT} s"
    sleep 1
done

step "HEALTHCHECK"
if [[ $kind == podman ]]; then
    "${engine[@]}" healthcheck run "$NAME" || fail "podman healthcheck run"
else
    for ((waited = 0; ; waited++)); do
        health=$("${engine[@]}" inspect --format '{{.State.Health.Status}}' "$NAME")
        [[ $health == healthy ]] && break
        ((waited < 60)) || fail "docker reports the container $health"
        sleep 1
    done
fi

step "both doors"
inside '
import json, urllib.request
import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from domino_rules.v1 import domino_rules_pb2 as pb, domino_rules_pb2_grpc as pb_grpc

base = "http://127.0.0.1:8080"

def post(path, body):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "x-request-id": "smoke-rest"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.headers["x-request-id"] == "smoke-rest", answer.headers
        return json.load(answer)

def get(path):
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return answer.read().decode()

game = post("/v1/games", {"ruleset": "one_arm_joe", "players": 2, "seed": "smoke"})
assert game["status"] == "IN_PROGRESS" and game["version"] == 0, game
assert "one_arm_joe" in {r["id"] for r in json.loads(get("/v1/rulesets"))["rulesets"]}
print("smoke: REST NewGame", game["game_id"])

with grpc.insecure_channel("127.0.0.1:50051") as channel:
    health = health_pb2_grpc.HealthStub(channel)
    for name in ("", "domino_rules.v1.DominoRules"):
        status = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=10).status
        assert status == health_pb2.HealthCheckResponse.SERVING, (name, status)
    stub = pb_grpc.DominoRulesStub(channel)
    started, call = stub.NewGame.with_call(
        pb.NewGameRequest(ruleset="one_arm_joe", players=3, seed="smoke"),
        metadata=(("x-request-id", "smoke-grpc"),), timeout=10)
    assert ("x-request-id", "smoke-grpc") in tuple(call.initial_metadata())
print("smoke: gRPC health SERVING, gRPC NewGame", started.game_id)

import base64
moves = post("/v1/games:legalMoves", {"state": base64.b64encode(started.state).decode()})
assert moves["game_id"] == started.game_id and moves["moves"], moves
print("smoke: REST GetLegalMoves on the gRPC token")
' || fail "a door did not answer as it should"

step "/metrics"
sleep 1.5 # each process writes its counts into the metrics once a second
inside '
import urllib.request
metrics = urllib.request.urlopen("http://127.0.0.1:8080/metrics", timeout=10).read().decode()
for sample in (
    "domino_rules_requests_total{code=\"OK\",door=\"rest\",reason=\"\",rpc=\"NewGame\"} 1.0",
    "domino_rules_requests_total{code=\"OK\",door=\"grpc\",reason=\"\",rpc=\"NewGame\"} 1.0",
    "domino_rules_requests_total{code=\"OK\",door=\"rest\",reason=\"\",rpc=\"GetLegalMoves\"} 1.0",
    "domino_rules_games_started_total{ruleset=\"one_arm_joe\"} 2.0",
    "process_resident_memory_bytes{pid=",
):
    assert sample in metrics, sample
' || fail "/metrics does not count the calls"

step "stop"
"${engine[@]}" stop -t 40 "$NAME" >/dev/null
status=$("${engine[@]}" inspect --format '{{.State.ExitCode}}' "$NAME")
[[ $status == 0 ]] || fail "exit status $status after a stop"
log=$("${engine[@]}" logs "$NAME" 2>&1)
[[ $log != *Traceback* ]] || fail "a traceback in the log"
[[ $log == *request_id=smoke-rest* && $log == *request_id=smoke-grpc* ]] || fail "no access line for a call"
step "passed"
