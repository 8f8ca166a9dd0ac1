"""A stateful property test: random grants, buy-ins, settlements, cash-outs, reversals and
replays against a model of the balances; after every step the ledger conserves coins, no
balance is negative, replays post nothing and the database agrees with the model."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from accounts.models import User
from wallet import services
from wallet.audit import ledger_audit
from wallet.errors import AlreadyReversed, BelowMinimumBuyIn, IdempotencyConflict, InsufficientFunds
from wallet.models import Account, AccountKind, LedgerTransaction
from wallet.selectors import house_balances

USERS, TABLES = 3, ("ta", "tb")
Effect = dict[tuple[Any, ...], int]  # ("wallet", u) / ("table", u, t) / ("house", name) -> change
users_st, tables_st = st.integers(0, USERS - 1), st.sampled_from(TABLES)


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()  # every example rolls back in teardown
        self.users = [User.objects.create(username=f"model{i}") for i in range(USERS)]
        self.model: Counter[tuple[Any, ...]] = Counter()
        self.keys = itertools.count()
        self.posted: list[tuple[Callable[[], LedgerTransaction], int]] = []  # (the call, its transaction id)
        self.reversible: dict[int, Effect] = {}
        self.reversed: set[int] = set()

    def teardown(self) -> None:
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- helpers ------------------------------------------------------------------------------
    def _post(self, call: Callable[[], LedgerTransaction], effect: Effect, refusal: type[Exception] | None) -> None:
        """Run ``call``; expect ``refusal`` (nothing changes) or success (the model moves by ``effect``)."""
        if refusal is not None:
            with pytest.raises(refusal):
                call()
            return
        txn = call()
        self.model.update(effect)
        self.posted.append((call, txn.pk))
        self.reversible[txn.pk] = effect

    def _overdraws(self, effect: Effect) -> bool:
        return any(k[0] != "house" and self.model[k] + v < 0 for k, v in effect.items())

    def _key(self) -> str:
        return f"model-{next(self.keys)}"

    # --- rules ----------------------------------------------------------------------------------
    @rule(u=users_st, amount=st.integers(1, 5_000))
    def grant(self, u: int, amount: int) -> None:
        call = _bind(services.wallet_grant, user=self.users[u], amount=amount, idempotency_key=self._key(), actor=None)
        self._post(call, {("wallet", u): amount, ("house", "issuance"): -amount}, None)

    @rule(u=users_st, table=tables_st, amount=st.integers(1, 3_000), minimum=st.integers(0, 1_500))
    def buy_in(self, u: int, table: str, amount: int, minimum: int) -> None:
        effect = {("wallet", u): -amount, ("table", u, table): amount}
        refusal = BelowMinimumBuyIn if amount < minimum else InsufficientFunds if self._overdraws(effect) else None
        self._post(_bind(services.wallet_buy_in, user=self.users[u], table_ref=table, amount=amount, minimum=minimum,
                         idempotency_key=self._key()), effect, refusal)

    @rule(table=tables_st, seats=st.lists(users_st, min_size=1, max_size=USERS, unique=True),
          losses=st.lists(st.integers(0, 800), min_size=USERS, max_size=USERS), rate=st.integers(0, 10))
    def settle(self, table: str, seats: list[int], losses: list[int], rate: int) -> None:
        winner, losers = seats[0], seats[1:]
        pot = sum(losses[i] for i in losers)
        commission = pot * rate // 100
        deltas = {winner: pot - commission} | {i: -losses[i] for i in losers}
        effect: Effect = Counter({("table", i, table): d for i, d in deltas.items() if d})
        if commission:
            effect[("house", "commission")] = commission
        call = _bind(services.wallet_settle_hand, hand_ref=f"hand:{self._key()}", table_ref=table,
                     deltas={self.users[i].pk: d for i, d in deltas.items()}, house={"commission": commission},
                     idempotency_key=self._key())
        self._post(call, effect, InsufficientFunds if self._overdraws(effect) else None)

    @rule(u=users_st, table=tables_st, amount=st.none() | st.integers(1, 3_000))
    def cash_out(self, u: int, table: str, amount: int | None) -> None:
        moved = self.model[("table", u, table)] if amount is None else amount
        effect = {("table", u, table): -moved, ("wallet", u): moved}
        self._post(_bind(services.wallet_cash_out, user=self.users[u], table_ref=table, amount=amount,
                         idempotency_key=self._key()), effect, InsufficientFunds if self._overdraws(effect) else None)

    @precondition(lambda self: self.reversible)
    @rule(data=st.data())
    def reverse(self, data: st.DataObject) -> None:
        pk = data.draw(st.sampled_from(sorted(self.reversible)))
        effect = {k: -v for k, v in self.reversible[pk].items()}
        call = _bind(services.wallet_reverse, transaction_id=pk, idempotency_key=self._key(), actor=None, reason="model")
        refusal = AlreadyReversed if pk in self.reversed else InsufficientFunds if self._overdraws(effect) else None
        self._post(call, effect, refusal)
        if refusal is None:
            self.reversed.add(pk)
            self.reversible.pop(self.posted[-1][1])  # a reversal is not reversed again

    @precondition(lambda self: self.posted)
    @rule(data=st.data())
    def replay(self, data: st.DataObject) -> None:
        call, pk = data.draw(st.sampled_from(self.posted))
        assert call().pk == pk  # the same key and request: the first transaction, nothing posted

    @precondition(lambda self: self.posted)
    @rule(data=st.data())
    def replay_with_another_amount(self, data: st.DataObject) -> None:
        call, _ = data.draw(st.sampled_from(self.posted))
        if "amount" in call.kwargs:
            amount = call.kwargs["amount"]
            changed = _bind(call.func, **{**call.kwargs, "amount": 1 if amount is None else amount + 1})
            with pytest.raises(IdempotencyConflict, match="amount"):
                changed()

    # --- invariants -----------------------------------------------------------------------------
    @invariant()
    def balances_match_the_model_and_coins_are_conserved(self) -> None:
        index = {user.pk: i for i, user in enumerate(self.users)}
        actual: Counter[tuple[Any, ...]] = Counter()
        for account in Account.objects.all():
            assert account.balance >= 0
            name = ("wallet", index[account.user_id]) if account.kind == AccountKind.WALLET else \
                ("table", index[account.user_id], account.table_ref)
            actual[name] = account.balance
        for name, amount in house_balances().items():
            actual[("house", name)] = amount
        assert {k: v for k, v in actual.items() if v} == {k: v for k, v in self.model.items() if v}
        assert sum(actual.values()) == 0  # issuance is minus everything held
        assert ledger_audit().ok

    @invariant()
    def each_key_posted_at_most_once(self) -> None:
        assert LedgerTransaction.objects.count() == len(self.posted)


class _Bound:
    """A service call with its arguments kept, to replay it."""

    def __init__(self, func: Callable[..., LedgerTransaction], kwargs: dict[str, Any]) -> None:
        self.func, self.kwargs = func, kwargs

    def __call__(self) -> LedgerTransaction:
        return self.func(**self.kwargs)


def _bind(func: Callable[..., LedgerTransaction], **kwargs: Any) -> _Bound:
    return _Bound(func, kwargs)


@pytest.mark.django_db
def test_the_ledger_behaves_like_its_model() -> None:
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(max_examples=30, stateful_step_count=30, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]),
    )
