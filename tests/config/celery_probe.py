"""Run in a subprocess by test_celery.py: send a countdown task and report when it fired.

Prints one JSON line: {"early": bool, "elapsed": seconds or null}. The settings come from the
environment the test passes (embedded default, or REDIS_URL with a separate worker process); a
third argument names the queue to send it to (the default queue unless given).
"""

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402

from config.tasks import HEARTBEAT_KEY, record_heartbeat  # noqa: E402


def fired(token: str) -> bool:
    beat = cache.get(HEARTBEAT_KEY)
    return bool(beat and beat["token"] == token)


def main() -> None:
    countdown = float(sys.argv[1])
    token = sys.argv[2]
    queue = sys.argv[3] if len(sys.argv) > 3 else None
    if settings.CELERY_EMBEDDED_WORKER:
        from config.embedded import start_embedded_worker

        start_embedded_worker()
    start = time.monotonic()
    record_heartbeat.apply_async(args=[token], countdown=countdown, queue=queue)
    early = False
    while time.monotonic() - start < countdown - 0.3:
        early = early or fired(token)
        time.sleep(0.05)
    while time.monotonic() - start < countdown + 20:
        if fired(token):
            print(json.dumps({"early": early, "elapsed": time.monotonic() - start, "broker": settings.CELERY_BROKER_URL.split(":")[0]}))
            return
        time.sleep(0.05)
    print(json.dumps({"early": early, "elapsed": None}))


if __name__ == "__main__":
    main()
    os._exit(0)  # the embedded worker thread is not a daemon; the probe is done
