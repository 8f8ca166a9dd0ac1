"""``python -m bench.harness bots|chaos|stall_hunt [options]``: one of the harness's commands,
with Django set up the way ``manage.py`` sets it up (``--help`` after a command lists its options).

    python -m bench.harness bots --tables 2 --hands 3 --url ws://127.0.0.1:8000
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import django

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("bots", "chaos", "stall_hunt")


def main(argv: list[str]) -> None:
    if len(argv) < 2 or argv[1] not in COMMANDS:
        raise SystemExit(f"usage: python -m bench.harness {{{','.join(COMMANDS)}}} [options]")
    # platform/ is a source root, not a package: the standard library owns the name ``platform``.
    sys.path.insert(0, str(ROOT / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    django.setup()
    command = importlib.import_module(f"bench.harness.commands.{argv[1]}").Command()
    command.run_from_argv(["python -m bench.harness", argv[1], *argv[2:]])


if __name__ == "__main__":
    main(sys.argv)
