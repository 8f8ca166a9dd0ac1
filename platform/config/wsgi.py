"""WSGI entry point (management and plain HTTP only; live play needs ASGI)."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
