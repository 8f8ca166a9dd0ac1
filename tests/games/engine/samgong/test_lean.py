"""How a 三公 player's bet leans against its face-up cards (games/engine/samgong/lean.py), on
hands the engine deals and plays: the largest bet on weak face-up cards and the smallest on
strong ones lean below 0; a bet is judged only in 抢庄, for players, never for the banker."""

from __future__ import annotations

import random
from typing import Any

from games.engine.registry import engine_for
from games.engine.samgong.hands import card_points

ENGINE = engine_for("samgong")


def _record(mode: str, seed: int, bet: Any) -> dict[str, Any]:
    """A hand of ``mode`` at four seats: seat 0 bids, the others pass; each player bets
    ``bet(face-up points)``."""
    rng = random.Random(seed)
    state = ENGINE.new_hand(rules={"mode": mode, "base": 100}, seats=[{"player": str(i), "stack": 10**6}
                                                                      for i in range(4)],
                            carry=None, server_seed=f"{seed:064x}", now=0.0)
    for _ in range(40):
        if ENGINE.result(state) is not None:
            break
        for seat in ENGINE.awaiting(state):
            kinds = {a["type"] for a in ENGINE.legal_actions(state, seat)}
            if "bet" in kinds and mode == "banker_bid":
                points = sum(card_points(c) for c in state["cards"][seat][:2]) % 10
                move = {"type": "bet", "multiplier": bet(points)}
            elif "bid" in kinds:
                move = {"type": "bid" if seat == 0 else "pass"}
            else:
                move = ENGINE.bot_move(ENGINE.view(state, seat), rng) or dict(ENGINE.auto_action(state, seat))
            state, _events = ENGINE.apply(state, seat, move, now=0.0)
    return {"game": "samgong", **ENGINE.record_part(state), "rules": state["rules"], "result": ENGINE.result(state)}


def test_the_largest_bet_on_weak_cards_and_the_smallest_on_strong_ones_lean_against_the_cards() -> None:
    for seed in range(1, 9):
        rec = _record("banker_bid", seed, lambda points: 5 if points <= 4 else 1)
        banker = rec["banker"]
        leans = [ENGINE.bet_lean(rec, s) for s in range(4)]
        assert leans[banker] is None
        assert all(lean is not None and lean < 0 for s, lean in enumerate(leans) if s != banker)


def test_a_bet_that_follows_the_cards_leans_with_them_and_a_middle_bet_leans_nowhere() -> None:
    for seed in range(1, 9):
        with_cards = _record("banker_bid", seed, lambda points: 5 if points >= 5 else 1)
        middle = _record("banker_bid", seed, lambda points: 3)
        players = [s for s in range(4) if s != with_cards["banker"]]
        assert all((ENGINE.bet_lean(with_cards, s) or 0) > 0 for s in players)
        assert all(ENGINE.bet_lean(middle, s) == 0 for s in players)


def test_modes_that_bet_before_any_card_is_seen_have_no_lean() -> None:
    for mode in ("banker_rotate", "all_compare", "pairwise", "house"):
        rec = _record(mode, 3, lambda points: 1)
        assert [ENGINE.bet_lean(rec, s) for s in range(4)] == [None] * 4, mode
