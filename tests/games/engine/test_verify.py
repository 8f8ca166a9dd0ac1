"""``python -m games verify``: a clean export passes; every kind of tampering fails and is named.

Records are built here without Django: hands played through the engines' state machines
(random legal moves and timeouts), written with the platform's pure record builder
(``games.engine.record``) and chained per table as the platform chains them.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.engine import cli
from games.engine.cards import cards_str, parse_cards
from games.engine.deck import commitment
from games.engine.record import GENESIS, player_copy, record_body, record_hash
from games.engine.verify import verify_lines

Seed = Callable[[], str]


def _samgong() -> Any:
    import games.engine.samgong as package

    return package.plugin


def _thirteen() -> Any:
    import games.engine.thirteen as package

    return package.plugin


def _trio() -> Any:
    import games.engine.thirteen_trio.engine as engine

    return engine


ENGINES = {"thirteen": _thirteen, "thirteen_trio": _trio, "samgong": _samgong}


def _random_rows(cards: list[str], rng: random.Random, keep: int) -> dict[str, list[str]]:
    picked = rng.sample(cards, keep)
    return {"front": picked[:3], "middle": picked[3:8], "back": picked[8:13]}


def _choose(game: str, engine: Any, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """A player's move: the engine's own suggestion, or a random legal one (fouls included)."""
    if rng.random() < 0.5:
        return dict(engine.auto_action(state, seat))
    if game == "thirteen":
        return {"type": "arrange", **_random_rows(cards_str(state["seats"][seat]["cards"]), rng, 13)}
    if game == "thirteen_trio":
        return {"type": "arrange", **_random_rows(cards_str(state["seats"][seat]["cards"]), rng, 13)}
    legal = engine.legal_actions(state, seat)
    move = dict(rng.choice(legal))
    if move["type"] == "bet" and "bets" in move:
        stake = 2 * rng.randint(0, 50)
        return {"type": "bet", "bets": {rng.choice(["player", "banker", "tie", "sangong", "side"]): stake}}
    return {k: v for k, v in move.items() if k in ("type", "multiplier")}


def play(game: str, rules: dict[str, Any], n: int, seed: str, rng: random.Random,
         carry: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One hand to settlement: random moves, sometimes a timeout (auto-play), the trio's disconnects."""
    engine = ENGINES[game]()
    stack = 400_000 if game == "thirteen_trio" else 20_000
    now = 1_000.0
    state = engine.new_hand(rules=rules, seats=[{"player": f"p{i}", "stack": stack + 100 * i} for i in range(n)],
                            carry=carry, server_seed=seed, now=now)
    actions: list[dict[str, Any]] = []
    while engine.result(state) is None:
        now += 1
        seats = [s for s in range(n) if engine.legal_actions(state, s)]
        if game == "thirteen_trio" and rng.random() < 0.1:
            seat = rng.randrange(n)
            kind = "disconnect" if state["seats"][seat]["connected"] else "reconnect"
            state, _ = engine.apply(state, seat, {"type": kind}, now=now)
            actions.append({"seq": len(actions) + 1, "seat": seat, "auto": True, "action": {"type": kind}})
        elif not seats or rng.random() < 0.15:
            state, events = engine.on_deadline(state, now=engine.deadline(state))
            actions += [{"seq": len(actions) + 1, "seat": e.get("seat"), "auto": True, "action": e}
                        for e in events if e.get("auto")]
        else:
            seat = rng.choice(seats)
            move = _choose(game, engine, state, seat, rng)
            state, _ = engine.apply(state, seat, move, now=now)
            actions.append({"seq": len(actions) + 1, "seat": seat, "auto": False, "action": move})
    return state, actions


def house_lines(game: str, result: dict[str, Any]) -> dict[str, int]:
    commission = int(result.get("commission", 0))
    lines = {"commission": commission, ("penalty" if game == "thirteen_trio" else "banker"): result["house"] - commission}
    return {k: v for k, v in lines.items() if v}


