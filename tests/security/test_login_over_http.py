"""The attack of issue 12 item 3 over real HTTP, against uvicorn run as the project runs it:
seven wrong passwords, each with another X-Forwarded-For, then the right one with another."""

from __future__ import annotations

import importlib
import re
import shlex
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "lucky-dragon-88"


def _uvicorn_command_lines() -> list[tuple[str, str]]:
    files = [ROOT / "Makefile", *sorted((ROOT / "scripts").glob("*.sh")), *sorted((ROOT / "bench").glob("*.sh"))]
    return [(f.name, line) for f in files for line in f.read_text().splitlines()
            if "uvicorn config.asgi:application" in line and not line.lstrip().startswith("#")]


def _serve_options() -> dict[str, Any]:
    """uvicorn's options as `make serve` passes them."""
    cli = importlib.import_module("uvicorn.main").main  # the click command (uvicorn.main is a function)
    line = next(line for name, line in _uvicorn_command_lines() if name == "Makefile")
    args = shlex.split(line.split("uvicorn ", 1)[1].replace("$(HOST)", "127.0.0.1").replace("$(PORT)", "8000"))
    return dict(cli.make_context("uvicorn", args).params)


def test_every_uvicorn_the_project_starts_leaves_the_client_address_to_the_platform() -> None:
    lines = _uvicorn_command_lines()
    assert lines
    for name, line in lines:  # the next line may continue the command
        assert "--no-proxy-headers" in line or line.rstrip().endswith("\\"), (name, line)
    assert _serve_options()["proxy_headers"] is False


@pytest.fixture
def server(transactional_db: Any) -> Iterator[str]:
    import uvicorn

    from config.asgi import application

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    options = _serve_options()
    config = uvicorn.Config(application, host="127.0.0.1", port=port, lifespan="off", log_level="warning",
                            proxy_headers=options["proxy_headers"], forwarded_allow_ips=options["forwarded_allow_ips"])
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def _post_login(opener: urllib.request.OpenerDirector, url: str, password: str, forwarded_for: str) -> int:
    page = opener.open(f"{url}/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    data = urllib.parse.urlencode({"username": "lin", "password": password, "csrfmiddlewaretoken": token[1]})
    request = urllib.request.Request(f"{url}/accounts/login/", data=data.encode(), method="POST",  # noqa: S310
                                     headers={"X-Forwarded-For": forwarded_for, "Referer": f"{url}/accounts/login/"})
    try:
        return int(opener.open(request).status)
    except urllib.error.HTTPError as error:
        return int(error.code)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def test_forged_forwarded_for_headers_do_not_escape_the_lock(server: str, make_user) -> None:
    make_user("lin", PASSWORD)
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()), _NoRedirect())
    for i in range(7):
        assert _post_login(opener, server, "wrong", f"81.2.69.{i}") in (200, 429)
    assert _post_login(opener, server, PASSWORD, "81.2.69.99") == 429
