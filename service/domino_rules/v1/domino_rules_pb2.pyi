from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MoveKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOVE_KIND_UNSPECIFIED: _ClassVar[MoveKind]
    PLAY: _ClassVar[MoveKind]
    DRAW: _ClassVar[MoveKind]
    PASS: _ClassVar[MoveKind]
    DISCARD: _ClassVar[MoveKind]
    CAPTURE: _ClassVar[MoveKind]
    CAPTURE_DRAWN: _ClassVar[MoveKind]
    PILE: _ClassVar[MoveKind]
    NEXT_HAND: _ClassVar[MoveKind]

class End(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    END_UNSPECIFIED: _ClassVar[End]
    LEFT: _ClassVar[End]
    RIGHT: _ClassVar[End]
    UP: _ClassVar[End]
    DOWN: _ClassVar[End]

class Status(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STATUS_UNSPECIFIED: _ClassVar[Status]
    IN_PROGRESS: _ClassVar[Status]
    HAND_OVER: _ClassVar[Status]
    MATCH_OVER: _ClassVar[Status]

class HandEnd(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HAND_END_UNSPECIFIED: _ClassVar[HandEnd]
    DOMINOED: _ClassVar[HandEnd]
    BLOCKED: _ClassVar[HandEnd]
    IDLE_ROUNDS: _ClassVar[HandEnd]
    WOODPILE_EXHAUSTED: _ClassVar[HandEnd]
    ALL_TILES_PLACED: _ClassVar[HandEnd]
    TARGET_REACHED: _ClassVar[HandEnd]

class AllFivesSpinner(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ALL_FIVES_SPINNER_UNSPECIFIED: _ClassVar[AllFivesSpinner]
    FIRST_DOUBLE: _ClassVar[AllFivesSpinner]
    NONE: _ClassVar[AllFivesSpinner]

class BotLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOT_LEVEL_UNSPECIFIED: _ClassVar[BotLevel]
    RANDOM: _ClassVar[BotLevel]
    GREEDY: _ClassVar[BotLevel]
    STRONG: _ClassVar[BotLevel]
MOVE_KIND_UNSPECIFIED: MoveKind
PLAY: MoveKind
DRAW: MoveKind
PASS: MoveKind
DISCARD: MoveKind
CAPTURE: MoveKind
CAPTURE_DRAWN: MoveKind
PILE: MoveKind
NEXT_HAND: MoveKind
END_UNSPECIFIED: End
LEFT: End
RIGHT: End
UP: End
DOWN: End
STATUS_UNSPECIFIED: Status
IN_PROGRESS: Status
HAND_OVER: Status
MATCH_OVER: Status
HAND_END_UNSPECIFIED: HandEnd
DOMINOED: HandEnd
BLOCKED: HandEnd
IDLE_ROUNDS: HandEnd
WOODPILE_EXHAUSTED: HandEnd
ALL_TILES_PLACED: HandEnd
TARGET_REACHED: HandEnd
ALL_FIVES_SPINNER_UNSPECIFIED: AllFivesSpinner
FIRST_DOUBLE: AllFivesSpinner
NONE: AllFivesSpinner
BOT_LEVEL_UNSPECIFIED: BotLevel
RANDOM: BotLevel
GREEDY: BotLevel
STRONG: BotLevel

class Tile(_message.Message):
    __slots__ = ("high", "low")
    HIGH_FIELD_NUMBER: _ClassVar[int]
    LOW_FIELD_NUMBER: _ClassVar[int]
    high: int
    low: int
    def __init__(self, high: _Optional[int] = ..., low: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("seat", "kind", "tile", "target", "end", "open_pip", "train")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    OPEN_PIP_FIELD_NUMBER: _ClassVar[int]
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: MoveKind
    tile: Tile
    target: Tile
    end: End
    open_pip: int
    train: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[MoveKind, str]] = ..., tile: _Optional[_Union[Tile, _Mapping]] = ..., target: _Optional[_Union[Tile, _Mapping]] = ..., end: _Optional[_Union[End, str]] = ..., open_pip: _Optional[int] = ..., train: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("kind", "seat", "tile", "target", "end", "open_pip", "dice", "tiles", "count", "points", "seats", "scores", "hidden", "train")
    class Kind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        KIND_UNSPECIFIED: _ClassVar[Event.Kind]
        DEAL: _ClassVar[Event.Kind]
        REDEAL: _ClassVar[Event.Kind]
        PLAY: _ClassVar[Event.Kind]
        AUTO_PLAY: _ClassVar[Event.Kind]
        DRAW: _ClassVar[Event.Kind]
        BONUS_TURN: _ClassVar[Event.Kind]
        PASS: _ClassVar[Event.Kind]
        TURN_PASSED: _ClassVar[Event.Kind]
        DISCARD: _ClassVar[Event.Kind]
        CAPTURE: _ClassVar[Event.Kind]
        PILE: _ClassVar[Event.Kind]
        PAIR_LAID: _ClassVar[Event.Kind]
        REVEAL: _ClassVar[Event.Kind]
        TO_LAKE: _ClassVar[Event.Kind]
        DICE: _ClassVar[Event.Kind]
        LEADER: _ClassVar[Event.Kind]
        PEG: _ClassVar[Event.Kind]
        HAND_OVER: _ClassVar[Event.Kind]
        MATCH_OVER: _ClassVar[Event.Kind]
        NEXT_HAND: _ClassVar[Event.Kind]
        CHOICE: _ClassVar[Event.Kind]
        ENGINE: _ClassVar[Event.Kind]
        MARKER_UP: _ClassVar[Event.Kind]
        MARKER_DOWN: _ClassVar[Event.Kind]
    KIND_UNSPECIFIED: Event.Kind
    DEAL: Event.Kind
    REDEAL: Event.Kind
    PLAY: Event.Kind
    AUTO_PLAY: Event.Kind
    DRAW: Event.Kind
    BONUS_TURN: Event.Kind
    PASS: Event.Kind
    TURN_PASSED: Event.Kind
    DISCARD: Event.Kind
    CAPTURE: Event.Kind
    PILE: Event.Kind
    PAIR_LAID: Event.Kind
    REVEAL: Event.Kind
    TO_LAKE: Event.Kind
    DICE: Event.Kind
    LEADER: Event.Kind
    PEG: Event.Kind
    HAND_OVER: Event.Kind
    MATCH_OVER: Event.Kind
    NEXT_HAND: Event.Kind
    CHOICE: Event.Kind
    ENGINE: Event.Kind
    MARKER_UP: Event.Kind
    MARKER_DOWN: Event.Kind
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    OPEN_PIP_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    TRAIN_FIELD_NUMBER: _ClassVar[int]
    kind: Event.Kind
    seat: int
    tile: Tile
    target: Tile
    end: End
    open_pip: int
    dice: _containers.RepeatedScalarFieldContainer[int]
    tiles: _containers.RepeatedCompositeFieldContainer[Tile]
    count: int
    points: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    hidden: bool
    train: int
    def __init__(self, kind: _Optional[_Union[Event.Kind, str]] = ..., seat: _Optional[int] = ..., tile: _Optional[_Union[Tile, _Mapping]] = ..., target: _Optional[_Union[Tile, _Mapping]] = ..., end: _Optional[_Union[End, str]] = ..., open_pip: _Optional[int] = ..., dice: _Optional[_Iterable[int]] = ..., tiles: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., count: _Optional[int] = ..., points: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[int]] = ..., hidden: _Optional[bool] = ..., train: _Optional[int] = ...) -> None: ...

class Options(_message.Message):
    __slots__ = ("one_arm_joe", "tsair_deng", "tiu_u", "throw_up", "block", "dancing_dragons", "all_fives", "mexican_train", "chicken_foot")
    ONE_ARM_JOE_FIELD_NUMBER: _ClassVar[int]
    TSAIR_DENG_FIELD_NUMBER: _ClassVar[int]
    TIU_U_FIELD_NUMBER: _ClassVar[int]
    THROW_UP_FIELD_NUMBER: _ClassVar[int]
    BLOCK_FIELD_NUMBER: _ClassVar[int]
    DANCING_DRAGONS_FIELD_NUMBER: _ClassVar[int]
    ALL_FIVES_FIELD_NUMBER: _ClassVar[int]
    MEXICAN_TRAIN_FIELD_NUMBER: _ClassVar[int]
    CHICKEN_FOOT_FIELD_NUMBER: _ClassVar[int]
    one_arm_joe: OneArmJoeOptions
    tsair_deng: TsairDengOptions
    tiu_u: TiuUOptions
    throw_up: ThrowUpOptions
    block: BlockOptions
    dancing_dragons: DancingDragonsOptions
    all_fives: AllFivesOptions
    mexican_train: MexicanTrainOptions
    chicken_foot: ChickenFootOptions
    def __init__(self, one_arm_joe: _Optional[_Union[OneArmJoeOptions, _Mapping]] = ..., tsair_deng: _Optional[_Union[TsairDengOptions, _Mapping]] = ..., tiu_u: _Optional[_Union[TiuUOptions, _Mapping]] = ..., throw_up: _Optional[_Union[ThrowUpOptions, _Mapping]] = ..., block: _Optional[_Union[BlockOptions, _Mapping]] = ..., dancing_dragons: _Optional[_Union[DancingDragonsOptions, _Mapping]] = ..., all_fives: _Optional[_Union[AllFivesOptions, _Mapping]] = ..., mexican_train: _Optional[_Union[MexicanTrainOptions, _Mapping]] = ..., chicken_foot: _Optional[_Union[ChickenFootOptions, _Mapping]] = ...) -> None: ...

class OneArmJoeOptions(_message.Message):
    __slots__ = ("set_max_pip", "lead_double_bonus", "scoring", "tie", "target_score")
    class Scoring(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        SCORING_UNSPECIFIED: _ClassVar[OneArmJoeOptions.Scoring]
        OTHERS_TOTAL: _ClassVar[OneArmJoeOptions.Scoring]
        OTHERS_MINUS_OWN: _ClassVar[OneArmJoeOptions.Scoring]
    SCORING_UNSPECIFIED: OneArmJoeOptions.Scoring
    OTHERS_TOTAL: OneArmJoeOptions.Scoring
    OTHERS_MINUS_OWN: OneArmJoeOptions.Scoring
    class Tie(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        TIE_UNSPECIFIED: _ClassVar[OneArmJoeOptions.Tie]
        NO_SCORE: _ClassVar[OneArmJoeOptions.Tie]
        SHARED: _ClassVar[OneArmJoeOptions.Tie]
    TIE_UNSPECIFIED: OneArmJoeOptions.Tie
    NO_SCORE: OneArmJoeOptions.Tie
    SHARED: OneArmJoeOptions.Tie
    SET_MAX_PIP_FIELD_NUMBER: _ClassVar[int]
    LEAD_DOUBLE_BONUS_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    TIE_FIELD_NUMBER: _ClassVar[int]
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    set_max_pip: int
    lead_double_bonus: bool
    scoring: OneArmJoeOptions.Scoring
    tie: OneArmJoeOptions.Tie
    target_score: int
    def __init__(self, set_max_pip: _Optional[int] = ..., lead_double_bonus: _Optional[bool] = ..., scoring: _Optional[_Union[OneArmJoeOptions.Scoring, str]] = ..., tie: _Optional[_Union[OneArmJoeOptions.Tie, str]] = ..., target_score: _Optional[int] = ...) -> None: ...

class TsairDengOptions(_message.Message):
    __slots__ = ("tile_set", "must_play_if_able", "hands", "target_score")
    class TileSet(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        TILE_SET_UNSPECIFIED: _ClassVar[TsairDengOptions.TileSet]
        CHINESE: _ClassVar[TsairDengOptions.TileSet]
        DOUBLE_SIX: _ClassVar[TsairDengOptions.TileSet]
    TILE_SET_UNSPECIFIED: TsairDengOptions.TileSet
    CHINESE: TsairDengOptions.TileSet
    DOUBLE_SIX: TsairDengOptions.TileSet
    TILE_SET_FIELD_NUMBER: _ClassVar[int]
    MUST_PLAY_IF_ABLE_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    tile_set: TsairDengOptions.TileSet
    must_play_if_able: bool
    hands: int
    target_score: int
    def __init__(self, tile_set: _Optional[_Union[TsairDengOptions.TileSet, str]] = ..., must_play_if_able: _Optional[bool] = ..., hands: _Optional[int] = ..., target_score: _Optional[int] = ...) -> None: ...

class TiuUOptions(_message.Message):
    __slots__ = ("may_decline", "red_sixes", "hands")
    class RedSixes(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        RED_SIXES_UNSPECIFIED: _ClassVar[TiuUOptions.RedSixes]
        DOUBLE_SIX_ONLY: _ClassVar[TiuUOptions.RedSixes]
        ALL_SIXES: _ClassVar[TiuUOptions.RedSixes]
    RED_SIXES_UNSPECIFIED: TiuUOptions.RedSixes
    DOUBLE_SIX_ONLY: TiuUOptions.RedSixes
    ALL_SIXES: TiuUOptions.RedSixes
    MAY_DECLINE_FIELD_NUMBER: _ClassVar[int]
    RED_SIXES_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    may_decline: bool
    red_sixes: TiuUOptions.RedSixes
    hands: int
    def __init__(self, may_decline: _Optional[bool] = ..., red_sixes: _Optional[_Union[TiuUOptions.RedSixes, str]] = ..., hands: _Optional[int] = ...) -> None: ...

class BlockOptions(_message.Message):
    __slots__ = ("set_max_pip", "partnership", "hand_size", "draw", "boneyard_keep", "first_lead", "domino_wins", "scoring", "target_score", "next_lead")
    class FirstLead(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        FIRST_LEAD_UNSPECIFIED: _ClassVar[BlockOptions.FirstLead]
        HIGHEST_DOUBLE: _ClassVar[BlockOptions.FirstLead]
        ANY_TILE: _ClassVar[BlockOptions.FirstLead]
    FIRST_LEAD_UNSPECIFIED: BlockOptions.FirstLead
    HIGHEST_DOUBLE: BlockOptions.FirstLead
    ANY_TILE: BlockOptions.FirstLead
    class Scoring(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        SCORING_UNSPECIFIED: _ClassVar[BlockOptions.Scoring]
        OTHERS_TOTAL: _ClassVar[BlockOptions.Scoring]
        OTHERS_MINUS_OWN: _ClassVar[BlockOptions.Scoring]
        ALL_PIPS: _ClassVar[BlockOptions.Scoring]
    SCORING_UNSPECIFIED: BlockOptions.Scoring
    OTHERS_TOTAL: BlockOptions.Scoring
    OTHERS_MINUS_OWN: BlockOptions.Scoring
    ALL_PIPS: BlockOptions.Scoring
    class NextLead(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        NEXT_LEAD_UNSPECIFIED: _ClassVar[BlockOptions.NextLead]
        AS_FIRST: _ClassVar[BlockOptions.NextLead]
        WINNER: _ClassVar[BlockOptions.NextLead]
        NEXT_SEAT: _ClassVar[BlockOptions.NextLead]
    NEXT_LEAD_UNSPECIFIED: BlockOptions.NextLead
    AS_FIRST: BlockOptions.NextLead
    WINNER: BlockOptions.NextLead
    NEXT_SEAT: BlockOptions.NextLead
    SET_MAX_PIP_FIELD_NUMBER: _ClassVar[int]
    PARTNERSHIP_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    BONEYARD_KEEP_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEAD_FIELD_NUMBER: _ClassVar[int]
    DOMINO_WINS_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_LEAD_FIELD_NUMBER: _ClassVar[int]
    set_max_pip: int
    partnership: bool
    hand_size: int
    draw: bool
    boneyard_keep: int
    first_lead: BlockOptions.FirstLead
    domino_wins: bool
    scoring: BlockOptions.Scoring
    target_score: int
    next_lead: BlockOptions.NextLead
    def __init__(self, set_max_pip: _Optional[int] = ..., partnership: _Optional[bool] = ..., hand_size: _Optional[int] = ..., draw: _Optional[bool] = ..., boneyard_keep: _Optional[int] = ..., first_lead: _Optional[_Union[BlockOptions.FirstLead, str]] = ..., domino_wins: _Optional[bool] = ..., scoring: _Optional[_Union[BlockOptions.Scoring, str]] = ..., target_score: _Optional[int] = ..., next_lead: _Optional[_Union[BlockOptions.NextLead, str]] = ...) -> None: ...

class DancingDragonsOptions(_message.Message):
    __slots__ = ("must_play_if_able", "hands", "target_score")
    MUST_PLAY_IF_ABLE_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    must_play_if_able: bool
    hands: int
    target_score: int
    def __init__(self, must_play_if_able: _Optional[bool] = ..., hands: _Optional[int] = ..., target_score: _Optional[int] = ...) -> None: ...

class AllFivesOptions(_message.Message):
    __slots__ = ("set_max_pip", "partnership", "hand_size", "draw", "boneyard_keep", "first_lead", "next_lead", "spinner", "play_scoring", "divide_by_five", "partners_play_out", "hand_bonus", "target_score", "finish_hand", "exact_target")
    class FirstLead(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        FIRST_LEAD_UNSPECIFIED: _ClassVar[AllFivesOptions.FirstLead]
        ANY_TILE: _ClassVar[AllFivesOptions.FirstLead]
        HIGHEST_DOUBLE: _ClassVar[AllFivesOptions.FirstLead]
    FIRST_LEAD_UNSPECIFIED: AllFivesOptions.FirstLead
    ANY_TILE: AllFivesOptions.FirstLead
    HIGHEST_DOUBLE: AllFivesOptions.FirstLead
    class NextLead(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        NEXT_LEAD_UNSPECIFIED: _ClassVar[AllFivesOptions.NextLead]
        WINNER: _ClassVar[AllFivesOptions.NextLead]
        NEXT_SEAT: _ClassVar[AllFivesOptions.NextLead]
        AS_FIRST: _ClassVar[AllFivesOptions.NextLead]
    NEXT_LEAD_UNSPECIFIED: AllFivesOptions.NextLead
    WINNER: AllFivesOptions.NextLead
    NEXT_SEAT: AllFivesOptions.NextLead
    AS_FIRST: AllFivesOptions.NextLead
    class PlayScoring(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        PLAY_SCORING_UNSPECIFIED: _ClassVar[AllFivesOptions.PlayScoring]
        FIVES: _ClassVar[AllFivesOptions.PlayScoring]
        FIVES_AND_THREES: _ClassVar[AllFivesOptions.PlayScoring]
    PLAY_SCORING_UNSPECIFIED: AllFivesOptions.PlayScoring
    FIVES: AllFivesOptions.PlayScoring
    FIVES_AND_THREES: AllFivesOptions.PlayScoring
    class HandBonus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        HAND_BONUS_UNSPECIFIED: _ClassVar[AllFivesOptions.HandBonus]
        OTHERS_ROUNDED: _ClassVar[AllFivesOptions.HandBonus]
        OTHERS_MINUS_OWN_ROUNDED: _ClassVar[AllFivesOptions.HandBonus]
        CHIP_OUT_POINT: _ClassVar[AllFivesOptions.HandBonus]
        NONE: _ClassVar[AllFivesOptions.HandBonus]
    HAND_BONUS_UNSPECIFIED: AllFivesOptions.HandBonus
    OTHERS_ROUNDED: AllFivesOptions.HandBonus
    OTHERS_MINUS_OWN_ROUNDED: AllFivesOptions.HandBonus
    CHIP_OUT_POINT: AllFivesOptions.HandBonus
    NONE: AllFivesOptions.HandBonus
    SET_MAX_PIP_FIELD_NUMBER: _ClassVar[int]
    PARTNERSHIP_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    BONEYARD_KEEP_FIELD_NUMBER: _ClassVar[int]
    FIRST_LEAD_FIELD_NUMBER: _ClassVar[int]
    NEXT_LEAD_FIELD_NUMBER: _ClassVar[int]
    SPINNER_FIELD_NUMBER: _ClassVar[int]
    PLAY_SCORING_FIELD_NUMBER: _ClassVar[int]
    DIVIDE_BY_FIVE_FIELD_NUMBER: _ClassVar[int]
    PARTNERS_PLAY_OUT_FIELD_NUMBER: _ClassVar[int]
    HAND_BONUS_FIELD_NUMBER: _ClassVar[int]
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    FINISH_HAND_FIELD_NUMBER: _ClassVar[int]
    EXACT_TARGET_FIELD_NUMBER: _ClassVar[int]
    set_max_pip: int
    partnership: bool
    hand_size: int
    draw: bool
    boneyard_keep: int
    first_lead: AllFivesOptions.FirstLead
    next_lead: AllFivesOptions.NextLead
    spinner: AllFivesSpinner
    play_scoring: AllFivesOptions.PlayScoring
    divide_by_five: bool
    partners_play_out: bool
    hand_bonus: AllFivesOptions.HandBonus
    target_score: int
    finish_hand: bool
    exact_target: bool
    def __init__(self, set_max_pip: _Optional[int] = ..., partnership: _Optional[bool] = ..., hand_size: _Optional[int] = ..., draw: _Optional[bool] = ..., boneyard_keep: _Optional[int] = ..., first_lead: _Optional[_Union[AllFivesOptions.FirstLead, str]] = ..., next_lead: _Optional[_Union[AllFivesOptions.NextLead, str]] = ..., spinner: _Optional[_Union[AllFivesSpinner, str]] = ..., play_scoring: _Optional[_Union[AllFivesOptions.PlayScoring, str]] = ..., divide_by_five: _Optional[bool] = ..., partners_play_out: _Optional[bool] = ..., hand_bonus: _Optional[_Union[AllFivesOptions.HandBonus, str]] = ..., target_score: _Optional[int] = ..., finish_hand: _Optional[bool] = ..., exact_target: _Optional[bool] = ...) -> None: ...

class MexicanTrainOptions(_message.Message):
    __slots__ = ("set_max_pip", "hand_size", "hands", "engine", "mexican_train", "follow_up", "opening", "double_blank_points")
    class Engine(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        ENGINE_UNSPECIFIED: _ClassVar[MexicanTrainOptions.Engine]
        SET_ASIDE: _ClassVar[MexicanTrainOptions.Engine]
        FROM_HAND: _ClassVar[MexicanTrainOptions.Engine]
    ENGINE_UNSPECIFIED: MexicanTrainOptions.Engine
    SET_ASIDE: MexicanTrainOptions.Engine
    FROM_HAND: MexicanTrainOptions.Engine
    class FollowUp(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        FOLLOW_UP_UNSPECIFIED: _ClassVar[MexicanTrainOptions.FollowUp]
        ANY_TRAIN: _ClassVar[MexicanTrainOptions.FollowUp]
        ON_DOUBLE: _ClassVar[MexicanTrainOptions.FollowUp]
    FOLLOW_UP_UNSPECIFIED: MexicanTrainOptions.FollowUp
    ANY_TRAIN: MexicanTrainOptions.FollowUp
    ON_DOUBLE: MexicanTrainOptions.FollowUp
    class Opening(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        OPENING_UNSPECIFIED: _ClassVar[MexicanTrainOptions.Opening]
        SINGLE: _ClassVar[MexicanTrainOptions.Opening]
        CHAIN: _ClassVar[MexicanTrainOptions.Opening]
    OPENING_UNSPECIFIED: MexicanTrainOptions.Opening
    SINGLE: MexicanTrainOptions.Opening
    CHAIN: MexicanTrainOptions.Opening
    SET_MAX_PIP_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    MEXICAN_TRAIN_FIELD_NUMBER: _ClassVar[int]
    FOLLOW_UP_FIELD_NUMBER: _ClassVar[int]
    OPENING_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_BLANK_POINTS_FIELD_NUMBER: _ClassVar[int]
    set_max_pip: int
    hand_size: int
    hands: int
    engine: MexicanTrainOptions.Engine
    mexican_train: bool
    follow_up: MexicanTrainOptions.FollowUp
    opening: MexicanTrainOptions.Opening
    double_blank_points: int
    def __init__(self, set_max_pip: _Optional[int] = ..., hand_size: _Optional[int] = ..., hands: _Optional[int] = ..., engine: _Optional[_Union[MexicanTrainOptions.Engine, str]] = ..., mexican_train: _Optional[bool] = ..., follow_up: _Optional[_Union[MexicanTrainOptions.FollowUp, str]] = ..., opening: _Optional[_Union[MexicanTrainOptions.Opening, str]] = ..., double_blank_points: _Optional[int] = ...) -> None: ...

class ChickenFootOptions(_message.Message):
    __slots__ = ("set_max_pip", "hand_size", "hands", "engine", "centre_toes", "double_blank_points")
    class Engine(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        ENGINE_UNSPECIFIED: _ClassVar[ChickenFootOptions.Engine]
        SET_ASIDE: _ClassVar[ChickenFootOptions.Engine]
        FROM_HAND: _ClassVar[ChickenFootOptions.Engine]
    ENGINE_UNSPECIFIED: ChickenFootOptions.Engine
    SET_ASIDE: ChickenFootOptions.Engine
    FROM_HAND: ChickenFootOptions.Engine
    SET_MAX_PIP_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    CENTRE_TOES_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_BLANK_POINTS_FIELD_NUMBER: _ClassVar[int]
    set_max_pip: int
    hand_size: int
    hands: int
    engine: ChickenFootOptions.Engine
    centre_toes: int
    double_blank_points: int
    def __init__(self, set_max_pip: _Optional[int] = ..., hand_size: _Optional[int] = ..., hands: _Optional[int] = ..., engine: _Optional[_Union[ChickenFootOptions.Engine, str]] = ..., centre_toes: _Optional[int] = ..., double_blank_points: _Optional[int] = ...) -> None: ...

class ThrowUpOptions(_message.Message):
    __slots__ = ("rethrow_repeats", "hands_per_player")
    RETHROW_REPEATS_FIELD_NUMBER: _ClassVar[int]
    HANDS_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    rethrow_repeats: bool
    hands_per_player: int
    def __init__(self, rethrow_repeats: _Optional[bool] = ..., hands_per_player: _Optional[int] = ...) -> None: ...

class ListRulesetsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListRulesetsResponse(_message.Message):
    __slots__ = ("rulesets",)
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    rulesets: _containers.RepeatedCompositeFieldContainer[RulesetInfo]
    def __init__(self, rulesets: _Optional[_Iterable[_Union[RulesetInfo, _Mapping]]] = ...) -> None: ...

class RulesetInfo(_message.Message):
    __slots__ = ("id", "name", "min_players", "max_players", "players", "options", "source", "description", "bots", "low_wins", "drawing", "profiles")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    LOW_WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWING_FIELD_NUMBER: _ClassVar[int]
    PROFILES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    min_players: int
    max_players: int
    players: str
    options: _containers.RepeatedCompositeFieldContainer[OptionInfo]
    source: str
    description: str
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    low_wins: bool
    drawing: Drawing
    profiles: _containers.RepeatedCompositeFieldContainer[Profile]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., players: _Optional[str] = ..., options: _Optional[_Iterable[_Union[OptionInfo, _Mapping]]] = ..., source: _Optional[str] = ..., description: _Optional[str] = ..., bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ..., low_wins: _Optional[bool] = ..., drawing: _Optional[_Union[Drawing, _Mapping]] = ..., profiles: _Optional[_Iterable[_Union[Profile, _Mapping]]] = ...) -> None: ...

class Profile(_message.Message):
    __slots__ = ("id", "name", "description", "options")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    description: str
    options: Options
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., options: _Optional[_Union[Options, _Mapping]] = ...) -> None: ...

class Drawing(_message.Message):
    __slots__ = ("layout", "open_field", "count_label", "seat_facts", "move_labels", "faces", "faces_when")
    class Layout(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        LAYOUT_UNSPECIFIED: _ClassVar[Drawing.Layout]
        ARM: _ClassVar[Drawing.Layout]
        PLACES: _ClassVar[Drawing.Layout]
        LAKE: _ClassVar[Drawing.Layout]
        LINE: _ClassVar[Drawing.Layout]
        CROSS: _ClassVar[Drawing.Layout]
        TRAINS: _ClassVar[Drawing.Layout]
        FEET: _ClassVar[Drawing.Layout]
    LAYOUT_UNSPECIFIED: Drawing.Layout
    ARM: Drawing.Layout
    PLACES: Drawing.Layout
    LAKE: Drawing.Layout
    LINE: Drawing.Layout
    CROSS: Drawing.Layout
    TRAINS: Drawing.Layout
    FEET: Drawing.Layout
    class Faces(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        FACES_UNSPECIFIED: _ClassVar[Drawing.Faces]
        PLAIN: _ClassVar[Drawing.Faces]
        CHINESE: _ClassVar[Drawing.Faces]
        CHINESE_RED_SIXES: _ClassVar[Drawing.Faces]
    FACES_UNSPECIFIED: Drawing.Faces
    PLAIN: Drawing.Faces
    CHINESE: Drawing.Faces
    CHINESE_RED_SIXES: Drawing.Faces
    class SeatFact(_message.Message):
        __slots__ = ("field", "label")
        FIELD_FIELD_NUMBER: _ClassVar[int]
        LABEL_FIELD_NUMBER: _ClassVar[int]
        field: str
        label: str
        def __init__(self, field: _Optional[str] = ..., label: _Optional[str] = ...) -> None: ...
    class MoveLabel(_message.Message):
        __slots__ = ("kind", "label")
        KIND_FIELD_NUMBER: _ClassVar[int]
        LABEL_FIELD_NUMBER: _ClassVar[int]
        kind: MoveKind
        label: str
        def __init__(self, kind: _Optional[_Union[MoveKind, str]] = ..., label: _Optional[str] = ...) -> None: ...
    class FacesWhen(_message.Message):
        __slots__ = ("option", "value", "faces")
        OPTION_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        FACES_FIELD_NUMBER: _ClassVar[int]
        option: str
        value: str
        faces: Drawing.Faces
        def __init__(self, option: _Optional[str] = ..., value: _Optional[str] = ..., faces: _Optional[_Union[Drawing.Faces, str]] = ...) -> None: ...
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_FIELD_NUMBER: _ClassVar[int]
    COUNT_LABEL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FACTS_FIELD_NUMBER: _ClassVar[int]
    MOVE_LABELS_FIELD_NUMBER: _ClassVar[int]
    FACES_FIELD_NUMBER: _ClassVar[int]
    FACES_WHEN_FIELD_NUMBER: _ClassVar[int]
    layout: Drawing.Layout
    open_field: str
    count_label: str
    seat_facts: _containers.RepeatedCompositeFieldContainer[Drawing.SeatFact]
    move_labels: _containers.RepeatedCompositeFieldContainer[Drawing.MoveLabel]
    faces: Drawing.Faces
    faces_when: _containers.RepeatedCompositeFieldContainer[Drawing.FacesWhen]
    def __init__(self, layout: _Optional[_Union[Drawing.Layout, str]] = ..., open_field: _Optional[str] = ..., count_label: _Optional[str] = ..., seat_facts: _Optional[_Iterable[_Union[Drawing.SeatFact, _Mapping]]] = ..., move_labels: _Optional[_Iterable[_Union[Drawing.MoveLabel, _Mapping]]] = ..., faces: _Optional[_Union[Drawing.Faces, str]] = ..., faces_when: _Optional[_Iterable[_Union[Drawing.FacesWhen, _Mapping]]] = ...) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("level", "description", "default_playouts", "max_playouts")
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_PLAYOUTS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYOUTS_FIELD_NUMBER: _ClassVar[int]
    level: BotLevel
    description: str
    default_playouts: int
    max_playouts: int
    def __init__(self, level: _Optional[_Union[BotLevel, str]] = ..., description: _Optional[str] = ..., default_playouts: _Optional[int] = ..., max_playouts: _Optional[int] = ...) -> None: ...

class OptionInfo(_message.Message):
    __slots__ = ("name", "type", "default", "allowed_values", "min", "max", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_VALUES_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    default: str
    allowed_values: _containers.RepeatedScalarFieldContainer[str]
    min: int
    max: int
    description: str
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., default: _Optional[str] = ..., allowed_values: _Optional[_Iterable[str]] = ..., min: _Optional[int] = ..., max: _Optional[int] = ..., description: _Optional[str] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("ruleset", "players", "options", "seed")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    players: int
    options: Options
    seed: str
    def __init__(self, ruleset: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Union[Options, _Mapping]] = ..., seed: _Optional[str] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("state", "version", "game_id", "status", "to_act", "events", "seed_commitment")
    STATE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    version: int
    game_id: str
    status: Status
    to_act: int
    events: _containers.RepeatedCompositeFieldContainer[Event]
    seed_commitment: str
    def __init__(self, state: _Optional[bytes] = ..., version: _Optional[int] = ..., game_id: _Optional[str] = ..., status: _Optional[_Union[Status, str]] = ..., to_act: _Optional[int] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., seed_commitment: _Optional[str] = ...) -> None: ...

class GetLegalMovesRequest(_message.Message):
    __slots__ = ("state", "seat")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    seat: int
    def __init__(self, state: _Optional[bytes] = ..., seat: _Optional[int] = ...) -> None: ...

class GetLegalMovesResponse(_message.Message):
    __slots__ = ("to_act", "moves", "status", "version", "game_id")
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    to_act: int
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    status: Status
    version: int
    game_id: str
    def __init__(self, to_act: _Optional[int] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., status: _Optional[_Union[Status, str]] = ..., version: _Optional[int] = ..., game_id: _Optional[str] = ...) -> None: ...

class ApplyMoveRequest(_message.Message):
    __slots__ = ("state", "move", "expected_version")
    STATE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    move: Move
    expected_version: int
    def __init__(self, state: _Optional[bytes] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., expected_version: _Optional[int] = ...) -> None: ...

class ApplyMoveResponse(_message.Message):
    __slots__ = ("state", "version", "game_id", "status", "to_act", "events")
    STATE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    version: int
    game_id: str
    status: Status
    to_act: int
    events: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, state: _Optional[bytes] = ..., version: _Optional[int] = ..., game_id: _Optional[str] = ..., status: _Optional[_Union[Status, str]] = ..., to_act: _Optional[int] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...

class GetScoreRequest(_message.Message):
    __slots__ = ("state",)
    STATE_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    def __init__(self, state: _Optional[bytes] = ...) -> None: ...

class SeatScore(_message.Message):
    __slots__ = ("seat", "hand_points", "match_points", "net")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_POINTS_FIELD_NUMBER: _ClassVar[int]
    MATCH_POINTS_FIELD_NUMBER: _ClassVar[int]
    NET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand_points: int
    match_points: int
    net: int
    def __init__(self, seat: _Optional[int] = ..., hand_points: _Optional[int] = ..., match_points: _Optional[int] = ..., net: _Optional[int] = ...) -> None: ...

class HandScore(_message.Message):
    __slots__ = ("hand", "counts", "points", "winners", "settlement", "end", "reason")
    HAND_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    hand: int
    counts: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    settlement: _containers.RepeatedScalarFieldContainer[int]
    end: HandEnd
    reason: str
    def __init__(self, hand: _Optional[int] = ..., counts: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., settlement: _Optional[_Iterable[int]] = ..., end: _Optional[_Union[HandEnd, str]] = ..., reason: _Optional[str] = ...) -> None: ...

class GetScoreResponse(_message.Message):
    __slots__ = ("status", "seats", "hands", "winners", "version", "game_id", "hand", "seed_commitment", "seed")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    status: Status
    seats: _containers.RepeatedCompositeFieldContainer[SeatScore]
    hands: _containers.RepeatedCompositeFieldContainer[HandScore]
    winners: _containers.RepeatedScalarFieldContainer[int]
    version: int
    game_id: str
    hand: int
    seed_commitment: str
    seed: str
    def __init__(self, status: _Optional[_Union[Status, str]] = ..., seats: _Optional[_Iterable[_Union[SeatScore, _Mapping]]] = ..., hands: _Optional[_Iterable[_Union[HandScore, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., version: _Optional[int] = ..., game_id: _Optional[str] = ..., hand: _Optional[int] = ..., seed_commitment: _Optional[str] = ..., seed: _Optional[str] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("state", "seat")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    seat: int
    def __init__(self, state: _Optional[bytes] = ..., seat: _Optional[int] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("ruleset", "seat", "status", "to_act", "hand_number", "hand", "hand_sizes", "stock", "legal_moves", "events", "match_points", "version", "game_id", "shown_hands", "one_arm_joe", "tsair_deng", "tiu_u", "throw_up", "block", "dancing_dragons", "all_fives", "mexican_train", "chicken_foot")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_NUMBER_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    MATCH_POINTS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SHOWN_HANDS_FIELD_NUMBER: _ClassVar[int]
    ONE_ARM_JOE_FIELD_NUMBER: _ClassVar[int]
    TSAIR_DENG_FIELD_NUMBER: _ClassVar[int]
    TIU_U_FIELD_NUMBER: _ClassVar[int]
    THROW_UP_FIELD_NUMBER: _ClassVar[int]
    BLOCK_FIELD_NUMBER: _ClassVar[int]
    DANCING_DRAGONS_FIELD_NUMBER: _ClassVar[int]
    ALL_FIVES_FIELD_NUMBER: _ClassVar[int]
    MEXICAN_TRAIN_FIELD_NUMBER: _ClassVar[int]
    CHICKEN_FOOT_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    seat: int
    status: Status
    to_act: int
    hand_number: int
    hand: _containers.RepeatedCompositeFieldContainer[Tile]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    stock: int
    legal_moves: _containers.RepeatedCompositeFieldContainer[Move]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    match_points: _containers.RepeatedScalarFieldContainer[int]
    version: int
    game_id: str
    shown_hands: _containers.RepeatedCompositeFieldContainer[SeatHand]
    one_arm_joe: OneArmJoeTable
    tsair_deng: TsairDengTable
    tiu_u: TiuUTable
    throw_up: ThrowUpTable
    block: BlockTable
    dancing_dragons: DancingDragonsTable
    all_fives: AllFivesTable
    mexican_train: MexicanTrainTable
    chicken_foot: ChickenFootTable
    def __init__(self, ruleset: _Optional[str] = ..., seat: _Optional[int] = ..., status: _Optional[_Union[Status, str]] = ..., to_act: _Optional[int] = ..., hand_number: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., stock: _Optional[int] = ..., legal_moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., match_points: _Optional[_Iterable[int]] = ..., version: _Optional[int] = ..., game_id: _Optional[str] = ..., shown_hands: _Optional[_Iterable[_Union[SeatHand, _Mapping]]] = ..., one_arm_joe: _Optional[_Union[OneArmJoeTable, _Mapping]] = ..., tsair_deng: _Optional[_Union[TsairDengTable, _Mapping]] = ..., tiu_u: _Optional[_Union[TiuUTable, _Mapping]] = ..., throw_up: _Optional[_Union[ThrowUpTable, _Mapping]] = ..., block: _Optional[_Union[BlockTable, _Mapping]] = ..., dancing_dragons: _Optional[_Union[DancingDragonsTable, _Mapping]] = ..., all_fives: _Optional[_Union[AllFivesTable, _Mapping]] = ..., mexican_train: _Optional[_Union[MexicanTrainTable, _Mapping]] = ..., chicken_foot: _Optional[_Union[ChickenFootTable, _Mapping]] = ...) -> None: ...

class OneArmJoeTable(_message.Message):
    __slots__ = ("line", "open_end", "bonus_turn", "leader")
    LINE_FIELD_NUMBER: _ClassVar[int]
    OPEN_END_FIELD_NUMBER: _ClassVar[int]
    BONUS_TURN_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    line: _containers.RepeatedCompositeFieldContainer[Tile]
    open_end: int
    bonus_turn: bool
    leader: int
    def __init__(self, line: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., open_end: _Optional[int] = ..., bonus_turn: _Optional[bool] = ..., leader: _Optional[int] = ...) -> None: ...

class TsairDengTable(_message.Message):
    __slots__ = ("places", "open_pip", "played", "discards", "discard_counts", "leader")
    class Place(_message.Message):
        __slots__ = ("top", "depth")
        TOP_FIELD_NUMBER: _ClassVar[int]
        DEPTH_FIELD_NUMBER: _ClassVar[int]
        top: Tile
        depth: int
        def __init__(self, top: _Optional[_Union[Tile, _Mapping]] = ..., depth: _Optional[int] = ...) -> None: ...
    PLACES_FIELD_NUMBER: _ClassVar[int]
    OPEN_PIP_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_COUNTS_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    places: _containers.RepeatedCompositeFieldContainer[TsairDengTable.Place]
    open_pip: int
    played: int
    discards: _containers.RepeatedCompositeFieldContainer[Tile]
    discard_counts: _containers.RepeatedScalarFieldContainer[int]
    leader: int
    def __init__(self, places: _Optional[_Iterable[_Union[TsairDengTable.Place, _Mapping]]] = ..., open_pip: _Optional[int] = ..., played: _Optional[int] = ..., discards: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., discard_counts: _Optional[_Iterable[int]] = ..., leader: _Optional[int] = ...) -> None: ...

class TiuUTable(_message.Message):
    __slots__ = ("lake", "piles", "catches", "catch_counts", "drawn", "leader")
    class Catch(_message.Message):
        __slots__ = ("tiles",)
        TILES_FIELD_NUMBER: _ClassVar[int]
        tiles: _containers.RepeatedCompositeFieldContainer[Tile]
        def __init__(self, tiles: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ...) -> None: ...
    LAKE_FIELD_NUMBER: _ClassVar[int]
    PILES_FIELD_NUMBER: _ClassVar[int]
    CATCHES_FIELD_NUMBER: _ClassVar[int]
    CATCH_COUNTS_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    lake: _containers.RepeatedCompositeFieldContainer[Tile]
    piles: _containers.RepeatedCompositeFieldContainer[Tile]
    catches: _containers.RepeatedCompositeFieldContainer[TiuUTable.Catch]
    catch_counts: _containers.RepeatedScalarFieldContainer[int]
    drawn: Tile
    leader: int
    def __init__(self, lake: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., piles: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., catches: _Optional[_Iterable[_Union[TiuUTable.Catch, _Mapping]]] = ..., catch_counts: _Optional[_Iterable[int]] = ..., drawn: _Optional[_Union[Tile, _Mapping]] = ..., leader: _Optional[int] = ...) -> None: ...

class ThrowUpTable(_message.Message):
    __slots__ = ("line", "left_end", "right_end", "dice", "qualifying", "round", "leader", "idle_rounds", "pegs")
    class LaidTile(_message.Message):
        __slots__ = ("tile", "left", "right")
        TILE_FIELD_NUMBER: _ClassVar[int]
        LEFT_FIELD_NUMBER: _ClassVar[int]
        RIGHT_FIELD_NUMBER: _ClassVar[int]
        tile: Tile
        left: int
        right: int
        def __init__(self, tile: _Optional[_Union[Tile, _Mapping]] = ..., left: _Optional[int] = ..., right: _Optional[int] = ...) -> None: ...
    LINE_FIELD_NUMBER: _ClassVar[int]
    LEFT_END_FIELD_NUMBER: _ClassVar[int]
    RIGHT_END_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    QUALIFYING_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    IDLE_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    PEGS_FIELD_NUMBER: _ClassVar[int]
    line: _containers.RepeatedCompositeFieldContainer[ThrowUpTable.LaidTile]
    left_end: int
    right_end: int
    dice: _containers.RepeatedScalarFieldContainer[int]
    qualifying: _containers.RepeatedScalarFieldContainer[int]
    round: int
    leader: int
    idle_rounds: int
    pegs: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, line: _Optional[_Iterable[_Union[ThrowUpTable.LaidTile, _Mapping]]] = ..., left_end: _Optional[int] = ..., right_end: _Optional[int] = ..., dice: _Optional[_Iterable[int]] = ..., qualifying: _Optional[_Iterable[int]] = ..., round: _Optional[int] = ..., leader: _Optional[int] = ..., idle_rounds: _Optional[int] = ..., pegs: _Optional[_Iterable[int]] = ...) -> None: ...

class SuggestMoveRequest(_message.Message):
    __slots__ = ("state", "seat", "level", "seed", "playouts")
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYOUTS_FIELD_NUMBER: _ClassVar[int]
    state: bytes
    seat: int
    level: BotLevel
    seed: str
    playouts: int
    def __init__(self, state: _Optional[bytes] = ..., seat: _Optional[int] = ..., level: _Optional[_Union[BotLevel, str]] = ..., seed: _Optional[str] = ..., playouts: _Optional[int] = ...) -> None: ...

class MoveEstimate(_message.Message):
    __slots__ = ("move", "value", "playouts")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    PLAYOUTS_FIELD_NUMBER: _ClassVar[int]
    move: Move
    value: float
    playouts: int
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., value: _Optional[float] = ..., playouts: _Optional[int] = ...) -> None: ...

class SuggestMoveResponse(_message.Message):
    __slots__ = ("move", "estimates", "level", "seat", "version", "game_id")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    ESTIMATES_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    move: Move
    estimates: _containers.RepeatedCompositeFieldContainer[MoveEstimate]
    level: BotLevel
    seat: int
    version: int
    game_id: str
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., estimates: _Optional[_Iterable[_Union[MoveEstimate, _Mapping]]] = ..., level: _Optional[_Union[BotLevel, str]] = ..., seat: _Optional[int] = ..., version: _Optional[int] = ..., game_id: _Optional[str] = ...) -> None: ...

class LaidTile(_message.Message):
    __slots__ = ("tile", "left", "right")
    TILE_FIELD_NUMBER: _ClassVar[int]
    LEFT_FIELD_NUMBER: _ClassVar[int]
    RIGHT_FIELD_NUMBER: _ClassVar[int]
    tile: Tile
    left: int
    right: int
    def __init__(self, tile: _Optional[_Union[Tile, _Mapping]] = ..., left: _Optional[int] = ..., right: _Optional[int] = ...) -> None: ...

class BlockTable(_message.Message):
    __slots__ = ("line", "left_end", "right_end", "leader")
    LINE_FIELD_NUMBER: _ClassVar[int]
    LEFT_END_FIELD_NUMBER: _ClassVar[int]
    RIGHT_END_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    line: _containers.RepeatedCompositeFieldContainer[LaidTile]
    left_end: int
    right_end: int
    leader: int
    def __init__(self, line: _Optional[_Iterable[_Union[LaidTile, _Mapping]]] = ..., left_end: _Optional[int] = ..., right_end: _Optional[int] = ..., leader: _Optional[int] = ...) -> None: ...

class DancingDragonsTable(_message.Message):
    __slots__ = ("line", "left_end", "right_end", "leader", "discards", "discard_counts")
    LINE_FIELD_NUMBER: _ClassVar[int]
    LEFT_END_FIELD_NUMBER: _ClassVar[int]
    RIGHT_END_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_COUNTS_FIELD_NUMBER: _ClassVar[int]
    line: _containers.RepeatedCompositeFieldContainer[LaidTile]
    left_end: int
    right_end: int
    leader: int
    discards: _containers.RepeatedCompositeFieldContainer[Tile]
    discard_counts: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, line: _Optional[_Iterable[_Union[LaidTile, _Mapping]]] = ..., left_end: _Optional[int] = ..., right_end: _Optional[int] = ..., leader: _Optional[int] = ..., discards: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., discard_counts: _Optional[_Iterable[int]] = ...) -> None: ...

class AllFivesTable(_message.Message):
    __slots__ = ("line", "spinner", "up", "down", "left_end", "right_end", "up_end", "down_end", "count", "hand_points", "leader")
    class ArmTile(_message.Message):
        __slots__ = ("tile", "inner", "outer")
        TILE_FIELD_NUMBER: _ClassVar[int]
        INNER_FIELD_NUMBER: _ClassVar[int]
        OUTER_FIELD_NUMBER: _ClassVar[int]
        tile: Tile
        inner: int
        outer: int
        def __init__(self, tile: _Optional[_Union[Tile, _Mapping]] = ..., inner: _Optional[int] = ..., outer: _Optional[int] = ...) -> None: ...
    LINE_FIELD_NUMBER: _ClassVar[int]
    SPINNER_FIELD_NUMBER: _ClassVar[int]
    UP_FIELD_NUMBER: _ClassVar[int]
    DOWN_FIELD_NUMBER: _ClassVar[int]
    LEFT_END_FIELD_NUMBER: _ClassVar[int]
    RIGHT_END_FIELD_NUMBER: _ClassVar[int]
    UP_END_FIELD_NUMBER: _ClassVar[int]
    DOWN_END_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    HAND_POINTS_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    line: _containers.RepeatedCompositeFieldContainer[LaidTile]
    spinner: int
    up: _containers.RepeatedCompositeFieldContainer[AllFivesTable.ArmTile]
    down: _containers.RepeatedCompositeFieldContainer[AllFivesTable.ArmTile]
    left_end: int
    right_end: int
    up_end: int
    down_end: int
    count: int
    hand_points: _containers.RepeatedScalarFieldContainer[int]
    leader: int
    def __init__(self, line: _Optional[_Iterable[_Union[LaidTile, _Mapping]]] = ..., spinner: _Optional[int] = ..., up: _Optional[_Iterable[_Union[AllFivesTable.ArmTile, _Mapping]]] = ..., down: _Optional[_Iterable[_Union[AllFivesTable.ArmTile, _Mapping]]] = ..., left_end: _Optional[int] = ..., right_end: _Optional[int] = ..., up_end: _Optional[int] = ..., down_end: _Optional[int] = ..., count: _Optional[int] = ..., hand_points: _Optional[_Iterable[int]] = ..., leader: _Optional[int] = ...) -> None: ...

class MexicanTrainTable(_message.Message):
    __slots__ = ("engine", "leader", "trains", "pending", "opening")
    class Train(_message.Message):
        __slots__ = ("train", "tiles", "open_end", "public")
        TRAIN_FIELD_NUMBER: _ClassVar[int]
        TILES_FIELD_NUMBER: _ClassVar[int]
        OPEN_END_FIELD_NUMBER: _ClassVar[int]
        PUBLIC_FIELD_NUMBER: _ClassVar[int]
        train: int
        tiles: _containers.RepeatedCompositeFieldContainer[LaidTile]
        open_end: int
        public: bool
        def __init__(self, train: _Optional[int] = ..., tiles: _Optional[_Iterable[_Union[LaidTile, _Mapping]]] = ..., open_end: _Optional[int] = ..., public: _Optional[bool] = ...) -> None: ...
    class PendingDouble(_message.Message):
        __slots__ = ("train", "binding")
        TRAIN_FIELD_NUMBER: _ClassVar[int]
        BINDING_FIELD_NUMBER: _ClassVar[int]
        train: int
        binding: bool
        def __init__(self, train: _Optional[int] = ..., binding: _Optional[bool] = ...) -> None: ...
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    TRAINS_FIELD_NUMBER: _ClassVar[int]
    PENDING_FIELD_NUMBER: _ClassVar[int]
    OPENING_FIELD_NUMBER: _ClassVar[int]
    engine: Tile
    leader: int
    trains: _containers.RepeatedCompositeFieldContainer[MexicanTrainTable.Train]
    pending: _containers.RepeatedCompositeFieldContainer[MexicanTrainTable.PendingDouble]
    opening: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, engine: _Optional[_Union[Tile, _Mapping]] = ..., leader: _Optional[int] = ..., trains: _Optional[_Iterable[_Union[MexicanTrainTable.Train, _Mapping]]] = ..., pending: _Optional[_Iterable[_Union[MexicanTrainTable.PendingDouble, _Mapping]]] = ..., opening: _Optional[_Iterable[int]] = ...) -> None: ...

class ChickenFootTable(_message.Message):
    __slots__ = ("engine", "leader", "arms", "feet", "pending_foot")
    class Arm(_message.Message):
        __slots__ = ("arm", "foot", "tiles", "open_end")
        ARM_FIELD_NUMBER: _ClassVar[int]
        FOOT_FIELD_NUMBER: _ClassVar[int]
        TILES_FIELD_NUMBER: _ClassVar[int]
        OPEN_END_FIELD_NUMBER: _ClassVar[int]
        arm: int
        foot: int
        tiles: _containers.RepeatedCompositeFieldContainer[LaidTile]
        open_end: int
        def __init__(self, arm: _Optional[int] = ..., foot: _Optional[int] = ..., tiles: _Optional[_Iterable[_Union[LaidTile, _Mapping]]] = ..., open_end: _Optional[int] = ...) -> None: ...
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    LEADER_FIELD_NUMBER: _ClassVar[int]
    ARMS_FIELD_NUMBER: _ClassVar[int]
    FEET_FIELD_NUMBER: _ClassVar[int]
    PENDING_FOOT_FIELD_NUMBER: _ClassVar[int]
    engine: Tile
    leader: int
    arms: _containers.RepeatedCompositeFieldContainer[ChickenFootTable.Arm]
    feet: _containers.RepeatedScalarFieldContainer[int]
    pending_foot: int
    def __init__(self, engine: _Optional[_Union[Tile, _Mapping]] = ..., leader: _Optional[int] = ..., arms: _Optional[_Iterable[_Union[ChickenFootTable.Arm, _Mapping]]] = ..., feet: _Optional[_Iterable[int]] = ..., pending_foot: _Optional[int] = ...) -> None: ...

class MatchRecord(_message.Message):
    __slots__ = ("format", "ruleset", "players", "options", "game_id", "seed_commitment", "seed", "first_state", "viewpoint", "seat", "deal", "moves")
    class Viewpoint(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        VIEWPOINT_UNSPECIFIED: _ClassVar[MatchRecord.Viewpoint]
        MOVER: _ClassVar[MatchRecord.Viewpoint]
        SEAT: _ClassVar[MatchRecord.Viewpoint]
        SPECTATOR: _ClassVar[MatchRecord.Viewpoint]
    VIEWPOINT_UNSPECIFIED: MatchRecord.Viewpoint
    MOVER: MatchRecord.Viewpoint
    SEAT: MatchRecord.Viewpoint
    SPECTATOR: MatchRecord.Viewpoint
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FIRST_STATE_FIELD_NUMBER: _ClassVar[int]
    VIEWPOINT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    format: int
    ruleset: str
    players: int
    options: Options
    game_id: str
    seed_commitment: str
    seed: str
    first_state: bytes
    viewpoint: MatchRecord.Viewpoint
    seat: int
    deal: _containers.RepeatedCompositeFieldContainer[Event]
    moves: _containers.RepeatedCompositeFieldContainer[RecordedMove]
    def __init__(self, format: _Optional[int] = ..., ruleset: _Optional[str] = ..., players: _Optional[int] = ..., options: _Optional[_Union[Options, _Mapping]] = ..., game_id: _Optional[str] = ..., seed_commitment: _Optional[str] = ..., seed: _Optional[str] = ..., first_state: _Optional[bytes] = ..., viewpoint: _Optional[_Union[MatchRecord.Viewpoint, str]] = ..., seat: _Optional[int] = ..., deal: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., moves: _Optional[_Iterable[_Union[RecordedMove, _Mapping]]] = ...) -> None: ...

class RecordedMove(_message.Message):
    __slots__ = ("move", "events", "match_points", "undo")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    MATCH_POINTS_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    move: Move
    events: _containers.RepeatedCompositeFieldContainer[Event]
    match_points: _containers.RepeatedScalarFieldContainer[int]
    undo: int
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., match_points: _Optional[_Iterable[int]] = ..., undo: _Optional[int] = ...) -> None: ...

class ReplayRequest(_message.Message):
    __slots__ = ("record", "seat", "from_step", "to_step")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FROM_STEP_FIELD_NUMBER: _ClassVar[int]
    TO_STEP_FIELD_NUMBER: _ClassVar[int]
    record: MatchRecord
    seat: int
    from_step: int
    to_step: int
    def __init__(self, record: _Optional[_Union[MatchRecord, _Mapping]] = ..., seat: _Optional[int] = ..., from_step: _Optional[int] = ..., to_step: _Optional[int] = ...) -> None: ...

class SeatHand(_message.Message):
    __slots__ = ("tiles",)
    TILES_FIELD_NUMBER: _ClassVar[int]
    tiles: _containers.RepeatedCompositeFieldContainer[Tile]
    def __init__(self, tiles: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ...) -> None: ...

class ReplayStep(_message.Message):
    __slots__ = ("step", "move", "events", "match_points", "view", "hands", "undo")
    STEP_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    MATCH_POINTS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    step: int
    move: Move
    events: _containers.RepeatedCompositeFieldContainer[Event]
    match_points: _containers.RepeatedScalarFieldContainer[int]
    view: GetViewResponse
    hands: _containers.RepeatedCompositeFieldContainer[SeatHand]
    undo: int
    def __init__(self, step: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., match_points: _Optional[_Iterable[int]] = ..., view: _Optional[_Union[GetViewResponse, _Mapping]] = ..., hands: _Optional[_Iterable[_Union[SeatHand, _Mapping]]] = ..., undo: _Optional[int] = ...) -> None: ...

class Divergence(_message.Message):
    __slots__ = ("step", "reason", "message", "events", "match_points")
    class Reason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        REASON_UNSPECIFIED: _ClassVar[Divergence.Reason]
        BAD_SETUP: _ClassVar[Divergence.Reason]
        SEED_MISMATCH: _ClassVar[Divergence.Reason]
        FIRST_STATE_MISMATCH: _ClassVar[Divergence.Reason]
        GAME_ID_MISMATCH: _ClassVar[Divergence.Reason]
        MALFORMED_MOVE: _ClassVar[Divergence.Reason]
        NOT_YOUR_TURN: _ClassVar[Divergence.Reason]
        ILLEGAL_MOVE: _ClassVar[Divergence.Reason]
        GAME_OVER: _ClassVar[Divergence.Reason]
        EVENTS_DIFFER: _ClassVar[Divergence.Reason]
        SCORES_DIFFER: _ClassVar[Divergence.Reason]
        MOVE_HIDDEN: _ClassVar[Divergence.Reason]
        BAD_UNDO: _ClassVar[Divergence.Reason]
    REASON_UNSPECIFIED: Divergence.Reason
    BAD_SETUP: Divergence.Reason
    SEED_MISMATCH: Divergence.Reason
    FIRST_STATE_MISMATCH: Divergence.Reason
    GAME_ID_MISMATCH: Divergence.Reason
    MALFORMED_MOVE: Divergence.Reason
    NOT_YOUR_TURN: Divergence.Reason
    ILLEGAL_MOVE: Divergence.Reason
    GAME_OVER: Divergence.Reason
    EVENTS_DIFFER: Divergence.Reason
    SCORES_DIFFER: Divergence.Reason
    MOVE_HIDDEN: Divergence.Reason
    BAD_UNDO: Divergence.Reason
    STEP_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    MATCH_POINTS_FIELD_NUMBER: _ClassVar[int]
    step: int
    reason: Divergence.Reason
    message: str
    events: _containers.RepeatedCompositeFieldContainer[Event]
    match_points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, step: _Optional[int] = ..., reason: _Optional[_Union[Divergence.Reason, str]] = ..., message: _Optional[str] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., match_points: _Optional[_Iterable[int]] = ...) -> None: ...

class ReplayResponse(_message.Message):
    __slots__ = ("verdict", "divergence", "steps", "moves", "next_step", "state", "version", "game_id", "status", "to_act")
    class Verdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        VERDICT_UNSPECIFIED: _ClassVar[ReplayResponse.Verdict]
        VALID: _ClassVar[ReplayResponse.Verdict]
        DIVERGED: _ClassVar[ReplayResponse.Verdict]
    VERDICT_UNSPECIFIED: ReplayResponse.Verdict
    VALID: ReplayResponse.Verdict
    DIVERGED: ReplayResponse.Verdict
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    DIVERGENCE_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    NEXT_STEP_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    verdict: ReplayResponse.Verdict
    divergence: Divergence
    steps: _containers.RepeatedCompositeFieldContainer[ReplayStep]
    moves: int
    next_step: int
    state: bytes
    version: int
    game_id: str
    status: Status
    to_act: int
    def __init__(self, verdict: _Optional[_Union[ReplayResponse.Verdict, str]] = ..., divergence: _Optional[_Union[Divergence, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[ReplayStep, _Mapping]]] = ..., moves: _Optional[int] = ..., next_step: _Optional[int] = ..., state: _Optional[bytes] = ..., version: _Optional[int] = ..., game_id: _Optional[str] = ..., status: _Optional[_Union[Status, str]] = ..., to_act: _Optional[int] = ...) -> None: ...