def table_records(game: str, rules: dict[str, Any], n: int, hands: int, *, table: int, seed: int) -> list[dict[str, Any]]:
    """``hands`` chained records of one table, carry-over passed from hand to hand."""
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    carry, prev = None, GENESIS
    for number in range(1, hands + 1):
        server_seed = rng.randbytes(32).hex()
        state, actions = play(game, rules, n, server_seed, rng, carry)
        engine = ENGINES[game]()
        result = engine.result(state)
        for a in actions:
            a["at"] = f"2026-01-01T00:{number:02d}:{a['seq']:02d}+00:00"
        body = record_body(
            game=game, hand={"id": table * 1000 + number, "table": table, "number": number},
            players=[{"seat": i, "table_seat": i, "user": 100 + i, "name": f"p{i}"} for i in range(n)],
            fairness={"commitment": commitment(server_seed), "server_seed": server_seed, "client_seeds": []},
            state=state, result=result, actions=actions, house_lines=house_lines(game, result),
            ledger_transaction=number, chain={"seq": number, "prev": prev},
        )
        body["hash"] = prev = record_hash(body)
        records.append(body)
        carry = engine.carry_over(state)
    return records


TABLES = [
    ("thirteen", {"unit": 100}, 4),
    ("thirteen", {"unit": 250}, 2),
    ("thirteen_trio", {"base": 10_000}, 3),
    ("samgong", {"mode": "all_compare", "base": 100}, 5),
    ("samgong", {"mode": "banker_bid", "base": 100}, 4),
    ("samgong", {"mode": "banker_rotate", "base": 100}, 4),
    ("samgong", {"mode": "pairwise", "base": 100}, 6),
    ("samgong", {"mode": "house", "base": 100}, 3),
]


@pytest.fixture(scope="module")
def export() -> list[dict[str, Any]]:
    """Records of eight tables (every game and mode), interleaved as an export by id would be."""
    tables = [table_records(g, r, n, 6, table=t, seed=t) for t, (g, r, n) in enumerate(TABLES, start=1)]
    return [rec for round_ in zip(*tables, strict=True) for rec in round_]


def lines(records: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(r) for r in records]


def failures(records: list[dict[str, Any]], **kw: Any) -> list[tuple[int, str, str]]:
    report = verify_lines(lines(records), **kw)
    return [(p.line, p.field, p.message) for p in report.problems]


