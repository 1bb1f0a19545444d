#!/usr/bin/env bash
# Start a One Arm Joe match and play one move through the REST door, with curl.
#
#   URL=http://127.0.0.1:8080 clients/curl/play.sh
#
# Needs bash, curl and python3 (used only to read and write JSON). Every body is proto3
# JSON; the state token is opaque base64 text: keep it and send it back unchanged.
set -euo pipefail

URL="${URL:-http://127.0.0.1:8080}"
URL="${URL%/}"

# post PATH JSON: POST the body, print the answer; on an error print it and exit 1.
post() {
    local path=$1 body=$2 answer status
    answer=$(curl -sS --max-time 30 -X POST -H 'Content-Type: application/json' \
        --data-binary "$body" -w '\n%{http_code}' "$URL$path")
    status=${answer##*$'\n'}
    answer=${answer%$'\n'*}
    if [[ $status != 200 ]]; then
        echo "POST $path -> HTTP $status: $answer" >&2
        exit 1
    fi
    printf '%s' "$answer"
}

# json EXPRESSION: evaluate a Python expression over the JSON on stdin (as `d`);
# dicts and lists are printed as JSON, strings and numbers as they are.
json() {
    python3 -c '
import json, sys
d = json.load(sys.stdin)
v = eval(sys.argv[1])
print(v if isinstance(v, (str, int, float)) else json.dumps(v, separators=(",", ":")))
' "$1"
}

echo "== GET $URL/v1/rulesets"
curl -sS --max-time 30 --fail-with-body "$URL/v1/rulesets" \
    | json '" ".join(r["id"] for r in d["rulesets"])'

echo "== POST /v1/games (one_arm_joe, 3 players)"
game=$(post /v1/games '{"ruleset": "one_arm_joe", "players": 3, "options": {"one_arm_joe": {"target_score": 40}}}')
state=$(json 'd["state"]' <<<"$game")
version=$(json 'd["version"]' <<<"$game")
echo "game $(json 'd["game_id"]' <<<"$game"), version $version, seat $(json 'd["to_act"]' <<<"$game") to act"

echo "== POST /v1/games:legalMoves"
legal=$(post /v1/games:legalMoves "{\"state\": \"$state\"}")
move=$(json 'd["moves"][0]' <<<"$legal")
echo "$(json 'len(d["moves"])' <<<"$legal") legal moves; playing $move"

echo "== POST /v1/games:applyMove"
after=$(post /v1/games:applyMove "{\"state\": \"$state\", \"move\": $move, \"expected_version\": $version}")
echo "version $(json 'd["version"]' <<<"$after"), status $(json 'd["status"]' <<<"$after"), seat $(json 'd.get("to_act")' <<<"$after") to act"
echo "events: $(json '[e["kind"] for e in d["events"]]' <<<"$after")"

echo "== POST /v1/games:view (spectator)"
state=$(json 'd["state"]' <<<"$after")
post /v1/games:view "{\"state\": \"$state\"}" | json 'd["one_arm_joe"]'
