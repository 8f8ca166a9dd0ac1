"""Card notation (docs/RULES.md intro, "Card notation everywhere")."""

from __future__ import annotations

import pytest

from games.engine.cards import (
    DECK,
    RANKS,
    SUITS,
    card_str,
    cards_str,
    check_distinct,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from games.engine.errors import CardError, EngineError

ALL_CARD_STRINGS = [r + s for r in "23456789TJQKA" for s in "dchs"]


def test_every_card_round_trips_through_its_string() -> None:
    assert [card_str(c) for c in DECK] == ALL_CARD_STRINGS
    assert [parse_card(t) for t in ALL_CARD_STRINGS] == list(range(52))


def test_the_deck_is_the_52_ints_in_canonical_order() -> None:
    assert DECK == tuple(range(52))
    assert card_str(DECK[0]) == "2d" and card_str(DECK[-1]) == "As"


@pytest.mark.parametrize("card", range(52))
def test_rank_and_suit_rebuild_the_card(card: int) -> None:
    assert make_card(rank_of(card), suit_of(card)) == card
    assert card_str(card) == RANKS[rank_of(card)] + SUITS[suit_of(card)]


def test_suits_rank_spades_hearts_clubs_diamonds() -> None:
    # docs/RULES.md: ♠ s > ♥ h > ♣ c > ♦ d; a higher suit index is the higher suit.
    suits = [suit_of(parse_card("K" + s)) for s in "shcd"]
    assert suits == sorted(suits, reverse=True)


def test_ranks_run_from_deuce_to_ace() -> None:
    assert [rank_of(parse_card(r + "s")) for r in "23456789TJQKA"] == list(range(13))


@pytest.mark.parametrize(("text", "expected"), [("td", "Td"), ("aS", "As"), ("KH", "Kh"), ("9c", "9c")])
def test_parsing_ignores_case(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize(
    ("bad", "fragment"),
    [
        ("", "bad card ''"),
        ("A", "bad card 'A'"),
        ("Ast", "bad card 'Ast'"),
        ("10s", "bad card '10s'"),
        ("1s", "rank must be one of 23456789TJQKA"),
        ("Ax", "suit one of dchs"),
        ("sA", "bad card 'sA'"),
        ("A♠", "bad card 'A♠'"),
        (None, "bad card None"),
        (51, "bad card 51"),
        (["As"], "bad card ['As']"),
    ],
)
def test_bad_cards_are_refused_with_a_message_naming_them(bad: object, fragment: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert fragment in str(info.value)
    assert "expected rank+suit" in str(info.value) or "must be one of" in str(info.value)


def test_card_errors_are_engine_errors() -> None:
    assert issubclass(CardError, EngineError)
    assert issubclass(EngineError, ValueError)


def test_parse_cards_reads_a_list_and_keeps_its_order() -> None:
    assert cards_str(parse_cards(["As", "2d", "th"])) == ["As", "2d", "Th"]
    assert parse_cards(("Kc",)) == [parse_card("Kc")]
    assert parse_cards([]) == []


@pytest.mark.parametrize("bad", ["As Kd", None, {"As": 1}, 7])
def test_parse_cards_wants_a_list(bad: object) -> None:
    with pytest.raises(CardError, match=r"front: expected a list of cards"):
        parse_cards(bad, field="front")


def test_parse_cards_refuses_a_duplicate_and_names_it() -> None:
    with pytest.raises(CardError, match=r"^middle: duplicate card Ah$"):
        parse_cards(["Ah", "Kd", "ah"], field="middle")


def test_parse_cards_checks_the_count_when_asked() -> None:
    assert len(parse_cards(["As", "Kd", "Qh"], count=3)) == 3
    with pytest.raises(CardError, match=r"^front: expected 3 cards, got 4$"):
        parse_cards(["As", "Kd", "Qh", "Jc"], count=3, field="front")


def test_parse_cards_reports_the_first_bad_card() -> None:
    with pytest.raises(CardError, match=r"bad card 'Zz'"):
        parse_cards(["As", "Zz", "Qq"])


def test_check_distinct_accepts_distinct_cards_and_refuses_repeats() -> None:
    check_distinct(range(52))
    with pytest.raises(CardError, match=r"^seat 2: duplicate card 2d$"):
        check_distinct([0, 5, 0], field="seat 2")
