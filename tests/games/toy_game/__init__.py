"""High card, the contract's example game (games/engine/protocol.py), kept with the tests: it
is in no product page until a test registers it (games.engine.registry.register)."""

from tests.games.toy_game.plugin import HighCard

plugin = HighCard()

__all__ = ["HighCard", "plugin"]
