"""Bot players: ordinary WebSocket clients for demos and load tests (``manage.py bots``)."""
