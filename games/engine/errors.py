"""Errors raised by the engines. Every message is meant to be read by a player or an auditor."""


class EngineError(ValueError):
    """Base class for every error an engine raises on bad input."""


class CardError(EngineError):
    """A card string or card list is malformed (unknown card, duplicate, wrong count)."""


class IllegalAction(EngineError):
    """An action that is not legal for this seat in this phase; the state is left untouched."""
