"""Provably fair deck (docs/ARCHITECTURE.md "Shuffles are provably fair", docs/FAIRNESS.md)."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import struct
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import deck
from games.engine.cards import cards_str
from games.engine.deck import commitment, new_server_seed, shuffle
from games.engine.errors import EngineError

FAIRNESS_MD = Path(__file__).resolve().parents[3] / "docs" / "FAIRNESS.md"
ZERO_SEED = "00" * 32

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
client_lists = st.lists(st.text(min_size=1, max_size=12).filter(lambda t: ":" not in t), max_size=4)


def numbered_seed(i: int) -> str:
    """A fixed, well-spread family of server seeds for the statistical tests."""
    return hashlib.sha256(f"seed {i}".encode()).hexdigest()


# --- an independent reimplementation, written from the documented algorithm ----------------


def independent_words(seed_hex: str, client_seeds: Sequence[str]) -> Iterator[int]:
    key = bytes.fromhex(seed_hex)
    prefix = ":".join(client_seeds) + ":"
    block_no = 0
    while True:
        mac = hmac.digest(key, (prefix + str(block_no)).encode("utf-8"), "sha256")
        yield from struct.unpack(">8I", mac)
        block_no += 1


def independent_shuffle(words: Iterator[int]) -> list[int]:
    order = list(range(52))
    for top in reversed(range(1, 52)):
        size = top + 1
        bound = (2**32 // size) * size  # the largest multiple of size not above 2**32
        pick = next(w for w in words if w < bound) % size
        order[top], order[pick] = order[pick], order[top]
    return order


# --- commitment and seeds -----------------------------------------------------------------


def test_commitment_is_sha256_of_the_raw_seed_bytes() -> None:
    assert commitment(ZERO_SEED) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    seed = bytes(range(32))
    assert commitment(seed.hex()) == hashlib.sha256(seed).hexdigest()
    assert commitment(seed.hex().upper()) == commitment(seed.hex())


def test_a_new_server_seed_is_64_lowercase_hex_characters_and_fresh() -> None:
    drawn = {new_server_seed() for _ in range(50)}
    assert len(drawn) == 50
    for seed in drawn:
        assert re.fullmatch(r"[0-9a-f]{64}", seed)
        assert len(commitment(seed)) == 64


@pytest.mark.parametrize("bad", ["", "00" * 31, "00" * 33, "zz" * 32, "0" * 63, None, 7])
def test_a_malformed_server_seed_is_refused(bad: object) -> None:
    with pytest.raises(EngineError, match="server seed must be 64 hex characters"):
        commitment(bad)  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="server seed must be 64 hex characters"):
        shuffle(bad)  # type: ignore[arg-type]


# --- shuffle properties ----------------------------------------------------------------


def test_the_same_seeds_give_the_same_deck() -> None:
    seed = numbered_seed(1)
    assert shuffle(seed) == shuffle(seed)
    assert shuffle(seed, ["a", "b"]) == shuffle(seed, ("a", "b"))


def test_client_seeds_and_their_order_change_the_deck() -> None:
    seed = numbered_seed(2)
    decks = {
        tuple(shuffle(seed, client))
        for client in ([], ["alice"], ["bob"], ["alice", "bob"], ["bob", "alice"], ["alice", "bob", "x"])
    }
    assert len(decks) == 6


def test_different_server_seeds_give_different_decks() -> None:
    assert len({tuple(shuffle(numbered_seed(i))) for i in range(200)}) == 200


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=seeds, client=client_lists)
def test_a_shuffle_is_a_permutation_of_the_52_cards(seed: str, client: list[str]) -> None:
    dealt = shuffle(seed, client)
    assert sorted(dealt) == list(range(52))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(seed=seeds, client=client_lists)
def test_deck_agrees_with_an_independent_reimplementation(seed: str, client: list[str]) -> None:
    assert shuffle(seed, client) == independent_shuffle(independent_words(seed, client))


def test_deck_agrees_with_the_reimplementation_over_many_seeds() -> None:
    for i in range(1500):
        client = [str(i), "x"] if i % 3 else []
        assert shuffle(numbered_seed(i), client) == independent_shuffle(independent_words(numbered_seed(i), client))


def test_rejected_words_are_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    # 2**32 % 52 == 48, so the top 48 words are rejected for the first swap (n = 52).
    stream = [2**32 - 1, 2**32 - 48, 2**32 - 53] + [7 * k + 3 for k in range(200)]
    monkeypatch.setattr(deck, "_words", lambda key, client: iter(stream))
    expected = independent_shuffle(iter(stream))
    assert shuffle(ZERO_SEED) == expected
    # The first accepted word, 2**32 - 53, is 4294967243 % 52 == 47: position 51 swaps with 47.
    assert expected[51] == 47


# --- uniformity sanity check --------------------------------------------------------------

CHI2_CRITICAL_51_DF_P001 = 87.97  # chi-square quantile, 51 degrees of freedom, p = 0.001


def chi_square(counts: Sequence[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_top_card_and_ace_position_look_uniform_over_20000_shuffles() -> None:
    top = [0] * 52
    ace_at = [0] * 52
    for i in range(20_000):
        dealt = shuffle(numbered_seed(i))
        top[dealt[0]] += 1
        ace_at[dealt.index(51)] += 1
    assert chi_square(top) < CHI2_CRITICAL_51_DF_P001
    assert chi_square(ace_at) < CHI2_CRITICAL_51_DF_P001
    # And the test can fail: a biased top card (every deck starting 2d) is far off the scale.
    assert chi_square([20_000] + [0] * 51) > CHI2_CRITICAL_51_DF_P001


# --- docs/FAIRNESS.md cannot drift from deck.py -----------------------------------------------


def fairness_doc() -> str:
    return FAIRNESS_MD.read_text(encoding="utf-8")


def doc_reference_shuffle() -> tuple[Callable[..., list[str]], Callable[[str], str]]:
    match = re.search(r"## Reference implementation.*?```python\n(.*?)```", fairness_doc(), re.S)
    assert match, "docs/FAIRNESS.md has no reference implementation block"
    namespace: dict[str, object] = {}
    exec(compile(match.group(1), "FAIRNESS.md", "exec"), namespace)  # noqa: S102 - our own document
    return namespace["shuffle"], namespace["commitment"]  # type: ignore[return-value]


def doc_section(title: str) -> str:
    """The text of the ``## title...`` section of docs/FAIRNESS.md, up to the next ``## ``."""
    match = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", fairness_doc(), re.S | re.M)
    assert match, f"docs/FAIRNESS.md has no section {title!r}"
    return match.group(1)


