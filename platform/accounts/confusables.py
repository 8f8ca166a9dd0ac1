"""The look-alike letters a name key folds together: a small table after Unicode TR39's
confusables (``confusables.txt``), for the letters that pose as Latin in names — Cyrillic and
Greek — and the digits that pose as letters. Keys are lower case, as ``accounts.names`` compares
case-folded names: a Cyrillic or Greek letter whose capital looks like a Latin capital maps to
that Latin letter (``В`` and ``в`` → ``b``), so a name cannot pass for another in either case.
Full-width and other compatibility forms need no row: NFKC has already made them plain."""

from __future__ import annotations

_CYRILLIC = {
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i",
    "ј": "j", "к": "k", "ӏ": "l", "м": "m", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "т": "t", "у": "y",
    "ў": "y", "х": "x", "ԝ": "w", "ь": "b", "ү": "y", "ҫ": "c", "ӧ": "o", "ӓ": "a",
}
_GREEK = {
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ϲ": "c", "ϳ": "j", "ί": "i", "ό": "o", "ύ": "y",
}
_OTHER = {"0": "o", "1": "l", "|": "l", "ı": "i", "ɩ": "i", "ɑ": "a", "ɡ": "g"}

#: One character → the Latin letter it is read as.
LOOK_ALIKES: dict[str, str] = {**_CYRILLIC, **_GREEK, **_OTHER}
#: Letter pairs read as one letter.
DIGRAPHS: tuple[tuple[str, str], ...] = (("rn", "m"), ("vv", "w"))

TRANSLATION = str.maketrans(LOOK_ALIKES)
