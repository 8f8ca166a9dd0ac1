"""Live-play services: the only code that changes tables, seats and hands.

Each public function is one database transaction that locks the table row first (the
serialisation point of everything at a table), applies one change, bumps the table's
version and broadcasts after commit.
"""
