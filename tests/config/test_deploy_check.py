"""`manage.py check --deploy` with production settings reports nothing but the justified warnings."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_with_production_settings_is_clean() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="x" * 20 + "a-long-random-production-secret-from-the-environment-9f8e7d",
        DJANGO_ALLOWED_HOSTS="cards.example.com",
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_production_settings_refuse_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.production"
    out = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode != 0
    assert "DJANGO_SECRET_KEY" in out.stderr
