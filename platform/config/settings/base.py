"""Settings shared by every environment, read from the environment (django-environ).

Nothing set: the embedded default (SQLite in WAL mode, in-memory channel layer, Celery on an
in-memory broker with a worker thread inside the server process).
``DATABASE_URL`` / ``REDIS_URL`` set: PostgreSQL (pooled), the Redis channel layer and Celery on
Redis with separate worker processes.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import django_stubs_ext
import environ
from csp.constants import NONE, SELF, UNSAFE_INLINE

from config.settings.budgets import *  # noqa: F403 - EXPORTS_*, HEALTHZ_*, the signed-out sockets' limits
from config.settings.budgets import exports_database
from config.settings.integrity import *  # noqa: F403 - GRANT_FLOW_*, INTEGRITY_*: the integrity signals
from kernel.logs import ROUTINE_LOGGERS
from kernel.patches.redis_parsers import PubSubParser
from kernel.redis_driver import driver_info

# Django classes that are generic in the type stubs only (ModelAdmin, ModelForm, the class-based
# views) accept type arguments at run time too: ``admin.ModelAdmin[Entry]``. No builtins are added.
django_stubs_ext.monkeypatch(include_builtins=False)

ROOT_DIR = Path(__file__).resolve().parents[3]
APPS_DIR = ROOT_DIR / "platform"
VAR_DIR = ROOT_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

env = environ.Env()
environ.Env.read_env(ROOT_DIR / ".env", overwrite=False)


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one generated once and kept in var/."""
    if env.str("DJANGO_SECRET_KEY", default=""):
        return env.str("DJANGO_SECRET_KEY")
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
# Proxies (addresses or networks) whose X-Forwarded-For is believed; none by default, so the
# client is the connecting address (kernel.client_ip).
TRUSTED_PROXIES = env.list("DJANGO_TRUSTED_PROXIES", default=[])
# Origins, besides the one a socket is opened to, that pages opening WebSockets may have
# (scheme://host[:port], compared exactly; kernel.websocket.SiteOriginValidator).
WS_ALLOWED_ORIGINS = env.list("DJANGO_WS_ALLOWED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our static files, not a CDN
    "channels",
    "accounts.axes_app.LoginAttemptsConfig",  # django-axes, its admin heading translated
    "accounts",
    "wallet",
    "tables",
    "games",
    "history",
    "disputes",
    "operations",
    "responsible",
    "integrity",
    "rewards",
    "friends",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.BrowserCookieMiddleware",
    "kernel.nul_guard.NulRefusalMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [ROOT_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets readers run beside the writer; IMMEDIATE takes the write lock at BEGIN so two
        # writers queue on the busy timeout instead of failing with "database is locked".
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # A file (live-server tests share it with a server process), one per test run.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test_db_{os.getpid()}.sqlite3")}
    # Two indexes carry extra columns (INCLUDE, PostgreSQL's covering indexes: hand_ledger_transaction,
    # the ledger's entry index); SQLite builds them on their key columns alone, which is all the
    # embedded mode needs, so Django's warning that it drops the extra columns says nothing to act on.
    SILENCED_SYSTEM_CHECKS = ["models.W040"]
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "django.db.backends.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if env.bool("DATABASE_PREPARE", default=True):
        # Parameters bound by the server, and each statement prepared once a connection has run it
        # twice: PostgreSQL does not parse and plan the live path's few statements again on every
        # action (docs/SCALING.md). Off for a transaction-mode pooler older than PgBouncer 1.21.
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["server_side_binding"] = True
        options["prepare_threshold"] = env.int("DATABASE_PREPARE_THRESHOLD", default=2)
    if env.bool("DATABASE_POOL", default=True):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DATABASE_POOL_MIN", default=2),
            "max_size": env.int("DATABASE_POOL_MAX", default=20),
            "timeout": 10,
        }
        # Django's backend with one change: a connection idle for a while is checked as it
        # leaves the pool (after a PostgreSQL restart a dead one is replaced instead of failing
        # the request that drew it), one in steady use is not (kernel/db_pool.py).
        DATABASES["default"]["ENGINE"] = "kernel.patches.postgresql"
