"""``{% load wallet_tags %}``: ``{{ amount|coins }}`` shows minor units as coins (``5,000.00``);
``{{ name|house_line }}`` a settlement's house line by its name in the page's language;
``{{ entry|entry_label }}`` what a statement row is (wallet/presenters.py);
``{{ reference|hand_of }}`` is the hand id a settlement's reference names (``hand:9`` → 9)."""

from django import template

from wallet import presenters
from wallet.models import Entry
from wallet.money import format_coins
from wallet.presenters import reference_hand_id

register = template.Library()


@register.filter
def coins(amount: int | None) -> str:
    return "" if amount is None else format_coins(int(amount), grouping=True)


@register.filter
def hand_of(reference: str) -> int | None:
    return reference_hand_id(reference)


@register.filter
def house_line(name: str) -> str:
    return presenters.house_line_label(name)


@register.filter
def entry_label(entry: Entry) -> str:
    return presenters.entry_label(entry)


@register.filter
def entry_memo(entry: Entry) -> str:
    return presenters.entry_memo(entry)


@register.filter
def table_ref_label(table_ref: str) -> str:
    return presenters.table_money_label(table_ref)
