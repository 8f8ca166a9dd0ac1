"""The coins between seats (games/engine/flows.py): a netting moves what each loser lost (less
rounding) to the winners, only from losers to winners; a banker's flows are each player's
result, with nobody else."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.engine.flows import banker_flows, netted_flows

coins = st.lists(st.integers(min_value=-10**9, max_value=10**9), min_size=2, max_size=6)


@given(coins)
def test_a_netting_moves_what_each_loser_lost_less_rounding_from_losers_to_winners(seats: list[int]) -> None:
    flows = netted_flows(seats)
    winners = sum(1 for c in seats if c > 0)
    for seat, amount in enumerate(seats):
        paid = sum(c for p, _r, c in flows if p == seat)
        got = sum(c for _p, r, c in flows if r == seat)
        assert (paid == 0 or amount < 0) and (got == 0 or amount > 0)
        if amount < 0 and winners:
            assert -amount - winners < paid <= -amount
    assert all(c > 0 and p != r for p, r, c in flows)


@given(coins, st.data())
def test_a_bankers_flows_are_each_players_result_and_players_never_pay_one_another(
        seats: list[int], data: st.DataObject) -> None:
    banker = data.draw(st.integers(min_value=0, max_value=len(seats) - 1))
    flows = banker_flows(seats, banker=banker)
    assert all(banker in (p, r) for p, r, _c in flows)
    for seat, amount in enumerate(seats):
        if seat != banker:
            net = sum(c for _p, r, c in flows if r == seat) - sum(c for p, _r, c in flows if p == seat)
            assert net == amount
