"""Demo set-up hooks for apps that may not be installed yet."""

from __future__ import annotations

from collections.abc import Sequence

from django.apps import apps

from accounts.models import User

DEMO_COINS = 5_000_000  # 50,000.00 coins in minor units: enough for every stake level but the top ones


def demo_fund_players(players: Sequence[User]) -> None:
    """Grant each demo player coins once (idempotent keys), when the wallet is installed."""
    if not apps.is_installed("wallet"):
        return
    from wallet import services  # the wallet only where it is installed (the check above)

    for player in players:
        services.wallet_grant(
            user=player, amount=DEMO_COINS, idempotency_key=f"demo-grant:{player.username}", actor=None,
            memo="demo coins",
        )
