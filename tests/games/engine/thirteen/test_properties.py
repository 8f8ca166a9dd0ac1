"""Hypothesis properties of thirteen: zero-sum settlements, antisymmetry, fouls, table
stakes, views that never leak, reproducible deals, and an auto-play that never fouls."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import thirteen
from games.engine.cards import cards_str, parse_cards
from games.engine.solver.model import thirteen_model
from games.engine.solver.thirteen import search_thirteen
from games.engine.thirteen.arrange import arrange
from games.engine.thirteen.hands import settle
from games.engine.thirteen.naturals import NATURAL_VALUES, best_natural
from games.engine.thirteen.scoring import Hand, comparison_order, declared_hand, ordinary_hand, pair_units

FAST = settings(max_examples=250, derandomize=True, deadline=None)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[list[int]], list[Hand]]:
    """2-4 hands from one deck, each arranged at random (often fouled), or declared."""
    deck = draw(st.permutations(range(52)))
    n = draw(st.integers(2, 4))
    dealt = [deck[13 * i : 13 * i + 13] for i in range(n)]
    hands = []
    for cards in dealt:
        how = draw(st.sampled_from(["random", "auto", "declare"]))
        if how == "declare":
            hands.append(declared_hand(best_natural(cards)))
            continue
        rows = arrange(cards) if how == "auto" else {"front": cards[:3], "middle": cards[3:8], "back": cards[8:]}
        hands.append(ordinary_hand(rows["front"], rows["middle"], rows["back"]))
    return dealt, hands


@FAST
@given(tables(), st.data())
def test_every_settlement_sums_to_zero_within_table_stakes(table: Any, data: st.DataObject) -> None:
    _, hands = table
    n = len(hands)
    stacks = data.draw(st.lists(st.integers(0, 3000), min_size=n, max_size=n))
    dealer = data.draw(st.integers(0, n - 1))
    unit = data.draw(st.sampled_from([50, 100, 250]))
    percent = data.draw(st.integers(0, 10))
    res = settle(hands, dealer=dealer, unit=unit, stacks=stacks, rate=Fraction(percent, 100))
    assert sum(res["units"]) == 0 and sum(res["trimmed"]) == 0
    assert sum(res["coins"]) + res["house"] == 0 and res["house"] == res["commission"]
    used = [0] * n
    for pair in res["pairs"]:
        a, b = pair["seats"]
        assert abs(pair["coins"]) <= abs(pair["units"]) * unit
        assert pair["coins"] * pair["units"] >= 0
        used[a] += abs(pair["coins"])
        used[b] += abs(pair["coins"])
    assert all(u <= s for u, s in zip(used, stacks, strict=True))  # wins and losses within the table money
    for t, c in zip(res["trimmed"], res["commissions"], strict=True):
        assert c == (t * percent // 100 if t > 0 else 0)


@FAST
@given(tables())
def test_pair_results_are_antisymmetric_and_fouls_never_win(table: Any) -> None:
    _, hands = table
    for a, b in comparison_order(len(hands), 0):
        ua, detail = pair_units(hands[a], hands[b])
        ub, back = pair_units(hands[b], hands[a])
        assert ua == -ub
        if detail["rows"] is not None:
            assert detail["rows"] == [-r for r in back["rows"]]
        if hands[a].fouled:
            assert ua <= 0
        if hands[b].fouled:
            assert ua >= 0


hex_seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)


def _card_strings(obj: Any) -> set[str]:
    """Every card-like string that appears inside a list anywhere in ``obj``."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for value in obj.values():
            found |= _card_strings(value)
    elif isinstance(obj, list):
        for value in obj:
            if isinstance(value, str) and len(value) == 2:
                found.add(value)
            else:
                found |= _card_strings(value)
    return found