def doc_blocks(title: str) -> list[dict[str, str]]:
    """The ``key: value`` text blocks of one section."""
    blocks = []
    for block in re.findall(r"```text\n(.*?)```", doc_section(title), re.S):
        fields = (line.split(":", 1) for line in block.strip().splitlines())
        blocks.append({k.strip(): v.strip() for k, v in fields})
    return blocks


def doc_test_vectors() -> list[dict[str, str]]:
    vectors = doc_blocks("Test vectors")
    assert len(vectors) >= 2, "docs/FAIRNESS.md lists fewer than two test vectors"
    return vectors


def test_the_documented_test_vectors_match_deck_py() -> None:
    for vector in doc_test_vectors():
        seed, client = vector["server_seed"], json.loads(vector["client_seeds"])
        assert commitment(seed) == vector["commitment"]
        dealt = cards_str(shuffle(seed, client))
        assert dealt[:10] == vector["first_10"].split()
        if "deck" in vector:
            assert dealt == vector["deck"].split()


def test_the_documented_reference_implementation_matches_deck_py() -> None:
    ref_shuffle, ref_commitment = doc_reference_shuffle()
    for i in range(300):
        seed = numbered_seed(i)
        client = [f"player{i}", "table"] if i % 2 else []
        assert ref_shuffle(seed, client) == cards_str(shuffle(seed, client))
        assert ref_commitment(seed) == commitment(seed)


