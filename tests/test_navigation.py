"""Navigation: every page's menu reaches the lobby, history ("My hands"), disputes, the wallet and
the profile, for each role, and every link in it answers; a template naming a URL that does not
exist fails here instead of silently dropping a link."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.factories import funded_user, table_at

TEMPLATES = Path(settings.ROOT_DIR) / "templates"
LOGIN = "/accounts/login/"
URL_TAG = re.compile(r"{%\s*url\s+['\"]([^'\"]+)['\"]")


class NavLinks(HTMLParser):
    """The hrefs inside ``<nav class="nav">`` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "nav" and "nav" in (found.get("class") or "").split():
            self.depth = 1
        elif tag == "nav" and self.depth:
            self.depth += 1
        elif tag == "a" and self.depth and found.get("href"):
            self.links.append(str(found["href"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav" and self.depth:
            self.depth -= 1


def nav_links(html: str) -> list[str]:
    parser = NavLinks()
    parser.feed(html)
    return parser.links


def url_names(resolver: URLResolver | None = None, prefix: str = "") -> set[str]:
    """Every URL name the project defines, with its namespace (``wallet:wallet``)."""
    names: set[str] = set()
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            space = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            names |= url_names(entry, space)
        elif isinstance(entry, URLPattern) and entry.name:
            names.add(f"{prefix}{entry.name}")
    return names


def test_every_url_name_a_template_looks_up_exists() -> None:
    known = url_names()
    missing = {
        f"{path.relative_to(TEMPLATES)}: {name}"
        for path in TEMPLATES.rglob("*.html")
        for name in URL_TAG.findall(path.read_text())
        if name not in known and not name.startswith("admin:")
    }
    assert not missing, sorted(missing)


def test_a_misspelt_url_name_is_caught_by_the_scan() -> None:
    assert "history:hands" not in url_names() and "history-hands" in url_names()


def _role(role: str) -> Any:
    if role == "anonymous":
        return None
    from accounts.roles import roles_sync

    user = funded_user(f"nav-{role}", 100_000, is_staff=role in ("staff", "auditor"))
    if role == "auditor":
        user.groups.add(roles_sync())
    return user


MAIN_PAGES = ("/lobby/", "table", "/wallet/", "/history/", "/disputes/", "/accounts/profile/")
EVERYONE = {"/lobby/", "/accounts/login/", "/accounts/signup/"}
SIGNED_IN = {"/lobby/", "/history/", "/disputes/", "/wallet/", "/accounts/profile/"}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["anonymous", "player", "staff", "auditor"])
def test_each_role_follows_every_navigation_link_on_every_main_page(role: str) -> None:
    user = _role(role)
    client = Client()
    if user is not None:
        client.force_login(user)
    table = table_at("thirteen")
    for page in MAIN_PAGES:
        url = f"/tables/{table.pk}/" if page == "table" else page
        response = client.get(url)
        if user is None and response.status_code == 302:
            assert response["Location"].startswith(LOGIN), (url, response["Location"])
            response = client.get("/lobby/")
        assert response.status_code == 200, (role, url, response.status_code)
        links = set(nav_links(response.content.decode()))
        expected = EVERYONE if user is None else SIGNED_IN | ({"/admin/"} if user.is_staff else set())
        assert expected <= links, (role, url, sorted(expected - links))
        if user is None:
            assert not links & {"/history/", "/disputes/", "/wallet/"}
        for link in links:
            answer = client.get(link)
            if user is None and answer.status_code == 302:
                assert answer["Location"].startswith(LOGIN), (link, answer["Location"])
            else:
                assert answer.status_code == 200, (role, url, link, answer.status_code)