DATABASES["exports"] = exports_database(DATABASES["default"])
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis, channels, cache, Celery ---------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
EMBEDDED = not REDIS_URL

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub delivers a group message to every server at once (no polling of lists):
            # channels_redis's pub/sub layer, its subscriptions read leaner (kernel/patches/channel_layer.py).
            "BACKEND": env.str("CHANNEL_LAYER_BACKEND", default="kernel.patches.channel_layer.RedisPubSubChannelLayer"),
            # The parser: redis-py's, less a debug line built for every message (kernel/patches/redis_parsers.py).
            # The driver's name and version found once, not per connection (kernel/redis_driver.py).
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "parser_class": PubSubParser, "driver_info": driver_info()}],
                "prefix": env.str("CHANNELS_PREFIX", default="asgi"),
            },
        }
    }
    # Django's Redis cache, less a new client object per call (kernel/patches/cache.py).
    CACHES = {"default": {"BACKEND": "kernel.patches.cache.RedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The in-memory broker with a host name: kombu warns on every connection without one.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://localhost/")
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup would close every connection, and a prefork child's whole pool, around
# each task; a count no worker reaches turns that off, and config/celery_app.py hands each
# task's connection back to the pool instead (a forked child still drops its parent's).
CELERY_DB_REUSE_MAX = 2**62
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# The visibility timeout must exceed the longest countdown, or Redis redelivers an unacked
# timer task early (the database row stays the truth; tasks check the phase sequence).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 3600}
# kombu's Redis transport, fixed so a worker outlives a Redis restart (kernel/patches/broker.py).
CELERY_BROKER_TRANSPORT = "kernel.patches.broker:Transport" if CELERY_BROKER_URL.startswith("redis://") else None
CELERY_TIMEZONE = "UTC"
# Embedded default: run a worker thread inside the server process (config.embedded).
CELERY_EMBEDDED_WORKER = env.bool("CELERY_EMBEDDED_WORKER", default=CELERY_BROKER_URL.startswith("memory://"))
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # the timers worker's ping, read by /healthz (config/health.py)
    "worker-heartbeat": {
        "task": "config.record_heartbeat", "schedule": HEALTHZ_HEARTBEAT_EVERY,  # noqa: F405
        "options": {"expires": HEALTHZ_HEARTBEAT_EVERY},  # noqa: F405
    },
}
CELERY_IMPORTS = ("config.tasks", "games.tasks", "operations.tasks", "integrity.tasks")

# --- The garbage collector (kernel/gc_tuning.py) ------------------------------------------
GC_FREEZE = env.bool("GC_FREEZE", default=True)
GC_GEN0_THRESHOLD = env.int("GC_GEN0_THRESHOLD", default=50_000)

# --- Auth -----------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Log-in limiting (accounts.login_limits). A (username, address) pair is locked after
# AXES_FAILURE_LIMIT failures for AXES_COOLOFF_HOURS after its last one; a username from every
# address together after LOGIN_USERNAME_FAILURE_LIMIT failures within LOGIN_USERNAME_WINDOW_MINUTES,
# for LOGIN_USERNAME_COOLOFF_MINUTES. Attempts refused while locked do not count or extend a lock.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HANDLER = "accounts.login_limits.LoginLimitHandler"
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "kernel.client_ip.get_client_ip"
LOGIN_USERNAME_FAILURE_LIMIT = env.int("LOGIN_USERNAME_FAILURE_LIMIT", default=20)
LOGIN_USERNAME_WINDOW_MINUTES = env.int("LOGIN_USERNAME_WINDOW_MINUTES", default=15)
LOGIN_USERNAME_COOLOFF_MINUTES = env.int("LOGIN_USERNAME_COOLOFF_MINUTES", default=15)

# Sign-up and welcome limits (accounts.services, docs/SECURITY.md "Sign-ups"). An address is
# kernel.client_ip's; a browser is the site's signed cookie BROWSER_COOKIE_NAME. Within
# SIGNUP_WINDOW_HOURS an address may make SIGNUP_PER_ADDRESS accounts and a browser
# SIGNUP_PER_BROWSER; within WELCOME_WINDOW_DAYS an address earns WELCOME_PER_ADDRESS welcome
# grants and a browser WELCOME_PER_BROWSER (later accounts are made without welcome coins).
# A new account sharing a browser, or an address within LINK_ADDRESS_DAYS, with a self-excluded or
# banned one gets no welcome coins.
SIGNUP_PER_ADDRESS = env.int("SIGNUP_PER_ADDRESS", default=5)
SIGNUP_PER_BROWSER = env.int("SIGNUP_PER_BROWSER", default=2)
SIGNUP_WINDOW_HOURS = env.int("SIGNUP_WINDOW_HOURS", default=24)
WELCOME_PER_ADDRESS = env.int("WELCOME_PER_ADDRESS", default=2)
WELCOME_PER_BROWSER = env.int("WELCOME_PER_BROWSER", default=1)
WELCOME_WINDOW_DAYS = env.int("WELCOME_WINDOW_DAYS", default=30)
LINK_ADDRESS_DAYS = env.int("LINK_ADDRESS_DAYS", default=30)
BROWSER_COOKIE_NAME = "ct_browser"
BROWSER_COOKIE_DAYS = 3650


# Group names of the roles (accounts.roles). Staff and auditors hold a seat only in PLAYERS_GROUP.
AUDITORS_GROUP = "auditors"
PLAYERS_GROUP = "players"

# Four eyes (operations.four_eyes, docs/OPERATIONS.md "Four eyes"), in minor units: a grant, an
# adjustment or a dispute compensation above STAFF_APPROVAL_ABOVE (or to the staff member's own
# account) waits for a second staff member's approval; none may exceed STAFF_ACT_CAP.
STAFF_APPROVAL_ABOVE = env.int("STAFF_APPROVAL_ABOVE", default=100_000)
STAFF_ACT_CAP = env.int("STAFF_ACT_CAP", default=10_000_000)

