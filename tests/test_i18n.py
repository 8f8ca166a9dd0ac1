"""Every string has a zh-hans and zh-hant translation, and the compiled catalogues are current."""

from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"


@pytest.mark.parametrize("locale", ["zh_Hans", "zh_Hant"])
def test_every_string_is_translated_and_compiled(locale: str) -> None:
    po = polib.pofile(str(LOCALE / locale / "LC_MESSAGES" / "django.po"))
    untranslated = [e.msgid for e in po if not e.obsolete and (not e.msgstr or "fuzzy" in e.flags)]
    assert untranslated == []
    mo = polib.mofile(str(LOCALE / locale / "LC_MESSAGES" / "django.mo"))
    compiled = {e.msgid: e.msgstr for e in mo}
    assert {e.msgid: e.msgstr for e in po if not e.obsolete} == {k: v for k, v in compiled.items() if k}
