"""Settlement of all_compare, banker and pairwise hands (docs/RULES.md section 3, "Modes")."""

from __future__ import annotations

from games.engine.samgong.rules import resolve_rules
from games.engine.samgong.settle import settle_all_compare, settle_banker, settle_pairwise
from tests.games.engine.samgong.helpers import hand

SANGONG, NINE, FIVE, ZERO = "Ks Qs Jh", "9s Kd Qc", "5d Tc Jd", "2c 3c 5c"
BIG = 10**6


def rules(mode: str, **kw: object) -> dict:
    return resolve_rules({"mode": mode, **kw})


def hands(*texts: str) -> list[list[int]]:
    return [hand(t) for t in texts]


def balanced(s: dict) -> bool:
    return sum(s["coins"]) + s["house"] == 0 and sum(s["gross"]) + s["house"] == s["commission"]


# --- all_compare 通比 ---------------------------------------------------------------


def test_all_compare_loser_pays_a_m_x_y_and_winner_pays_five_percent() -> None:
    s = settle_all_compare(hands(SANGONG, NINE, ZERO), [2, 1, 3], [BIG] * 3, rules("all_compare", base=100))
    # M = 3 (三公), X = 2: seat 1 pays 100·3·2·1, seat 2 pays 100·3·2·3
    assert s["gross"] == [2400, -600, -1800]
    assert s["commission"] == 120 and s["commissions"] == [120, 0, 0]
    assert s["coins"] == [2280, -600, -1800] and s["house"] == 120
    assert s["winner"] == 0 and s["hands"] == ["sangong", "point_9", "point_0"]
    assert s["units"] == [24, -6, -18] and balanced(s)


def test_all_compare_loser_pays_at_most_its_table_money() -> None:
    s = settle_all_compare(hands(SANGONG, NINE), [2, 1], [BIG, 450], rules("all_compare", base=100))
    assert s["gross"] == [450, -450]


def test_all_compare_each_loser_pays_at_most_the_winner_table_money() -> None:
    # claims min(600, BIG, 500) = 500 each; total 1000 > 500 is then split in proportion
    s = settle_all_compare(hands(SANGONG, NINE, FIVE), [2, 1, 1], [500, BIG, BIG], rules("all_compare", base=100))
    assert s["gross"] == [500, -250, -250]


def test_all_compare_scaling_is_proportional_with_leftover_after_the_winner() -> None:
    # claims 600 and 700 (capped by the winner's 700); 700 split 600:700 -> 323.07 / 376.92
    s = settle_all_compare(hands(SANGONG, NINE, ZERO), [2, 1, 3], [700, BIG, BIG], rules("all_compare", base=100))
    assert s["gross"] == [700, -324, -376]
    assert s["commission"] == 35 and balanced(s)


def test_all_compare_leftover_goes_first_to_the_seat_after_the_winner() -> None:
    # winner seat 2; three equal claims of 600 split over 1000 -> 333 each, leftover 1 to seat 3
    s = settle_all_compare(
        hands(NINE, FIVE, SANGONG, ZERO),
        [1, 1, 2, 1],
        [BIG, BIG, 1000, BIG],
        rules("all_compare", base=100, max_players=5),
    )
    assert s["gross"] == [-333, -333, 1000, -334]


def test_seed_anti_leverage_example_bring_100_win_at_most_100() -> None:
    s = settle_all_compare(hands(SANGONG, NINE, FIVE), [1, 1, 1], [100, 200, 200], rules("all_compare", base=100))
    assert s["gross"][0] == 100 and s["gross"] == [100, -50, -50]


def test_all_compare_fee_is_rounded_down() -> None:
    # point_5 ×1, X = 1, Y = 3, base 13: win 39, 5 % = 1.95 -> 1
    s = settle_all_compare(hands(FIVE, ZERO), [1, 3], [BIG, BIG], rules("all_compare", base=13))
    assert s["gross"] == [39, -39] and s["commission"] == 1 and s["coins"] == [38, -39]


def test_all_compare_zhizun_multiplier_five() -> None:
    s = settle_all_compare(hands("3s 3h 3d", "Ks Kh Kd"), [1, 1], [BIG, BIG], rules("all_compare", base=10))
    assert s["gross"] == [50, -50] and s["multipliers"] == [5, 4]


# --- banker 搶莊 / 輪莊 ------------------------------------------------------------


