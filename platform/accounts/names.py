"""How names are compared and which are refused.

* ``name_clean``: the form a name is stored in — Unicode NFKC, trimmed, inner runs of spaces
  made one. "Ｍｅｉ　Ｌｉｎ " is stored as "Mei Lin".
* ``name_key``: the form two names are compared in — cleaned, case folded, and reduced to a
  skeleton after Unicode TR39: Cyrillic and Greek look-alikes and digits read as letters
  become the Latin letter (``accounts.confusables``). "Ａlice", "ALICE", "аlice" (Cyrillic а)
  and "a1ice" all have the key "alice".
* ``name_problem``: why a name is refused, or ``None``: invisible characters (zero-width
  spaces and joiners, direction overrides and isolates, other format and control characters,
  private-use and unassigned code points), combining marks that stack or sit on letters that
  never carry them in a name (Latin, Greek and Cyrillic letters are precomposed by NFKC; Han,
  kana and Hangul take none), and names mixing Latin, Cyrillic and Greek letters.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from accounts.confusables import DIGRAPHS, TRANSLATION

#: Scripts that may not share one name: each has letters that pass for the others'.
LOOK_ALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")
#: Scripts whose letters take no combining mark in a name (Latin, Greek and Cyrillic letters
#: with marks are precomposed by NFKC; a mark left over is laid on top, not spelled).
NO_MARKS = ("LATIN", "CYRILLIC", "GREEK", "CJK", "HIRAGANA", "KATAKANA", "HANGUL", "FULLWIDTH", "HALFWIDTH",
            "DIGIT", "SPACE", "IDEOGRAPHIC", "BOPOMOFO")
#: More combining marks in a row than any script spells with.
MAX_MARKS = 2
_INVISIBLE = {"Cf", "Cc", "Co", "Cs", "Cn", "Zl", "Zp"}


def name_clean(value: str) -> str:
    """The form a name is stored in: NFKC, trimmed, inner whitespace runs made one space."""
    return " ".join(unicodedata.normalize("NFKC", value).split())


def name_key(value: str) -> str:
    """The form two names are compared in: ``name_clean``, case folded (and NFKC again, as
    folding can undo it), look-alike letters made the Latin letter they pass for."""
    key = unicodedata.normalize("NFKC", name_clean(value).casefold()).translate(TRANSLATION)
    for pair, letter in DIGRAPHS:
        key = key.replace(pair, letter)
    return key


def _script(char: str) -> str:
    return unicodedata.name(char, "").split(" ", 1)[0]


def _marks_problem(cleaned: str) -> bool:
    """Whether a combining mark stacks (more than ``MAX_MARKS`` in a row) or sits on a character
    that takes none in a name (or on nothing)."""
    base, run = "", 0
    for char in cleaned:
        if unicodedata.category(char).startswith("M"):
            run += 1
            if run > MAX_MARKS or not base or _script(base) in NO_MARKS or not base.isalpha():
                return True
        else:
            base, run = char, 0
    return False


def name_problem(value: str) -> str | None:
    """Why ``value`` may not be a name (a message a player reads), or ``None`` if it may."""
    if any(unicodedata.category(char) in _INVISIBLE for char in value if char not in "\t\n\r "):
        return _("A name may not contain invisible characters or direction controls.")
    cleaned = name_clean(value)
    if _marks_problem(cleaned):
        return _("A name may not stack accents or put them on letters that do not take them.")
    scripts = {_script(char) for char in cleaned if char.isalpha()} & set(LOOK_ALIKE_SCRIPTS)
    if len(scripts) > 1:
        return _("A name may not mix Latin, Cyrillic and Greek letters.")
    return None
