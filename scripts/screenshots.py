"""Re-take README's phone and desktop screenshots.

Runs the browser tests that save the screens README shows (to ``artifacts/``) and
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
    "thirteen-showdown-en": "thirteen-showdown-en",
    "thirteen-showdown-375px": "thirteen-375px-zh",
    "trio-showdown-en": "trio-showdown-en",
    "trio-showdown-zh-hans": "trio-showdown-zh",
    "samgong-showdown-zh-hans": "samgong-showdown-zh",
    "samgong-showdown-en-375px": "samgong-375px-en",
    "lobby-en": "lobby-en",
    "trio-home-run-zh-hans": "trio-home-run-zh",
    "trio-leave-confirm-portrait": "phone-trio-leave-confirm",
    "rules-banker-bid-portrait": "phone-rules-banker-bid",
    "replay-375-zh-hans-compare": "phone-replay-zh",
    "replay-1280-en-compare": "replay-en",
    "signup-wallet-en-phone": "phone-signup-wallet-en",
    "play-short-zh-hans-phone": "phone-play-short-zh",
    **{f"room-{step}-{size}": f"room-{step}-{size}" for step in ("1-open", "2-room", "3-code", "4-start", "5-hand")
       for size in ("phone", "desktop")},
    "layout-thirteen-banners-reduce-portrait": "after-1-banners-portrait",
    "layout-thirteen-banners-worst-reduce-landscape": "after-1-banners-landscape",
    "layout-trio-jackpot-desktop": "after-1-jackpot-desktop",
    "layout-thirteen-arrange-desktop": "after-2-arrange-desktop",
    "layout-samgong-banker_bid-act-desktop": "after-2-banker-desktop",
    "layout-samgong-all_compare-result-desktop": "after-2-samgong-results-desktop",
    "layout-thirteen-arrange-portrait": "after-3-arrange-portrait",
    "samgong-house-bets-portrait": "after-4-house-portrait",
    "layout-samgong-house-act-landscape": "after-4-house-landscape",
    "layout-samgong-pairwise-act-landscape": "phone-samgong-seats-landscape",
    "samgong-squeeze-portrait": "phone-samgong-squeeze",
}
TESTS = ["test_phone_layout.py", "test_thirteen_table.py", "test_trio_table.py", "test_samgong_table.py",
         "test_lobby.py", "test_showdown_feel.py", "test_rules_and_waiting.py", "test_replay.py", "test_welcome.py",
         "test_table_layout.py", "test_samgong_squeeze.py", "test_rooms.py"]


def main() -> int:
    run = subprocess.run(  # noqa: S603 — a fixed command line
        [sys.executable, "-m", "pytest", "-m", "browser", *(f"tests/browser/{t}" for t in TESTS), "-q",
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