def test_banker_meets_each_player_winner_takes_a_times_winner_multiplier_times_bet() -> None:
    # banker 5 points ×1; seat 1 nine ×2 bet 3 wins 2·3·10; seat 2 zero bet 4 loses 1·4·10
    s = settle_banker(hands(FIVE, NINE, ZERO), [0, 3, 4], [BIG] * 3, 0, rules("banker_bid", base=10, min_players=2))
    assert s["gross"] == [-20, 60, -40] and s["banker"] == 0 and s["units"] == [-2, 6, -4]


def test_banker_who_cannot_cover_pays_all_in_proportion() -> None:
    # owed 100 and 80; banker has 30 + takings 50 = 80 -> 44.4 / 35.5, leftover to seat 1
    s = settle_banker(
        hands("As Td Jc", NINE, "7h Kh Qh", ZERO), [0, 5, 4, 5], [30, 500, 500, 500], 0, rules("banker_bid", base=10)
    )
    assert s["gross"] == [-30, 45, 35, -50] and balanced(s)


def test_banker_insolvency_leftover_starts_after_the_banker() -> None:
    # banker seat 2 holds 10; owed 60 to seats 0, 1, 3 each -> 3 each + leftover 1 to seat 3
    s = settle_banker(
        hands(NINE, "8s Kh Qh", ZERO, "7s Ks Qd"), [3, 3, 0, 3], [BIG, BIG, 10, BIG], 2, rules("banker_bid", base=10)
    )
    assert s["gross"] == [3, 3, -10, 4]


def test_player_exposure_is_capped_at_its_table_money() -> None:
    s = settle_banker(hands(NINE, ZERO, FIVE), [0, 5, 5], [BIG, 35, 70], 0, rules("banker_bid", base=10, min_players=2))
    assert s["gross"] == [105, -35, -70]


def test_player_win_is_capped_at_its_own_table_money() -> None:
    s = settle_banker(hands(ZERO, NINE), [0, 5], [BIG, 40], 0, rules("banker_bid", base=10, min_players=2))
    assert s["gross"] == [-40, 40]
    s = settle_banker(
        hands(ZERO, NINE), [0, 5], [BIG, 40], 0, rules("banker_bid", base=10, min_players=2, cap_wins=False)
    )
    assert s["gross"] == [-100, 100]


def test_banker_net_win_is_capped_at_its_table_money() -> None:
    # three losers owe 50 each; the banker brought 100 -> takings cut to 100 in proportion
    s = settle_banker(
        hands(NINE, ZERO, FIVE, "As Tc Jd"), [0, 5, 5, 5], [100, BIG, BIG, BIG], 0, rules("banker_bid", base=5)
    )
    assert s["gross"] == [100, -34, -33, -33]


def test_banker_mode_commission_defaults_to_zero_and_is_configurable() -> None:
    r = rules("banker_bid", base=10, min_players=2, commission_bps=500)
    s = settle_banker(hands(FIVE, NINE, ZERO), [0, 3, 4], [BIG] * 3, 0, r)
    assert s["commissions"] == [0, 3, 0] and s["coins"] == [-20, 57, -40] and balanced(s)


# --- pairwise 兩兩比牌 -------------------------------------------------------------


def test_pairwise_everyone_meets_everyone_at_the_winner_multiplier() -> None:
    s = settle_pairwise(hands("Ks Kh Kd", "9s Td Tc", "2c 3c 5h"), [BIG] * 3, rules("pairwise", base=10))
    assert s["units"] == [10, -3, -7] and s["gross"] == [100, -30, -70]
    assert s["hands"] == ["da_sangong", "point_9", "point_0"] and s["multipliers"] == [5, 2, 1]


def test_pairwise_losses_scaled_to_capped_wins() -> None:
    s = settle_pairwise(hands("Ks Kh Kd", "9s Td Tc", "2c 3c 5h"), [50, 900, 900], rules("pairwise", base=10))
    assert s["gross"] == [50, -15, -35] and balanced(s)


def test_pairwise_wins_scaled_to_capped_losses_leftover_from_seat_0() -> None:
    s = settle_pairwise(
        hands("Ks Kh Kd", "Qs Qh Qd", "9s Td Tc", "2c 3c 5h"), [BIG, BIG, 30, 40], rules("pairwise", base=10)
    )
    assert s["units"] == [15, 5, -8, -12]
    assert s["gross"] == [53, 17, -30, -40] and balanced(s)


def test_pairwise_seed_check_hand_loses_to_its_twin() -> None:
    s = settle_pairwise(hands("2s 3d 4d", "3h 4c 2d"), [BIG, BIG], rules("pairwise", base=10))
    assert s["gross"] == [-20, 20] and s["winner"] == 1
