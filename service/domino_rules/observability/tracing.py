"""Optional tracing with OpenTelemetry: a span per call on both doors, exported by OTLP.

On when ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) is
set and the ``otel`` extra is installed (``pip install 'domino-rules[otel]'``); the
other standard ``OTEL_*`` variables apply (``OTEL_SERVICE_NAME``, default
``domino-rules``; ``OTEL_EXPORTER_OTLP_PROTOCOL``, ``grpc`` by default or
``http/protobuf``; ``OTEL_RESOURCE_ATTRIBUTES``; ``OTEL_TRACES_SAMPLER``). With the
variable set and the extra missing, each door logs one warning and serves untraced.

Health probes and scrapes make no spans. Every access line of a traced call carries the
``trace_id`` and ``span_id`` of its span (:func:`current_ids`). Without the variable this
module imports nothing of OpenTelemetry, and costs nothing.

The exporter sends to the collector over the network: where egress is restricted (a
Kubernetes NetworkPolicy), allow the collector's port (OTLP: 4317 for gRPC, 4318 for
HTTP), as ``deploy/README.md`` shows.
Each door process sets tracing up for itself, after its own start (a gRPC process) or
fork (a gunicorn worker), since the exporter runs a thread.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable
from typing import Any

__all__ = [
    "ENDPOINT_VARIABLES",
    "current_ids",
    "enabled",
    "instrument_flask",
    "instrument_grpc_server",
    "on",
]

log = logging.getLogger(__name__)

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
DEFAULT_SERVICE_NAME = "domino-rules"
#: The REST paths that make no span: health probes and scrapes.
QUIET_URLS = "/healthz,/readyz,/metrics"
_EXPORTERS = {
    "grpc": "opentelemetry.exporter.otlp.proto.grpc.trace_exporter",
    "http/protobuf": "opentelemetry.exporter.otlp.proto.http.trace_exporter",
}

_ready: bool | None = None
#: Whether this process traces its calls (set up, with OpenTelemetry loaded).
on = False
_trace: Any = None  # opentelemetry.trace, once set up


def enabled() -> bool:
    """Whether an OTLP endpoint is configured."""
    return any(os.environ.get(name) for name in ENDPOINT_VARIABLES)


def _modules(*names: str) -> list[Any]:
    return [importlib.import_module(name) for name in names]


def _set_up() -> bool:
    """The tracer provider of this process, exporting by OTLP: whether it could be made."""
    global _ready
    if _ready is not None:
        return _ready
    _ready = False
    if not enabled():
        return False
    protocol = (
        os.environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
        or os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
        or "grpc"
    )
    try:
        trace, sdk_trace, export, resources, exporter = _modules(
            "opentelemetry.trace",
            "opentelemetry.sdk.trace",
            "opentelemetry.sdk.trace.export",
            "opentelemetry.sdk.resources",
            _EXPORTERS.get(protocol, _EXPORTERS["grpc"]),
        )
    except ImportError as exc:
        log.warning(
            "%s is set, but OpenTelemetry is not installed (%s): serving without tracing; "
            "install the otel extra: pip install 'domino-rules[otel]'",
            " / ".join(ENDPOINT_VARIABLES),
            exc.name,
        )
        return False
    attributes = (
        {} if os.environ.get("OTEL_SERVICE_NAME") else {"service.name": DEFAULT_SERVICE_NAME}
    )
    provider = sdk_trace.TracerProvider(resource=resources.Resource.create(attributes))
    provider.add_span_processor(export.BatchSpanProcessor(exporter.OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    _ready = True
    return True


def _turn_on() -> None:
    global on, _trace
    _trace = importlib.import_module("opentelemetry.trace")
    on = True


def current_ids() -> tuple[str, str] | None:
    """The trace id (32 hex digits) and span id (16) of the span current in this thread,
    if tracing is on and there is one."""
    if not on:
        return None
    context = _trace.get_current_span().get_span_context()
    if not context.is_valid:
        return None
    return f"{context.trace_id:032x}", f"{context.span_id:016x}"


def instrument_grpc_server() -> bool:
    """Trace every gRPC server made from now on in this process (call before
    ``grpc.server``); whether tracing is on."""
    if not _set_up():
        return False
    grpc_instrumentation, filters = _modules(
        "opentelemetry.instrumentation.grpc", "opentelemetry.instrumentation.grpc.filters"
    )
    # health checks (the gateway's readiness, probes) make no spans
    quiet = filters.negate(filters.health_check())
    grpc_instrumentation.GrpcInstrumentorServer(filter_=quiet).instrument()
    _turn_on()  # each call's access line is written inside its span
    return True


def instrument_flask(app: Any, note_span: Callable[[], None] | None = None) -> bool:
    """Trace every request of the Flask ``app``, and run ``note_span`` in each request
    once its span has started (the gateway gives
    :func:`domino_rules.observability.calls.note_span`); whether tracing is on."""
    if not _set_up():
        return False
    (flask_instrumentation,) = _modules("opentelemetry.instrumentation.flask")
    # probes and scrapes make no spans (OTEL_PYTHON_FLASK_EXCLUDED_URLS changes that)
    excluded = os.environ.get("OTEL_PYTHON_FLASK_EXCLUDED_URLS") or QUIET_URLS
    flask_instrumentation.FlaskInstrumentor().instrument_app(app, excluded_urls=excluded)
    if note_span is not None:
        # after the instrumentation's own before_request, which starts the request's span:
        # the call notes its ids there, since its access line is written once the span ended
        app.before_request(note_span)
    _turn_on()
    return True
