"""Hypothesis properties of thirteen_trio: every settlement balances, views never leak a hidden
card (not even the four cards a player left out), and the penalty goes to the first seat that
disconnected by its own fault."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from games.engine import thirteen_trio as trio
from games.engine.cards import card_str, cards_str
from games.engine.errors import IllegalAction
from games.engine.thirteen_trio.money import game_coins
from games.engine.thirteen_trio.scoring import is_foul, score_hands
from tests.games.engine.thirteen_trio.helpers import card_strings

FAST = settings(max_examples=150, derandomize=True, deadline=None)
ROWS = ("front", "middle", "back")


def random_rows(cards: list[int], order: list[int]) -> dict[str, list[int]]:
    picked = [cards[i] for i in order]
    return {"front": picked[:3], "middle": picked[3:8], "back": picked[8:13]}


STEP = st.one_of(
    st.tuples(st.just("arrange"), st.integers(0, 2), st.permutations(range(17)), st.booleans()),
    st.tuples(st.just("disconnect"), st.integers(0, 2), st.booleans()),
    st.tuples(st.just("reconnect"), st.integers(0, 2)),
    st.tuples(st.just("timeout")),
)


def public_cards(state: dict[str, Any], viewer: int | None) -> set[str]:
    allowed = {card_str(state["jackpot"])}
    if viewer is not None:
        allowed |= set(cards_str(state["seats"][viewer]["cards"]))
    if state["phase"] == "settled":
        for s in state["seats"]:
            allowed |= {c for row in ROWS for c in cards_str(s["rows"][row])}
    return allowed


def check_views(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    for viewer in (0, 1, 2, None):
        assert card_strings(trio.plugin.view(state, viewer)) <= public_cards(state, viewer)
    assert card_strings(events) <= public_cards(state, None)  # events may be broadcast to the table


def step(state: dict[str, Any], move: tuple[Any, ...], now: float) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    kind = move[0]
    if kind == "timeout":
        return trio.plugin.on_deadline(state, now=trio.plugin.deadline(state) or now)
    seat = move[1]
    if kind == "arrange":
        auto = move[3]
        act = (
            trio.plugin.auto_action(state, seat)
            if auto
            else {
                "type": "arrange",
                **{r: cards_str(c) for r, c in random_rows(state["seats"][seat]["cards"], move[2]).items()},
            }
        )
    elif kind == "disconnect":
        act = {"type": "disconnect", "server_fault": move[2]}
    else:
        act = {"type": "reconnect"}
    before = copy.deepcopy(state)
    try:
        return trio.plugin.apply(state, seat, act, now=now)
    except IllegalAction:
        assert state == before
        return state, []


@FAST
@given(
    st.binary(min_size=32, max_size=32),
    st.integers(0, 2),
    st.sampled_from([100, 107, 333, 10_000, 100_000]),
    st.integers(0, 10),
    st.lists(STEP, max_size=10),
    st.booleans(),
)
def test_games_balance_never_leak_and_charge_the_first_own_disconnection(
    raw: bytes, head: int, base: int, percent: int, moves: list[tuple[Any, ...]], voided: bool
) -> None:
    carry = {"game": "thirteen_trio", "players": ["a", "b", "c"], "head": head, "next_game": 2, "disconnected": []}
    seats = [{"player": p, "stack": 11 * base} for p in "abc"]
    rules = {"base": base, "commission_percent": percent}
    state = trio.plugin.new_hand(rules=rules, seats=seats, carry=carry, server_seed=raw.hex(), now=0.0)
    first_own: int | None = None
    check_views(state, [])
    for i, move in enumerate(moves):
        state, events = step(state, move, float(i))
        for e in events:
            if e["type"] == "disconnected" and not e["server_fault"] and first_own is None:
                first_own = e["seat"]
        check_views(state, events)
    if voided and state["phase"] == "arrange":
        state, events = trio.plugin.void(state)
        check_views(state, events)
    while state["phase"] == "arrange":
        state, events = trio.plugin.on_deadline(state, now=trio.plugin.deadline(state) or 0.0)
        check_views(state, events)
    res = trio.plugin.result(state)
    assert res is not None
    event("void" if res["void"] else "penalty" if res["penalty"] else "no penalty")
    event(f"auto-played seats: {sum(s['auto'] for s in state['seats'])}")
    assert sum(res["coins"]) + res["house"] == 0 and sum(res["units"]) == 0
    if res["void"]:
        assert res["coins"] == [0, 0, 0] and res["house"] == 0
        return
    game, commission = game_coins(res["units"], base=base, commission_percent=percent)
    assert res["commission"] == commission
    if first_own is None:
        assert res["penalty"] is None and res["coins"] == game and res["house"] == commission
    else:
        p = res["penalty"]
        assert p["seat"] == first_own and p["amount"] == base // 2
        assert res["coins"] == [g + c for g, c in zip(game, p["coins"], strict=True)]
        assert res["house"] == commission + p["house"]
    assert all(not is_foul(s["rows"]) for s in state["seats"] if s["auto"])
    assert -11 * base <= min(res["coins"])  # the game minimum covers the worst game


@FAST
@given(st.permutations(range(52)), st.lists(st.permutations(range(17)), min_size=3, max_size=3))
def test_scores_sum_to_zero_and_fouled_hands_earn_nothing(deck: list[int], orders: list[list[int]]) -> None:
    jackpot = deck[0]
    hands = [random_rows(deck[1 + 17 * s : 18 + 17 * s], orders[s]) for s in range(3)]
    scored = score_hands(hands, jackpot)
    assert sum(scored["units"]) == 0
    assert all(not scored["fouled"][s["seat"]] for s in scored["specials"])
    for shooter, victim in scored["shoots"]:
        assert not scored["fouled"][shooter] and [victim, shooter] not in scored["shoots"]
    if scored["home_run"] is not None:
        assert sum(p[0] == scored["home_run"] for p in scored["shoots"]) == 2
    coins, commission = game_coins(scored["units"], base=100, commission_percent=5)
    assert sum(coins) + commission == 0
