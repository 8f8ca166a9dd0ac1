"""``{% load wallet_tags %}``: ``{{ amount|coins }}`` shows minor units as coins (``5,000.00``)."""

from django import template

from wallet.money import format_coins

register = template.Library()


@register.filter
def coins(amount: int | None) -> str:
    return "" if amount is None else format_coins(int(amount), grouping=True)
