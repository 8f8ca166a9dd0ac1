"""Live-play services: the only code that changes tables, seats and hands.

Each public function is one database transaction that locks the table row first (the
serialisation point of everything at a table), applies one change, bumps the table's
version and broadcasts after commit.

Layers, each importing only the ones below it:

- actions: ``hands`` (deal, act, time out, advance), then ``seating`` and ``presence``
  (which use ``hands``), then ``sweeper`` (which uses them all);
- ``settlement``: the coins (wallet), the hand's record (history), the cash-outs of leavers;
- ``store``: locks, a hand's state and timer, the action log, the table's version; a lock
  begins a ``change.TableChange``, which every service of the change is handed explicitly;
- the engine, reached through ``games.adapters`` only.

``commands`` (the WebSocket's entry), ``errors`` and ``retry`` sit beside them.
"""
