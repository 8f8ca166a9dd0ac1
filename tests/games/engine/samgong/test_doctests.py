"""Run the worked examples in the 三公 engine's docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["fair", "hands", "house", "lean", "poker3", "requests", "rules", "settle", "split"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"games.engine.samgong.{name}")
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
