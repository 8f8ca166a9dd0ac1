"""The contract's example game, high card, written only in this package (its plug-in, one
template with its script) and registered by the test: the contract holds it, and it plays
through the real consumer — join, deal, act, settle — with a balanced ledger and a hand record
that verifies."""

from __future__ import annotations

import doctest
import importlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.engine import registry
from games.engine.verify import verify_lines
from games.models import Hand
from games.services.hands import hand_start_if_ready
from history.models import HandRecord
from tables import ui_strings
from tables.models import StakeLevel, Table
from tests.factories import funded_user
from tests.games.engine import test_contract as contract
from tests.games.live.helpers import WsPlayer, cards_in, db, gather, play_until_settled
from tests.games.toy_game import plugin
from wallet import selectors

HERE = Path(__file__).resolve().parent


@pytest.fixture
def toy(settings: Any) -> Iterator[Any]:
    """High card registered, with its template folder, for one test."""
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], HERE / "templates"]}]
    registry.register(plugin)
    yield plugin
    registry.unregister(plugin.name)


def _level() -> StakeLevel:
    return StakeLevel.objects.create(game=plugin.name, name="High card 1", unit=100, commission_percent=5,
                                     min_buy_in=2_000, min_table_money=500, seats=4)


def test_the_toy_game_is_in_no_product_page_until_a_test_registers_it() -> None:
    assert plugin.name not in registry.game_codes() and plugin.name not in registry.GAMES


@pytest.mark.parametrize("module", ["machine", "plugin"])
def test_the_worked_examples_of_the_toy_game_hold(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(f"tests.games.toy_game.{module}"))
    assert tried > 0 and failures == 0


def test_the_contract_holds_the_toy_game(toy: Any) -> None:
    assert registry.engine_for(toy.name) is toy and registry.games()[-1] is toy
    contract.test_the_package_has_every_member_of_the_protocol(toy)
    contract.test_labels_are_set_translated_and_the_page_exists(toy)
    contract.test_the_hooks_behave_on_a_fresh_hand(toy, "")


@pytest.mark.django_db
def test_a_stake_level_of_the_toy_game_validates_only_while_it_is_registered(toy: Any) -> None:
    level = _level()
    level.full_clean()
    registry.unregister(toy.name)
    try:
        with pytest.raises(ValidationError, match="game"):
            level.full_clean()
    finally:
        registry.register(toy)


@pytest.mark.django_db
def test_the_home_page_the_lobby_and_the_table_page_show_the_toy_game_in_every_language(toy: Any) -> None:
    table = Table.objects.create(stake_level=_level(), name="High card table")
    client = Client()
    for lang, name, phase in (("en", "High card (比大小)", "Show your card"), ("zh-hans", "比大小", "亮牌"),
                              ("zh-hant", "比大小", "亮牌")):
        home = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert 'data-testid="game-tile-high_card"' in home and name in home
        lobby = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE=lang)
        assert "high_card" in lobby.context["lobby"]["games"] and lobby.context["strings"]["game_high_card"] == name
        page = client.get(reverse("table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=lang)
        assert page.status_code == 200 and 'data-testid="high-card-panel"' in page.content.decode()
        assert page.context["strings"]["phase_show"] == phase
    assert "phase_show" in ui_strings.game_strings()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_toy_hand_plays_through_the_consumer_with_a_balanced_ledger_and_a_verified_record(
    toy: Any
) -> None:
    users = [await db(funded_user)(f"high{i}", 100_000) for i in range(3)]
    table = await db(Table.objects.create)(stake_level=await db(_level)(), name="High card table")
    players = [await WsPlayer(table.pk, u).connect() for u in users]
    for p in players:
        reply = await p.request({"type": "join", "buy_in": 2_000})
        assert reply["type"] == "ack", reply
    spectator = await WsPlayer(table.pk).connect()
    hand = await db(hand_start_if_ready)(table_id=table.pk)
    assert hand is not None and hand.state["phase"] == "show"
    await play_until_settled(players, hand.pk)
    await spectator.next("state", where=lambda f: f["hand"] and f["hand"]["status"] == "settled")
    hand = await db(Hand.objects.get)(pk=hand.pk)
    result = hand.result
    assert sum(result["coins"]) + result["house"] == 0
    for user, coins in zip(users, result["coins"], strict=True):
        assert await db(selectors.table_money)(user=user, table_ref=table.wallet_ref) == 2_000 + coins
    dealt = [{c} for c in result["cards"]]
    for seat, p in enumerate(players):  # before the showdown a seat sees only its own card
        others = set().union(*(c for i, c in enumerate(dealt) if i != seat))
        early = [f for f in p.frames if f["hand"] and f["hand"]["id"] == hand.pk and f["hand"]["status"] == "active"]
        assert early and all(not cards_in(f) & others for f in early)
    record = await db(HandRecord.objects.get)(hand_id=hand.pk)
    report = verify_lines([json.dumps({**json.loads(record.canonical), "hash": record.hash})])
    assert report.problems == [] and report.records == 1
    await db(call_command)("ledger_check", stdout=io.StringIO())
    await gather(*(p.close() for p in [*players, spectator]))
