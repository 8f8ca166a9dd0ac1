"""How many source modules have a test module at their mirror path (docs/STYLE.md "Tests").

    .venv/bin/python scripts/test_mirror.py             # the figure, overall and per folder
    .venv/bin/python scripts/test_mirror.py --missing   # also the modules without a mirror

``games/services/hands.py`` is mirrored by ``tests/games/services/test_hands.py``;
``platform/tables/services.py`` (``platform/`` is a source root) by ``tests/tables/test_services.py``.
Package markers, migrations, management commands and templatetags are not counted.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {"games": ROOT, "wallet": ROOT, "platform": ROOT / "platform"}
SKIPPED = {"migrations", "management", "templatetags", "__pycache__"}


def modules() -> list[tuple[Path, Path]]:
    """Each counted source module with its import path relative to its source root."""
    found = []
    for top, root in SOURCES.items():
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(root)
            if path.name == "__init__.py" or SKIPPED & set(relative.parts):
                continue
            found.append((path, relative))
    return found


def mirror(relative: Path) -> Path:
    return ROOT / "tests" / relative.parent / f"test_{relative.name}"


def main(argv: list[str]) -> int:
    total, mirrored, missing = Counter[str](), Counter[str](), []
    for path, relative in modules():
        folder = str(relative.parent)
        total[folder] += 1
        if mirror(relative).exists():
            mirrored[folder] += 1
        else:
            missing.append(path.relative_to(ROOT))
    print(f"mirrored: {sum(mirrored.values())} of {sum(total.values())} modules")
    for folder in sorted(total):
        print(f"  {folder}/: {mirrored[folder]} of {total[folder]}")
    if "--missing" in argv:
        print("\n".join(str(path) for path in missing))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
