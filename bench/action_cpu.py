"""CPU time of the server's side of one action, in one process, without the machine's noise
(bench/README.md "Parts of the live path").

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/action_cpu.py [--hands 30]
        [--game thirteen] [--ab-env NAME]

Four players at one table connect to the real consumer in this process (Channels' in-process
communicator: no sockets, no WebSocket framing or compression) over the configured channel layer
(Redis pub/sub when ``REDIS_URL`` is set) and PostgreSQL; each hand is dealt here, then the
players act one at a time with the bots' moves. The clock (``time.process_time``: every thread
of the process, the database calls' threads included) runs from an action's send to the moment
its ack and every player's frame of the new version have arrived, and is stopped while the next
move is chosen and while a hand is dealt. Run at a time when nothing else is, or repeat: the
process's CPU time per action still grows a little on a busy machine (its caches are shared).

Prints the CPU ms per action (median of the hands' per-action means, and over all actions) and
the wall-clock ms per action.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VERSION = re.compile(r'"version":(\d+)')


def django_setup() -> None:
    sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    # The players act as fast as the server answers, faster than a connection's rate limit lets a
    # person (docs/PROTOCOL.md "Limits"): past its burst, a refusal would stop the run.
    os.environ.setdefault("GAMES_WS_RATE", "1000")
    os.environ.setdefault("GAMES_WS_BURST", "1000")
    import django

    django.setup()


def seated_table(game: str, mode: str, run: str) -> tuple[int, list[Any]]:
    """A new table of the game's cheapest stake level with four funded players seated."""
    from accounts.models import User
    from games.protocol import Message
    from games.services import commands
    from tables.models import StakeLevel, Table
    from wallet import services as wallet

    level = StakeLevel.objects.filter(game=game, mode=mode).order_by("unit").first()
    assert level is not None, f"no stake level for {game} {mode}"
    table = Table.objects.create(stake_level=level, name=f"bench {run}")
    users = []
    for i in range(level.seats):
        user = User.objects.create_user(username=f"cpu{run}-{i}", password=None)
        wallet.wallet_grant(user=user, amount=10**12, idempotency_key=f"bench-cpu:{run}:{i}", actor=None, memo="bench")
        commands.dispatch(table.pk, user, Message(type="join", id=uuid.uuid4().hex,
                                                  data={"buy_in": level.min_buy_in * 50}))
        users.append(user)
    return table.pk, users


class Player:
    """One connection at the table, as the server sees it (the user put in the scope)."""

    def __init__(self, table_id: int, user: Any) -> None:
        from channels.routing import URLRouter
        from channels.testing import WebsocketCommunicator

        from games.routing import websocket_urlpatterns

        router = URLRouter(websocket_urlpatterns)

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
            return await router({**scope, "user": user}, receive, send)

        self.comm = WebsocketCommunicator(app, f"/ws/tables/{table_id}/")
        self.frame_text = ""  # the newest state frame, unparsed
        self.version = -1

    async def connect(self) -> None:
        connected, _ = await self.comm.connect()
        assert connected
        await self.until(0)

    async def until(self, version: int, reply_to: str | None = None) -> dict[str, Any] | None:
        """Read until a state frame of ``version`` or newer (and the reply to ``reply_to``)."""
        reply = None
        while self.version < version or (reply_to is not None and reply is None):
            text = await self.comm.receive_from(timeout=30)
            if text.startswith('{"type":"state"'):
                match = VERSION.search(text)
                assert match is not None
                self.frame_text, self.version = text, int(match.group(1))
            elif reply_to is not None and f'"id":"{reply_to}"' in text:
                reply = json.loads(text)
                if reply["type"] == "error":
                    return reply
                version = max(version, int(reply.get("version", -1)))  # a join's or a leave's has none
        return reply

    @property
    def frame(self) -> dict[str, Any]:
        return json.loads(self.frame_text)


async def play(table_id: int, users: list[Any], hands: int, rng: random.Random,
               ab_env: str = "") -> tuple[list[float], int, float]:
    """Per hand the CPU ms per action; the actions; the wall-clock seconds of the actions.
    ``ab_env``: odd hands are played with that environment variable set to 1, even ones without."""
    from channels.db import database_sync_to_async

    from bench.harness.policy import choose
    from games.services.hands import hand_start_if_ready

    players = [Player(table_id, user) for user in users]
    for p in players:
        await p.connect()
    per_hand, actions, wall = [], 0, 0.0
    for number in range(hands):
        if ab_env:
            if number % 2:
                os.environ[ab_env] = "1"
            else:
                os.environ.pop(ab_env, None)
        hand = await database_sync_to_async(hand_start_if_ready)(table_id=table_id)
        assert hand is not None, "no hand dealt"
        version = await database_sync_to_async(_table_version)(table_id)
        for p in players:
            await p.until(version)
        cpu, count = 0.0, 0
        while True:
            moves = [(p, choose(p.frame, rng)) for p in players]
            moves = [(p, m) for p, m in moves if m is not None]
            if not moves:
                break
            player, move = moves[0]
            request_id = uuid.uuid4().hex
            text = json.dumps({"type": "action", "id": request_id, "action": move})
            started, started_wall = time.process_time(), time.perf_counter()
            await player.comm.send_to(text_data=text)
            reply = await player.until(0, reply_to=request_id)
            assert reply is not None and reply["type"] == "ack", reply
            for p in players:
                await p.until(int(reply["version"]))
            cpu += time.process_time() - started
            wall += time.perf_counter() - started_wall
            count += 1
        assert count, "a hand without actions"
        per_hand.append(1000 * cpu / count)
        actions += count
    for p in players:
        await p.comm.disconnect()
    return per_hand, actions, wall


def _table_version(table_id: int) -> int:
    from tables.models import Table

    return int(Table.objects.values_list("version", flat=True).get(pk=table_id))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--game", default="thirteen")
    parser.add_argument("--mode", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ab-env", default="", metavar="NAME",
                        help="compare: every other hand with the environment variable NAME=1 (for code that reads it)")
    o = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        sys.exit("DATABASE_URL must name a PostgreSQL database (REDIS_URL for the Redis channel layer)")
    django_setup()
    from django.core.management import call_command

    from kernel.gc_tuning import gc_tune

    call_command("migrate", verbosity=0)
    gc_tune()  # as the servers do (config/asgi.py)
    table_id, users = seated_table(o.game, o.mode, f"{int(time.time() * 1000)}")
    per_hand, actions, wall = asyncio.run(play(table_id, users, o.hands, random.Random(o.seed), o.ab_env))
    if o.ab_env:
        without, with_ = per_hand[0::2], per_hand[1::2]
        print(f"{o.ab_env} unset: CPU ms per action, median of hands {statistics.median(without):.2f}  "
              f"mean {statistics.fmean(without):.2f}; {o.ab_env}=1: {statistics.median(with_):.2f}  "
              f"mean {statistics.fmean(with_):.2f}")
    total = statistics.fmean(per_hand)  # every hand has about as many actions
    print(f"hands {len(per_hand)}  actions {actions}  CPU ms per action: median of hands "
          f"{statistics.median(per_hand):.2f}  mean {total:.2f}  wall ms per action {1000 * wall / actions:.2f}")


if __name__ == "__main__":
    main()
