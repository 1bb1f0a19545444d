"""State tokens and their encoding: the packed layout of a match, the codec between
the rules core and the protobuf messages, the sealed token a caller keeps, and messages
as the REST door's JSON (``pbjson``). With the kernel's ``rules/building.py``, the one
home of the code the service generates for speed."""

__all__: list[str] = []
