"""Serving and processes: settings, the supervisor of ``domino-rules serve``, its child
processes, and what they share about starting and draining."""

__all__: list[str] = []
