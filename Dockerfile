# The domino rules service: gRPC on 50051, the REST gateway (and /metrics) on 8080.
#
#   make image                      # docker if a daemon answers, else podman --format docker
#   docker build -t domino-rules:0.2.0 .
#   docker build --build-arg BASE=registry.example.com/python:3.11-slim -t domino-rules:0.2.0 .
#   docker run --rm -p 50051:50051 -p 8080:8080 \
#       -e DOMINO_RULES_SEAL_KEYS="$(domino-rules keygen)" -e DOMINO_RULES_REQUIRE_SEALED=1 \
#       domino-rules:0.2.0
#   deploy/smoke.sh domino-rules:0.2.0   # runs it, checks both doors, stops it
#
# BASE is any image with Python 3.11 or later as `python` on PATH, its venv module, and
# the groupadd/useradd tools (Debian's python:3.11-slim by default; a mirror of it, or
# one built in house). Settings come from the DOMINO_RULES_* environment variables
# (service/domino_rules/serving/settings.py). The HEALTHCHECK is an image setting that only the
# docker format keeps: podman and buildah need `--format docker` (make image does so).
# EXTRAS are the package's extras installed with it: otel (tracing, on when
# OTEL_EXPORTER_OTLP_ENDPOINT is set) by default; --build-arg EXTRAS= for none. Every
# version comes from constraints.txt, the same as `make` and CI install. The image runs
# on a read-only root filesystem: serve writes only in $TMPDIR (/tmp), so mount a
# writable volume there (deploy/kubernetes does: an emptyDir).
ARG BASE=python:3.11-slim

# ---------------------------------------------------------------- build: a venv with the project
FROM ${BASE} AS build
ARG EXTRAS=otel

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN python -m venv /opt/venv
WORKDIR /src
COPY . .
# A regular (not editable) install from the source tree; dependencies come from PyPI, at
# the versions of constraints.txt.
RUN /opt/venv/bin/pip install -c constraints.txt ".${EXTRAS:+[$EXTRAS]}" \
 && /opt/venv/bin/domino-rules --version

# ---------------------------------------------------------------- runtime
FROM ${BASE}

RUN groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid app --home-dir /home/app --create-home \
        --shell /usr/sbin/nologin app

COPY --from=build /opt/venv /opt/venv

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DOMINO_RULES_HOST=0.0.0.0

USER 10001:10001
WORKDIR /home/app

EXPOSE 50051 8080

# Standard library only: the REST door's /healthz (honours DOMINO_RULES_HTTP_PORT).
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('DOMINO_RULES_HTTP_PORT') or '8080'; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:' + port + '/healthz', timeout=4).status == 200 else 1)"]

CMD ["domino-rules", "serve"]
