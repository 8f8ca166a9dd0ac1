"""Reads of the stored signals (integrity/profiles.py): a player's bets against the cards are
summed over every stake level, the bets test's baseline; the player page reads each pair's
favour and bets tests on the way nearer its flag."""

from __future__ import annotations

import pytest
from django.utils import timezone

from integrity.judge import Sums
from integrity.models import PairSignal, PlayerSignal
from integrity.profiles import bets_by_player, player_profile
from tables.models import StakeLevel
from tests.factories import ensure_stake_levels, funded_user


@pytest.mark.django_db
def test_a_players_bets_are_summed_over_every_stake_level_and_players_without_bets_are_left_out() -> None:
    ensure_stake_levels()
    low, high = StakeLevel.objects.filter(game="samgong", mode="banker_bid").order_by("unit")[:2]
    bettor, other = funded_user("bettor", 1), funded_user("other", 1)
    PlayerSignal.objects.create(user=bettor, stake_level=low, hands=50, bet_hands=40, bet_net=-900, bet_sq=70_000)
    PlayerSignal.objects.create(user=bettor, stake_level=high, hands=20, bet_hands=10, bet_net=300, bet_sq=20_000)
    PlayerSignal.objects.create(user=other, stake_level=low, hands=30)
    assert bets_by_player(users=[bettor.pk, other.pk]) == {bettor.pk: Sums(50, -600, 90_000)}


@pytest.mark.django_db
def test_the_player_page_reads_each_pairs_favour_and_bets_on_the_way_nearer_its_flag() -> None:
    giver, banker = funded_user("giver", 1), funded_user("banker", 1)
    lo, hi = sorted((giver, banker), key=lambda u: u.pk)
    now = timezone.now()
    PairSignal.objects.create(a=lo, b=hi, hands=90, info_hands=60, favour_ab_net=-3_000, favour_ab_sq=1_000_000,
                              favour_ba_net=4_000, favour_ba_sq=1_000_000, bet_ba_hands=40, bet_ba_net=-40_000,
                              bet_ba_sq=50_000_000, first_at=now, last_at=now, flags=["bets", "favour"],
                              flagged_at=now)
    [linked] = player_profile(user=giver)["linked"]
    assert linked.favour_z == 4.0
    assert round(linked.bets_z, 2) == -5.66  # b with a banking, no other banker: against a bet ignoring the cards
