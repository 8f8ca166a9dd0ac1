"""The replay's step builder (history.steps) for every game and mode: Deal, each recorded move in
order, each comparison with its categories named and its winner, Coins — checked against the
cards themselves (poker keys, 三公 keys) and the recorded result, in English and in Chinese, and on
a player's copy, which must show nothing the player's table did not show."""

from __future__ import annotations

import doctest
import importlib
import json
from itertools import combinations
from typing import Any

import pytest
from django.utils import translation

from games.engine import poker
from games.engine.cards import parse_cards
from games.engine.record import player_copy
from games.engine.samgong.hands import evaluate
from history.replay import replay
from history.selectors import record_with_hash
from tests.history.conftest import CASES, records_of

pytestmark = pytest.mark.django_db

ROWS = ("front", "middle", "back")
CATEGORY = ("High card", "Pair", "Two pair", "Trips", "Straight", "Flush", "Full house", "Quads", "Straight flush")


def steps_of(body: dict[str, Any], lang: str = "en") -> list[dict[str, Any]]:
    with translation.override(lang):
        return replay(body)["steps"]


def texts(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def names(body: dict[str, Any]) -> list[str]:
    return [p["name"] for p in body["players"]]


def check_frame(body: dict[str, Any], steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Deal first, then one step per recorded action (who, automatic, when), the comparisons,
    Coins last; numbered 1..n. Returns the comparison steps."""
    assert [s["number"] for s in steps] == list(range(1, len(steps) + 1))
    assert steps[0]["kind"] == "deal" and steps[0]["title"] == "Deal" and steps[0]["at"] == body["hand"]["started_at"]
    actions = [s for s in steps if s["kind"] == "action"]
    assert len(actions) == len(body["actions"])
    for step, logged in zip(actions, body["actions"], strict=True):
        who = names(body)[logged["seat"]]
        assert step["who"] == who and step["title"].startswith(who + " ")
        assert step["auto"] == logged["auto"] and step["at"] == logged["at"]
    assert steps[-1]["kind"] == "coins" and steps[-1]["title"] == "Coins" and steps[-1]["at"] == body["hand"]["finished_at"]
    assert [s["coins"] for s in steps[-1]["seats"]] == body["result"]["coins"]
    kinds = [s["kind"] for s in steps]
    compared = [s for s in steps if s["kind"] == "compare"]
    assert compared and kinds == ["deal", *["action"] * len(actions), *["compare"] * len(compared), "coins"]
    return compared


def row_winners(step: dict[str, Any], keys: dict[int, int], seats: list[tuple[int, int]], body: dict[str, Any]) -> None:
    """Each pair's sentence names the seat with the higher row key (or a tie)."""
    outcomes = [o["text"] for o in step["outcomes"]]
    for a, b in seats:
        who = names(body)
        if keys[a] == keys[b]:
            assert any(who[a] in t and who[b] in t and "tie" in t for t in outcomes), (a, b, outcomes)
        else:
            win, lose = (a, b) if keys[a] > keys[b] else (b, a)
            assert any(t.startswith(f"{who[win]} beats {who[lose]}") for t in outcomes), (a, b, outcomes)


@pytest.mark.parametrize("players", [2, 4])
def test_thirteen_rows_are_compared_one_by_one_with_their_categories(live: Any, players: int) -> None:
    table = live("thirteen", "", players, seed=40 + players)
    table.play(3)
    for record in records_of(table.table):
        body = record_with_hash(record)
        compared = check_frame(body, steps_of(body))
        result = body["result"]
        naturals = result["natural"]
        rows = [c for c in compared if c["title"].startswith("Row ")]
        assert [c["title"] for c in rows] == ["Row 1: front", "Row 2: middle", "Row 3: back"]
        for k, (row, step) in enumerate(zip(ROWS, rows, strict=True)):
            shown = {h["seat"]: h for h in step["hands"]}
            assert set(shown) == {i for i in range(players) if not naturals[i]}
            keys = {i: poker.rank_row(parse_cards(body["seats"][i][row]), suits=True) for i in shown}
            for i, hand in shown.items():
                assert hand["cards"] == body["seats"][i][row] and hand["who"] == names(body)[i]
                assert hand["name"] == CATEGORY[poker.category(keys[i])]
                assert hand["note"] == ("fouled" if result["fouled"][i] else "")
            compared_pairs = [tuple(p["seats"]) for p in result["pairs"] if p["kind"] == "rows"]
            row_winners(step, keys, compared_pairs, body)
            assert len(step["outcomes"]) == len(compared_pairs)
            del k
        fouls = [p for p in result["pairs"] if p["kind"] == "foul"]
        assert any(c["title"] == "Fouls" and len(c["outcomes"]) == len(fouls) for c in compared) == bool(fouls)


def test_the_trio_rows_scoops_and_a_players_copy(live: Any) -> None:
    table = live("thirteen_trio", "", 3, seed=7)
    table.play(4)
    for record in records_of(table.table):
        body = record_with_hash(record)
        compared = check_frame(body, steps_of(body))
        result = body["result"]
        assert [c["title"] for c in compared] == ["Row 1: front", "Row 2: middle", "Row 3: back", "Scoops and specials"]
        for k, row in enumerate(ROWS):
            keys = {i: poker.rank_row(parse_cards(body["seats"][i][row]), suits=False) for i in range(3)}
            for hand in compared[k]["hands"]:
                assert hand["name"] == CATEGORY[poker.category(keys[hand["seat"]])]
            clean = [i for i in range(3) if not result["fouled"][i]]
            row_winners(compared[k], keys, list(combinations(clean, 2)), body)
        paid = [o["text"] for o in compared[-1]["outcomes"]]
        for shooter, victim in result["shoots"]:
            assert any(t.startswith(f"{names(body)[shooter]} scoops {names(body)[victim]}") for t in paid)
        assert len(paid) == max(1, len(result["shoots"]) + len(result["specials"]))
        for seat in range(3):  # a player's copy: the same comparisons, and no unshown card anywhere
            copy = player_copy(body, seat)
            mine = steps_of(copy)
            assert [(c["title"], c["outcomes"]) for c in mine if c["kind"] == "compare"] == \
                [(c["title"], c["outcomes"]) for c in compared]
            shown = texts(mine)
            for other in range(3):
                played = {c for r in ROWS for c in body["seats"][other][r]}
                unused = set(body["seats"][other]["cards"]) - played
                assert all((f'"{c}"' in shown) == (other == seat) for c in unused), (seat, other)
            deal = mine[0]["seats"]
            assert deal[seat]["cards"] == body["seats"][seat]["cards"]
            assert all(deal[o]["hidden"] and deal[o]["cards"] is None for o in range(3) if o != seat)


@pytest.mark.parametrize(("mode", "players"), [(m, n) for g, m, n in CASES if g == "samgong"])
def test_samgong_hands_are_named_and_compared_as_the_mode_compares(live: Any, mode: str, players: int) -> None:
    table = live("samgong", mode, players, seed=11)
    table.play(3)
    for record in records_of(table.table):
        body = record_with_hash(record)
        compared = check_frame(body, steps_of(body))
        assert [c["title"] for c in compared] == ["Hands compared"]
        step, result, who = compared[0], body["result"], names(body)
        assert steps_of(player_copy(body, 0))[-2]["outcomes"] == step["outcomes"]  # 三公 shows every hand
        if body.get("player_cards"):
            spots = {"Player wins", "Banker wins", "Tie", "Any three faces", "Side bet"}
            placed = [s for s in steps_of(body) if s["kind"] == "action" and "bets" in s]
            assert placed and all(set(s["bets"]) <= spots for s in placed)
            assert all(s["detail"] == ("" if s["bets"] else "No bet") for s in placed)
            assert [h["who"] for h in step["hands"]] == ["Player hand", "Banker hand"]
            assert [h["cards"] for h in step["hands"]] == [body["player_cards"], body["banker_cards"]]
            wanted = {"player": "Player wins", "banker": "Banker wins", "tie": "Tie"}[result["outcome"]]
            assert [o["text"] for o in step["outcomes"]] == [wanted]
            continue
        ranking = body["rules"]["ranking"]
        keys = {i: evaluate(parse_cards(s["cards"]), ranking) for i, s in enumerate(body["seats"])}
        for hand in step["hands"]:
            label = result["hands"][hand["seat"]]
            assert hand["name"] == (f"{label[6:]} points" if label.startswith("point_") else hand["name"])
            assert hand["name"] and not hand["name"].startswith(("point_", "{"))
        texts_ = [o["text"] for o in step["outcomes"]]
        banker = body.get("banker")
        assert [h["roles"] for h in step["hands"]] == [["banker"] if i == banker else [] for i in range(players)]
        if banker is not None:
            pairs = [(p, banker) for p in range(players) if p != banker]
        elif mode == "pairwise":
            pairs = list(combinations(range(players), 2))
        else:
            assert texts_ == [f"{who[result['winner']]} has the best hand"]
            assert keys[result["winner"]] == max(keys.values())
            continue
        assert len(texts_) == len(pairs)
        for a, b in pairs:
            win, lose = (a, b) if keys[a] > keys[b] else (b, a)
            assert f"{who[win]} beats {who[lose]}" in texts_


def test_the_steps_read_in_the_viewers_language(live: Any) -> None:
    table = live("thirteen", "", 2, seed=3)
    table.play(1)
    body = record_with_hash(records_of(table.table)[0])
    english, chinese = steps_of(body, "en"), steps_of(body, "zh-hans")
    assert chinese[0]["title"] == "发牌" and chinese[-1]["title"] == "金币"
    front = next(s for s in chinese if s["kind"] == "compare")
    assert front["title"] == "第 1 墩：头墩"
    assert {h["name"] for h in front["hands"]} <= {"乌龙", "对子", "三条"}, front["hands"]
    assert all(not any(c in h["name"] for c in "abcdefghijklmnopqrstuvwxyz") for h in front["hands"])
    assert [s["kind"] for s in english] == [s["kind"] for s in chinese]
    with translation.override("zh-hant"):
        assert replay(body)["steps"][0]["title"] == "發牌"


@pytest.mark.parametrize("module", ["games.engine.showdown", "games.engine.thirteen.replay", "games.engine.samgong.replay"])
def test_the_worked_examples_of_the_showdowns_hold(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failures == 0


def test_the_coins_step_names_the_commission_once(live: Any) -> None:
    from django.template.loader import render_to_string

    table = live("thirteen_trio", "", 3, seed=7)
    table.disconnects = 0.0
    table.play(4)
    bodies = [record_with_hash(r) for r in records_of(table.table)]
    paid = [b for b in bodies if b["result"]["commission"]]
    assert paid  # four games: someone won, and paid commission
    for body in paid:
        coins = steps_of(body, "zh-hans")[-1]
        assert coins["commission"] == body["house_lines"]["commission"]
        assert "commission" not in coins["house_lines"]
        with translation.override("zh-hans"):
            html = render_to_string("history/_step_coins.html", {"step": coins, "replay": {"viewer_seat": None}})
        assert html.count("佣金") == 1, html


def test_a_player_who_leaves_the_trio_is_shown_leaving_not_disconnecting(live: Any) -> None:
    from django.db import transaction

    from games.models import Hand
    from games.services.hand_presence import hand_player_left
    from games.services.hands import hand_start_if_ready
    from games.services.store import table_lock

    table = live("thirteen_trio", "", 3, seed=7)
    table.disconnects = 0.0
    hand = hand_start_if_ready(table_id=table.table.pk)
    assert hand is not None
    leaver = table.by_id(hand.players[1]["user"])
    with transaction.atomic():
        hand_player_left(change=table_lock(table.table.pk), user=leaver, leaving=True)
    hand.refresh_from_db()
    while hand.status == Hand.Status.ACTIVE:
        table._step(hand, 0.0)
        hand.refresh_from_db()
    body = record_with_hash(records_of(table.table)[0])
    assert body["result"]["penalty"]["seat"] == 1 and body["result"]["penalty"]["left"] is True
    logged = [a for a in body["actions"] if a["action"].get("type") == "disconnect"]
    assert [a["action"] for a in logged] == [{"type": "disconnect", "leave": True}]
    for lang, word, wrong in (("en", "left the table", "disconnected"), ("zh-hans", "离桌", "断线"),
                              ("zh-hant", "離桌", "斷線")):
        steps = steps_of(body, lang)
        moves = [s for s in steps if s["kind"] == "action" and s["seat"] == 1 and s["auto"]]
        assert moves[0]["what"] == word
        assert wrong not in texts(steps)