# --- the dealing examples of docs/FAIRNESS.md section 5 are what the engines deal -----------------


def engine(name: str) -> ModuleType:
    module = pytest.importorskip(f"games.engine.{name}")
    if getattr(module, "__file__", None) is None:
        pytest.skip(f"games.engine.{name} has not landed yet")
    return module


def documented_seats(example: dict[str, str]) -> list[list[str]]:
    return [example[f"seat {i}"].split() for i in range(int(example.get("players", 3)))]


def dealt_by_engine(example: dict[str, str]) -> list[list[str]]:
    seed, client = example["server_seed"], json.loads(example["client_seeds"])
    game = example["game"]
    if game == "thirteen":
        hands = engine("thirteen").deal(seed, client, int(example["players"]), int(example["dealer"]))
        return [cards_str(h) for h in hands]
    if game == "thirteen_trio":
        engine("thirteen_trio")
        from games.engine.thirteen_trio.deal import deal as trio_deal

        jackpot, first, hands = trio_deal(shuffle(seed, client), int(example["head"]))
        assert cards_str([jackpot]) == [example["jackpot"]] and first == int(example["first"])
        return [cards_str(h) for h in hands]
    seats = [{"player": f"p{i}", "stack": 100_000} for i in range(int(example["players"]))]
    state = engine("samgong").plugin.new_hand(
        rules={"mode": example["mode"]}, seats=seats, carry=None, server_seed=seed, client_seeds=client, now=0.0
    )
    return [cards_str(cards) for cards in state["cards"]]


def test_the_documented_deals_are_what_the_engines_deal() -> None:
    examples = [e for e in doc_blocks("5. Dealing") if "game" in e]
    assert {e["game"] for e in examples} == {"thirteen", "thirteen_trio", "samgong"}
    for example in examples:
        assert dealt_by_engine(example) == documented_seats(example), example


def test_the_documented_seat_lotteries_match_samgong() -> None:
    fair = pytest.importorskip("games.engine.samgong.fair")
    examples = [e for e in doc_blocks("5. Dealing") if "lottery" in e]
    assert examples
    for example in examples:
        seed, client = example["server_seed"], json.loads(example["client_seeds"])
        order = fair.lottery(seed, example["lottery"], int(example["players"]), client)
        assert order == [int(x) for x in example["order"].split()]


def test_a_seat_lottery_is_the_documented_stream_with_a_samgong_prefix() -> None:
    fair = pytest.importorskip("games.engine.samgong.fair")
    for i in range(200):
        seed, client, n = numbered_seed(i), ([f"c{i}"] if i % 2 else []), 2 + i % 5
        label = "banker" if i % 3 else "offer"
        words = independent_words(seed, ["samgong", label, ":".join(client)])
        order = list(range(n))
        for top in reversed(range(1, n)):
            pick = next(w for w in words if w < (2**32 // (top + 1)) * (top + 1)) % (top + 1)
            order[top], order[pick] = order[pick], order[top]
        assert fair.lottery(seed, label, n, client) == order


def test_the_documented_reference_skips_rejected_words_like_deck_py(monkeypatch: pytest.MonkeyPatch) -> None:
    ref_shuffle, _ = doc_reference_shuffle()
    # For n = 2**k every word is accepted; for the others the top 2**32 % n words are rejected.
    stream = [w for n in range(52, 1, -1) for w in (2**32 - 1, 2**32 - 2**32 % n - 1 - n)]
    monkeypatch.setattr(deck, "_words", lambda key, client: iter(stream))
    ref_shuffle.__globals__["words"] = lambda seed, client: iter(stream)
    assert ref_shuffle(ZERO_SEED) == cards_str(shuffle(ZERO_SEED))
    assert ref_shuffle(ZERO_SEED) == cards_str(independent_shuffle(iter(stream)))


@pytest.mark.parametrize("client", [[""], ["a:b"], "ab", [1]])
def test_client_seeds_that_could_collide_are_refused(client: object) -> None:
    with pytest.raises(EngineError, match="client seed"):
        shuffle("00" * 32, client)  # type: ignore[arg-type]
