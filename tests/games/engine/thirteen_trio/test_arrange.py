"""The auto-arrangement (docs/RULES.md section 2 "Arranging": auto-play never fouls and keeps what pays)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import poker
from games.engine.cards import cards_str, parse_card, parse_cards
from games.engine.errors import EngineError
from games.engine.thirteen_trio.arrange import arrange
from games.engine.thirteen_trio.scoring import is_foul, score_hands, specials


def kinds(rows: dict[str, list[int]], jackpot: str) -> list[tuple[str, str]]:
    return [(s["kind"], s["row"]) for s in specials(rows, parse_card(jackpot))]


def test_jackpot_trips_go_in_front_for_chong_san_plus_jackpot() -> None:
    cards = parse_cards("6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split())
    rows = arrange(cards, parse_card("6h"))
    assert sorted(cards_str(rows["front"])) == ["6c", "6d", "6s"]
    assert kinds(rows, "6h") == [("front_trips", "front"), ("jackpot", "front")]


def test_quads_are_kept_together() -> None:
    cards = parse_cards("9s 9d 9c 9h 2h 5h Kc 8h Jh As 3d Kd Qc 7s 4d Tc 6c".split())
    rows = arrange(cards, parse_card("2c"))
    assert ("quads", "back") in kinds(rows, "2c") or ("quads", "middle") in kinds(rows, "2c")


def test_a_straight_flush_is_kept() -> None:
    cards = parse_cards("5s 6s 7s 8s 9s 2h 2d Kc Kh Jh Ad 3d Qc 7c 4d Tc Th".split())
    rows = arrange(cards, parse_card("2c"))
    assert ("straight_flush", "back") in kinds(rows, "2c")


def test_rows_are_13_of_the_17_cards_high_to_low() -> None:
    cards = parse_cards("6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split())
    rows = arrange(cards, parse_card("6h"))
    played = rows["front"] + rows["middle"] + rows["back"]
    assert [len(rows[r]) for r in ("front", "middle", "back")] == [3, 5, 5]
    assert len(set(played)) == 13 and set(played) <= set(cards)
    assert all(rows[r] == sorted(rows[r], reverse=True) for r in rows)


def test_bad_input_is_refused() -> None:
    cards = parse_cards("6s 6d 6c 2h 3h 4h 8h Jh As Ad Kd Qc 9s 9d 7c 5c Tc".split())
    with pytest.raises(EngineError, match="17 distinct"):
        arrange(cards[:16], parse_card("6h"))
    with pytest.raises(EngineError, match="17 distinct"):
        arrange(cards[:16] + cards[:1], parse_card("6h"))
    with pytest.raises(EngineError, match="jackpot"):
        arrange(cards, cards[0])


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.permutations(range(52)))
def test_auto_arrangement_never_fouls(deck: list[int]) -> None:
    cards, jackpot = deck[1:18], deck[0]
    rows = arrange(cards, jackpot)
    played = rows["front"] + rows["middle"] + rows["back"]
    assert len(set(played)) == 13 and set(played) <= set(cards)
    assert not is_foul(rows)


def _greedy(cards: list[int]) -> dict[str, list[int]]:
    """Strongest back, then strongest middle, then strongest front: never fouls, ignores balance."""

    def best(pool: list[int], n: int) -> list[int]:
        rank = poker.rank5 if n == 5 else poker.rank3
        return list(max(combinations(pool, n), key=lambda c: rank(list(c), suits=False)))

    back = best(cards, 5)
    middle = best([c for c in cards if c not in back], 5)
    front = best([c for c in cards if c not in back + middle], 3)
    return {"front": front, "middle": middle, "back": back}


def test_it_beats_a_greedy_strongest_back_first_arrangement() -> None:
    rng = random.Random(2024)
    total = 0
    for game in range(60):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [deck[1 + 17 * s : 18 + 17 * s] for s in range(3)]
        seat = game % 3
        rows = [arrange(h, deck[0]) if s == seat else _greedy(h) for s, h in enumerate(hands)]
        total += score_hands(rows, deck[0])["units"][seat]
    assert total > 0  # about +1.1 墩 a game against two greedy players over many games