@settings(max_examples=60, derandomize=True, deadline=None)
@given(hex_seeds, st.integers(2, 4), st.lists(st.booleans(), min_size=4, max_size=4))
def test_views_never_leak_hidden_cards_and_deals_replay(seed: str, n: int, submit: list[bool]) -> None:
    players = [{"player": f"p{i}", "stack": 5000} for i in range(n)]
    state = thirteen.plugin.new_hand(rules={}, seats=players, carry=None, server_seed=seed, now=0.0)
    assert [cards_str(h) for h in thirteen.deal(seed, [], n, state["dealer"])] == [
        cards_str(s["cards"]) for s in state["seats"]
    ]
    for seat in range(n - 1):  # the last seat never submits, so the hand stays open
        if submit[seat]:
            state, _ = thirteen.plugin.apply(state, seat, thirteen.plugin.auto_action(state, seat), now=1.0)
    assert state["phase"] == "arrange"
    for seat in range(n):
        seen = _card_strings(thirteen.plugin.view(state, seat))
        assert seen <= set(cards_str(state["seats"][seat]["cards"]))
    assert _card_strings(thirteen.plugin.view(state, None)) == set()
    assert thirteen.plugin.view(state, 0)["server_seed"] is None


suits = st.integers(0, 3)
FRONT_RUNS = [(12, 0, 1)] + [(r, r + 1, r + 2) for r in range(11)]
FIVE_RUNS = [(12, 0, 1, 2, 3)] + [tuple(range(r, r + 5)) for r in range(9)]


def _natural_hands() -> st.SearchStrategy[list[int]]:
    """Hands built to hold a natural (some draws repeat a card; the test skips those)."""
    six_pairs = st.permutations(range(13)).flatmap(
        lambda ranks: st.permutations(range(4)).map(
            lambda su: [r * 4 + s for r in ranks[:6] for s in su[:2]] + [ranks[6] * 4 + su[2]]
        )
    )
    dragon = st.lists(suits, min_size=13, max_size=13).map(lambda su: [r * 4 + su[r] for r in range(13)])
    twelve = st.tuples(suits, st.integers(0, 12), st.integers(0, 12), st.integers(1, 3)).map(
        lambda t: [r * 4 + t[0] for r in range(13) if r != t[1]] + [t[2] * 4 + (t[0] + t[3]) % 4]
    )
    runs = st.tuples(st.sampled_from(FRONT_RUNS), st.sampled_from(FIVE_RUNS), st.sampled_from(FIVE_RUNS))
    straights = st.tuples(runs, st.lists(suits, min_size=13, max_size=13)).map(
        lambda t: [r * 4 + s for r, s in zip(t[0][0] + t[0][1] + t[0][2], t[1], strict=True)]
    )
    flushes = st.tuples(
        st.tuples(suits, suits, suits),
        st.permutations(range(13)),
        st.permutations(range(13)),
        st.permutations(range(13)),
    ).map(
        lambda t: (
            [r * 4 + t[0][0] for r in t[1][:3]]
            + [r * 4 + t[0][1] for r in t[2][:5]]
            + [r * 4 + t[0][2] for r in t[3][:5]]
        )
    )
    return st.one_of(six_pairs, dragon, twelve, straights, flushes)


@FAST
@given(st.one_of(st.permutations(range(52)).map(lambda d: list(d[:13])), _natural_hands()))
def test_auto_play_never_fouls_and_declares_only_a_natural_worth_its_rows(cards: list[int]) -> None:
    cards = list(dict.fromkeys(cards))
    if len(cards) != 13:
        return
    best = arrange(cards)
    assert sorted(best["front"] + best["middle"] + best["back"]) == sorted(cards)
    assert not ordinary_hand(best["front"], best["middle"], best["back"]).fouled
    natural = best_natural(cards)
    rows_value = search_thirteen(cards, thirteen_model(), 1).best()[0][0]
    assert best["declare"] is (natural is not None and NATURAL_VALUES[natural] >= rows_value)


def test_the_auto_play_action_is_legal_in_the_engine() -> None:
    state = thirteen.plugin.new_hand(
        rules={},
        seats=[{"player": "a", "stack": 500}, {"player": "b", "stack": 500}],
        carry=None,
        server_seed="cd" * 32,
        now=0.0,
    )
    for seat in (0, 1):
        state, _ = thirteen.plugin.apply(state, seat, thirteen.plugin.auto_action(state, seat), now=1.0)
    res: dict[str, Any] = thirteen.plugin.result(state)  # type: ignore[assignment]
    assert res["fouled"] == [False, False]
    assert all(parse_cards(h["cards"]) for h in res["hands"])
