"""One hand's figures (integrity/figures.py), from records the engines write: seats that play
the solver's best arrangement of their cards play their cards' worth exactly (no gift, nothing
taken from the others); a foul is play far below it and pays the other seats."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.registry import engine_for
from integrity.figures import hand_figures


def _record(game: str, rules: dict[str, Any], seats: int, seed: int, foul_seat: int | None = None) -> dict[str, Any]:
    eng = engine_for(game)
    state = eng.new_hand(rules=rules, seats=[{"player": str(i), "stack": 10**9} for i in range(seats)], carry=None,
                         server_seed=f"{seed:064x}", now=0.0)
    for seat in range(seats):
        if seat == foul_seat:
            cards = sorted(state["seats"][seat]["cards"], key=lambda c: c % 13, reverse=True)
            from games.engine.cards import cards_str

            move = {"type": "arrange", "front": cards_str(cards[:3]), "middle": cards_str(cards[3:8]),
                    "back": cards_str(cards[8:])}
        else:
            move = dict(eng.suggestions(state, seat, 1)[0])
        state, _events = eng.apply(state, seat, move, now=0.0)
    return {"game": game, **eng.record_part(state), "result": eng.result(state)}


@pytest.mark.parametrize(("game", "rules", "seats"), [("thirteen", {"unit": 100, "commission_percent": 5}, 4),
                                                      ("thirteen_trio", {"base": 100}, 3)])
def test_seats_playing_the_solvers_best_play_their_cards_worth_exactly(game: str, rules: dict[str, Any],
                                                                        seats: int) -> None:
    for seed in range(1, 4):
        rec = _record(game, rules, seats, seed)
        if rec["result"].get("penalty"):
            continue
        order = [(a, b) for a in range(seats) for b in range(a + 1, seats)]
        figures = hand_figures(engine_for(game), rec, order)
        assert figures.play == [0] * seats
        assert all(p.gift == 0 and p.info in (0, None) for p in figures.pairs.values())
        assert sum(figures.coins) + sum(figures.commissions) <= 0


def test_a_foul_is_play_below_the_cards_and_its_gift_goes_to_the_other_seats() -> None:
    fouls = 0
    for seed in range(1, 6):
        rec = _record("thirteen", {"unit": 100, "commission_percent": 0}, 2, seed, foul_seat=0)
        figures = hand_figures(engine_for("thirteen"), rec, [(0, 1)])
        if rec["result"]["fouled"][0]:
            fouls += 1
            assert figures.play[0] is not None and figures.play[0] < 0
            assert figures.pairs[(0, 1)].gift is not None and figures.pairs[(0, 1)].gift < 0  # 0 paid 1
    assert fouls >= 3


def test_a_house_table_has_no_flow_between_its_players() -> None:
    eng = engine_for("samgong")
    rng = random.Random(3)
    state = eng.new_hand(rules={"mode": "house", "base": 100}, seats=[{"player": str(i), "stack": 10**6}
                                                                      for i in range(3)],
                         carry=None, server_seed="ab" * 32, now=0.0)
    for _ in range(30):
        if eng.result(state) is not None:
            break
        for seat in eng.awaiting(state):
            move = eng.bot_move(eng.view(state, seat), rng) or dict(eng.auto_action(state, seat))
            state, _events = eng.apply(state, seat, move, now=0.0)
    rec = {"game": "samgong", **eng.record_part(state), "result": eng.result(state)}
    figures = hand_figures(eng, rec, [(0, 1), (0, 2), (1, 2)])
    assert all(p.flow == 0 and p.gift is None for p in figures.pairs.values())


def _dumped(seed: int) -> dict[str, Any]:
    """A four-seat 十三张 hand in which seat 0 plays, of its ten best arrangements, the one that
    pays seat 1 most; the others play the solver's best."""
    eng = engine_for("thirteen")
    state = eng.new_hand(rules={"unit": 100, "commission_percent": 0}, seats=[{"player": str(i), "stack": 10**9}
                                                                              for i in range(4)],
                         carry=None, server_seed=f"{seed:064x}", now=0.0)
    others = {s: dict(eng.suggestions(state, s, 1)[0]) for s in (1, 2, 3)}

    def paid_to_one(move: dict[str, Any]) -> int:
        after = state
        for seat, m in sorted({**others, 0: move}.items()):
            after, _events = eng.apply(after, seat, m, now=0.0)
        return int(eng.result(after)["coins"][1])

    move = max((dict(m) for m in eng.suggestions(state, 0, 10)), key=paid_to_one)
    for seat, m in sorted({**others, 0: move}.items()):
        state, _events = eng.apply(state, seat, m, now=0.0)
    return {"game": "thirteen", **eng.record_part(state), "result": eng.result(state)}


def test_play_below_the_cards_in_one_seats_favour_is_favour_to_that_seat_and_not_to_the_others() -> None:
    eng = engine_for("thirteen")
    order = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    to_one = to_others = given = 0
    for seed in range(1, 13):
        figures = hand_figures(eng, _dumped(seed), order)
        to_one += figures.pairs[(0, 1)].favour_ab or 0
        to_others += (figures.pairs[(0, 2)].favour_ab or 0) + (figures.pairs[(0, 3)].favour_ab or 0)
        given += figures.play[0] or 0
        # the other seats played their cards' worth: they favour nobody
        assert all(figures.pairs[p].favour_ba == 0 for p in [(0, 1), (0, 2), (0, 3)])
        assert all(figures.pairs[p].favour_ab == figures.pairs[p].favour_ba == 0 for p in [(1, 2), (1, 3), (2, 3)])
    assert given < 0 and to_one > 0 > to_others


def test_two_seats_have_no_favour_to_weigh_and_a_row_game_no_bets() -> None:
    rec = _record("thirteen", {"unit": 100, "commission_percent": 0}, 2, 1, foul_seat=0)
    figures = hand_figures(engine_for("thirteen"), rec, [(0, 1)])
    pair = figures.pairs[(0, 1)]
    assert pair.favour_ab is None and pair.favour_ba is None and pair.bet_ab is None and figures.bet == [None, None]
