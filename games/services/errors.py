"""Errors a player can read. Consumers turn them into error frames, APIs into 400s."""


class PlayError(Exception):
    """A refused request; ``code`` is stable for clients, ``str(self)`` is the reason."""

    code = "refused"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code


class NotSeated(PlayError):
    code = "not_seated"


class TableFull(PlayError):
    code = "table_full"


class NoActiveHand(PlayError):
    code = "no_hand"
