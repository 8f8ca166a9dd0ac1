"""Every response carries the Content-Security-Policy; no page loads anything from another host
or runs inline script (the policy would block it)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.registry import GAMES, engine_for
from tests.factories import funded_user, table_at

ROOT = Path(__file__).resolve().parents[2]
EXTERNAL = re.compile(r"^(https?:)?//", re.I)


class _Assets(HTMLParser):
    """Collects what a page would fetch or execute."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts: list[str] = []
        self.handlers: list[str] = []
        self._script_inline = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.handlers += [f"{tag} {k}" for k, _ in attrs if k.startswith("on")]
        self.handlers += [f"{tag} {k}" for k, v in attrs if v and v.strip().lower().startswith("javascript:")]
        for key in ("src", "srcset", "poster", "data"):
            if a.get(key):
                self.urls.append(str(a[key]))
        if tag == "link" and a.get("href"):
            self.urls.append(str(a["href"]))
        if tag == "script":
            self._script_inline = not a.get("src") and a.get("type") != "application/json"

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script_inline = False

    def handle_data(self, data: str) -> None:
        if self._script_inline and data.strip():
            self.inline_scripts.append(data.strip()[:80])


def _assets(html: str) -> _Assets:
    parser = _Assets()
    parser.feed(html)
    css_urls = re.findall(r"url\(\s*['\"]?([^'\")]+)", html)
    parser.urls += css_urls
    return parser


def _clients() -> list[tuple[Client, list[str]]]:
    """(client, pages) for a visitor, a player and a member of staff."""
    staff = funded_user("staff", 100_000, is_staff=True, is_superuser=True)
    player = funded_user("mei", 100_000, display_name="Mei")
    tables = [table_at(game, next(iter(engine_for(game).modes))) for game in GAMES]
    visitor, playing, admin = Client(), Client(), Client()
    playing.force_login(player)
    admin.force_login(staff)
    return [
        (visitor, [reverse("home"), reverse("login"), reverse("signup"), reverse("api-docs"), reverse("lobby")]),
        (playing, [reverse("lobby"), reverse("wallet:wallet"), reverse("profile"), reverse("password_change"),
                   reverse("history-hands"), reverse("dispute-list"), reverse("api-me"),
                   *[reverse("table", args=[t.pk]) for t in tables]]),
        (admin, ["/admin/", "/admin/accounts/user/", f"/admin/accounts/user/{staff.pk}/change/",
                 "/admin/tables/table/", f"/admin/tables/table/{tables[0].pk}/change/"]),
    ]


@pytest.mark.django_db
def test_no_page_loads_from_another_host_or_runs_inline_script() -> None:
    for client, pages in _clients():
        for url in pages:
            response = client.get(url, HTTP_ACCEPT="text/html")
            assert response.status_code == 200, url
            policy = response["Content-Security-Policy"]
            assert "default-src 'self'" in policy, url
            assert "script-src 'self';" in policy + ";" and "unsafe-eval" not in policy, url
            found = _assets(response.content.decode())
            assert [u for u in found.urls if EXTERNAL.match(u)] == [], url
            assert found.inline_scripts == [], url
            assert found.handlers == [], url


@pytest.mark.django_db
def test_the_api_docs_script_and_assets_are_served_by_the_site(client: Client) -> None:
    page = client.get(reverse("api-docs")).content.decode()
    assets = _assets(page).urls
    assert any("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in u for u in assets)
    script = client.get(reverse("api-docs") + "?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert re.search(r"https?://", script.content.decode()) is None


def test_no_template_holds_inline_script_or_event_handlers() -> None:
    for path in sorted((ROOT / "templates").rglob("*.html")):
        found = _assets(path.read_text())
        assert found.inline_scripts == [], path
        assert found.handlers == [], path
        assert [u for u in found.urls if EXTERNAL.match(u)] == [], path


def test_the_vendored_alpine_is_its_csp_build() -> None:
    alpine = list((ROOT / "static/vendor/alpinejs").glob("*.js"))
    assert [p.name for p in alpine] == ["alpine-csp-3.17.4.min.js"]
    assert "new Function" not in alpine[0].read_text()


def test_every_response_carries_the_policy(client: Client, db: Any) -> None:
    for url in ["/healthz", "/no-such-page/", reverse("api-schema")]:
        assert "default-src 'self'" in client.get(url)["Content-Security-Policy"], url
