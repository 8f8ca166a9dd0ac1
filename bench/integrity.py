"""The integrity signals' power and false positives on bot play (docs/INTEGRITY.md "Measured").

    .venv/bin/python bench/integrity.py [--scenario all|honest|share_trio|share_thirteen|dumper|banker_dumper|farm]
                                        [--honest-hands 10000] [--hands 300] [--runs 5] [--seed 1]

Each hand is dealt and played through the game's engine (``new_hand``, ``apply``; no database,
no sockets) and its record body (``record_part``, ``rules`` and ``result``, what the settlement records)
is taken in by the signals' own tally (``integrity.services.signals.tally_take_in``, the code a
batch runs on stored records) and judged by ``pair_flags``, hand by hand. Bots:

* honest: in the row games one of the solver's three best arrangements of its own cards (the
  best 70 %, the second 20 %, the third 10 %: near-best play, not the solver's exact choice);
  三公 its bot's move;
* card-sharing pair: each knows every seat's cards, predicts the others' best arrangement and
  plays, of its own five best, the two that win the pair most against that prediction;
* row-dumper (十三张): in 30 % of hands plays, of its ten best arrangements, the one that pays
  its partner most;
* banker-mode dumper (三公 抢庄): never bids; its partner always bids; with the partner as banker
  it bets the largest multiplier when its two face-up cards are worth 4 points or fewer, else 1;
* farm: three accounts foul every hand (the highest cards in front) at a table with a collector.

Honest players are re-seated at random every 50 hands; a colluding table keeps its players.
Prints, per scenario, the hand at which the colluders were first flagged (median and maximum
over ``--runs`` seeds, with the flags raised) and every other pair flagged; for honest play, each
test's largest and median statistic over the pairs it judged, and the favour test's upper tail
against a normal one.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")


def django_ready() -> None:
    import django

    django.setup()
    import games.engine.solver as solver  # one solve per hand and seat, asked by the bot and by the tally

    solver.solve_thirteen = _memo(solver.solve_thirteen)
    solver.solve_trio = _memo(solver.solve_trio)


def _memo(fn: Callable[..., Any]) -> Callable[..., Any]:
    memo: dict[Any, Any] = {}

    def solve(cards: Any, *args: Any) -> Any:
        key = (tuple(cards), *args)
        if key not in memo:
            if len(memo) > 100_000:
                memo.clear()
            memo[key] = fn(list(cards), *args)
        return memo[key]

    return solve


GAMES = {  # game, stake rules, seats
    "thirteen": ("thirteen", {"unit": 2000, "commission_percent": 5}, 4),
    "trio": ("thirteen_trio", {"base": 2000}, 3),
    "banker": ("samgong", {"mode": "banker_bid", "base": 2000}, 4),
}


@dataclass
class Table:
    kind: str
    players: list[int]
    carry: dict[str, Any] | None = None
    number: int = 0
    id: int = 0


@dataclass
class Run:
    tally: Any
    rng: random.Random
    clock: datetime = field(default_factory=lambda: datetime(2030, 1, 1, tzinfo=UTC))
    hands: int = 0
    records: int = 0


def _engine(kind: str) -> Any:
    from games.engine.registry import engine_for

    return engine_for(GAMES[kind][0])


def _valued(eng: Any) -> bool:
    from games.engine.protocol import GameEngine

    return type(eng).seat_worth is not GameEngine.seat_worth


def honest(eng: Any, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    if _valued(eng):
        options = eng.suggestions(state, seat, 3)
        if options:
            pick = rng.choices(range(len(options)), weights=[7, 2, 1][:len(options)])[0]
            return dict(options[pick])
    return eng.bot_move(eng.view(state, seat), rng) or dict(eng.auto_action(state, seat))


def _coins_if(eng: Any, state: dict[str, Any], moves: dict[int, dict[str, Any]], now: float) -> list[int]:
    """The seats' coins had they played ``moves`` (every seat that still has to act)."""
    for seat in sorted(moves):
        state, _events = eng.apply(state, seat, moves[seat], now=now)
    return [int(c) for c in eng.result(state)["coins"]]


def sharing_moves(eng: Any, state: dict[str, Any], pair: tuple[int, int], now: float) -> dict[int, dict[str, Any]]:
    """The pair's arrangements, each of its own five best, that win the two most against the
    others' best arrangements (which they can predict: they know every card)."""
    others = {s: dict(eng.suggestions(state, s, 1)[0]) for s in range(len(state["seats"])) if s not in pair}
    a, b = pair
    best, choice = None, {}
    for ma in eng.suggestions(state, a, 5):
        for mb in eng.suggestions(state, b, 5):
            coins = _coins_if(eng, state, {**others, a: dict(ma), b: dict(mb)}, now)
            if best is None or coins[a] + coins[b] > best:
                best, choice = coins[a] + coins[b], {a: dict(ma), b: dict(mb)}
    return choice


def dumping_move(eng: Any, state: dict[str, Any], dumper: int, partner: int, now: float,
                 rng: random.Random) -> dict[str, Any]:
    """Of the dumper's ten best arrangements, the one that pays the partner most (others as
    their honest first choice)."""
    others = {s: dict(eng.suggestions(state, s, 1)[0]) for s in range(len(state["seats"])) if s != dumper}
    options = [dict(m) for m in eng.suggestions(state, dumper, 10)]
    return max(options, key=lambda m: _coins_if(eng, state, {**others, dumper: m}, now)[partner])


def foul(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The thirteen cards by rank, the highest three in front: almost always a foul."""
    from games.engine.cards import cards_str

    cards = sorted(state["seats"][seat]["cards"], key=lambda c: c % 13, reverse=True)
    return {"type": "arrange", "front": cards_str(cards[:3]), "middle": cards_str(cards[3:8]),
            "back": cards_str(cards[8:])}


def banker_dump(eng: Any, state: dict[str, Any], seat: int, partner: int, rng: random.Random) -> dict[str, Any]:
    from games.engine.samgong.hands import card_points

    kinds = {a["type"] for a in eng.legal_actions(state, seat)}
    if "bet" in kinds:
        if state.get("banker") != partner:
            return honest(eng, state, seat, rng)
        weak = sum(card_points(c) for c in state["cards"][seat][:2]) % 10 <= 4
        bets = state["rules"]["bet_multipliers"]
        return {"type": "bet", "multiplier": max(bets) if weak else min(bets)}
    if "bid" in kinds:
        return {"type": "pass"}
    return honest(eng, state, seat, rng)



#: A table's policy: the moves of the seats the hand waits on.
Policy = Callable[[Any, dict[str, Any], list[int], float, random.Random, Table], dict[int, dict[str, Any]]]


def honest_policy(eng: Any, state: dict[str, Any], waiting: list[int], now: float, rng: random.Random,
                  table: Table) -> dict[int, dict[str, Any]]:
    return {s: honest(eng, state, s, rng) for s in waiting}


def sharing_policy(pair: tuple[int, int]) -> Policy:
    def policy(eng: Any, state: dict[str, Any], waiting: list[int], now: float, rng: random.Random,
               table: Table) -> dict[int, dict[str, Any]]:
        seats = tuple(table.players.index(u) for u in pair)
        moves = {s: honest(eng, state, s, rng) for s in waiting}
        if all(s in waiting for s in seats) and eng.suggestions(state, seats[0], 1):
            moves.update(sharing_moves(eng, state, seats, now))  # type: ignore[arg-type]
        return moves
    return policy


def dumping_policy(dumper: int, partner: int, rate: float) -> Policy:
    def policy(eng: Any, state: dict[str, Any], waiting: list[int], now: float, rng: random.Random,
               table: Table) -> dict[int, dict[str, Any]]:
        d, p = table.players.index(dumper), table.players.index(partner)
        moves = {s: honest(eng, state, s, rng) for s in waiting}
        if d in waiting and rng.random() < rate:
            moves[d] = dumping_move(eng, state, d, p, now, rng)
        return moves
    return policy


def banker_policy(dumper: int, partner: int) -> Policy:
    def policy(eng: Any, state: dict[str, Any], waiting: list[int], now: float, rng: random.Random,
               table: Table) -> dict[int, dict[str, Any]]:
        d, p = table.players.index(dumper), table.players.index(partner)
        moves = {s: honest(eng, state, s, rng) for s in waiting}
        if d in waiting:
            moves[d] = banker_dump(eng, state, d, p, rng)
        if p in waiting and any(a["type"] == "bid" for a in eng.legal_actions(state, p)):
            moves[p] = {"type": "bid"}
        return moves
    return policy


def farm_policy(feeders: set[int]) -> Policy:
    def policy(eng: Any, state: dict[str, Any], waiting: list[int], now: float, rng: random.Random,
               table: Table) -> dict[int, dict[str, Any]]:
        return {s: foul(state, s) if table.players[s] in feeders else honest(eng, state, s, rng) for s in waiting}
    return policy


def play_hand(run: Run, table: Table, policy: Policy) -> None:
    """One hand dealt and played out by the engine, its record taken in and judged."""
    from integrity.services.signals import tally_take_in

    eng = _engine(table.kind)
    game, rules, _seats = GAMES[table.kind]
    now = run.clock.timestamp()
    players = [str(u) for u in table.players]
    carry = eng.carry_for({"engine": table.carry, "players": table.players}, table.players) if table.carry else None
    state = eng.new_hand(rules=rules, seats=[{"player": p, "stack": 10**9} for p in players], carry=carry,
                         server_seed=f"{run.rng.getrandbits(256):064x}", now=now)
    for _step in range(100):
        if eng.result(state) is not None:
            break
        waiting = eng.awaiting(state)
        if not waiting:
            state, _events = eng.on_deadline(state, now=now)
            continue
        for seat, action in sorted(policy(eng, state, waiting, now, run.rng, table).items()):
            state, _events = eng.apply(state, seat, action, now=now)
    table.carry = eng.carry_over(state)
    run.records += 1
    body = {"game": game, **eng.record_part(state), "rules": state["rules"], "result": eng.result(state)}
    record = SimpleNamespace(pk=run.records, hand_id=run.records, table_id=table.id, stake_level_id=table.kind,
                             game=game, body=body, finished_at=run.clock)
    run.tally.seats[record.pk] = list(enumerate(table.players))
    tally_take_in(run.tally, record)
    del run.tally.seats[record.pk]
    run.clock += timedelta(seconds=20)


def flagged(run: Run) -> dict[tuple[int, int], list[str]]:
    from integrity.services.signals import pair_flags

    return {key: flags for key, pair in run.tally.pairs.items() if (flags := pair_flags(pair, run.tally.bets))}


def new_run(seed: int) -> Run:
    from integrity.services.signals import Tally

    return Run(tally=Tally(), rng=random.Random(seed))


def _tests() -> dict[str, Callable[[Any, Any], float | None]]:
    """Each test's statistic of a judged pair, oriented so that larger is nearer its flag."""
    from integrity.judge import z_sum
    from integrity.selectors import MIN_HANDS
    from integrity.services.signals import pair_bets_z

    def bets(p: Any, tally: Any) -> float | None:
        if max(p.bet_ab_hands, p.bet_ba_hands) < MIN_HANDS:
            return None
        return -min(pair_bets_z(p, tally.bets))

    return {
        "flow |z|": lambda p, t: abs(z_sum(p.flow_net, p.flow_sq)),
        "gift |z|": lambda p, t: abs(z_sum(p.gift_net, p.gift_sq)) if p.gift_sq else None,
        "info z": lambda p, t: z_sum(p.info_net, p.info_sq) if p.info_hands >= MIN_HANDS else None,
        "favour z (the larger way)": lambda p, t: max(z_sum(p.favour_ab_net, p.favour_ab_sq),
                                                      z_sum(p.favour_ba_net, p.favour_ba_sq))
        if p.info_hands >= MIN_HANDS else None,
        "bets −z (the lower way)": bets,
    }


def _favour_tail(judged: list[Any]) -> None:
    """The favour test's z of every way of the judged pairs against a normal tail: how far the
    one-sided threshold is from the honest spread."""
    from integrity.judge import z_sum
    from integrity.selectors import MIN_HANDS

    zs = [z for p in judged if p.info_hands >= MIN_HANDS
          for z in (z_sum(p.favour_ab_net, p.favour_ab_sq), z_sum(p.favour_ba_net, p.favour_ba_sq))]
    if zs:
        tails = ", ".join(f"z >= {t}: {sum(z >= t for z in zs)} (a normal tail: {len(zs) * p:.1f})"
                          for t, p in ((2.0, 0.02275), (2.5, 0.00621), (3.0, 0.00135)))
        sd = statistics.pstdev(zs)
        print(f"  favour, each way: {len(zs)} ways, standard deviation {sd:.2f}; {tails}")


def honest_run(hands: int, seed: int) -> tuple[int, dict[tuple[int, int], list[str]], int]:
    """``hands`` honest hands, a third of each game; the pairs flagged and the pairs judged."""
    from integrity.selectors import MIN_HANDS

    run = new_run(seed)
    played, table_id = 0, 0
    for kind in GAMES:
        people = list(range(1000 * (len(run.tally.pairs) + 1), 1000 * (len(run.tally.pairs) + 1) + 24))
        share = hands // len(GAMES)
        seats = GAMES[kind][2]
        while share > 0:
            run.rng.shuffle(people)
            tables = []
            for t in range(len(people) // seats):
                table_id += 1
                tables.append(Table(kind, people[t * seats:(t + 1) * seats], id=table_id))
            for _round in range(50):
                for table in tables:
                    if share > 0:
                        play_hand(run, table, honest_policy)
                        share -= 1
                        played += 1
    judged = [p for p in run.tally.pairs.values() if p.hands >= MIN_HANDS]
    for name, figure in _tests().items():
        zs = sorted(z for p in judged if (z := figure(p, run.tally)) is not None)
        if zs:
            print(f"  {name}: largest {zs[-1]:.2f}, median {zs[len(zs) // 2]:.2f} ({len(zs)} judged)")
    _favour_tail(judged)
    return played, flagged(run), len(judged)


SCENARIOS: dict[str, tuple[str, str]] = {
    "share_trio": ("trio", "card-sharing pair, 三人十三支"),
    "share_thirteen": ("thirteen", "card-sharing pair, 十三张"),
    "dumper": ("thirteen", "30 % row-dumper, 十三张"),
    "banker_dumper": ("banker", "banker-mode dumper, 三公 抢庄"),
    "farm": ("thirteen", "three farmed accounts and a collector, 十三张"),
}


def colluding_run(name: str, hands: int, seed: int) -> tuple[int | None, list[str], dict[tuple[int, int], list[str]]]:
    """The colluders at one table with honest players (the farm: its four at one table), and
    an honest table beside; the hand at which the colluders were first flagged, their flags, and
    every other pair flagged."""
    kind = SCENARIOS[name][0]
    seats = GAMES[kind][2]
    run = new_run(seed)
    a, b = 1, 2
    policy: Policy = {
        "share_trio": sharing_policy((a, b)), "share_thirteen": sharing_policy((a, b)),
        "dumper": dumping_policy(a, b, 0.3), "banker_dumper": banker_policy(a, b), "farm": farm_policy({2, 3, 4}),
    }[name]
    colluders = {(1, 2), (1, 3), (1, 4)} if name == "farm" else {(a, b)}
    others = list(range(10, 10 + 3 * seats))
    first, flags = None, []
    for n in range(1, hands + 1):
        if n % 50 == 1:
            run.rng.shuffle(others)
            table = Table(kind, [*range(1, seats + 1)] if name == "farm" else [a, b, *others[:seats - 2]], id=n)
            beside = Table(kind, others[seats - 2:2 * seats - 2], id=10_000 + n)
            run.rng.shuffle(table.players)
        play_hand(run, table, policy)
        play_hand(run, beside, honest_policy)
        hit = {k: f for k, f in flagged(run).items() if k in colluders}
        if hit and first is None:
            first, flags = n, sorted({f for fs in hit.values() for f in fs})
            break
    return first, flags, {k: f for k, f in flagged(run).items() if k not in colluders}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", default="all", choices=["all", "honest", *SCENARIOS])
    parser.add_argument("--honest-hands", type=int, default=10_000)
    parser.add_argument("--hands", type=int, default=300, help="the most hands a colluding run plays")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    django_ready()
    started = time.monotonic()
    if args.scenario in ("all", "honest"):
        played, hits, judged = honest_run(args.honest_hands, args.seed)
        print(f"honest: {played} hands, {judged} pairs judged (>= 30 hands together), {len(hits)} flagged "
              f"{sorted(hits.items())[:5]} ({time.monotonic() - started:.0f} s)", flush=True)
    for name, (_kind, title) in SCENARIOS.items():
        if args.scenario not in ("all", name):
            continue
        firsts, kinds, stray = [], set(), 0
        for r in range(args.runs):
            first, flags, others = colluding_run(name, args.hands, args.seed + r)
            firsts.append(first)
            kinds.update(flags)
            stray += len(others)
        caught = [f for f in firsts if f is not None]
        median = statistics.median(caught) if caught else None
        print(f"{name} ({title}): flagged in {len(caught)}/{args.runs} runs within {args.hands} hands; "
              f"hands to flag median {median}, max {max(caught) if caught else None} {sorted(firsts, key=str)}; "
              f"flags {sorted(kinds)}; other pairs flagged {stray} ({time.monotonic() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