# --- i18n -----------------------------------------------------------------------------------
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("zh-hant", "繁體中文"), ("en", "English")]
LOCALE_PATHS = [ROOT_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static ---------------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = ROOT_DIR / "staticfiles"
STATICFILES_DIRS = [ROOT_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.SessionAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "kernel.schema.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "kernel.api.exception_handler",
    # Throttles identify clients by kernel.client_ip (kernel.throttling); DRF's own classes
    # would otherwise believe any X-Forwarded-For.
    "NUM_PROXIES": 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Card tables API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No validator badge: Swagger UI would fetch it from the validator's own host.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

# --- Content-Security-Policy (django-csp), on every response ---------------------------------
# Scripts only from our own static files: no inline script, no eval (Alpine is its CSP build;
# data reaches scripts in json_script elements). Styles allow 'unsafe-inline': Alpine binds
# style attributes (seat positions, timer bars) and Swagger UI sets them throughout.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# At the default level the log shows start-up, errors, settled hands and faults; the routine
# ticks of Celery (beat, each task received and succeeded) and of WebSockets opening and closing
# only at LOG_LEVEL=DEBUG (kernel/logs.py, README.md "Logs"). No "AXES: BEGIN" on every command.
LOG_LEVEL = env.str("LOG_LEVEL", default="INFO").upper()
ROUTINE_LOG_LEVEL = "DEBUG" if LOG_LEVEL == "DEBUG" else "WARNING"
AXES_VERBOSE = env.bool("AXES_VERBOSE", default=False)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {name: {"level": ROUTINE_LOG_LEVEL} for name in ROUTINE_LOGGERS},
}

# --- Metrics (README.md "Metrics") -----------------------------------------------------------
# /metrics answers these client addresses or networks (as kernel.client_ip sees them), staff
# users, and requests with "Authorization: Bearer <METRICS_TOKEN>" when a token is set. Several
# processes share their metrics through PROMETHEUS_MULTIPROC_DIR, read from the environment by
# prometheus_client itself (kernel.metrics).
METRICS_ALLOWED_IPS = env.list("METRICS_ALLOWED_IPS", default=["127.0.0.1", "::1"])
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
# A scrape of a server's own HTTP port is not redirected to HTTPS (config.settings.production).
SECURE_REDIRECT_EXEMPT = [r"^metrics$"]

# --- Live play ------------------------------------------------------------------------------
from config.settings.play import *  # noqa: E402, F403 - GAMES_*
from config.settings.play import GAMES_SWEEP_EVERY, GAMES_SWEEP_QUEUE  # noqa: E402

CELERY_TASK_ROUTES = {"games.sweep": {"queue": GAMES_SWEEP_QUEUE}, "games.lobby_publish": {"queue": GAMES_SWEEP_QUEUE}}
CELERY_BEAT_SCHEDULE["games-sweep"] = {
    "task": "games.sweep", "schedule": GAMES_SWEEP_EVERY, "options": {"expires": 2 * GAMES_SWEEP_EVERY},
}
CELERY_TASK_ROUTES["integrity.signals_update"] = {"queue": BACKGROUND_QUEUE}  # noqa: F405
CELERY_BEAT_SCHEDULE["integrity-signals"] = {
    "task": "integrity.signals_update", "schedule": INTEGRITY_SIGNALS_EVERY,  # noqa: F405
    "options": {"expires": INTEGRITY_SIGNALS_EVERY},  # noqa: F405
}
# The lobby's coalesced feed (games/lobby.py): the tables changed in the last second, at once.
GAMES_LOBBY_EVERY = env.float("GAMES_LOBBY_EVERY", default=1.0)
CELERY_BEAT_SCHEDULE["games-lobby"] = {
    "task": "games.lobby_publish", "schedule": GAMES_LOBBY_EVERY, "options": {"expires": GAMES_LOBBY_EVERY},
}

# The house dashboard stores the figures of the days that are over (operations/closing.py).
OPERATIONS_CLOSE_DAYS_EVERY = env.float("OPERATIONS_CLOSE_DAYS_EVERY", default=600.0)
CELERY_BEAT_SCHEDULE["operations-close-days"] = {
    "task": "operations.close_days", "schedule": OPERATIONS_CLOSE_DAYS_EVERY,
    "options": {"expires": OPERATIONS_CLOSE_DAYS_EVERY},
}

# The staff trail links a close's or a ban's cash-outs made at the end of a hand (operations/trail.py).
OPERATIONS_TRAIL_LINKS_EVERY = env.float("OPERATIONS_TRAIL_LINKS_EVERY", default=30.0)
CELERY_BEAT_SCHEDULE["operations-trail-links"] = {
    "task": "operations.trail_links", "schedule": OPERATIONS_TRAIL_LINKS_EVERY,
    "options": {"expires": OPERATIONS_TRAIL_LINKS_EVERY},
}

# --- Disputes -------------------------------------------------------------------------------
DISPUTE_WINDOW_DAYS = env.int("DISPUTE_WINDOW_DAYS", default=30)  # how long after a hand it may be contested
