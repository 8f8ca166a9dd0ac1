"""The dashboard's codes in the page's language: games, modes and stakes as the players' pages
name them (``tables.titles``, from the registry), house accounts and transaction kinds as the
wallet names them. A code nothing names (a game no longer registered) shows as itself."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.errors import EngineError
from games.engine.registry import engine_for
from tables import titles
from wallet.models import House, TransactionKind
from wallet.money import format_coins


def game_label(game: str) -> str:
    try:
        return titles.game_label(game)
    except EngineError:
        return game


def mode_label(game: str, mode: str) -> str:
    """The mode's label; empty for a game without modes."""
    try:
        return titles.mode_label(game, mode)
    except EngineError:
        return mode


def stake_label(game: str, unit: int) -> str:
    """A stake level's unit or base, as the game calls it ("unit 0.10", "底注 1.00")."""
    try:
        word = titles.STAKE_WORDS[engine_for(game).stake_word]
    except EngineError:
        return format_coins(unit, grouping=True)
    return _(word) % {"coins": format_coins(unit, grouping=True)}


def house_label(house: str) -> str:
    return str(dict(House.choices).get(house, house))


def kind_label(kind: str) -> str:
    """A transaction kind's label; a kind the wallet adds shows with its own label at once."""
    return str(dict(TransactionKind.choices).get(kind, kind))
