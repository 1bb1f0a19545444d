from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Value(_message.Message):
    __slots__ = ("number", "flag", "text", "tiles", "list", "none", "numbers")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    FLAG_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    LIST_FIELD_NUMBER: _ClassVar[int]
    NONE_FIELD_NUMBER: _ClassVar[int]
    NUMBERS_FIELD_NUMBER: _ClassVar[int]
    number: int
    flag: bool
    text: str
    tiles: bytes
    list: Values
    none: bool
    numbers: Numbers
    def __init__(self, number: _Optional[int] = ..., flag: _Optional[bool] = ..., text: _Optional[str] = ..., tiles: _Optional[bytes] = ..., list: _Optional[_Union[Values, _Mapping]] = ..., none: _Optional[bool] = ..., numbers: _Optional[_Union[Numbers, _Mapping]] = ...) -> None: ...

class Values(_message.Message):
    __slots__ = ("items",)
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedCompositeFieldContainer[Value]
    def __init__(self, items: _Optional[_Iterable[_Union[Value, _Mapping]]] = ...) -> None: ...

class Numbers(_message.Message):
    __slots__ = ("items",)
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    items: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, items: _Optional[_Iterable[int]] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("ruleset", "game_id", "version", "match")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    game_id: str
    version: int
    match: Values
    def __init__(self, ruleset: _Optional[str] = ..., game_id: _Optional[str] = ..., version: _Optional[int] = ..., match: _Optional[_Union[Values, _Mapping]] = ...) -> None: ...
