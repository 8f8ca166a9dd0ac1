"""The live-play fixtures (funded players, tables at the data migration's stake levels)."""

from tests.games.live.conftest import _fresh_connection_pool, funded, table_for  # noqa: F401
