"""The engines are pure Python, standard library only (docs/ARCHITECTURE.md "Engines", docs/STYLE.md).

Every module under ``games/engine`` may import the standard library and ``games.engine``
itself — nothing else: no Django, Channels, Celery, wallet, DRF or numpy.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
ENGINE = REPO / "games" / "engine"
FORBIDDEN = ("django", "channels", "celery", "wallet", "rest_framework", "numpy")
GAME_PACKAGES = ("games.engine.thirteen", "games.engine.thirteen_trio", "games.engine.samgong")
_IMPORTERS = {"import_module", "__import__"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def allowed(module: str) -> bool:
    top = module.split(".")[0]
    if top in FORBIDDEN:
        return False
    return top in sys.stdlib_module_names or module == "games.engine" or module.startswith("games.engine.")


def resolve_from(node: ast.ImportFrom, here: str, package: bool) -> list[str]:
    """The absolute modules an ``from X import a, b`` may load (X itself, or X.a for packages)."""
    base = node.module or ""
    if node.level:
        anchor = here.split(".") if package else here.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join(anchor + ([base] if base else []))
    if base == "games":  # ``from games import engine`` names a subpackage
        return [f"games.{alias.name}" for alias in node.names]
    return [base]


def dynamic_target(node: ast.Call) -> str | None:
    """The module a literal ``importlib.import_module(...)`` / ``__import__(...)`` loads."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in _IMPORTERS or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        prefix = str(arg.values[0].value)
        return prefix.rstrip(".") if prefix.startswith("games.engine.") else f"<dynamic {prefix}...>"
    return "<dynamic import the test cannot check>"


def bad_imports(source: str, here: str, package: bool = False) -> list[str]:
    """Every import in ``source`` that leaves the standard library and ``games.engine``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            targets = resolve_from(node, here, package)
        elif isinstance(node, ast.Call) and (target := dynamic_target(node)) is not None:
            targets = [target]
        else:
            continue
        found += [(node.lineno, t) for t in targets if not allowed(t)]
    return [f"line {line}: {target}" for line, target in sorted(found)]


def engine_files() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_checker_catches_forbidden_imports() -> None:
    source = "\n".join(
        [
            "import os, json",
            "import django.db",
            "from numpy import array",
            "from games.engine import cards",
            "from games import engine, services",
            "from ... import consumers",
            "import importlib",
            "importlib.import_module('celery')",
            "importlib.import_module(f'games.engine.{x}')",
            "__import__(name)",
            "import yaml",
            "from wallet.services import post",
        ]
    )
    found = bad_imports(source, "games.engine.thirteen", package=True)
    assert found == [
        "line 2: django.db",
        "line 3: numpy",
        "line 5: games.services",
        "line 6: games.consumers",
        "line 8: celery",
        "line 10: <dynamic import the test cannot check>",
        "line 11: yaml",
        "line 12: wallet.services",
    ]


def test_relative_imports_resolve_inside_the_package() -> None:
    assert bad_imports("from . import rows\nfrom ..cards import parse_card", "games.engine.thirteen.score") == []
    assert bad_imports("from .rows import x", "games.engine.thirteen", package=True) == []


def test_every_engine_module_imports_only_the_standard_library_and_games_engine() -> None:
    files = engine_files()
    assert ENGINE / "deck.py" in files and ENGINE / "cli.py" in files
    problems = {}
    for path in files:
        found = bad_imports(path.read_text(encoding="utf-8"), module_name(path), is_package(path))
        if found:
            problems[str(path.relative_to(REPO))] = found
    assert problems == {}


def test_importing_and_running_the_engines_loads_no_django() -> None:
    present = [name for name in GAME_PACKAGES if importlib.util.find_spec(name) is not None]
    lines = "".join(json.dumps({"game": name.rsplit(".", 1)[1], "seats": []}) + "\n" for name in present)
    script = "\n".join(
        [
            "import io, sys",
            *[f"import {name}" for name in present],
            "import games.engine.cli as cli",
            f"cli.main(['score'], io.BytesIO({lines.encode()!r}), io.StringIO())",
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("name", GAME_PACKAGES)
def test_each_game_package_is_importable_without_django(name: str) -> None:
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not in the tree yet")
    done = subprocess.run(
        [sys.executable, "-c", f"import sys, {name}; print('django' in sys.modules)"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
