"""One way to address the player in Chinese: the polite 您, as most of the pages write it, in
every translation the catalogues hold. A 你 fails the test unless its message id is listed below
with the reason it must stay."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"
#: Message ids whose translation may say 你, each with its reason. None at present: every string
#: of the catalogues is read by a player or by staff, and both are addressed as 您.
FAMILIAR: dict[str, str] = {}


def _texts(entry: polib.POEntry) -> list[str]:
    return [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())


@pytest.mark.parametrize("locale", ["zh_Hans", "zh_Hant"])
def test_chinese_translations_address_the_player_as_nin(locale: str) -> None:
    po = polib.pofile(str(LOCALE / locale / "LC_MESSAGES" / "django.po"))
    familiar = sorted(e.msgid for e in po if not e.obsolete and e.msgid not in FAMILIAR
                      and any("你" in text for text in _texts(e)))
    polite = [e.msgid for e in po if not e.obsolete and any("您" in text for text in _texts(e))]
    assert len(polite) > 50  # the catalogue is read, and addresses players
    assert familiar == []


def test_every_exception_names_its_reason() -> None:
    assert all(reason.strip() for reason in FAMILIAR.values())
