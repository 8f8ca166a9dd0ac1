"""The trio's rules panel, set progress and what leaving mid-set costs (docs/RULES.md section 2,
"Sets (一將)", "Money", "Disconnecting or leaving").

>>> rules = {"base": 10_000, "commission_percent": 5}
>>> rule_sheet(rules, 3)["players"], rule_sheet(rules, 3)["set_size"], rule_sheet(rules, 3)["penalty"]
([3, 3], 6, 5000)
>>> saved = {"engine": {"next_game": 3, "disconnected": []}, "players": [7, 8, 9]}
>>> set_progress(rules, saved, None)
{'game': 3, 'size': 6, 'in_play': False}
>>> leave_terms(rules, saved, None, 8)
{'games_left': 4, 'game': 3, 'size': 6, 'penalty': 5000}
>>> leave_terms(rules, saved, None, 4) is None          # not in the set
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.labels import gettext_noop
from games.engine.sheet import line, sheet
from games.engine.thirteen_trio.hooks import set_running
from games.engine.thirteen_trio.money import penalty_amount
from games.engine.thirteen_trio.rules import HAND_SIZE, PLAYERS, game_minimum, resolve_rules, set_minimum


def rule_sheet(rules: dict[str, Any], seats: int) -> dict[str, Any]:
    """The panel of docs/RULES.md section 2: players, scoring, the set, the leaver penalty,
    money and time, from the resolved rule set."""
    r = resolve_rules(rules)
    penalty = penalty_amount(r["base"])
    lines = [
        line(gettext_noop("Exactly {n} players, {cards} cards each: play 13 of them in a front of 3, "
                          "a middle of 5 and a back of 5."), n=PLAYERS, cards=HAND_SIZE),
        line(gettext_noop("Only scoops pay: win at least one row and lose none against a player, "
                          "and that player pays you 1 stake ({x})."), money=("x",), x=r["base"]),
        line(gettext_noop("Home run: scoop both others and each pays 1 stake more.")),
        line(gettext_noop("Specials earn 1 stake from each other player: front trips, quads, straight flush, "
                          "the jackpot card's other three cards in one row.")),
        line(gettext_noop("A set is {n} games with the same three players; set minimum {x}, "
                          "game minimum {y}."), money=("x", "y"), n=r["set_size"], x=set_minimum(r),
             y=game_minimum(r)),
        line(gettext_noop("Leaving before the set ends: your seat is auto-played to the end of the set, "
                          "and you pay a penalty of {x} (½ stake) in the game you leave."),
             money=("x",), x=penalty),
        line(gettext_noop("{s} s to arrange, extended once by {e} s; then the server arranges for you."),
             s=r["arrange_seconds"], e=r["extend_seconds"]),
        line(gettext_noop("Commission {p}% of each player's net win in a game."), p=r["commission_percent"]),
    ]
    return sheet(players=(PLAYERS, PLAYERS), lines=lines, set_size=r["set_size"], penalty=penalty)


def _in_play(state: Mapping[str, Any] | None) -> bool:
    return state is not None and state.get("phase") == "arrange"


def set_progress(
    rules: dict[str, Any], saved: Mapping[str, Any] | None, state: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The game of the set in play, or between games the next one (1: a new set)."""
    size = resolve_rules(rules)["set_size"]
    if state is not None and _in_play(state):
        return {"game": int(state["game_in_set"]), "size": size, "in_play": True}
    following = int(((saved or {}).get("engine") or {}).get("next_game", 1))
    return {"game": following, "size": size, "in_play": False}


def leave_terms(
    rules: dict[str, Any], saved: Mapping[str, Any] | None, state: Mapping[str, Any] | None, user_id: int
) -> dict[str, Any] | None:
    """What leaving now costs a player bound to the set (docs/RULES.md "Disconnecting or
    leaving"): the games left to be auto-played (the one in play included) and the penalty —
    ½ base unless the player is already counted disconnected, or, in a game in play, another
    seat disconnected first. None when leaving binds the player to nothing beyond the hand.

    >>> state = {"phase": "arrange", "game_in_set": 6, "first_disconnect": 0,
    ...          "seats": [{"player": "7", "connected": False}, {"player": "8", "connected": True}]}
    >>> leave_terms({"base": 10_000}, None, state, 8)
    {'games_left': 1, 'game': 6, 'size': 6, 'penalty': 0}
    """
    r = resolve_rules(rules)
    player = str(user_id)
    seats = list(state["seats"]) if state is not None and _in_play(state) else []
    mine = next((s for s in seats if s["player"] == player), None)
    if state is not None and mine is not None:
        game = int(state["game_in_set"])
        charged = bool(mine["connected"]) and state.get("first_disconnect") is None
    elif set_running(saved, user_id):
        carry = (saved or {})["engine"]
        game = int(carry["next_game"])
        charged = player not in carry.get("disconnected", [])
    else:
        return None
    return {
        "games_left": r["set_size"] - game + 1,
        "game": game,
        "size": r["set_size"],
        "penalty": penalty_amount(r["base"]) if charged else 0,
    }
