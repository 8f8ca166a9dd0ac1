"""Hand evaluation, docs/RULES.md section 3 and the original rule text: points, card order, both rankings."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_card
from games.engine.errors import CardError, EngineError
from games.engine.samgong.hands import (
    HAND_NAMES,
    card_points,
    hand_name,
    house_key,
    is_zero_point,
    multiplier,
    strength,
)
from tests.games.engine.samgong.helpers import ev, hand


def test_card_points_follow_the_seed() -> None:
    points = {r: card_points(parse_card(r + "s")) for r in "A23456789TJQK"}
    assert points == {
        "A": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "T": 0,
        "J": 0,
        "Q": 0,
        "K": 0,
    }


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("Ks Qs 9s", "point_9"),
        ("5s 5h 3d", "point_3"),
        ("2s 3s 5s", "point_0"),
        ("As 9d Tc", "point_0"),
        ("Ah 2d 4c", "point_7"),
    ],
)
def test_seed_point_examples(cards: str, name: str) -> None:
    assert hand_name(ev(cards), "classic") == name


def test_single_card_order_is_k_high_ace_low_then_suit() -> None:
    order = ["Ad", "As", "2d", "9s", "Td", "Ts", "Jd", "Qd", "Kd", "Kh", "Ks"]
    values = [strength(parse_card(c)) for c in order]
    assert values == sorted(values)


def test_classic_category_order() -> None:
    ladder = [
        "Jd Qc 5h",
        "Kd Qd 6c",
        "Jd Kd 7c",
        "Qs Qd 8c",
        "Ks Qd 9c",
        "Js Qd Kc",
        "As Ad Ac",
        "Ks Kd Kc",
        "3s 3d 3c",
    ]
    names = [hand_name(ev(h), "classic") for h in ladder]
    assert names == [
        "point_5",
        "point_6",
        "point_7",
        "point_8",
        "point_9",
        "sangong",
        "da_sangong",
        "da_sangong",
        "zhizun",
    ]
    keys = [ev(h) for h in ladder]
    assert keys == sorted(keys)


def test_zhizun_beats_kings_and_da_sangong_runs_k_high_ace_low() -> None:
    assert ev("3s 3h 3d") > ev("Ks Kh Kd") > ev("Qs Qh Qd") > ev("2s 2h 2d") > ev("As Ah Ad")
    assert ev("As Ah Ad") > ev("Ks Qs Js")


def test_classic_sangong_ties_by_highest_face_card_then_suit() -> None:
    assert ev("Ks Jh Jd") > ev("Qs Qh Jc")
    assert ev("Kh Jd Jc") > ev("Kd Qs Qh")  # K♥ > K♦ decides, the rest does not count


def test_classic_point_ties_more_face_cards_first() -> None:
    assert ev("Ks Qd 9c") > ev("Kh Td 9d")  # 2 face cards beat 1
    assert ev("Js 9d Tc") > ev("As 8d Tc")  # 1 face card beats 0


def test_classic_point_ties_then_rank_of_highest_face_card() -> None:
    assert ev("Kd 4c 5c") > ev("Qs 4h 5h")  # K beats Q whatever the suits


def test_classic_point_ties_then_highest_non_face_card_rank_then_suit() -> None:
    assert ev("Kd Qd 9c") > ev("Ks Qs 9d")  # faces tie by rank: 9♣ > 9♦ decides
    assert ev("Ks 4d 5c") < ev("Kd 4s 5s")  # K rank ties, 5♠ beats 5♣
    assert ev("Ks 2d 7c") > ev("Kd 3s 6s")  # then the 散牌 rank: 7 > 6
    assert ev("Th 4d 5c") > ev("9s 6d 4c")  # no faces: the 10 is the highest 散牌


def test_classic_face_suit_is_ignored_before_the_non_face_card() -> None:
    # literal 通比 text: rank of the highest face card, then the 散牌 (not the face suit)
    assert ev("Kd Qd 9s") > ev("Ks Qs 9h")


def test_tiers_category_order() -> None:
    ladder = ["Ks Qd 9c", "Ks Qd Jc", "As Ad Ac", "Ts Td Tc", "Js Jd Jc", "Ks Kd Kc"]
    names = [hand_name(ev(h, "tiers"), "tiers") for h in ladder]
    assert names == ["point_9", "hun_sangong", "xiao_sangong", "xiao_sangong", "da_sangong", "da_sangong"]
    keys = [ev(h, "tiers") for h in ladder]
    assert keys == sorted(keys)


def test_tiers_seed_trips_orders() -> None:
    assert ev("Ks Kh Kd", "tiers") > ev("Qs Qh Qd", "tiers") > ev("Js Jh Jd", "tiers")
    small = ["Ts Th Td", "9s 9h 9d", "8s 8h 8d", "3s 3h 3d", "2s 2h 2d", "As Ah Ad"]
    keys = [ev(h, "tiers") for h in small]
    assert keys == sorted(keys, reverse=True)
    assert ev("As Ah Ad", "tiers") > ev("Ks Qh Jd", "tiers")


def test_tiers_threes_are_just_xiao_sangong() -> None:
    assert hand_name(ev("3s 3h 3d", "tiers"), "tiers") == "xiao_sangong"
    assert ev("Ts Td Tc", "tiers") > ev("9s 9d 9c", "tiers") > ev("3s 3h 3d", "tiers")


def test_tiers_hun_sangong_ties_highest_face_then_suit() -> None:
    assert ev("Kh Jd Jc", "tiers") > ev("Kd Qs Qh", "tiers")
    assert ev("Qs Jd Jc", "tiers") < ev("Kd Jh Js", "tiers")


def test_tiers_seed_point_tie_examples() -> None:
    assert ev("Jh Qd 9s", "tiers") > ev("Js Td 9c", "tiers")  # J Q 9 > J 10 9: 10 is no face card
    assert ev("Kd Qd 9d", "tiers") > ev("Js Qs 9s", "tiers")  # K Q 9 > J Q 9


def test_seed_check_spade_two_loses_to_club_four_under_tiers() -> None:
    assert ev("2s 3d 4d", "tiers") < ev("3h 4c 2d", "tiers")


def test_tiers_highest_card_includes_face_cards() -> None:
    assert ev("Ks 2d 7c", "tiers") > ev("Qs 8d Ac", "tiers")
    assert ev("Ts 2s 7d", "tiers") > ev("9h 8d 2c", "tiers")  # the 10 is the highest card


@pytest.mark.parametrize(
    ("ranking", "expected"),
    [
        ("classic", [1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 5]),
        ("tiers", [1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 5]),
    ],
)
def test_multipliers_by_category(ranking: str, expected: list[int]) -> None:
    samples = [
        "2s 3s 5s",
        "As Tc Jd",
        "As Ac Kd",
        "As 2c Kd",
        "2s 2c Kd",
        "2s 3c Kd",
        "3s 3c Kd",
        "3s 4c Kd",
        "4s 4c Kd",
        "4s 5c Kd",
        "Js Qc Kd",
        "2s 2c 2d",
        "3s 3c 3d",
    ]
    if ranking == "tiers":
        samples[-2:] = ["As Ac Ad", "Js Jc Jd"]
    keys = [ev(s, ranking) for s in samples]
    assert [k[0] for k in keys] == list(range(13))
    assert [multiplier(k, ranking) for k in keys] == expected


def test_room_multiplier_table_overrides() -> None:
    table = {**{f"point_{p}": 1 for p in range(10)}, "sangong": 7, "da_sangong": 9, "zhizun": 11}
    assert multiplier(ev("Js Qc Kd"), "classic", table) == 7


def test_hand_names_are_stable_snake_case_ids() -> None:
    assert HAND_NAMES["classic"][-3:] == ["sangong", "da_sangong", "zhizun"]
    assert HAND_NAMES["tiers"][-3:] == ["hun_sangong", "xiao_sangong", "da_sangong"]
    assert HAND_NAMES["classic"][:10] == [f"point_{p}" for p in range(10)]


def test_sangong_with_digit_sum_zero_is_not_a_zero_point_hand() -> None:
    assert is_zero_point(ev("2s 3s 5s"))
    assert not is_zero_point(ev("Js Qc Kd"))
    assert not is_zero_point(ev("Ks Kc Kd"))
    assert not is_zero_point(ev("Ts Tc Td", "tiers"))


def test_house_key_compares_category_and_points_only() -> None:
    assert house_key(ev("Ks Qd 9c", "tiers")) == house_key(ev("2s 3d 4d", "tiers"))
    assert house_key(ev("Ks Qd Jc", "tiers")) == house_key(ev("Kh Qh Jh", "tiers"))
    assert house_key(ev("Ks Kd Kc", "tiers")) > house_key(ev("Qs Qd Qc", "tiers"))
    assert house_key(ev("Ts Td Tc", "tiers")) > house_key(ev("9s 9d 9c", "tiers"))


@pytest.mark.parametrize("bad", [["As", "Ks"], ["As", "Ks", "Qs", "Js"]])
def test_evaluate_refuses_wrong_count(bad: list[str]) -> None:
    from games.engine.cards import parse_cards
    from games.engine.samgong.hands import evaluate

    with pytest.raises(CardError, match="3 cards"):
        evaluate(parse_cards(bad), "classic")


def test_evaluate_refuses_duplicates_and_unknown_ranking() -> None:
    from games.engine.samgong.hands import evaluate

    with pytest.raises(CardError, match="duplicate"):
        evaluate([0, 0, 1], "classic")
    with pytest.raises(EngineError, match="ranking"):
        evaluate(hand("As Ks Qs"), "poker")
