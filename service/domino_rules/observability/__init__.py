"""Observability: one log line per call, the Prometheus metrics and optional tracing."""

__all__: list[str] = []
