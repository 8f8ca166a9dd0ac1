"""Fill the zh-hans / zh-hant catalogues from locale/glossary.tsv, then compile them.

    .venv/bin/python scripts/i18n.py          # after manage.py makemessages

glossary.tsv: one string per line, ``English<TAB>简体<TAB>繁體`` (``\\n`` for a newline).
Entries already translated in a .po file are kept; missing ones are reported.

Plurals (``ngettext``): the singular and the plural English each get a row. Form 0 of the
translation comes from the singular's row, forms 1 and up from the plural's row, as many as the
catalogue's ``Plural-Forms`` has. Chinese has one form (``nplurals=1``), used for every count:
its text (the singular's row) must read right for 1 and for many, e.g. ``%(count)d 个座位``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = {"zh_Hans": 1, "zh_Hant": 2}


def load_glossary() -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for line in (ROOT / "locale" / "glossary.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        en, hans, hant = (part.replace("\\n", "\n") for part in line.split("\t"))
        rows[en] = (hans, hant)
    return rows


def plural_forms(catalogue: polib.POFile) -> int:
    match = re.search(r"nplurals\s*=\s*(\d+)", catalogue.metadata.get("Plural-Forms", ""))
    return int(match.group(1)) if match else 2


def settle(entry: polib.POEntry) -> None:
    """A translation from the glossary is final: no fuzzy flag, no guess's previous msgid."""
    if "fuzzy" in entry.flags:
        entry.flags.remove("fuzzy")
    entry.previous_msgid = entry.previous_msgid_plural = None


def fill(locale: str, glossary: dict[str, tuple[str, str]]) -> list[str]:
    path = ROOT / "locale" / locale / "LC_MESSAGES" / "django.po"
    catalogue = polib.pofile(str(path))
    column = COLUMNS[locale] - 1
    forms = plural_forms(catalogue)
    missing = []
    for entry in catalogue:
        if entry.msgid_plural:
            if entry.msgid in glossary and entry.msgid_plural in glossary:
                texts = [glossary[entry.msgid][column]] + [glossary[entry.msgid_plural][column]] * (forms - 1)
                entry.msgstr_plural = dict(enumerate(texts))
                settle(entry)
            elif not entry.obsolete and (
                len(entry.msgstr_plural) < forms or not all(entry.msgstr_plural.values()) or "fuzzy" in entry.flags
            ):
                missing.append(entry.msgid)
        elif entry.msgid in glossary:
            entry.msgstr = glossary[entry.msgid][column]
            settle(entry)
        elif (not entry.msgstr or "fuzzy" in entry.flags) and not entry.obsolete:
            missing.append(entry.msgid)
    catalogue.metadata["Content-Type"] = "text/plain; charset=UTF-8"
    catalogue.save(str(path))
    catalogue.save_as_mofile(str(path.with_suffix(".mo")))
    return missing


def main() -> int:
    glossary = load_glossary()
    failed = False
    for locale in COLUMNS:
        for msgid in fill(locale, glossary):
            failed = True
            print(f"{locale}: untranslated: {msgid!r}")
    en = ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po"
    polib.pofile(str(en)).save_as_mofile(str(en.with_suffix(".mo")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
