"""The two doors: gRPC (with health and reflection) and the REST gateway under gunicorn."""

__all__: list[str] = []
