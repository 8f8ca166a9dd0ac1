"""``python -m games``: the engines' command-line interface (see :mod:`games.engine.cli`)."""

import os
import sys

from games.engine.cli import main

if __name__ == "__main__":
    try:
        status = main()
    except BrokenPipeError:
        # The reader went away (e.g. piped into ``head``): stop quietly, like other Unix tools.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    sys.exit(status)
