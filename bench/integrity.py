"""The integrity signals' false positives on honest bot play, and a seeded dumping pair.

    .venv/bin/python bench/integrity.py [--hands 10000] [--tables 10] [--game thirteen] [--mode M] [--dumpers 0]

Uses DATABASE_URL, or creates (and migrates) ``cardtables_integrity`` on postgres@127.0.0.1:5432.
Plays ``--hands`` hands at ``--tables`` four-seat tables through the services (``seat_join``,
``hand_start_if_ready``, ``hand_act``; no sockets), every seat playing its bot's move from its own
view (``bot_move``); ``--dumpers N`` makes one seat at each of N tables foul every hand. Players
are re-seated at random between rounds so pairs meet at different tables. Then prints how many
pairs were judged (at least MIN_HANDS hands together), how many were flagged, and the flagged ones.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ledger import django_setup, ensure_database  # noqa: E402 - bench/ledger.py, beside this file

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/cardtables_integrity"


def foul(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The thirteen cards by rank, the highest three in front: almost always a foul."""
    from games.engine.cards import cards_str

    cards = sorted(state["seats"][seat]["cards"], key=lambda c: c % 13 if isinstance(c, int) else 0, reverse=True)
    return {"type": "arrange", "front": cards_str(cards[:3]), "middle": cards_str(cards[3:8]),
            "back": cards_str(cards[8:])}


def play_hand(table_id: int, by_id: dict[int, Any], dumping: set[int], rng: random.Random) -> None:
    """Deal a hand and play it out: each seat its bot's move from its own view, a dumper a foul."""
    from games.adapters import engine
    from games.models import Hand
    from games.services.hands import hand_act, hand_start_if_ready

    hand = hand_start_if_ready(table_id=table_id)
    assert hand is not None
    eng = engine(hand.game)
    for _step in range(40):
        hand.refresh_from_db()
        if hand.status != Hand.Status.ACTIVE:
            return
        seat = next(s for s in range(len(hand.players)) if eng.legal_actions(hand.state, s))
        user = by_id[hand.players[seat]["user"]]
        if user.pk in dumping:
            action = foul(hand.state, seat)
        else:
            action = eng.bot_move(eng.view(hand.state, seat), rng) or dict(eng.auto_action(hand.state, seat))
        hand_act(table_id=table_id, user=user, action=action)


def play(hands: int, tables: int, game: str, mode: str | None, dumpers: int, seed: int) -> None:
    from django.core.management import call_command

    from accounts.models import User
    from games.services import seating
    from tables.models import StakeLevel, Table
    from wallet import services as wallet

    call_command("migrate", verbosity=0)
    rng = random.Random(seed)
    levels = StakeLevel.objects.filter(game=game)
    level = (levels if mode is None else levels.filter(mode=mode)).order_by("unit").first()
    assert level is not None
    run = f"{int(time.time())}"
    people = []
    for i in range(tables * 4):
        user = User.objects.create_user(username=f"bot{run}-{i}", password=None)
        wallet.wallet_grant(user=user, amount=10**12, idempotency_key=f"bench-integrity:{run}:{i}", actor=None,
                            memo="bench")
        people.append(user)
    dumping = {people[t * 4].pk for t in range(dumpers)}
    played, started, rounds = 0, time.monotonic(), 0
    while played < hands:
        rounds += 1
        rest = people[dumpers * 4:]
        if rounds > 1:  # the dumpers' tables keep their players, everyone else is re-seated at random
            rng.shuffle(rest)
        at = []
        for t in range(tables):
            table = Table.objects.create(stake_level=level, name=f"integrity {run} {rounds}.{t}")
            four = people[t * 4:t * 4 + 4] if t < dumpers else rest[(t - dumpers) * 4:(t - dumpers) * 4 + 4]
            for s, user in enumerate(four):
                seating.seat_join(table_id=table.pk, user=user, buy_in=level.min_buy_in * 1000,
                                  request_id=f"{run}:{rounds}:{t}:{s}")
            at.append((table, {u.pk: u for u in four}))
        for _ in range(50):
            for table, by_id in at:
                play_hand(table.pk, by_id, dumping, rng)
                played += 1
        for table, by_id in at:
            for user in by_id.values():
                seating.seat_leave(table_id=table.pk, user=user)
        print(f"{played} hands, {played / (time.monotonic() - started):.1f} hands/s", flush=True)


def report() -> None:
    from integrity import selectors

    judged = selectors.pair_signals(min_hands=selectors.MIN_HANDS, limit=10**9)
    flagged = [p for p in judged if p.flagged]
    print(f"pairs judged (>= {selectors.MIN_HANDS} hands): {len(judged)}; flagged (|z| >= {selectors.Z_FLAG}): "
          f"{len(flagged)}")
    for p in flagged:
        print(f"  {p.payer} -> {p.receiver}: {p.hands} hands, {p.amount} minor units, z {p.z:.2f}")
    zs = sorted(abs(p.z) for p in judged)
    if zs:
        print(f"  largest |z|: {zs[-1]:.2f}; median |z|: {zs[len(zs) // 2]:.2f}")
    players = selectors.player_signals(min_hands=selectors.MIN_HANDS)
    print(f"players judged: {len(players)}; marked: {sum(r.marked for r in players)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--game", default="thirteen")
    parser.add_argument("--mode", default=None, help="a 三公 mode (all_compare, banker_bid, …)")
    parser.add_argument("--dumpers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", default=None)
    args = parser.parse_args()
    import os

    url = args.url or os.environ.get("DATABASE_URL") or DEFAULT_URL
    ensure_database(url)
    django_setup(url)
    play(args.hands, args.tables, args.game, args.mode, args.dumpers, args.seed)
    report()


if __name__ == "__main__":
    main()
