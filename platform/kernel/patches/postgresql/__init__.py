"""Django's PostgreSQL backend with the pool check of kernel/db_pool.py (``ENGINE`` in the settings)."""
