"""Names compared by their skeleton and refused when they hide characters (accounts.names)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.names import name_clean, name_key, name_problem

latin = st.text(st.characters(categories=["Ll", "Lu", "Nd"], max_codepoint=0x24F), min_size=1, max_size=20)
han = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=10)
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u202d", "\u2066", "\u2067",
             "\u2068", "\u2069", "\u200e", "\u200f", "\u061c", "\x00", "\x07", "\ue000"]


@pytest.mark.parametrize(("pose", "name"), [
    ("Émile", "éMILE"), ("ÉMILE", "émile"), ("Ａlice", "alice"), ("аlice", "alice"), ("ВОВ", "bob"),
    ("Рaul", "paul"), ("a1ice", "alice"), ("c0c0", "coco"), ("Ｍｅｉ　Ｌｉｎ", "mei lin"), ("rnary", "mary"),
    ("ΚΑΤΕ", "kate"), ("Straße", "strasse"),
])
def test_look_alike_recased_and_fullwidth_names_share_one_key(pose: str, name: str) -> None:
    assert name_key(pose) == name_key(name)


@pytest.mark.parametrize(("one", "other"), [("阿丽", "阿麗"), ("Emile", "Émile"), ("Mei Lin", "MeiLin"), ("li", "lj")])
def test_names_that_read_differently_keep_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


@given(latin)
def test_a_latin_name_and_its_cyrillic_look_alike_share_one_key(name: str) -> None:
    swapped = name.translate(str.maketrans("aeopcxyABEHKMOPCTXY", "аеорсхуАВЕНКМОРСТХУ"))
    assert name_key(swapped) == name_key(name)


@given(han, st.sampled_from(INVISIBLE), st.integers(min_value=0, max_value=10))
def test_a_name_hiding_an_invisible_character_anywhere_is_refused(name: str, hidden: str, at: int) -> None:
    assert name_problem(name) is None
    assert name_problem(name[:at] + hidden + name[at:]) is not None


@pytest.mark.parametrize("name", [
    "阿丽\u200b", "\u202e阿丽", "阿\u2067丽", "Bob\u202egnikcor", "阿丽\u0301", "阿丽\u0336", "a\u0336lice", "\u0301Bob",
    "Zoe\u0308\u0308\u0308", "аlice", "Αlice", "paypal\u0440",
])
def test_the_tricks_of_the_review_are_refused(name: str) -> None:
    assert name_problem(name) is not None


@pytest.mark.parametrize("name", ["阿丽", "Émile", "José Núñez", "Nguyễn Văn An", "Зоя", "Σοφία", "김민준", "さくら",
                                  "Mei Lin", "ñandú", "Zoë", "देवनागरी", "Ｍｅｉ"])
def test_names_of_every_script_pass(name: str) -> None:
    assert name_problem(name) is None


@given(st.text(st.characters(categories=["L", "N", "Zs"]), min_size=1, max_size=20))
def test_the_key_is_a_fixed_point_of_its_own_cleaning(name: str) -> None:
    key = name_key(name)
    assert name_key(key) == key
    assert unicodedata.normalize("NFKC", name_clean(name)) == name_clean(name)
