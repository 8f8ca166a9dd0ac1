"""One language at a time, for every string the catalogues hold: a Chinese translation keeps no
English words (bar the names of formats and protocol values a player types or downloads), and
English source text has Chinese only as a game term's gloss in brackets ("Sam Gong (三公)")."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z_]+")
MARKUP = re.compile(r"%\(\w+\)[-+ #0]*\d*(?:\.\d+)?[sdif]|\{\w*\}|<[^>]+>|&\w+;")
CJK = re.compile(r"[\u3400-\u9fff]")
GLOSS = re.compile(r"\([^()]*[\u3400-\u9fff][^()]*\)")
#: What Chinese text writes in Latin letters too: file formats, the protocol's JSON values, "ID", UTC.
KEPT = frozenset({"JSON", "Lines", "CSV", "type", "id", "ID", "true", "false", "UTC"})


@pytest.mark.parametrize("locale", ["zh_Hans", "zh_Hant"])
def test_chinese_translations_keep_no_english_words(locale: str) -> None:
    po = polib.pofile(str(LOCALE / locale / "LC_MESSAGES" / "django.po"))
    mixed = {}
    for entry in po:
        texts = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        for text in texts:
            words = set(LATIN_WORD.findall(MARKUP.sub(" ", text))) - KEPT
            if not entry.obsolete and words:
                mixed[entry.msgid] = sorted(words)
    assert mixed == {}


def test_english_text_has_chinese_only_as_a_glossed_game_term() -> None:
    po = polib.pofile(str(LOCALE / "en" / "LC_MESSAGES" / "django.po"))
    mixed = [e.msgid for e in po if not e.obsolete and CJK.search(GLOSS.sub("", e.msgstr or e.msgid))]
    assert mixed == []
