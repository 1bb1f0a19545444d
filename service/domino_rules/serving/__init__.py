"""Serving and processes: settings, the supervisor of ``domino-rules serve``, and what
the door processes share about starting and draining. The supervisor starts each door
process by command (:mod:`domino_rules.doors.child`): this layer sits below the doors
and imports none of them."""

__all__: list[str] = []
