"""The stall hunt's dump (bench/README.md "Stalls"): everything about a table that stopped moving,
as text, for whoever finds out why."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import redis
from celery import Celery
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from bench.harness.checks import counts_text, sweeper_last_tick
from bench.harness.client import Bot
from bench.harness.facts import json_value, rows, when
from bench.harness.infra import Infra, health


@dataclass(frozen=True)
class Stall:
    """What the monitor found stuck: the rule, the table, what it saw and (if one) the bot."""

    rule: str
    table_id: int
    text: str
    bot: str = ""


def dump(stall: Stall, infra: Infra, bots: list[tuple[str, Bot]]) -> str:
    """Everything about the stalled table, as text: the table row, its hand, last actions and
    seats, the timers in flight, the sweeper's last run, the channel layer's subscribers, the
    bots' last frames and the logs' tails."""
    lines = [f"STALL ({stall.rule}) at table {stall.table_id}: {stall.text}", ""]
    bot_part = _section("bots", _bot_lines(bots, stall.table_id))  # first: the bots go on meanwhile
    table = rows("SELECT t.id, s.game, s.mode, t.status, t.version, t.hands_played, t.carry FROM tables_table t "
                 "JOIN tables_stakelevel s ON s.id = t.stake_level_id WHERE t.id = %s", [stall.table_id])
    if not table:
        return "\n".join(lines + ["no such table"])
    fields = ("id", "game", "mode", "status", "version", "hands_played", "carry")
    lines += _section("table", [json.dumps(dict(zip(fields, (*table[0][:6], json_value(table[0][6])), strict=True)),
                                           default=str)])
    hand = rows("SELECT id, number, status, version, phase_seq, deadline, started_at, finished_at, players, state "
                "FROM games_hand WHERE table_id = %s ORDER BY number DESC LIMIT 1", [stall.table_id])
    hand_id, players = (hand[0][0], json_value(hand[0][8]) or []) if hand else (None, [])
    if hand:
        pk, number, status, version, phase_seq, deadline, started, finished, _players, state = hand[0]
        lines += _section("hand", [
            f"id {pk} #{number} status {status} version {version} phase_seq {phase_seq} "
            f"deadline {deadline} started {started} finished {finished}",
            f"players {json.dumps(players)}", f"state {json.dumps(json_value(state), default=str)}"])
        actions = rows("SELECT seq, at, seat, user_id, auto, version, action FROM games_handaction WHERE hand_id = %s "
                       "ORDER BY seq DESC LIMIT 12", [pk])
        lines += _section("last actions", [
            f"{seq} at {when(at):%H:%M:%S.%f} seat {seat} user {user} auto {auto} version {v} "
            f"{json.dumps(json_value(action))[:160]}" for seq, at, seat, user, auto, v, action in reversed(actions)])
    seats = rows('SELECT "index", user_id, status, joined_at, last_seen, disconnected FROM tables_seat '
                 'WHERE table_id = %s ORDER BY "index"', [stall.table_id])
    lines += _section("seats", [f"{i} user {u} {st} joined {when(joined):%H:%M:%S.%f} last seen {seen} "
                                f"disconnected {gone}" for i, u, st, joined, seen, gone in seats])
    lines += _section("watchdog repairs at the table", [
        f"{when(at):%H:%M:%S.%f} {kind} hand {h}: {cause}" for at, kind, h, cause in rows(
            "SELECT at, kind, hand_id, cause FROM games_repair WHERE table_id = %s ORDER BY at", [stall.table_id])])
    lines += _section("timers in flight", _timers(hand_id, stall.table_id))
    lines += _section("sweeper", _sweeper(infra))
    users = sorted({u for _i, u, *_rest in seats} | {p["user"] for p in players}
                   | set(_bot_users(bots, stall.table_id).values()))
    lines += _section("channel layer", _subscribers(stall.table_id, users))
    lines += bot_part
    for proc in infra.processes():
        lines += _section(f"{proc.name} log (tail)", _tail(proc.log, 40))
    return "\n".join(lines)


def _section(title: str, body: list[str]) -> list[str]:
    return [f"--- {title}", *(body or ["(none)"]), ""]


def _timers(hand_id: int | None, table_id: int) -> list[str]:
    """The Celery tasks about this hand (or a start timer of this table) the workers hold, asked
    through the broker (a client app of the harness's own), and the broker's queues and
    unacknowledged messages."""
    app = Celery("harness", broker=settings.CELERY_BROKER_URL)

    def about(args: list[Any], name: str) -> bool:
        if not args:
            return False
        if name.endswith("start_hand"):
            return bool(args[0] == table_id)
        return hand_id is not None and args[0] == hand_id

    lines = []
    try:
        inspect = app.control.inspect(timeout=2)
        now = time.time()
        for kind in ("scheduled", "reserved", "active"):
            replies = getattr(inspect, kind)() or {}
            names: dict[str, int] = {}
            overdue = 0
            for worker, tasks in replies.items():
                for task in tasks:
                    request = task.get("request", task)
                    args, name = list(request.get("args") or []), str(request.get("name", ""))
                    names[name] = names.get(name, 0) + 1
                    eta = task.get("eta") or request.get("eta")
                    if eta and datetime.fromisoformat(eta).timestamp() < now:
                        overdue += 1
                    if kind == "active":  # what the pool is busy with, and for how long
                        started = request.get("time_start")
                        lines.append(f"active on {worker}: {name} {args} for "
                                     f"{now - started if started else float('nan'):.1f} s")
                    elif about(args, name):
                        lines.append(f"{kind} on {worker}: {name} {args} eta {eta}")
            lines.append(f"{kind}: {counts_text(names)}; past their eta {overdue}; {len(replies)} worker(s) replied")
    except Exception as exc:  # noqa: BLE001 - a dump shows what it could not read
        lines.append(f"inspect failed: {exc!r}")
    lines += _broker(about)
    return lines


def _broker(about: Callable[[list[Any], str], bool]) -> list[str]:
    lines = []
    try:
        client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2)
        for key in sorted(client.scan_iter(count=500)):
            if client.type(key) == b"list":
                lines.append(f"queue {key!r}: {client.llen(key)} message(s)")
        unacked = client.hgetall("unacked")
        lines.append(f"unacked: {len(unacked)} message(s)")
        for tag, raw in unacked.items():
            message = json.loads(raw)[0]
            headers = message.get("headers", {})
            body = json.loads(base64.b64decode(message["body"]))
            args = body[0] if isinstance(body, list) else []
            if about(list(args), str(headers.get("task", ""))):
                lines.append(f"unacked {tag!r}: {headers.get('task')} {args} eta {headers.get('eta')}")
    except Exception as exc:  # noqa: BLE001
        lines.append(f"broker read failed: {exc!r}")
    return lines


def _sweeper(infra: Infra) -> list[str]:
    """The sweeper's clock row, and what a server's ``/healthz`` says of its last run and of the
    watchdog's repairs."""
    tick = sweeper_last_tick()
    lines = [f"last tick {tick} ({(timezone.now() - tick).total_seconds():.1f} s ago)" if tick else "never ticked"]
    report = health(infra.ports[0])
    if report is None:
        lines.append("/healthz unreadable")
    else:
        lines.append(f"healthz: sweeper seen {report.get('sweeper_seen_seconds_ago')} s ago, repairs in the "
                     f"last hour {report.get('repairs_last_hour')}, worker seen "
                     f"{report.get('worker_seen_seconds_ago')} s ago")
    return lines


def _subscribers(table_id: int, users: list[int]) -> list[str]:
    """``PUBSUB NUMSUB`` of the channel layer's Redis channels for the table's and its players'
    groups (channels_redis's pub/sub layer names a group's channel ``<prefix>__group__<group>``),
    so one subscription per server process that has a member of the group."""
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    prefix = config.get("prefix", "asgi")
    names = [f"{prefix}__group__table.{table_id}", *(f"{prefix}__group__user.{u}" for u in users)]
    try:
        client = redis.Redis.from_url(config["hosts"][0], socket_timeout=2)
        counts = client.pubsub_numsub(*names)
    except Exception as exc:  # noqa: BLE001
        return [f"PUBSUB NUMSUB failed: {exc!r}"]
    return [f"{name.decode() if isinstance(name, bytes) else name}: {n} subscriber(s)" for name, n in counts]


def _bot_users(bots: list[tuple[str, Bot]], table_id: int) -> dict[str, int]:
    found = {}
    for name, bot in bots:
        if bot.table_id == table_id:
            user = SessionStore(session_key=bot.session).get(SESSION_KEY)
            if user is not None:
                found[name] = int(user)
    return found


def _bot_lines(bots: list[tuple[str, Bot]], table_id: int) -> list[str]:
    users, now, lines = _bot_users(bots, table_id), time.monotonic(), []
    for name, bot in bots:
        if bot.table_id != table_id:
            continue
        lines.append(f"{name} user {users.get(name)} on {bot.connected_to} (connection {bot.connection}) done "
                     f"{bot.done.is_set()} stop {bot.stop.is_set()} seen version {bot.seen_version} last state "
                     f"{now - bot.last_state:.1f} s ago, last hand {bot.last_hand}, hands {len(bot.stats.hands)}, "
                     f"pending {len(bot.pending)}, leave sent {bot.leave_sent}, join sent {bot.join_sent}, "
                     f"failures {bot.stats.errors[-3:]}")
        lines += [f"    {at - now:8.2f} s  {kind:<8} v{version}  {phase}" for at, kind, version, phase in bot.frames]
    return lines


def _tail(path: Path, n: int) -> list[str]:
    try:
        return path.read_text(errors="replace").splitlines()[-n:]
    except OSError as exc:
        return [f"unreadable: {exc}"]
