"""The harness stands apart from the platform (bench/harness/__main__.py): its commands run as
``python -m bench.harness``, the platform's ``manage.py`` offers none of them, and no product
package imports the harness or the benchmarks."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from django.core.management import get_commands

from bench.harness.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parents[3]
PRODUCT = ("games", "wallet", "platform")


def test_the_platform_ships_no_harness_command() -> None:
    assert not set(COMMANDS) & set(get_commands())


def test_no_product_module_imports_the_harness_or_a_benchmark() -> None:
    found = []
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                found += [f"{path.relative_to(ROOT)}: {n}" for n in names if n == "bench" or n.startswith("bench.")]
    assert found == []


def test_each_harness_command_answers_its_help_and_an_unknown_one_gets_the_usage() -> None:
    for command in COMMANDS:
        done = subprocess.run([sys.executable, "-m", "bench.harness", command, "--help"], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        assert f"python -m bench.harness {command}" in done.stdout
    done = subprocess.run([sys.executable, "-m", "bench.harness", "nonsense"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert "usage: python -m bench.harness {bots,chaos,stall_hunt}" in done.stderr
