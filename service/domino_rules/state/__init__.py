"""State tokens and their encoding: the packed layout of a match, the codec between
the rules core and the protobuf messages, and the sealed token a caller keeps."""

__all__: list[str] = []
