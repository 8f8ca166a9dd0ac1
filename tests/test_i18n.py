"""Every string has a zh-hans and zh-hant translation that keeps its placeholders, and the
compiled catalogues are current."""

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"
PLACEHOLDER = re.compile(r"%\(\w+\)[-+ #0]*\d*(?:\.\d+)?[sdif]|\{\w*\}")


def _translations(entry: polib.POEntry | polib.MOEntry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[form] for form in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def _catalogue(po: polib.POFile | polib.MOFile) -> dict[str, list[str]]:
    return {e.msgid: _translations(e) for e in po if e.msgid and not getattr(e, "obsolete", False)}


@pytest.mark.parametrize("locale", ["zh_Hans", "zh_Hant"])
def test_every_string_is_translated_and_compiled(locale: str) -> None:
    po = polib.pofile(str(LOCALE / locale / "LC_MESSAGES" / "django.po"))
    untranslated = [
        e.msgid for e in po
        if not e.obsolete and (not all(_translations(e)) or _translations(e) == [] or "fuzzy" in e.flags)
    ]
    assert untranslated == []
    mo = polib.mofile(str(LOCALE / locale / "LC_MESSAGES" / "django.mo"))
    assert _catalogue(po) == _catalogue(mo)


@pytest.mark.parametrize("locale", ["zh_Hans", "zh_Hant"])
def test_translations_keep_the_placeholders(locale: str) -> None:
    po = polib.pofile(str(LOCALE / locale / "LC_MESSAGES" / "django.po"))
    changed = {}
    for entry in po:
        if entry.obsolete:
            continue
        wanted = sorted(PLACEHOLDER.findall(entry.msgid))
        for text in _translations(entry):
            if sorted(PLACEHOLDER.findall(text)) != wanted:
                changed[entry.msgid] = text
    assert changed == {}