def fresh(export: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return json.loads(json.dumps(export))


def test_a_clean_export_of_every_game_and_mode_verifies(export: list[dict[str, Any]]) -> None:
    report = verify_lines(lines(export))
    assert report.problems == []
    assert report.records == len(TABLES) * 6
    assert {r["game"] for r in export} == {"thirteen", "thirteen_trio", "samgong"}
    assert any(a["auto"] for r in export for a in r["actions"]), "some hands were auto-played"


def test_altering_a_dealt_card_fails_and_names_the_seat(export: list[dict[str, Any]]) -> None:
    records = fresh(export)
    rec = records[2]  # the trio's first hand: swap an unused card of seat 1 with one of seat 2

    def unused(seat: dict[str, Any]) -> str:
        return next(c for c in seat["cards"] if c not in seat["front"] + seat["middle"] + seat["back"])

    one, two = rec["seats"][1], rec["seats"][2]
    a, b = unused(one), unused(two)
    one["cards"][one["cards"].index(a)], two["cards"][two["cards"].index(b)] = b, a
    found = failures(records)
    assert (3, "hash") in {(line, field) for line, field, _ in found}
    assert any(line == 3 and field == "seats[1].cards" and a in msg and b in msg for line, field, msg in found)
    assert any(line == 3 and field == "seats[2].cards" for line, field, _ in found)
    assert {line for line, _, _ in found} == {3}, "the next record still links to the recorded hash"


def test_altering_a_played_card_is_caught_even_with_a_recomputed_hash(export: list[dict[str, Any]]) -> None:
    records = fresh(export)
    rec = records[0]  # thirteen, 4 seats: swap a card between two seats' hands and rows
    a, b = rec["seats"][0], rec["seats"][1]
    ca, cb = a["cards"][0], b["cards"][0]
    for seat, old, new in ((a, ca, cb), (b, cb, ca)):
        for key in ("cards", "front", "middle", "back"):
            if key in seat:
                seat[key] = [new if c == old else c for c in seat[key]]
    rec["hash"] = record_hash(rec)
    found = failures(records)
    fields = {field for line, field, _ in found if line == 1}
    assert {"seats[0].cards", "seats[1].cards"} <= fields
    assert (1 + len(TABLES), "chain.prev") in {(line, field) for line, field, _ in found}


@pytest.mark.parametrize("index", range(len(TABLES)))
def test_altering_an_amount_fails_and_names_the_field(export: list[dict[str, Any]], index: int) -> None:
    records = fresh(export)
    rec = records[len(TABLES) + index]
    rec["result"]["coins"][0] += 1
    rec["result"]["coins"][1] -= 1
    rec["hash"] = record_hash(rec)  # even a forger who re-hashes is caught by the re-score
    found = failures(records)
    assert any(field == "result.coins" and line == len(TABLES) + index + 1 for line, field, _ in found), found


def test_a_record_that_does_not_sum_to_zero_fails(export: list[dict[str, Any]]) -> None:
    records = fresh(export)
    records[4]["house_lines"]["commission"] = records[4]["house_lines"].get("commission", 0) + 7
    found = failures(records)
    assert any(field.startswith("house_lines") for line, field, _ in found if line == 5)


def test_swapping_two_records_of_a_table_fails_as_out_of_order(export: list[dict[str, Any]]) -> None:
    records = fresh(export)
    first, second = 1, 1 + len(TABLES)  # hands 1 and 2 of table 2, as indices
    records[first], records[second] = records[second], records[first]
    found = failures(records)
    assert any(field == "chain.seq" and "out of order" in msg for _, field, msg in found)
    assert all(field.startswith("chain") for _, field, _ in found), "the records themselves are intact"


def test_deleting_a_record_fails_and_names_the_missing_record(export: list[dict[str, Any]]) -> None:
    records = fresh(export)
    gone = records.pop(2 * len(TABLES) + 3)  # hand 3 of table 4
    found = failures(records)
    assert len(found) == 1
    line, field, message = found[0]
    assert field == "chain.seq" and "record 3 of this table is missing" in message
    assert gone["hand"]["table"] == 4 and records[line - 1]["hand"] == {**gone["hand"], "id": gone["hand"]["id"] + 1,
                                                                         "number": 4}


def test_deleting_the_first_records_of_a_table_fails_unless_partial(export: list[dict[str, Any]]) -> None:
    records = [r for r in fresh(export) if not (r["hand"]["table"] == 5 and r["hand"]["number"] <= 2)]
    assert any("records 1..2 are missing" in msg for _, _, msg in failures(records))
    assert failures(records, partial=True) == []


def test_a_partial_extract_allows_gaps_but_still_checks_links(export: list[dict[str, Any]]) -> None:
    records = [r for r in fresh(export) if r["hand"]["number"] % 2]
    assert failures(records, partial=True) == []
    assert failures(records) != []


def test_a_wrong_seed_or_commitment_fails(export: list[dict[str, Any]]) -> None:
    records = fresh(export)
    records[6]["fairness"]["commitment"] = "ab" * 32
    records[6]["hash"] = record_hash(records[6])
    found = failures(records)
    assert any(line == 7 and field == "fairness.commitment" for line, field, _ in found)


def test_the_jackpot_card_is_checked_against_the_seed(export: list[dict[str, Any]]) -> None:
    records = fresh(export)
    rec = records[2]
    seat = rec["seats"][0]
    unused = next(c for c in seat["cards"] if c not in seat["front"] + seat["middle"] + seat["back"])
    seat["cards"][seat["cards"].index(unused)], rec["jackpot"] = rec["jackpot"], unused
    rec["hash"] = record_hash(rec)
    found = {(line, field) for line, field, _ in failures(records)}
    assert {(3, "jackpot"), (3, "seats[0].cards")} <= found


def test_a_player_copy_of_a_trio_hand_is_partly_checked_and_still_catches_a_changed_row(
    export: list[dict[str, Any]],
) -> None:
    trio = [player_copy(r, 0) for r in fresh(export) if r["game"] == "thirteen_trio"]
    assert all(r["fairness"]["server_seed"] is None and r["seats"][1]["cards"] is None for r in trio)
    report = verify_lines(lines(trio))
    assert report.problems == [] and report.partly_checked == len(trio)
    rec = next(r for r in trio if r["result"]["units"][1] != r["result"]["units"][2])
    for row in ("front", "middle", "back"):
        rec["seats"][1][row], rec["seats"][2][row] = rec["seats"][2][row], rec["seats"][1][row]
    assert any(field == "result.units" for _, field, _ in failures(trio))


def test_a_player_copy_of_other_games_verifies_in_full(export: list[dict[str, Any]]) -> None:
    copies = [player_copy(r, 1) for r in fresh(export) if r["game"] != "thirteen_trio"]
    report = verify_lines(lines(copies))
    assert report.problems == [] and report.partly_checked == 0


def test_malformed_lines_are_failures_not_crashes(export: list[dict[str, Any]]) -> None:
    records = fresh(export)[:3]
    del records[1]["result"]
    text = lines(records) + ["not json", "[1, 2]"]
    report = verify_lines(text)
    assert {p.line for p in report.problems} >= {2, 4, 5}


def test_the_command_line_reports_each_failure_and_exits_1(export: list[dict[str, Any]], tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(lines(export)) + "\n")
    out = io.StringIO()
    assert cli.main(["verify", str(good)], stdout=out) == 0
    assert out.getvalue().startswith(f"OK: {len(export)} records checked")
    records = fresh(export)
    records[0]["seats"][0]["cards"][0] = "Zz"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines(records)))
    out = io.StringIO()
    assert cli.main(["verify", str(bad)], stdout=out) == 1
    first = out.getvalue().splitlines()[0]
    assert first.startswith("FAIL line 1: table 1 hand 1 (hand id 1001): ")
    assert cli.main(["verify", str(tmp_path / "missing.jsonl")], stdout=io.StringIO()) == 2


