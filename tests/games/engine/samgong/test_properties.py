"""Hypothesis properties: settlements sum to zero, table money caps hold, views never leak,
the seed re-deals the same hand, both rankings are strict orders (docs/RULES.md section 3)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import samgong as sg
from games.engine.cards import card_str
from games.engine.samgong.hands import evaluate
from games.engine.samgong.house import settle_house
from games.engine.samgong.rules import resolve_rules
from games.engine.samgong.settle import settle_all_compare, settle_banker, settle_pairwise
from games.engine.samgong.split import split_proportional

FAST = settings(max_examples=300, deadline=None, derandomize=True)
SLOW = settings(max_examples=150, deadline=None, derandomize=True)


@st.composite
def dealt(draw: st.DrawFn, n_min: int = 2, n_max: int = 6) -> list[list[int]]:
    n = draw(st.integers(n_min, n_max))
    cards = draw(st.permutations(range(52)))[: 3 * n]
    return [cards[3 * i : 3 * i + 3] for i in range(n)]


stack = st.integers(0, 5_000)
base = st.integers(1, 300)
bps = st.integers(0, 1_000)


def check_money(record: dict[str, Any], stacks: list[int], cap_wins: bool = True) -> None:
    assert sum(record["coins"]) + record["house"] == 0
    assert record["commission"] == sum(record["commissions"]) >= 0
    for s, net in enumerate(record["gross"]):
        assert net >= -stacks[s], "a seat lost more than its table money"
        if cap_wins:
            assert net <= stacks[s], "a seat won more than its table money"


@FAST
@given(st.data(), dealt(2, 5), base, bps)
def test_all_compare_sums_to_zero_within_table_money(data: st.DataObject, hands: list, a: int, fee: int) -> None:
    n = len(hands)
    stacks = data.draw(st.lists(stack, min_size=n, max_size=n))
    bets = data.draw(st.lists(st.integers(1, 5), min_size=n, max_size=n))
    rules = resolve_rules({"mode": "all_compare", "base": a, "commission_bps": fee})
    record = settle_all_compare(hands, bets, stacks, rules)
    check_money(record, stacks)
    assert sum(1 for g in record["gross"] if g > 0) <= 1


@FAST
@given(st.data(), dealt(2, 6), base, bps, st.booleans())
def test_banker_sums_to_zero_within_table_money(data: st.DataObject, hands: list, a: int, fee: int, cap: bool) -> None:
    n = len(hands)
    stacks = data.draw(st.lists(stack, min_size=n, max_size=n))
    bets = data.draw(st.lists(st.integers(1, 5), min_size=n, max_size=n))
    banker = data.draw(st.integers(0, n - 1))
    rules = resolve_rules(
        {"mode": "banker_bid", "base": a, "commission_bps": fee, "min_players": 2, "max_players": 6, "cap_wins": cap}
    )
    record = settle_banker(hands, bets, stacks, banker, rules)
    assert record["gross"][banker] >= -stacks[banker]
    for s in range(n):
        if s != banker:
            assert record["gross"][s] >= -stacks[s]
            assert not cap or record["gross"][s] <= stacks[s]
    assert sum(record["coins"]) + record["house"] == 0
    assert not cap or record["gross"][banker] <= stacks[banker]


@FAST
@given(st.data(), dealt(2, 6), base, st.booleans())
def test_pairwise_sums_to_zero_within_table_money(data: st.DataObject, hands: list, a: int, cap: bool) -> None:
    n = len(hands)
    stacks = data.draw(st.lists(stack, min_size=n, max_size=n))
    record = settle_pairwise(hands, stacks, resolve_rules({"mode": "pairwise", "base": a, "cap_wins": cap}))
    check_money(record, stacks, cap)
    assert sum(record["units"]) == 0


@FAST
@given(st.data(), dealt(2, 2))
def test_house_loses_at_most_the_stakes(data: st.DataObject, hands: list) -> None:
    n = data.draw(st.integers(1, 8))
    kinds = ("player", "banker", "tie", "sangong", "side")
    bets = [
        {k: data.draw(st.integers(0, 200)) * (2 if k in ("player", "banker") else 1) for k in kinds} for _ in range(n)
    ]
    record = settle_house(hands[0], hands[1], bets, resolve_rules({"mode": "house"}))
    assert sum(record["coins"]) + record["house"] == 0
    for seat, net in zip(bets, record["gross"], strict=True):
        assert net >= -sum(seat.values())


@FAST
@given(dealt(2, 2), st.sampled_from(["classic", "tiers"]))
def test_disjoint_hands_never_tie(hands: list, ranking: str) -> None:
    assert evaluate(hands[0], ranking) != evaluate(hands[1], ranking)


@FAST
@given(st.integers(0, 10_000), st.lists(st.integers(0, 1_000), min_size=1, max_size=6), st.integers(0, 5))
def test_split_is_exact_and_never_above_a_fair_share_plus_one(total: int, claims: list, start: int) -> None:
    shares = split_proportional(total, claims, start=start % len(claims))
    if sum(claims) and total:
        assert sum(shares) == total
        for c, share in zip(claims, shares, strict=True):
            assert total * c // sum(claims) <= share <= total * c // sum(claims) + 1
    else:
        assert shares == [0] * len(claims)


# --- whole hands through the state machine ------------------------------------------

MODE_SIZES = {"all_compare": (2, 5), "banker_bid": (2, 6), "banker_rotate": (2, 6), "pairwise": (2, 6), "house": (1, 8)}


def hidden_cards(state: dict, viewer: int | None) -> set[str]:
    """Cards ``viewer`` must not see: others' unrevealed cards past the face-up ones, and the undealt deck."""
    secret = {card_str(c) for c in state["deck"][state["next_card"] :]}
    if state["phase"] == "settled":
        return secret
    for s, cards in enumerate(state["cards"]):
        if s != viewer and not state["revealed"][s]:
            secret |= {card_str(c) for c in cards[state["public"][s] :]}
    return secret


