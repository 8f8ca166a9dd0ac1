"""The hand record (docs/HAND_HISTORY.md, format ``cardtables.hand/1``): its canonical text
and hash, the record built from a settled hand's engine state, and a player's copy of it.

Pure Python on plain dicts. A record is one JSON object that is at the same time a
``python -m games score`` request of its game (``game``, ``seats`` and the game's money
fields at the top level) and the complete history: table, stake level, players, seed
commitment and revealed seed, the deal, every action with its time and whether it was
automatic, the result, the house lines, the ledger transaction and the link to the previous
record of the same table.

What differs by game lives in each game package's ``record`` module, reached through
:func:`games.engine.registry.engine_for`: ``record_part`` (the game's fields of the record),
``redact`` (what a player's copy hides), ``check_deal`` and ``check_score`` (the re-deal and
re-score of :mod:`games.engine.verify`). The small helpers those checks share are here too.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.engine.canonical import canonical_json
from games.engine.cards import cards_str, parse_cards
from games.engine.registry import engine_for

__all__ = [
    "FORMAT",
    "GENESIS",
    "ROWS",
    "UNHASHED",
    "canonical_json",
    "compare_hands",
    "differs",
    "is_redacted",
    "json_round_trip",
    "pick",
    "player_copy",
    "record_body",
    "record_hash",
    "record_parts",
    "rule_set_id",
    "seal",
]

FORMAT = "cardtables.hand/1"
GENESIS = "0" * 64
#: Keys left out of a record's hash: the hash itself and a player's-copy marker.
UNHASHED = ("hash", "view")
ROWS = ("front", "middle", "back")


def record_hash(record: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the record's canonical JSON without ``hash`` and ``view``."""
    body = {k: v for k, v in record.items() if k not in UNHASHED}
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def rule_set_id(game: str, rules: Mapping[str, Any]) -> str:
    """The id of a hand's rule set: the game and the first 16 hex digits of the SHA-256 of the
    engine's complete rules as canonical JSON (equal rules, equal id)."""
    return f"{game}/{hashlib.sha256(canonical_json(rules).encode('utf-8')).hexdigest()[:16]}"


def record_body(
    *, game: str, hand: Mapping[str, Any], players: Sequence[Mapping[str, Any]], fairness: Mapping[str, Any],
    state: Mapping[str, Any], result: Mapping[str, Any], actions: Sequence[Mapping[str, Any]],
    house_lines: Mapping[str, int], ledger_transaction: int | None, chain: Mapping[str, Any],
) -> dict[str, Any]:
    """The record of one settled hand (every value JSON: ints, strings, lists, dicts).

    ``hand``: id, table, table_name, number, stake_level, stake_level_name, started_at,
    finished_at. ``players``: per hand seat ``{"seat", "table_seat", "user", "name"}``.
    ``fairness``: commitment, server_seed, client_seeds. ``chain``: ``{"seq", "prev"}``.
    """
    parts = record_parts(
        game=game, hand=hand, players=players, fairness=fairness, state=state, result=result, actions=actions,
        house_lines=house_lines, ledger_transaction=ledger_transaction, chain=chain,
    )
    fresh: dict[str, Any] = json_round_trip(parts)  # a fresh copy: nothing of the inputs is shared or mutated
    return fresh


def record_parts(
    *, game: str, hand: Mapping[str, Any], players: Sequence[Mapping[str, Any]], fairness: Mapping[str, Any],
    state: Mapping[str, Any], result: Mapping[str, Any], actions: Sequence[Mapping[str, Any]],
    house_lines: Mapping[str, int], ledger_transaction: int | None, chain: Mapping[str, Any],
) -> dict[str, Any]:
    """The record as :func:`record_body` assembles it before its JSON round trip: it shares the
    inputs' objects (the engine's state and result), so it is for sealing at once, not keeping.

    When every mapping in it has string keys only (what the engines keep; a caller can check
    it cheaply, e.g. with a serialiser that refuses other keys), ``seal(record_parts(...))`` is
    ``seal(record_body(...))``: the round trip then changes no text, since canonical JSON sorts
    keys as the strings a reader gets back. Otherwise seal ``json_round_trip`` of it."""
    return {
        "format": FORMAT,
        "game": game,
        **engine_for(game).record_part(state),
        "hand": dict(hand),
        "players": [dict(p) for p in players],
        "fairness": {"commitment": fairness["commitment"], "server_seed": fairness["server_seed"],
                     "client_seeds": list(fairness.get("client_seeds") or [])},
        "rules": state["rules"],
        "rule_set": rule_set_id(game, state["rules"]),
        "actions": [dict(a) for a in actions],
        "result": result,
        "house_lines": dict(house_lines),
        "ledger_transaction": ledger_transaction,
        "chain": {"seq": chain["seq"], "prev": chain.get("prev") or GENESIS},
    }


def json_round_trip(value: Any) -> Any:
    """The value as JSON gives it back (tuples become lists): what a reader of the export sees."""
    return json.loads(canonical_json(value))


def seal(body: Mapping[str, Any]) -> tuple[str, str]:
    """``(canonical JSON text, SHA-256 hex)`` of a record body: what is stored and chained
    (the same digest as :func:`record_hash`, hashing the text once)."""
    if any(key in body for key in UNHASHED):
        raise ValueError(f"a record body to seal has no {' or '.join(UNHASHED)}")
    text = canonical_json(body)
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()


def player_copy(body: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The record as the player at hand seat ``seat`` may see it (docs/RULES.md section 2, ``view``).

    The game's ``redact`` hides what that player never saw (in the trio the opponents'
    unused cards and the seed that would re-deal them; every other game reveals everything
    at showdown, so its copy is the full record). ``view`` names the seat and the hidden
    fields; it is not part of the hash.
    """
    out = copy.deepcopy(dict(body))
    hidden = engine_for(out["game"]).redact(out, seat)
    out["view"] = {"seat": seat, "redacted": hidden}
    return out


# --- helpers of the games' check_deal / check_score --------------------------------------------


def is_redacted(rec: Mapping[str, Any]) -> bool:
    """A player's copy that hides something (its hash, commitment and deal cannot be checked)."""
    view = rec.get("view")
    return isinstance(view, dict) and bool(view.get("redacted"))


def compare_hands(dealt: Sequence[Sequence[int]], seats: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The seed's deal against every seat's recorded ``cards``, as ``(field, message)`` failures."""
    out = []
    if len(dealt) != len(seats):
        return [("seats", f"{len(seats)} seats recorded, the deal is for {len(dealt)}")]
    for i, (cards, seat) in enumerate(zip(dealt, seats, strict=True)):
        recorded = parse_cards(seat.get("cards"), field=f"seats[{i}].cards")
        if sorted(recorded) != sorted(cards):
            extra = cards_str(sorted(set(recorded) - set(cards)))
            missing = cards_str(sorted(set(cards) - set(recorded)))
            out.append((f"seats[{i}].cards", f"not the seed's deal: recorded {' '.join(extra) or '-'} "
                                             f"where the seed deals {' '.join(missing) or '-'}"))
    return out


def differs(*pairs: tuple[str, Any, Any]) -> list[tuple[str, str]]:
    """``(field, recorded, re-scored)`` triples that disagree, as failures."""
    return [(name, f"recorded {recorded}, re-scored {rescored}") for name, recorded, rescored in pairs
            if recorded != rescored]


def pick(rec: Mapping[str, Any], keys: Iterable[str]) -> dict[str, Any]:
    """The ``keys`` of ``rec`` that it has."""
    return {k: rec[k] for k in keys if k in rec}
