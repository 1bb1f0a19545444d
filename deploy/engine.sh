#!/usr/bin/env bash
# deploy/engine.sh: the container engine that builds and runs the image, on stdout.
#
# $ENGINE if set (a command, options allowed: ENGINE="podman --log-level warn"), else
# docker when its daemon answers, else podman. When there is none, it says so on stderr,
# with what to do, and exits 2. `make image`, `make smoke` and deploy/smoke.sh use it.
set -euo pipefail

if [[ -n ${ENGINE:-} ]]; then
    read -r -a words <<<"$ENGINE"
    if ! command -v "${words[0]}" >/dev/null 2>&1; then
        echo "domino-rules: ENGINE is '$ENGINE', but there is no '${words[0]}' command on PATH" >&2
        exit 2
    fi
    echo "$ENGINE"
    exit 0
fi
if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    echo docker
    exit 0
fi
if command -v podman >/dev/null 2>&1; then
    echo podman
    exit 0
fi
{
    echo "domino-rules: no container engine: building or running the image needs docker (with its daemon running) or podman, and neither is available."
    if command -v docker >/dev/null 2>&1; then
        echo "  - docker is installed but its daemon does not answer ('docker info' fails): start it, or point docker at one (DOCKER_HOST)"
    else
        echo "  - docker: not installed"
    fi
    echo "  - podman: not installed (Debian and Ubuntu: apt-get install podman; it needs no daemon)"
    echo "  - or name the engine command yourself: make image ENGINE=podman, ENGINE=\"docker --context NAME\""
} >&2
exit 2
