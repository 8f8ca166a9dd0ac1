"""Run the worked examples in the solver's docstrings (and the numpy batch evaluator's)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["evaluate", "greedy", "rows", "thirteen", "trio"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"games.engine.solver.{name}")
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0


def test_batch_evaluator_doctests() -> None:
    pytest.importorskip("numpy")
    module = importlib.import_module("bench.fasteval")
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
