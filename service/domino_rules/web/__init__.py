"""The pages the REST door serves for people: the playground, the OpenAPI document and
its reference page."""

__all__: list[str] = []
