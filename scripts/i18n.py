"""Fill the zh-hans / zh-hant catalogues from locale/glossary.tsv, then compile them.

    .venv/bin/python scripts/i18n.py          # after manage.py makemessages

glossary.tsv: one string per line, ``English<TAB>简体<TAB>繁體`` (``\\n`` for a newline).
Entries already translated in a .po file are kept; missing ones are reported.
"""

from __future__ import annotations

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


def fill(locale: str, glossary: dict[str, tuple[str, str]]) -> list[str]:
    path = ROOT / "locale" / locale / "LC_MESSAGES" / "django.po"
    catalogue = polib.pofile(str(path))
    missing = []
    for entry in catalogue:
        if entry.msgid in glossary:
            entry.msgstr = glossary[entry.msgid][COLUMNS[locale] - 1]
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
        elif not entry.msgstr and not entry.obsolete:
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
