import pytest
from django.test import Client

from config import health


@pytest.mark.django_db
def test_healthz_reports_every_component_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["channel_layer"] == "ok"
    assert body["broker"] == "ok"


@pytest.mark.django_db
def test_healthz_answers_503_and_names_the_failing_component(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> str:
        raise ConnectionError("broker unreachable")

    monkeypatch.setitem(health.CHECKS, "broker", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["broker"] == "error: ConnectionError: broker unreachable"
    assert body["database"] == "ok"
