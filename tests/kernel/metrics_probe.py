"""Run in subprocesses by test_metrics.py, with PROMETHEUS_MULTIPROC_DIR set: one process of a
fleet recording metrics, or the server a scrape reaches.

``write N [hold]``: deal N hands, apply one action, open one table socket and run one timer,
print ``ready <pid>``, then exit (or, with ``hold``, stay alive until stdin closes).
``scrape``: print what ``/metrics`` answers a loopback client.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402

from kernel import metrics  # noqa: E402


def write(deals: int, hold: bool) -> None:
    for _ in range(deals):
        metrics.hand_dealt("thirteen")
    metrics.action_applied("thirteen", auto=False, seconds=0.003)
    metrics.socket_opened("table")
    metrics.timer_fired("expire", 0.2)
    print("ready", os.getpid(), flush=True)
    if hold:
        sys.stdin.read()


def scrape() -> None:
    response = Client().get("/metrics")
    if response.status_code != 200:
        raise SystemExit(f"/metrics answered {response.status_code}")
    sys.stdout.write(response.content.decode())


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(int(sys.argv[2]), hold=sys.argv[3:] == ["hold"])
    else:
        scrape()