def test_verify_reads_standard_input(export: list[dict[str, Any]]) -> None:
    data = io.BytesIO(("\n".join(lines(export[:8])) + "\n").encode())
    out = io.StringIO()
    assert cli.main(["verify", "-"], stdin=data, stdout=out) == 0


def test_each_record_scores_through_the_engines_own_cli_request_fields(export: list[dict[str, Any]]) -> None:
    """The re-score is the game's score_request on the record's own fields: the record's
    rows and bets, not a stored copy of the outcome."""
    rec = next(r for r in fresh(export) if r["game"] == "thirteen")
    assert parse_cards(rec["seats"][0]["cards"], count=13)
    assert set(rec) >= {"game", "seats", "dealer", "unit", "stacks", "commission"}


def test_the_rule_set_id_names_the_rules(export: list[dict[str, Any]]) -> None:
    from games.engine.record import rule_set_id

    by_table: dict[int, set[str]] = {}
    for rec in export:
        by_table.setdefault(rec["hand"]["table"], set()).add(rec["rule_set"])
        assert rec["rule_set"] == rule_set_id(rec["game"], rec["rules"]) and rec["rule_set"].startswith(rec["game"] + "/")
    assert all(len(ids) == 1 for ids in by_table.values()), "a table's hands share their rule set"
    assert len({next(iter(ids)) for ids in by_table.values()}) == len(TABLES), "different rules, different ids"
    records = fresh(export)
    records[1]["rules"]["commission_percent"] = 1
    records[1]["hash"] = record_hash(records[1])
    assert (2, "rule_set") in {(line, field) for line, field, _ in failures(records)}
