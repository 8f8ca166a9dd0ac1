"""One error base for play, wallet and dispute refusals, and the API's one handler for it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from disputes.services import DisputeError, NotAllowed
from games.services.errors import NoActiveHand, PlayError
from kernel.api import exception_handler
from kernel.errors import AppError
from wallet.errors import (
    AlreadyReversed,
    BelowMinimumBuyIn,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidPosting,
    TransactionNotFound,
    UnbalancedTransaction,
    WalletError,
)

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_error_base_depends_on_nothing_but_translations() -> None:
    assert _imports(ROOT / "platform" / "kernel" / "errors.py") <= {"__future__", "django.utils.translation"}


def test_the_wallet_imports_neither_tables_nor_live_play() -> None:
    for path in (ROOT / "wallet").rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            assert top != "tables" and (top != "games" or name.startswith("games.engine")), (path, name)


def test_play_wallet_and_dispute_errors_share_the_base() -> None:
    assert all(issubclass(cls, AppError) for cls in (PlayError, WalletError, DisputeError, NotAllowed))
    assert (PlayError("no").code, NoActiveHand("no").code, DisputeError("no").code) == ("refused", "no_hand", "refused")
    assert PlayError("no", code="closed").code == "closed"
    assert (PlayError("no").status_code, DisputeError("no").status_code, NotAllowed("no").status_code) == (400, 400, 403)


def test_each_wallet_error_has_its_stable_code_and_keeps_its_messages() -> None:
    codes = {
        InsufficientFunds(balance=100, needs=1500): "insufficient_funds",
        BelowMinimumBuyIn(amount=1499, minimum=1500): "below_minimum_buy_in",
        IdempotencyConflict(key="k", field="amount"): "wallet_refused",
        UnbalancedTransaction(total=5): "wallet_refused",
        AlreadyReversed(transaction=3): "wallet_refused",
        InvalidPosting(reason="zero"): "wallet_refused",
        TransactionNotFound(transaction=3): "wallet_refused",
    }
    assert {type(e): e.code for e in codes} == {type(e): c for e, c in codes.items()}
    error = InsufficientFunds(balance=100, needs=1500)
    assert str(error) == "Not enough coins: your wallet holds 1.00, this needs 15.00."
    with translation.override("zh-hans"):
        assert error.localized() == "余额不足：您的钱包有 1.00，需要 15.00。"
        assert str(error) == "Not enough coins: your wallet holds 1.00, this needs 15.00."


@pytest.mark.parametrize("error,status", [(DisputeError("Please write it.", code="x"), 400),
                                          (NotAllowed("Not yours."), 403), (PlayError("Closed."), 400)])
def test_the_handler_answers_an_app_error_with_its_status_and_message(error: AppError, status: int) -> None:
    response = exception_handler(error, {})
    assert response is not None
    assert (response.status_code, response.data) == (status, {"detail": str(error)})
    assert response.data["detail"].code == error.code


def test_the_handler_answers_a_wallet_error_in_the_active_language() -> None:
    with translation.override("zh-hans"):
        response = exception_handler(BelowMinimumBuyIn(amount=1499, minimum=1500), {})
    assert response is not None
    assert (response.status_code, response.data) == (400, {"detail": "买入 14.99 低于本桌最低买入 15.00。"})


def test_other_exceptions_are_left_to_drf() -> None:
    assert exception_handler(ValueError("boom"), {}) is None
