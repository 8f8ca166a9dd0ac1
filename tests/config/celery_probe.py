"""Run in a subprocess by test_celery.py: send a countdown task and report when it fired.

Prints one JSON line: {"early": bool, "elapsed": seconds or null, "broker": scheme}. The settings
come from the environment the test passes (embedded default, or REDIS_URL with a separate worker
process); a third argument names the queue to send it to (the default queue unless given).

Embedded, the worker runs in this process: the probe's own task sets an event here, and the
beat keeps its schedule in ``PROBE_DIR`` (a file two probes at once would share in ``var/``).
The beat's own heartbeat task writes the key that ``config.record_heartbeat`` writes, so only a
separate worker, which runs no beat, is probed through that key. A probe that times out prints
every thread's stack to stderr.
"""

import faulthandler
import functools
import json
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402

from config.celery_app import app  # noqa: E402
from config.tasks import HEARTBEAT_KEY, record_heartbeat  # noqa: E402


def fired(token: str) -> bool:
    beat = cache.get(HEARTBEAT_KEY)
    return bool(beat and beat["token"] == token)


def embedded_probe() -> threading.Event:
    """Register the probe's task, keep the beat's schedule in ``PROBE_DIR``, start the worker;
    the event is set when the task runs."""
    from config import embedded

    ran = threading.Event()

    @app.task(name="probe.fired", ignore_result=True)
    def probe_fired(token: str) -> None:
        ran.set()

    settings.VAR_DIR = Path(os.environ["PROBE_DIR"])  # where the beat keeps its schedule
    embedded.start_embedded_worker()
    return ran


def main() -> None:
    countdown = float(sys.argv[1])
    token = sys.argv[2]
    queue = sys.argv[3] if len(sys.argv) > 3 else None
    if settings.CELERY_EMBEDDED_WORKER:
        ran = embedded_probe()
        start = time.monotonic()
        app.send_task("probe.fired", args=[token], countdown=countdown, queue=queue)
        has_fired = ran.is_set
    else:
        start = time.monotonic()
        record_heartbeat.apply_async(args=[token], countdown=countdown, queue=queue)
        has_fired = functools.partial(fired, token)
    early = False
    while time.monotonic() - start < countdown - 0.3:
        early = early or has_fired()
        time.sleep(0.05)
    while time.monotonic() - start < countdown + 20:
        if has_fired():
            print(json.dumps({"early": early, "elapsed": time.monotonic() - start,
                              "broker": settings.CELERY_BROKER_URL.split(":")[0]}))
            return
        time.sleep(0.05)
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    print(json.dumps({"early": early, "elapsed": None}))


if __name__ == "__main__":
    main()
    os._exit(0)  # the embedded worker thread is not a daemon; the probe is done
