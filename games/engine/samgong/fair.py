"""Seat lotteries derived from the hand's server seed (docs/RULES.md `banker_bid`, `banker_rotate`).

"Random" banker picks (a bidding tie, nobody bidding, the first seat offered the bank in
``banker_rotate``, everybody declining) must be reproducible from the revealed seed like
the deal. A lottery for ``label`` is a permutation of the seats ``0..n-1``:

1. key = the server seed's 32 raw bytes; stream = ``HMAC-SHA256(key, f"samgong:{label}:{client}:{k}")``
   for ``k = 0, 1, …`` concatenated, ``client`` being the client seeds joined by ``":"``;
2. read 4-byte big-endian words; a uniform draw in ``[0, m)`` rejects words
   ``>= 2**32 - 2**32 % m`` and returns ``word % m`` (as in :mod:`games.engine.deck`);
3. Fisher–Yates from ``[0, 1, …, n-1]``: for ``i`` from ``n-1`` down to 1 swap ``i`` with a draw in ``[0, i]``.

A random pick among some candidate seats is the candidate that comes first in the
lottery, which is uniform over any candidate set. Labels in use: ``banker`` (bidding
ties, no bidder, all declined) and ``offer`` (the first seat offered the bank).

>>> lottery("00" * 32, "banker", 4) == lottery("00" * 32, "banker", 4)
True
>>> sorted(lottery("00" * 32, "offer", 6))
[0, 1, 2, 3, 4, 5]
>>> first_in([3, 1, 0, 2], [0, 2])
0
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator, Sequence

from games.engine.errors import EngineError

_TWO32 = 1 << 32


def _words(server_seed: str, label: str, client: str) -> Iterator[int]:
    try:
        key = bytes.fromhex(server_seed)
    except (TypeError, ValueError) as exc:
        raise EngineError("server seed must be 64 hex characters") from exc
    counter = 0
    while True:
        msg = f"samgong:{label}:{client}:{counter}".encode()
        block = hmac.new(key, msg, hashlib.sha256).digest()
        for off in range(0, 32, 4):
            yield int.from_bytes(block[off : off + 4], "big")
        counter += 1


def lottery(server_seed: str, label: str, n: int, client_seeds: Sequence[str] = ()) -> list[int]:
    """A seed-derived permutation of seats ``0..n-1`` (see the module doc)."""
    words = _words(server_seed, label, ":".join(client_seeds))
    seats = list(range(n))
    for i in range(n - 1, 0, -1):
        limit = _TWO32 - (_TWO32 % (i + 1))
        x = next(words)
        while x >= limit:
            x = next(words)
        j = x % (i + 1)
        seats[i], seats[j] = seats[j], seats[i]
    return seats


def first_in(order: Sequence[int], candidates: Iterable[int]) -> int:
    """The candidate seat that comes first in a lottery ``order``."""
    pool = set(candidates)
    return next(seat for seat in order if seat in pool)
