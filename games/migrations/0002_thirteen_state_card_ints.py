"""十三张 hand states keep cards as ints, like the other games' states.

Hands stored before that kept each seat's ``cards`` and submitted rows as strings ("As"); the
engine now reads ints, so every stored 十三张 state (in play or finished: the table page shows
the last finished hand) is converted once. Hand records are not touched: they always held
strings. Reversible.
"""

from collections.abc import Callable
from typing import Any

from django.db import migrations

from games.engine.cards import card_str, parse_card

ROWS = ("front", "middle", "back")


def _convert(state: dict[str, Any], card: Callable[[Any], Any]) -> bool:
    """Convert the state's cards in place with ``card``; whether anything changed."""
    changed = False
    for seat in state.get("seats", []):
        old = seat.get("cards") or []
        seat["cards"] = [card(c) for c in old]
        changed |= seat["cards"] != old
        submission = seat.get("submission") or {}
        for row in ROWS:
            if submission.get(row):
                submission[row] = [card(c) for c in submission[row]]
    return changed


def _to_int(c: Any) -> Any:
    return parse_card(c) if isinstance(c, str) else c


def _to_str(c: Any) -> Any:
    return card_str(c) if isinstance(c, int) else c


def _migrate(apps: Any, card: Callable[[Any], Any]) -> None:
    Hand = apps.get_model("games", "Hand")
    for hand in Hand.objects.filter(game="thirteen").only("pk", "state").iterator(chunk_size=500):
        if _convert(hand.state, card):
            Hand.objects.filter(pk=hand.pk).update(state=hand.state)


def forwards(apps: Any, schema_editor: Any) -> None:
    _migrate(apps, _to_int)


def backwards(apps: Any, schema_editor: Any) -> None:
    _migrate(apps, _to_str)


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
