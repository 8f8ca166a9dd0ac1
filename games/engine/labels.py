"""Message ids the platform translates: game and mode names, seat roles.

Engines name things in English message ids and never translate them (no Django here).
:func:`gettext_noop` marks a literal for ``manage.py makemessages`` (xgettext looks for
calls by that name) and returns it unchanged; the platform calls ``gettext(label)`` when
it shows one, so the catalogues in ``locale/`` keep every label.

>>> gettext_noop("dealer")
'dealer'
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation and return it as it is."""
    return message
