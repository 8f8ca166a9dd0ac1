"""Test settings: base with a fast password hasher."""

import os

# Under pytest-xdist each worker has its own test database
# (pytest-django adds the worker's name) and, set here before the settings read it, its own
# Redis database: table groups, limits and the broker's queues of one worker never meet the
# other's; and its own channel prefix, since Redis's pub/sub channels are one namespace across its
# databases. The processes a test starts inherit both.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("REDIS_URL") and not os.environ.get("TEST_REDIS_PER_WORKER"):
    _base, _, _db = os.environ["REDIS_URL"].rpartition("/")
    os.environ["REDIS_URL"] = f"{_base}/{(int(_db or 0) + 1 + int(_worker[2:])) % 16}"
    os.environ["TEST_REDIS_PER_WORKER"] = "1"
    os.environ["CHANNELS_PREFIX"] = f"{os.environ.get('CHANNELS_PREFIX', 'asgi')}-{_worker}"
    if os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"):
        os.environ["CELERY_BROKER_URL"] = os.environ["REDIS_URL"]

from config.settings.base import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT.mkdir(exist_ok=True)  # noqa: F405 - WhiteNoise warns when it is missing

# Tests drive timers themselves (services, time-machine); nothing is left queued on a broker.
GAMES_TIMERS = False
GAMES_START_DELAY = 5  # nothing deals by itself: tests call the services (or the sweeper)
GAMES_NEXT_HAND_DELAY = 5
CELERY_EMBEDDED_WORKER = False  # importing config.asgi in a test must not start a worker
GC_FREEZE = False  # the test process keeps Python's collector as it is (kernel/gc_tuning.py)
INTEGRITY_SIGNALS_BUSY_CPU = 0  # a batch never waits on the machine's load; the tests of the wait set it
HEALTHZ_CACHE_SECONDS = 0  # every probe checks afresh; tests of the cache set it
