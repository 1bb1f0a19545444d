"""The transport-free API: :class:`RulesService` and its errors."""

from .errors import ApiError, to_status
from .service import RulesService

__all__ = ["ApiError", "RulesService", "to_status"]
