"""三公's rules panel, one per mode (docs/RULES.md section 3, "Modes", "Multipliers", `house`,
"Timers and automatic play"), from the resolved rule set.

>>> s = rule_sheet({"mode": "banker_bid"}, 4)
>>> s["players"], s["timers"]
([4, 4], {'bid': 10, 'bet': 10, 'reveal': 10})
>>> h = rule_sheet({"mode": "house"}, 6)
>>> h["payouts"]["tie"], h["payouts"]["sangong"], h["payouts"]["side"], h["half_pay"]
([8], [16], [40, 30, 6, 3, 1], {'points': 6, 'spots': ['player', 'banker']})
"""

from __future__ import annotations

from typing import Any

from games.engine.labels import gettext_noop
from games.engine.samgong.hooks import player_limits
from games.engine.samgong.rules import BANKER_MODES, resolve_rules
from games.engine.sheet import SheetLine, line, sheet

#: The phases each mode waits on players in (games/engine/samgong/machine.py), in order.
PHASES: dict[str, tuple[str, ...]] = {
    "all_compare": ("bet", "reveal"),
    "banker_bid": ("bid", "bet", "reveal"),
    "banker_rotate": ("offer", "bet", "reveal"),
    "pairwise": ("reveal",),
    "house": ("bet",),
}
_TIMER_LINES = {
    "bid": gettext_noop("{s} s to bid for the bank (then: no bid)."),
    "offer": gettext_noop("{s} s to take or pass the bank (then: pass)."),
    "bet": gettext_noop("{s} s to bet (then: the smallest bet)."),
    "reveal": gettext_noop("{s} s to reveal (then: revealed for you)."),
}
_HOUSE_TIMER = gettext_noop("{s} s to place bets (then: no bets).")
_SIDE_ORDER = ("straight_flush", "trips", "straight", "flush", "pair")


def _players(lo: int, hi: int) -> SheetLine:
    if lo == hi:
        return line(gettext_noop("A hand needs exactly {n} players."), n=lo)
    return line(gettext_noop("A hand needs {lo} to {hi} players."), lo=lo, hi=hi)


def _multipliers(r: dict[str, Any]) -> SheetLine:
    m = r["multipliers"]
    if r["ranking"] == "classic":
        return line(gettext_noop("Hand multipliers: 0–6 points ×{low}, 7–9 points ×{high}, three faces ×{a}, "
                                 "trips ×{b}, three 3s ×{c}."),
                    low=m["point_0"], high=m["point_9"], a=m["sangong"], b=m["da_sangong"], c=m["zhizun"])
    return line(gettext_noop("Hand multipliers: 0–6 points ×{low}, 7–9 points ×{high}, mixed three faces ×{a}, "
                             "small trips ×{b}, big trips ×{c}."),
                low=m["point_0"], high=m["point_9"], a=m["hun_sangong"], b=m["xiao_sangong"], c=m["da_sangong"])


def _mode_lines(r: dict[str, Any]) -> list[SheetLine]:
    mode, bets = r["mode"], r["bet_multipliers"]
    lines: list[SheetLine] = []
    if mode == "all_compare":
        lines.append(line(gettext_noop("Pick a bet ×{lo}–×{hi}; the best hand takes from every other player "
                                       "base × its hand multiplier × both bets."), lo=bets[0], hi=bets[-1]))
    if mode == "banker_bid":
        lines.append(line(gettext_noop("Everyone's first two cards are dealt face up, for all to see, before "
                                       "the bidding; the third card comes after the bets.")))
        lines.append(line(gettext_noop("Of the bidders, the one with the most table money becomes banker, "
                                       "and keeps the bank until a 0-point hand.")))
    if mode == "banker_rotate":
        lines.append(line(gettext_noop("The bank is offered to each seat in turn; all three cards are dealt "
                                       "after the bets.")))
    if mode in BANKER_MODES:
        lines.append(line(gettext_noop("Players bet ×{lo}–×{hi}; the banker meets each player and the better "
                                       "hand takes base × its hand multiplier × the bet."), lo=bets[0], hi=bets[-1]))
    if mode == "pairwise":
        lines.append(line(gettext_noop("No bets: every two players compare, and the better hand takes "
                                       "base × its hand multiplier.")))
    return lines


def _house_lines(r: dict[str, Any]) -> list[SheetLine]:
    pays, side = r["payouts"], r["side_payouts"]
    half = r["half_pay_points"]
    main = (line(gettext_noop("Player wins and banker wins pay {p}:1, half when the winning hand has {n} points."),
                 p=pays["player"], n=half) if half is not None
            else line(gettext_noop("Player wins and banker wins pay {p}:1."), p=pays["player"]))
    return [
        line(gettext_noop("Bet on one player hand and one banker hand, dealt after the bets; "
                          "the house pays every winning bet.")),
        main,
        line(gettext_noop("Tie pays {p}:1; player and banker bets are returned."), p=pays["tie"]),
        line(gettext_noop("Any three faces (player hand) pays {p}:1."), p=pays["sangong"]),
        line(gettext_noop("Side bet (player hand as 3-card poker): straight flush {a}:1, trips {b}:1, "
                          "straight {c}:1, flush {d}:1, pair {e}:1."),
             **dict(zip("abcde", (side[k] for k in _SIDE_ORDER), strict=True))),
        line(gettext_noop("Your bets together may not exceed your table money.")),
    ]


def _common_lines(r: dict[str, Any]) -> list[SheetLine]:
    lines = [line(gettext_noop("Three cards; points are their sum mod 10 (faces and 10s count 0); "
                               "three faces beat any points.")), _multipliers(r)]
    lines.append(line(gettext_noop("Base {x}. You never lose more than the table money you brought into the hand."),
                      money=("x",), x=r["base"]))
    bps = r["commission_bps"]
    if bps and bps % 100 == 0:
        lines.append(line(gettext_noop("Fee {p}% of each player's net win."), p=bps // 100))
    elif bps:
        lines.append(line(gettext_noop("Fee {p}‰ of each player's net win."), p=bps // 10))
    return lines


def rule_sheet(rules: dict[str, Any], seats: int) -> dict[str, Any]:
    """Players, the mode's play, multipliers or payouts, fee and timers; a house table also
    gives its ``payouts`` per bet (win pays N per 1 staked) for the betting spots, the other
    modes ``phase_notes`` (a line the table shows during a phase: 搶莊's face-up cards)."""
    r = resolve_rules(rules)
    lo, hi = player_limits(rules, seats)
    mode = r["mode"]
    phases = PHASES[mode]
    timers = {phase: r["timers"][phase] for phase in phases}
    lines = [_players(lo, hi)]
    if mode == "house":
        lines += _house_lines(r)
        lines.append(line(_HOUSE_TIMER, s=timers["bet"]))
        side = r["side_payouts"]
        payouts = {**{k: [v] for k, v in r["payouts"].items()}, "side": [side[k] for k in _SIDE_ORDER]}
        half = r["half_pay_points"]
        half_pay = None if half is None else {"points": half, "spots": ["player", "banker"]}
        return sheet(players=(lo, hi), lines=lines, timers=timers, payouts=payouts, half_pay=half_pay)
    lines += _mode_lines(r) + _common_lines(r)
    lines += [line(_TIMER_LINES[phase], s=seconds) for phase, seconds in timers.items()]
    notes = {"bid": line(gettext_noop("Everyone's first two cards are face up, for all to see."))} \
        if mode == "banker_bid" else {}
    return sheet(players=(lo, hi), lines=lines, timers=timers, phase_notes=notes)
