"""What each seat may see (protocol ``view``; docs/RULES.md section 2)."""

from __future__ import annotations

from typing import Any

from games.engine import thirteen_trio as trio
from games.engine.cards import cards_str
from tests.games.engine.thirteen_trio.helpers import (
    MIDDLING,
    NOW,
    STRONG,
    WEAK,
    action,
    card_strings,
    play,
    start,
    with_hands,
)


def golden() -> dict[str, Any]:
    return with_hands(start(), [STRONG, WEAK, MIDDLING], "6c")


def test_a_player_sees_its_own_17_cards_and_the_jackpot_card_only() -> None:
    state = golden()
    mine = trio.plugin.view(state, 1)
    assert mine["jackpot"] == "6c" and mine["you"] == 1
    assert mine["seats"][1]["cards"] == cards_str(state["seats"][1]["cards"])
    assert mine["seats"][0]["cards"] is None and mine["seats"][2]["cards"] is None
    assert [s["role"] for s in mine["seats"]] == ["頭", "尾", "對"]
    assert mine["minimum"] == 300_000 and mine["game_minimum"] == 110_000  # shown before the game


def test_submitted_rows_stay_hidden_from_the_others_until_settlement() -> None:
    state, _ = trio.plugin.apply(golden(), 0, action(STRONG), now=NOW)
    assert trio.plugin.view(state, 0)["seats"][0]["rows"] == {r: cards_str(c) for r, c in STRONG.items()}
    for viewer in (1, 2, None):
        seat0 = trio.plugin.view(state, viewer)["seats"][0]
        assert seat0["rows"] is None and seat0["cards"] is None and seat0["arranged"] is True


def test_after_settlement_only_the_13_played_cards_are_shown_never_the_4_unused() -> None:
    state, _ = play(golden(), [STRONG, WEAK, MIDDLING])
    for viewer in (1, None):
        seat0 = trio.plugin.view(state, viewer)["seats"][0]
        assert seat0["cards"] is None
        assert seat0["rows"] == {r: cards_str(c) for r, c in STRONG.items()}
        unused = set(cards_str(state["seats"][0]["cards"])) - set(cards_str(sum(STRONG.values(), [])))
        assert len(unused) == 4
        assert not unused & card_strings(trio.plugin.view(state, viewer))
    assert trio.plugin.view(state, 1)["result"]["units"] == [4, -3, -1]


def test_a_voided_game_reveals_nothing() -> None:
    state, _ = trio.plugin.apply(golden(), 0, action(STRONG), now=NOW)
    state, _ = trio.plugin.void(state)
    assert trio.plugin.view(state, None)["seats"][0]["rows"] is None
    assert card_strings(trio.plugin.view(state, None)) == {"6c"}


def test_a_spectator_sees_no_hidden_card() -> None:
    assert card_strings(trio.plugin.view(golden(), None)) == {"6c"}
