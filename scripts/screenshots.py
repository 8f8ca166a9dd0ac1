"""Re-take README's phone and desktop screenshots.

Runs the phone-layout browser tests (they save each screen they measure to ``artifacts/``) and
copies the ones README shows to ``docs/screenshots/``. Needs the test database settings the
browser tests need (DATABASE_URL, REDIS_URL) and Debian's Chromium:

    DATABASE_URL=postgres://… REDIS_URL=redis://… .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = {  # artifacts/<name>.png -> docs/screenshots/<name>.png
    "phone-thirteen-deal-portrait": "phone-thirteen-deal-portrait",
    "phone-thirteen-deal-landscape": "phone-thirteen-deal-landscape",
    "phone-thirteen-showdown-portrait": "phone-thirteen-showdown-portrait",
    "phone-thirteen-showdown-landscape": "phone-thirteen-showdown-landscape",
    "phone-thirteen_trio-deal-portrait": "phone-trio-deal-portrait",
    "phone-samgong-banker_bid-portrait": "phone-samgong-bid-portrait",
    "phone-samgong-banker_bid-landscape": "phone-samgong-bid-landscape",
    "phone-samgong-house-landscape": "phone-samgong-house-landscape",
    "phone-thirteen-showdown-desktop": "desktop-thirteen-showdown",
}


def main() -> int:
    run = subprocess.run(  # noqa: S603 — a fixed command line
        [sys.executable, "-m", "pytest", "-m", "browser", "tests/browser/test_phone_layout.py", "-q",
         "--timeout", "180", "-p", "no:cacheprovider"], cwd=ROOT, check=False)
    missing = []
    for src, dst in SHOTS.items():
        path = ROOT / "artifacts" / f"{src}.png"
        if path.exists():
            shutil.copyfile(path, ROOT / "docs" / "screenshots" / f"{dst}.png")
        else:
            missing.append(src)
    if missing:
        print("not taken:", ", ".join(missing), file=sys.stderr)
    return run.returncode or bool(missing)


if __name__ == "__main__":
    sys.exit(main())
