"""Private rooms in the harness's runs (docs/RULES.md "Private rooms", bench/README.md "Chaos" and
"Stalls"), through the pages a person uses: a bot opens a room with the lobby's form
(``POST /rooms/open/``), reads its code off the room's page (the link it shares), and the others
enter by the code (``GET /rooms/<code>/``), which gives them their pass. The owner starts it and,
winding down, closes it over the table socket (bench/harness/client.py).
"""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message
from http.cookies import SimpleCookie
from typing import Any

#: A table page's address, as a room's pages redirect to it.
TABLE_PATH = re.compile(r"/tables/(\d+)/$")
#: The room's link on its page (``/rooms/<code>/``), which carries the code.
ROOM_LINK = re.compile(r"/rooms/([A-Z2-9]{6})/")
#: Tries of a request the server did not answer (a server restarting), a second apart.
TRIES = 10


class RoomRefused(RuntimeError):
    """The platform refused to open or enter a room (the page's answer in the message)."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the redirect's Location is the answer


_OPENER = urllib.request.build_opener(_NoRedirect)


def http_url(ws_url: str) -> str:
    """The HTTP origin of a server the bots reach at ``ws://host:port``."""
    return ws_url.replace("ws", "http", 1)


def _request(url: str, cookie: str, data: dict[str, str] | None = None) -> tuple[int, Message, str]:
    """One request without following redirects: status, headers, body; tried again while the
    server does not answer."""
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    for attempt in range(TRIES):
        request = urllib.request.Request(url, data=body, headers={"Cookie": cookie})  # noqa: S310 - our server
        try:
            with _OPENER.open(request, timeout=10) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers, exc.read().decode(errors="replace")
        except (urllib.error.URLError, OSError):
            if attempt == TRIES - 1:
                raise
            time.sleep(1)
    raise AssertionError("unreachable")


def _table_id(status: int, headers: Message, body: str, what: str) -> int:
    found = TABLE_PATH.search(headers.get("Location", "")) if status in (302, 303) else None
    if found is None:
        raise RoomRefused(f"{what}: HTTP {status} {headers.get('Location', '')} {body[:200]}")
    return int(found.group(1))


def _csrf(base: str, session: str) -> str:
    """The CSRF cookie the lobby page sets (its forms post with it)."""
    status, headers, _body = _request(f"{base}/lobby/", f"sessionid={session}")
    jar: SimpleCookie = SimpleCookie()
    for value in headers.get_all("Set-Cookie") or []:
        jar.load(value)
    if "csrftoken" not in jar:
        raise RoomRefused(f"the lobby page (HTTP {status}) set no CSRF cookie: {headers}")
    return jar["csrftoken"].value


def room_open(*, base: str, session: str, level_id: int) -> tuple[int, str]:
    """Open a room at the stake level as the player of ``session``: its table id and code."""
    token = _csrf(base, session)
    cookie = f"sessionid={session}; csrftoken={token}"
    answer = _request(f"{base}/rooms/open/", cookie, {"level": str(level_id), "csrfmiddlewaretoken": token})
    table_id = _table_id(*answer, "open a room")
    status, _headers, page = _request(f"{base}/tables/{table_id}/", cookie)
    code = ROOM_LINK.search(page)
    if status != 200 or code is None:
        raise RoomRefused(f"room {table_id}: its page (HTTP {status}) shows no link")
    return table_id, code.group(1)


def room_enter(*, base: str, session: str, code: str) -> int:
    """Enter a room by its code as the player of ``session`` (their pass): its table id."""
    return _table_id(*_request(f"{base}/rooms/{code}/", f"sessionid={session}"), f"enter room {code}")


def owner_request(frame: dict[str, Any], *, stopping: bool) -> str | None:
    """What a room's owner asks of its room on this state frame, as a person would: ``room_start``
    once enough players sit and it has not started; ``room_close`` when winding down, between
    sets (every seat is cashed out, the room's code freed); None otherwise."""
    room = frame.get("room")
    if not room or frame.get("closed") or frame.get("you") is None:
        return None
    if stopping:
        return "room_close"
    waiting = frame.get("waiting") or {}
    ready = waiting.get("reason") == "room_start" and int(waiting.get("ready", 0)) >= int(waiting.get("min", 1))
    return "room_start" if ready and not room.get("started") else None
