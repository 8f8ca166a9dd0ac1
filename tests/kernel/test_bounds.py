"""Every parameter a request can name is refused cleanly when it is out of reach: NUL bytes,
numbers past the database's integer range, bytes that are not UTF-8. No answer is a 500, on
PostgreSQL and on SQLite alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from kernel.bounds import AMOUNT_MAX, ID_MAX
from tests.factories import ensure_stake_levels, funded_user

pytestmark = pytest.mark.django_db

HUGE = str(10**30)
#: What a fuzzing client sends as a parameter's value (each in a query string or a form body).
BAD_VALUES = ["a\x00b", HUGE, "-" + HUGE, str(ID_MAX + 1), "-1", "é" * 300]
#: The same, as raw query strings: percent-encoded bytes that are not UTF-8, and a NUL.
RAW_QUERIES = ["%ff%fe", "%00"]

GET_PATHS = [
    "/api/tables/", "/api/stake-levels/", "/api/history/hands/", "/api/history/hands/export/", "/api/history/export/",
    "/api/history/chains/", "/api/wallet/balance/", "/api/wallet/statement/", "/api/disputes/", "/api/accounts/me/",
    "/", "/lobby/", "/history/", "/disputes/", "/wallet/", "/wallet/statement.csv", "/responsible/",
    "/admin/integrity/", "/admin/integrity/players/", "/admin/operations/staffaction/",
]
PARAMS = ["game", "mode", "page", "page_size", "days", "since", "until", "stake_level", "table", "player", "kind",
          "format", "q", "o", "p"]
#: Paths that carry a number in the path itself.
ID_PATHS = ["/api/history/hands/{}/", "/api/disputes/{}/", "/history/hands/{}/", "/history/{}/", "/disputes/{}/",
            "/disputes/new/{}/", "/tables/{}/", "/lobby/play/{}/", "/admin/integrity/pairs/{}/{}/"]


@pytest.fixture
def staff_client() -> Client:
    ensure_stake_levels()
    client = Client(raise_request_exception=False)
    client.force_login(funded_user("root", 10_000, is_staff=True, is_superuser=True))
    return client


def _failures(client: Client, requests: list[tuple[str, Any]]) -> list[tuple[str, str, int]]:
    failures = []
    for method, (path, data) in requests:
        if method == "get":
            response = client.get(path, data) if isinstance(data, dict) else client.get(f"{path}?{data}")
        else:
            response = client.post(path, data, content_type="application/json")
        if response.status_code >= 500:
            failures.append((path, repr(data)[:60], response.status_code))
    return failures


def test_no_query_parameter_of_any_page_or_api_gets_a_server_error(staff_client: Client) -> None:
    requests = [("get", (path, {name: value})) for path in GET_PATHS for name in PARAMS for value in BAD_VALUES]
    requests += [("get", (path, f"{name}={raw}")) for path in GET_PATHS for name in PARAMS for raw in RAW_QUERIES]
    assert _failures(staff_client, requests) == []


def test_no_number_in_a_path_gets_a_server_error(staff_client: Client) -> None:
    numbers = [str(ID_MAX), str(ID_MAX + 1), HUGE, "0"]
    requests = [("get", (path.format(n, n), {})) for path in ID_PATHS for n in numbers]
    assert _failures(staff_client, requests) == []


def test_no_json_body_field_of_the_dispute_api_gets_a_server_error(staff_client: Client) -> None:
    bodies = [{"hand": v, "category": "result", "text": "t"} for v in (HUGE, ID_MAX + 1, -1, "\x00")]
    bodies += [{"record": v, "category": "result", "text": "t"} for v in (HUGE, ID_MAX + 1)]
    bodies += [{"hand": 1, "category": "result\x00", "text": "a\x00b"}]
    requests = [("post", ("/api/disputes/", body)) for body in bodies]
    requests += [("post", ("/api/disputes/1/resolve/", {"outcome": "upheld", "reason": "r", "compensation": v}))
                 for v in (int(HUGE), ID_MAX + 1, AMOUNT_MAX + 1)]
    assert _failures(staff_client, requests) == []


def test_the_lobby_api_refuses_a_nul_byte_in_game_or_mode_with_a_clear_400(staff_client: Client) -> None:
    for path, name in [("/api/tables/", "game"), ("/api/tables/", "mode"), ("/api/stake-levels/", "game")]:
        response = staff_client.get(path, {name: "samgong\x00"})
        assert response.status_code == 400
        assert response.json()["detail"]  # a message in the player's language


def test_the_lobby_api_still_filters_by_game_and_mode(staff_client: Client) -> None:
    levels = staff_client.get("/api/stake-levels/", {"game": "samgong"}).json()
    assert levels and {level["game"] for level in levels} == {"samgong"}
    assert staff_client.get("/api/tables/", {"game": "thirteen", "mode": ""}).status_code == 200


def test_a_history_filter_past_the_id_range_is_a_400_naming_the_field(staff_client: Client) -> None:
    response = staff_client.get("/api/history/hands/", {"table": str(ID_MAX + 1)})
    assert response.status_code == 400
    assert "table" in response.json()


def test_a_dispute_compensation_past_the_amount_bound_is_a_400(staff_client: Client) -> None:
    response = staff_client.post("/api/disputes/1/resolve/", {"outcome": "upheld", "reason": "r",
                                                             "compensation": AMOUNT_MAX + 1},
                                 content_type="application/json")
    assert response.status_code in (400, 404)
