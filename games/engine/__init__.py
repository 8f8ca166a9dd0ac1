"""Pure-Python game engines. Standard library only: no Django, Channels, Celery or wallet."""
