"""How names are compared: Unicode NFKC, surrounding spaces trimmed, inner runs of spaces made
one, case folded. "Ａlice", "alice " and "ALICE" are all the same name as "alice"."""

from __future__ import annotations

import unicodedata


def name_clean(value: str) -> str:
    """The form a name is stored in: NFKC, trimmed, inner whitespace runs made one space."""
    return " ".join(unicodedata.normalize("NFKC", value).split())


def name_key(value: str) -> str:
    """The form two names are compared in: ``name_clean``, then case folded (and NFKC again,
    as folding can undo it)."""
    return unicodedata.normalize("NFKC", name_clean(value).casefold())
