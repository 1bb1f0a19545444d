"""The two doors: gRPC (with health and reflection) and the REST gateway under gunicorn,
and the entry point of the process of each (:mod:`.child`)."""

__all__: list[str] = []