def check_views(state: dict) -> None:
    for viewer in [None, *range(len(state["seats"]))]:
        text = json.dumps(sg.plugin.view(state, viewer))
        leaked = [c for c in hidden_cards(state, viewer) if f'"{c}"' in text]
        assert not leaked, f"view of {viewer} leaks {leaked}"


def house_bet(data: st.DataObject, stack_: int) -> dict:
    player = data.draw(st.integers(0, stack_ // 4)) // 2 * 2
    return {"type": "bet", "bets": {"player": player, "side": data.draw(st.integers(0, stack_ // 4))}}


def play_out(data: st.DataObject, state: dict) -> dict:
    now = 0.0
    while state["phase"] != "settled":
        check_views(state)
        movers = [s for s in range(len(state["seats"])) if sg.plugin.legal_actions(state, s)]
        if data.draw(st.integers(0, 4)) == 0:
            now = sg.plugin.deadline(state)
            state, events = sg.plugin.on_deadline(state, now=now)
            assert events and all(e["auto"] for e in events if "auto" in e)
            continue
        seat = data.draw(st.sampled_from(movers))
        options = sg.plugin.legal_actions(state, seat)
        action = data.draw(st.sampled_from(options))
        if state["mode"] == "house":
            action = house_bet(data, state["seats"][seat]["stack"])
        state, _ = sg.plugin.apply(state, seat, action, now=now)
    check_views(state)
    return state


@SLOW
@given(st.data(), st.sampled_from(sorted(MODE_SIZES)), st.binary(min_size=32, max_size=32))
def test_whole_hands_settle_to_zero_without_leaks(data: st.DataObject, mode: str, seed: bytes) -> None:
    lo, hi = MODE_SIZES[mode]
    n = data.draw(st.integers(lo, hi))
    stacks = data.draw(st.lists(st.integers(100, 20_000), min_size=n, max_size=n))
    rules = {"mode": mode, "base": 100, "min_players": lo, "max_players": hi}
    seat_list = [{"player": f"p{i}", "stack": s} for i, s in enumerate(stacks)]
    first = sg.plugin.new_hand(rules=rules, seats=seat_list, carry=None, server_seed=seed.hex(), now=0.0)
    assert sg.plugin.new_hand(rules=rules, seats=seat_list, carry=None, server_seed=seed.hex(), now=0.0) == first
    state = play_out(data, first)
    record = sg.plugin.result(state)
    assert record is not None and sum(record["coins"]) + record["house"] == 0
    for s, net in enumerate(record["coins"]):
        assert net >= -stacks[s]
    json.dumps(state)
    carry = sg.plugin.carry_over(state)
    assert carry["mode"] == mode
    nxt = sg.plugin.new_hand(rules=rules, seats=seat_list, carry=carry, server_seed=seed.hex(), now=1.0)
    if mode == "banker_bid" and carry["keep_bank"]:
        assert nxt["banker"] == record["banker"] and nxt["phase"] == "bet"
    if mode == "banker_rotate":
        assert nxt["offer"] == (record["banker"] - 1) % n
