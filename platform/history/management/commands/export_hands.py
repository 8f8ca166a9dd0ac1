"""``manage.py export_hands``: stream complete hand records (JSON Lines, text or CSV) to a file or stdout."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.registry import GAMES
from history.exports.stream import FORMATS, export_lines
from history.selectors import RecordFilter, hand_record_filter, parse_moment, user_lookup


class Command(BaseCommand):
    help = (
        "Export complete hand records, oldest first, filtered by date range, game, stake level, table and player. "
        "JSON Lines exports can be checked with `python -m games verify FILE` (add --partial for a filtered extract)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=list(FORMATS), default="jsonl")
        parser.add_argument("--since", help="ISO date or date-time (inclusive)")
        parser.add_argument("--until", help="ISO date-time (exclusive) or date (that whole day included)")
        parser.add_argument("--game", choices=list(GAMES))
        parser.add_argument("--stake-level", type=int)
        parser.add_argument("--table", type=int)
        parser.add_argument("--player", help="user id or username")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        filters = self._filters(options)
        lines = export_lines(hand_record_filter(filters), options["format"])
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8", newline="") as out:
                count = self._write(lines, out)
            self.stderr.write(f"{count} lines written to {options['output']}")
        else:
            self._write(lines, self.stdout._out if hasattr(self.stdout, "_out") else sys.stdout)

    @staticmethod
    def _write(lines: Any, out: Any) -> int:
        count = 0
        for line in lines:
            out.write(line)
            count += 1
        return count

    def _filters(self, options: dict[str, Any]) -> RecordFilter:
        try:
            since = parse_moment(options["since"]) if options["since"] else None
            until = parse_moment(options["until"], end=True) if options["until"] else None
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        player = None
        if options["player"]:
            user = user_lookup(options["player"])
            if user is None:
                raise CommandError(f"no such player: {options['player']}")
            player = user.pk
        return RecordFilter(since=since, until=until, game=options["game"], stake_level=options["stake_level"],
                            table=options["table"], player=player)
