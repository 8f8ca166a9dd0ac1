"""The door from live play to a table's game (games/adapters.py)."""

from __future__ import annotations

import pytest

from games.adapters import engine_rules
from tables.models import StakeLevel
from tests.factories import table_at

pytestmark = pytest.mark.django_db


def test_a_stake_levels_rules_are_asked_of_the_engine_once_for_the_same_terms():
    level = table_at("thirteen").stake_level
    again = StakeLevel.objects.get(pk=level.pk)  # another copy of the row, as each change reads it
    assert engine_rules(again) is engine_rules(level)
    again.unit += 1
    assert engine_rules(again) is not engine_rules(level)
    assert engine_rules(again)["unit"] == engine_rules(level)["unit"] + 1
