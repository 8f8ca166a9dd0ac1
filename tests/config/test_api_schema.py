import pytest
from django.test import Client


@pytest.mark.django_db
def test_the_openapi_schema_is_served_and_names_every_api(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert {"/api/tables/", "/api/stake-levels/", "/api/accounts/me/"} <= set(schema["paths"])
    assert {"MeOutput", "TableListOutput", "StakeLevelListOutput"} <= set(schema["components"]["schemas"])
