"""The showdown of a ``samgong`` record for the replay (:mod:`games.engine.showdown`): every hand
with its name, then who beat whom — each player against the banker, every pair (两两比牌), the
best hand of an all-compare table, or a house table's 閒 against 莊 (docs/RULES.md section 3).

>>> hand_name("point_7"), hand_name("zhizun")
(('{n} points', {'n': 7}), ('Supreme', {}))
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from games.engine.cards import parse_cards
from games.engine.labels import gettext_noop
from games.engine.samgong.hands import evaluate
from games.engine.showdown import Comparison, Outcome, Shown

#: The 三公 hand names (games.engine.samgong.hands.HAND_NAMES), as the table pages name them.
HAND_LABELS: dict[str, str] = {
    "sangong": gettext_noop("Three faces"),
    "da_sangong": gettext_noop("Big three faces"),
    "xiao_sangong": gettext_noop("Small three faces"),
    "hun_sangong": gettext_noop("Mixed three faces"),
    "zhizun": gettext_noop("Supreme"),
}
HOUSE_OUTCOMES: dict[str, str] = {
    "player": gettext_noop("Player wins"), "banker": gettext_noop("Banker wins"), "tie": gettext_noop("Tie"),
}
HANDS = gettext_noop("Hands compared")
#: A house table's bet spots (games.engine.samgong.house.BET_KINDS), as the table page names them.
move_terms: Mapping[str, str] = {
    "player": gettext_noop("Player wins"), "banker": gettext_noop("Banker wins"), "tie": gettext_noop("Tie"),
    "sangong": gettext_noop("Any three faces"), "side": gettext_noop("Side bet"),
}


def hand_name(name: str | None) -> tuple[str | None, dict[str, Any]]:
    """A hand name id as a message id and its arguments (``point_7`` → ``{n} points``, n = 7)."""
    if name is None:
        return None, {}
    if name.startswith("point_"):
        return gettext_noop("{n} points"), {"n": int(name.removeprefix("point_"))}
    return HAND_LABELS.get(name, name), {}


def _shown(seat: int | None, cards: list[str], name: str | None, title: str | None = None) -> Shown:
    label, args = hand_name(name)
    shown: Shown = {"seat": seat, "cards": list(cards), "name": label, "args": args}
    if title:
        shown["title"] = title
    return shown


def _house(rec: Mapping[str, Any]) -> list[Comparison]:
    result = rec["result"]
    hands = [_shown(None, rec["player_cards"], result.get("player_hand"), gettext_noop("Player hand")),
             _shown(None, rec["banker_cards"], result.get("banker_hand"), gettext_noop("Banker hand"))]
    text = HOUSE_OUTCOMES.get(str(result.get("outcome")), str(result.get("outcome")))
    return [{"title": HANDS, "hands": hands, "outcomes": [{"seats": [], "winner": None, "text": text}]}]


def _versus(keys: Mapping[int, tuple[int, ...]], a: int, b: int) -> Outcome:
    winner = a if keys[a] > keys[b] else b if keys[b] > keys[a] else None
    return {"seats": [a, b], "winner": winner}


def showdown(rec: Mapping[str, Any]) -> list[Comparison]:
    if rec.get("player_cards"):
        return _house(rec)
    result = rec["result"]
    names = result.get("hands") or []
    ranking = rec.get("rules", {}).get("ranking", "classic")
    dealt = {i: s["cards"] for i, s in enumerate(rec["seats"]) if s.get("cards")}
    hands = [_shown(i, cards, names[i] if i < len(names) else None) for i, cards in dealt.items()]
    keys = {i: evaluate(parse_cards(cards), ranking) for i, cards in dealt.items()}
    banker = rec.get("banker")
    if banker is not None and banker in keys:
        outcomes = [_versus(keys, p, banker) for p in keys if p != banker]
    elif rec.get("mode") == "pairwise":
        outcomes = [_versus(keys, a, b) for a, b in combinations(sorted(keys), 2)]
    else:
        outcomes = [{"seats": sorted(keys), "winner": result.get("winner")}]
    return [{"title": HANDS, "hands": hands, "outcomes": outcomes}]
