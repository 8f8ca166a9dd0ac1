"""The integrity benchmark at small scale (bench/integrity.py): hands played by the engines into
the signals' tally. A farm feeding a collector is flagged within 30 hands, a card-sharing pair at
十三张 within 300, a 30 % row-dumper for its play favouring its partner and a 三公 抢庄 dumper
for its bets with its partner as the banker within 300, and 300 honest hands of every game flag
nobody."""

from __future__ import annotations

from bench.integrity import colluding_run, honest_run


def test_a_farm_feeding_a_collector_is_flagged_within_thirty_hands_and_nobody_else_is() -> None:
    first, flags, others = colluding_run("farm", 30, 1)
    assert first is not None and first <= 30 and "flow" in flags and not others


def test_a_card_sharing_pair_at_thirteen_is_flagged_within_three_hundred_hands_for_its_play() -> None:
    first, flags, others = colluding_run("share_thirteen", 300, 1)
    assert first is not None and "info" in flags and not others


def test_a_row_dumper_is_flagged_within_three_hundred_hands_for_play_favouring_its_partner() -> None:
    first, flags, others = colluding_run("dumper", 300, 1)
    assert first is not None and "favour" in flags and not others


def test_a_banker_mode_dumper_is_flagged_within_three_hundred_hands_for_its_bets_with_its_partner() -> None:
    first, flags, others = colluding_run("banker_dumper", 300, 1)
    assert first is not None and "bets" in flags and not others


def test_three_hundred_honest_hands_of_every_game_flag_nobody() -> None:
    played, flagged, _judged = honest_run(300, 1)
    assert played == 300 and flagged == {}
