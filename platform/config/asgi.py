"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the platform/ source root
sys.path.insert(1, str(Path(__file__).resolve().parents[2]))  # the project root (games, wallet)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from config.health import healthz_first  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from kernel.logs import quiet_server_logs  # noqa: E402
from kernel.websocket import websocket_application  # noqa: E402

quiet_server_logs()
if settings.CELERY_EMBEDDED_WORKER:
    from config.embedded import start_embedded_worker  # Celery's worker machinery only when it runs here

    start_embedded_worker()

application = ProtocolTypeRouter(
    {
        "http": healthz_first(django_asgi_app),
        "websocket": websocket_application(websocket_urlpatterns),
    }
)

from kernel.gc_tuning import gc_tune  # noqa: E402

gc_tune()  # last: what the server holds once started is out of the collector's reach
