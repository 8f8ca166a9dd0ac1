"""Every API endpoint, for every role, against one table of expectations: the API grants exactly
what the admin grants (``accounts.permissions``).

The endpoints are read from the URLconf and their operations from the OpenAPI schema, so an
endpoint or operation added without a row in EXPECTED fails the first test.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation

from accounts.models import User
from accounts.roles import roles_sync
from disputes.models import Dispute
from disputes.services import dispute_note, dispute_open, dispute_review_start
from tests.history.conftest import _postgres_only, live, new_player, records_of  # noqa: F401

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "player", "other_player", "staff_bare", "auditor", "hand_viewer", "dispute_viewer",
         "dispute_reviewer", "perms_not_staff", "superuser"]
HAND_READERS = {"auditor", "hand_viewer", "superuser"}
DISPUTE_READERS = {"auditor", "dispute_viewer", "dispute_reviewer", "superuser"}
REVIEWERS = {"dispute_reviewer", "superuser"}
SIGNED_IN = set(ROLES) - {"anonymous"}
INTERNAL = "internal: the seed checks out"


def statuses(ok: int, allowed: set[str], refused: int = 403) -> dict[str, int]:
    """``ok`` for ``allowed``, 403 for a visitor, ``refused`` for everyone else."""
    return {role: ok if role in allowed else (403 if role == "anonymous" else refused) for role in ROLES}


#: (URL name, method) → role → status. Reads' contents are checked by SEEN below.
EXPECTED: dict[tuple[str, str], dict[str, int]] = {
    ("api-schema", "get"): statuses(200, set(ROLES)),
    ("api-docs", "get"): statuses(200, set(ROLES)),
    ("api-stake-levels", "get"): statuses(200, set(ROLES)),
    ("api-tables", "get"): statuses(200, set(ROLES)),
    ("api-me", "get"): statuses(200, SIGNED_IN),
    ("api-wallet-balance", "get"): statuses(200, SIGNED_IN),
    ("api-wallet-statement", "get"): statuses(200, SIGNED_IN),
    ("api-history-hands", "get"): statuses(200, SIGNED_IN),
    ("api-history-hand", "get"): statuses(200, HAND_READERS | {"player"}, refused=404),
    ("api-history-my-export", "get"): statuses(200, SIGNED_IN),
    ("api-history-export", "get"): statuses(200, HAND_READERS),
    ("api-history-chains", "get"): statuses(200, HAND_READERS),
    ("api-disputes", "get"): statuses(200, SIGNED_IN),
    ("api-dispute", "get"): statuses(200, DISPUTE_READERS | {"player"}, refused=404),
    # Writes come last, in this order: a dispute on the second hand (only its player may open
    # one), then the other player's dispute reviewed and resolved (reviewers only).
    ("api-disputes", "post"): statuses(201, {"player"}),
    ("api-dispute-review", "post"): statuses(200, REVIEWERS),
    ("api-dispute-resolve", "post"): statuses(200, REVIEWERS),
}


def api_patterns() -> Iterator[tuple[str, str]]:
    """(URL name, route) of every URL under ``api/`` in the URLconf."""
    def walk(patterns: list[Any], prefix: str) -> Iterator[tuple[str, str]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and (prefix + str(p.pattern)).startswith("api/"):
                yield p.name or "", prefix + str(p.pattern)
    yield from walk(get_resolver().url_patterns, "")


def schema_route(route: str) -> str:
    """``api/history/hands/<int:hand_id>/`` → ``/api/history/hands/{hand_id}/``."""
    names = {"pk": "id"}  # drf-spectacular calls a primary key ``id``
    parts = [f"{{{names.get(p := part.strip('<>').split(':')[-1], p)}}}" if part.startswith("<") else part
             for part in route.split("/")]
    return "/" + "/".join(parts)


def test_every_api_endpoint_and_operation_has_an_expectation(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operations: set[tuple[str, str]] = set()
    described: set[str] = set()
    for name, route in api_patterns():
        assert name, f"{route} has no URL name to hold its expectations"
        path = schema_route(route)
        methods = schema["paths"].get(path)
        if methods is None:  # the schema and its docs page describe the others, not themselves
            assert name in ("api-schema", "api-docs"), f"{route} is not in the OpenAPI schema"
            operations.add((name, "get"))
            continue
        described.add(path)
        operations |= {(name, m) for m in methods if m in ("get", "post", "put", "patch", "delete")}
    assert described == set(schema["paths"]), "every operation of the schema is served under api/"
    assert operations == set(EXPECTED)


def staff(name: str, *perms: str, is_staff: bool = True) -> User:
    user = new_player(name)
    user.is_staff = is_staff
    user.save(update_fields=["is_staff"])
    for perm in perms:
        app, codename = perm.split(".")
        user.user_permissions.add(Permission.objects.get(content_type__app_label=app, codename=codename))
    return User.objects.get(pk=user.pk)  # a fresh permission cache


@pytest.fixture
def world(live: Any) -> dict[str, Any]:  # noqa: F811 - the fixture imported above
    """Two trio hands (whose copies hide the opponents' unplayed cards and the seed); the player
    disputed the first, which a reviewer took under review with internal notes, and so did a
    second player of it, whose dispute is open. ``other_player`` played at another table."""
    trio = live("thirteen_trio", "", 3, seed=61)
    trio.play(2)
    other = live("thirteen", "", 2, seed=62)
    other.play(1)
    first, second = records_of(trio.table)
    auditor = staff("auditor")
    auditor.groups.add(roles_sync())
    reviewer = staff("reviewer", "disputes.change_dispute", "disputes.view_dispute")
    mine = dispute_open(player=trio.users[0], record=first, category="result", text="check it")
    theirs = dispute_open(player=trio.users[1], record=first, category="cards", text="odd deal")
    dispute_review_start(dispute=mine, actor=reviewer, note=INTERNAL)
    dispute_note(dispute=mine, actor=reviewer, note=INTERNAL)
    users = {
        "player": trio.users[0], "other_player": other.users[0], "staff_bare": staff("bare"),
        "auditor": User.objects.get(pk=auditor.pk), "hand_viewer": staff("handviewer", "history.view_handrecord"),
        "dispute_viewer": staff("disputeviewer", "disputes.view_dispute"), "dispute_reviewer": reviewer,
        "perms_not_staff": staff("permsonly", "history.view_handrecord", "disputes.view_dispute",
                                 "disputes.change_dispute", is_staff=False),
        "superuser": User.objects.create_superuser(username="root", password="x" * 12),
    }
    return {"users": users, "records": [first, second], "mine": mine, "theirs": theirs,
            "others_hand": records_of(other.table)[0]}


def url_of(name: str, w: dict[str, Any]) -> str:
    args = {"api-history-hand": [w["records"][0].hand_id], "api-dispute": [w["mine"].pk],
            "api-dispute-review": [w["theirs"].pk], "api-dispute-resolve": [w["theirs"].pk]}
    return reverse(name, args=args.get(name, []))


BODIES: dict[tuple[str, str], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("api-disputes", "post"): lambda w: {"hand": w["records"][1].hand_id, "category": "other", "text": "please"},
    ("api-dispute-review", "post"): lambda w: {"note": "looking"},
    ("api-dispute-resolve", "post"): lambda w: {"outcome": "rejected", "reason": "the deal is the seed's"},
}


def lines(response: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]


def full(body: dict[str, Any]) -> bool:
    """A complete record: the seed and every seat's 17 cards, no player's view."""
    return (body["fairness"]["server_seed"] is not None and "view" not in body
            and all(s["cards"] is not None for s in body["seats"]))


def players_copy(body: dict[str, Any]) -> bool:
    """Seat 0's copy: its own cards, the opponents' unplayed cards and the seed withheld."""
    seats = body["seats"]
    return (body["view"]["seat"] == 0 and body["fairness"]["server_seed"] is None
            and seats[0]["cards"] is not None and all(s["cards"] is None for s in seats[1:]))


def notes(body: dict[str, Any]) -> list[str]:
    return [e["note"] for e in body["events"]]


def seen(key: tuple[str, str], role: str, response: Any, w: dict[str, Any]) -> None:
    """What a successful read shows ``role``: all of it, or only the player's own part."""
    name, hands = key[0], [r.hash for r in w["records"]]
    if name == "api-history-hands":
        data = response.json()
        mine = {"player": 2, "other_player": 1}.get(role, 0)
        assert data["count"] == (3 if role in HAND_READERS else mine)
        assert all(row["seat"] == 0 for row in data["results"]) if role == "player" else True
    elif name == "api-history-hand":
        body = response.json()
        assert full(body) if role in HAND_READERS else players_copy(body)
    elif name == "api-history-my-export":
        copies = lines(response)
        if role == "other_player":
            assert [c["hash"] for c in copies] == [w["others_hand"].hash] and copies[0]["view"]["seat"] == 0
            return
        assert [c["hash"] for c in copies] == (hands if role == "player" else [])
        assert all(players_copy(c) for c in copies)
    elif name == "api-history-export":
        records = lines(response)
        assert len(records) == 3 and all(r["fairness"]["server_seed"] for r in records)
        assert all(full(r) for r in records if r["game"] == "thirteen_trio")
    elif name == "api-history-chains":
        assert len(response.json()) == 2
    elif name == "api-disputes":
        count = response.json()["count"]
        assert count == (2 if role in DISPUTE_READERS else 1 if role == "player" else 0)
    elif name == "api-dispute":
        body = response.json()
        assert (INTERNAL in notes(body)) == (role in DISPUTE_READERS)
        assert body["id"] == w["mine"].pk
    elif name == "api-me":
        assert response.json()["username"] == w["users"][role].username


@pytest.mark.parametrize("role", ROLES)
def test_every_endpoint_answers_each_role_as_the_admin_grants(world: dict[str, Any], client: Client,
                                                             role: str) -> None:
    if role != "anonymous":
        client.force_login(world["users"][role])
    wrong: list[str] = []
    with translation.override("en"):
        for key, expected in EXPECTED.items():
            name, method = key
            body = BODIES.get(key, lambda w: {})(world)
            call = getattr(client, method)
            response = call(url_of(name, world), body, **({"content_type": "application/json"} if body else {}))
            if response.status_code != expected[role]:
                wrong.append(f"{method.upper()} {name}: {response.status_code}, expected {expected[role]}")
            elif response.status_code == 200 and method == "get":
                seen(key, role, response, world)
    assert wrong == []
    opened = Dispute.objects.filter(record=world["records"][1]).count()
    assert opened == (1 if role == "player" else 0)
    resolved = Dispute.objects.get(pk=world["theirs"].pk).status
    assert resolved == ("rejected" if role in REVIEWERS else "open")


@pytest.mark.parametrize("role", ["player", "auditor", "superuser"])
def test_no_endpoint_accepts_an_operation_it_does_not_offer(world: dict[str, Any], client: Client,
                                                           role: str) -> None:
    client.force_login(world["users"][role])
    offered = set(EXPECTED)
    for name in {n for n, _ in EXPECTED}:
        for method in ("post", "put", "patch", "delete"):
            if (name, method) not in offered:
                status = getattr(client, method)(url_of(name, world)).status_code
                assert status in (403, 405), f"{method.upper()} {name}: {status}"


HOSTILE = [
    {"page": "abc"}, {"page": "-1"}, {"page_size": "100000"}, {"since": "\x00"}, {"until": "2026-02-30"},
    {"game": "poker"}, {"stake_level": "99999999999999999999999"}, {"table": "-5"}, {"player": "nobody"},
    {"player": "a\x00b"}, {"format": "pdf"}, {"kind": "x"}, {"mode": "\x00"}, {"since": "9" * 400},
]


@pytest.mark.parametrize("role", ["player", "superuser"])
def test_no_query_makes_an_api_read_fail_on_the_server(world: dict[str, Any], client: Client, role: str) -> None:
    client.force_login(world["users"][role])
    for name, method in EXPECTED:
        if method == "get":
            for params in HOSTILE:
                status = client.get(url_of(name, world), params).status_code
                assert status < 500, f"{name} {params}: {status}"
