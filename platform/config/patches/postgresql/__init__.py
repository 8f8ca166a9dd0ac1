"""Django's PostgreSQL backend with the pool check of config/db_pool.py (``ENGINE`` in the settings)."""
