"""High card's part of the hand record (docs/HAND_HISTORY.md): the cards and the stake, the
re-deal and re-score ``python -m games verify`` checks it by, and the replay's one comparison.
Every card is shown at the end, so a player's copy hides nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.cards import card_str
from games.engine.labels import gettext_noop
from games.engine.record import compare_hands, differs
from games.engine.showdown import Comparison
from tests.games.toy_game.machine import deal, score


def record_part(state: Mapping[str, Any]) -> dict[str, Any]:
    """Each seat's card (as a one-card hand), the unit and the commission."""
    rules = state["rules"]
    return {"seats": [{"cards": [card_str(s["card"])]} for s in state["seats"]], "unit": rules["unit"],
            "commission_percent": rules["commission_percent"]}


def redact(body: dict[str, Any], seat: int) -> list[str]:
    return []


def check_deal(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """The seed's deck, one card to each seat from the top."""
    fair = rec["fairness"]
    dealt = deal(fair["server_seed"], fair["client_seeds"], len(rec["seats"]))
    return compare_hands([[card] for card in dealt], rec["seats"])


def check_score(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """The recorded cards, scored again, give the recorded units, coins and commission."""
    out = score([s["cards"][0] for s in rec["seats"]], unit=rec["unit"], commission_percent=rec["commission_percent"])
    result = rec["result"]
    return differs(*((f"result.{k}", result[k], out[k]) for k in ("units", "coins", "commission")))


def text_variant(rec: Mapping[str, Any]) -> str:
    return "HC"


def showdown(rec: Mapping[str, Any]) -> list[Comparison]:
    """One comparison: every seat's card, the highest rank winning."""
    units = rec["result"]["units"]
    best = max(units)
    winner = units.index(best) if units.count(best) == 1 else None
    return [{"title": gettext_noop("Cards"),
             "hands": [{"seat": i, "cards": list(s["cards"]), "name": None, "args": {}}
                       for i, s in enumerate(rec["seats"])],
             "outcomes": [{"seats": list(range(len(units))), "winner": winner}]}]
