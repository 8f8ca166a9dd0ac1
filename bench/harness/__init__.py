"""The benchmark harness: bot players (ordinary WebSocket clients), the load run, the chaos run,
the soak and the stall hunt. None of it ships with the platform; it reaches the platform through
its public services, its management commands, its HTTP endpoints and the WebSocket protocol
(docs/PROTOCOL.md), and reads what a run left behind with its own read-only SQL (checks.py,
facts.py). Run it as ``python -m bench.harness COMMAND`` (bench/*.sh do)."""
