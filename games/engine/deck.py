"""Provably fair deck (docs/ARCHITECTURE.md "Shuffles are provably fair"; docs/FAIRNESS.md).

1. The server draws a 32-byte seed with :mod:`secrets` and publishes
   ``commitment = SHA-256(seed bytes)`` (hex) before the deal.
2. A byte stream is produced as ``HMAC-SHA256(key=seed bytes, msg=f"{client}:{k}")`` for
   ``k = 0, 1, 2, ...`` concatenated, where ``client`` is the client seeds joined by
   ``":"`` (empty string when there are none).
3. The stream is read 4 bytes at a time as big-endian unsigned integers ``x``. To draw a
   uniform integer in ``[0, n)``: reject ``x >= 2**32 - (2**32 % n)``, else return ``x % n``.
4. Starting from the canonical order ``0..51`` (``2d 2c 2h 2s 3d ... As``), Fisher–Yates:
   for ``i`` from 51 down to 1, ``j = draw(i + 1)``, swap positions ``i`` and ``j``.
   Position 0 of the result is the top of the deck.

>>> seed = "00" * 32
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> shuffle(seed) == shuffle(seed)
True
>>> sorted(shuffle(seed)) == list(range(52))
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence

from games.engine.cards import DECK
from games.engine.errors import EngineError

_TWO32 = 1 << 32


def new_server_seed() -> str:
    """A fresh 32-byte server seed, hex encoded (64 characters)."""
    return secrets.token_hex(32)


def _seed_bytes(server_seed: str) -> bytes:
    try:
        raw = bytes.fromhex(server_seed)
    except (ValueError, TypeError) as exc:
        raise EngineError("server seed must be 64 hex characters") from exc
    if len(raw) != 32:
        raise EngineError("server seed must be 64 hex characters")
    return raw


def commitment(server_seed: str) -> str:
    """SHA-256 of the seed's 32 raw bytes, hex encoded: published before the deal."""
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def _words(key: bytes, client: str) -> Iterator[int]:
    counter = 0
    while True:
        block = hmac.new(key, f"{client}:{counter}".encode(), hashlib.sha256).digest()
        for off in range(0, 32, 4):
            yield int.from_bytes(block[off : off + 4], "big")
        counter += 1


def _checked_client_seeds(client_seeds: Sequence[str]) -> list[str]:
    """Client seeds are joined with ":", so each must be a non-empty string without ":" (else
    two different lists could give one deck)."""
    if isinstance(client_seeds, str) or not isinstance(client_seeds, list | tuple):
        raise EngineError("client seeds must be a list of strings")
    for seed in client_seeds:
        if not isinstance(seed, str) or not seed or ":" in seed:
            raise EngineError(f"client seed {seed!r}: expected a non-empty string without ':'")
    return list(client_seeds)


def shuffle(server_seed: str, client_seeds: Sequence[str] = ()) -> list[int]:
    """The deck order for a seed (and optional client seeds); index 0 is the top card."""
    words = _words(_seed_bytes(server_seed), ":".join(_checked_client_seeds(client_seeds)))
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = _TWO32 - (_TWO32 % n)
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck
