#!/usr/bin/env bash
# Start a One Arm Joe match through the REST door with curl: play the first legal move,
# then the move a bot suggests for the next seat, and show the table.
#
#   URL=http://127.0.0.1:8080 clients/curl/play.sh
#
# Needs bash, curl and python3 (used only to read JSON). Every body is proto3 JSON; the
# state token is opaque base64 text, and a legal move is sent back as it came: keep
# both and send them back unchanged.
set -euo pipefail

URL="${URL:-http://127.0.0.1:8080}"
URL="${URL%/}"

# call METHOD PATH [JSON]: print the answer; on anything but 200 print it and exit 1.
call() {
    local method=$1 path=$2 answer status
    local args=(-sS --max-time 30 -X "$method" -w '\n%{http_code}')
    if [[ $# -ge 3 ]]; then
        args+=(-H 'Content-Type: application/json' --data-binary "$3")
    fi
    answer=$(curl "${args[@]}" "$URL$path") || { echo "$method $path: no answer" >&2; exit 1; }
    status=${answer##*$'\n'}
    answer=${answer%$'\n'*}
    if [[ $status != 200 ]]; then
        echo "$method $path -> HTTP $status: $answer" >&2
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

echo "== GET /v1/rulesets"
call GET /v1/rulesets | json '" ".join(r["id"] for r in d["rulesets"])'

echo "== POST /v1/games (one_arm_joe, 3 players)"
game=$(call POST /v1/games '{"ruleset": "one_arm_joe", "players": 3, "options": {"one_arm_joe": {"target_score": 40}}}')
state=$(json 'd["state"]' <<<"$game")
version=$(json 'd["version"]' <<<"$game")
echo "game $(json 'd["game_id"]' <<<"$game"), version $version, seat $(json 'd["to_act"]' <<<"$game") to act"

echo "== POST /v1/games:legalMoves"
legal=$(call POST /v1/games:legalMoves "{\"state\": \"$state\"}")
move=$(json 'd["moves"][0]' <<<"$legal")
echo "$(json 'len(d["moves"])' <<<"$legal") legal moves; playing $move"

echo "== POST /v1/games:applyMove"
after=$(call POST /v1/games:applyMove "{\"state\": \"$state\", \"move\": $move, \"expected_version\": $version}")
state=$(json 'd["state"]' <<<"$after")
version=$(json 'd["version"]' <<<"$after")
echo "version $version, status $(json 'd["status"]' <<<"$after"), seat $(json 'd.get("to_act")' <<<"$after") to act"
echo "events: $(json '[e["kind"] for e in d["events"]]' <<<"$after")"

echo "== POST /v1/games:suggestMove (GREEDY, for the seat to act)"
hint=$(call POST /v1/games:suggestMove "{\"state\": \"$state\", \"level\": \"GREEDY\"}")
move=$(json 'd["move"]' <<<"$hint")
echo "seat $(json 'd["seat"]' <<<"$hint"): suggested $move"

echo "== POST /v1/games:applyMove (the suggested move)"
after=$(call POST /v1/games:applyMove "{\"state\": \"$state\", \"move\": $move, \"expected_version\": $version}")
state=$(json 'd["state"]' <<<"$after")
echo "version $(json 'd["version"]' <<<"$after"), status $(json 'd["status"]' <<<"$after"), seat $(json 'd.get("to_act")' <<<"$after") to act"

echo "== POST /v1/games:view (spectator)"
call POST /v1/games:view "{\"state\": \"$state\"}" | json 'd["one_arm_joe"]'
