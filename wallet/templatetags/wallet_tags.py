"""``{% load wallet_tags %}``: ``{{ amount|coins }}`` shows minor units as coins (``5,000.00``);
``{{ reference|hand_of }}`` is the hand id a settlement's reference names (``hand:9`` → 9)."""

from django import template

from wallet.money import format_coins
from wallet.presenters import reference_hand_id

register = template.Library()


@register.filter
def coins(amount: int | None) -> str:
    return "" if amount is None else format_coins(int(amount), grouping=True)


@register.filter
def hand_of(reference: str) -> int | None:
    return reference_hand_id(reference)
