"""Games: pure-Python engines (``games.engine``) and the live-play Django app.

Importing this package must not import Django: ``python -m games`` runs without settings.
"""
