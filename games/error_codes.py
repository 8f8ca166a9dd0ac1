"""Every error code the platform's sockets send a player, with every message each can carry
(docs/PROTOCOL.md "Errors"): the registry a test renders in every language.

``ERRORS`` maps a code to the message ids (English source text, translated when sent) that an
``error`` frame with that code may carry: the table socket's own (``games.consumers``), the
parser's (``games.protocol``), the services' (``games.services``), the lobby socket's, the
wallet's and responsible play's refusals a buy-in may meet. ``PARAMETERS`` gives the placeholders'
sample values as a player would see them.

tests/games/test_error_codes.py renders each message of each code in English, 简体 and 繁體 and
fails on mixed text (a Chinese character in English, an untranslated English word in Chinese),
and fails when a service raises a code or a message this registry does not list.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop as N

from accounts.sockets import STOP_MESSAGES
from wallet.errors import (
    AlreadyReversed,
    BelowMinimumBuyIn,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidPosting,
    TransactionNotFound,
    UnbalancedTransaction,
    WalletError,
)

SERVER_ERROR = N("Something went wrong on our side; nothing was changed.")
DUPLICATE_ID = N("This request id was already used; send each request with a new id.")

ERRORS: dict[str, tuple[str, ...]] = {
    "bad_message": (
        N("numbers may have at most %(n)d digits"),
        N("%(value)s is not a JSON number"),
        N("binary frames are not accepted; send JSON text"),
        N("message nested too deeply (over %(n)d levels)"),
        N("invalid JSON at line %(line)d column %(column)d"),
        N("invalid JSON"),
        N("'%(name)s' must be an object"),
        N("'%(name)s' needs a 'type': the name of the move"),
        N("'%(name)s' must be true or false"),
        N("'%(name)s' must be a positive whole number of minor units, at most %(max)d"),
        N("'%(name)s' must be a seat number"),
        N("message could not be read"),
        N("a message must be a JSON object with a 'type'"),
        N("unknown message type %(type)s; expected one of %(types)s"),
        N("'id' must be 1-%(n)d letters, digits or _ . : -"),
        N("'%(type)s' needs an 'id': a string of 1-%(n)d characters"),
        N("'%(type)s' needs '%(name)s'"),
        N("unsupported message %(type)s"),
        N("'%(name)s' must name a phrase or an emote"),
        N("There is no phrase or emote called %(say)s."),
        N("'%(name)s' must be a player's name of 1-%(n)d characters"),
    ),
    "too_large": (N("message too large (over %(n)d bytes)"),),
    "read_only": (N("The lobby only sends."),),
    "rate_limited": (
        N("Too many messages: slow down (limit per second exceeded)."),
        N("Your last hint is still being worked out. Try again in 1 s."),
        N("Too many hints: you may ask for %(n)d every %(s)d seconds. Try again in %(wait).1f s."),
        N("Hints are busy right now. Try again in 1 s."),
        N("You are talking too fast: %(n)d phrases or emotes every %(s)d seconds. Try again in %(wait).1f s."),
        N("Too many invitations: you may send %(n)d a minute."),
    ),
    "too_many_connections": (
        N("You have %(n)d table connections open already: close one (another tab or device) first."),
    ),
    "login_required": (N("Log in to play."),),
    "server_error": (SERVER_ERROR,),
    "duplicate_id": (
        DUPLICATE_ID,
        N("This request id was already used for another request; send each request with a new id."),
    ),
    "illegal": (N("That action is sent by the server only."), N("That move is not allowed now.")),
    "not_seated": (
        N("You are not seated at this table."), N("You are not dealt into this hand."),
        N("Only players seated at this table may talk."), N("Nobody sits in that seat."),
    ),
    "no_hand": (N("No hand is in play at this table."), N("No hand is in play for you at this table.")),
    "table_full": (N("This table is full."), N("That seat is taken.")),
    "already_seated": (N("You are already seated at this table."),),
    "in_hand": (N("You can top up between hands."), N("You can remove a player between hands.")),
    "closed": (N("This table is closed."),),
    "leaving": (N("You are leaving this table."),),
    "banned": (N("This account is banned."),),
    "staff": (N("Staff and auditor accounts do not play: ask for the player role to sit down."),),
    "self_excluded": (N("You have excluded yourself from play until %(until)s."), STOP_MESSAGES["self_excluded"]),
    "cooling_off": (N("You are taking a break from play until %(until)s."), STOP_MESSAGES["cooling_off"]),
    "logged_out": (STOP_MESSAGES["logged_out"],),
    # private rooms (docs/RULES.md "Private rooms")
    "room_private": (N("This room is private: enter its code or ask for an invitation."),),
    "not_room": (N("This table is not a private room."),),
    "not_owner": (N("Only the room's owner may do that."),),
    "room_few_players": (N("%(n)d players must be seated and playing to start."),),
    "not_allowed": (
        N("To give up your own seat, use Leave table."),
        N("Only the room's owner and its seated players may invite."),
        N("Only the owner may invite back a player they removed."),
    ),
    "no_player": (N("No player has that name."),),
    "no_room": (N("No open room has this code."),),
    "room_removed": (N("The owner removed you from this room."),),
    "invite_refused": (N("That player is in this room already."), N("That player cannot be invited.")),
    "no_level": (N("There is no such stake level."),),
    "too_many_rooms": (N("You have %(n)d rooms open already: close one first."),),
    "loss_limit": (
        N("This would take your losses of the last 24 hours past your daily limit of %(limit)s coins "
          "(%(left)s left)."),
        N("This would take your losses of the last 7 days past your weekly limit of %(limit)s coins "
          "(%(left)s left)."),
    ),
    "insufficient_funds": (InsufficientFunds.template, InsufficientFunds.table_template),
    "below_minimum_buy_in": (BelowMinimumBuyIn.template,),
    "wallet_refused": tuple(cls.template for cls in (
        WalletError, IdempotencyConflict, UnbalancedTransaction, AlreadyReversed, InvalidPosting, TransactionNotFound,
    )),
}

#: Sample values of the placeholders, as the platform fills them in (numbers, coins, protocol
#: names a client sends, which stay as they are in every language).
PARAMETERS: dict[str, object] = {
    "n": 6, "s": 10, "wait": 2.5, "max": 10**12, "line": 1, "column": 7, "value": "NaN",
    "name": "buy_in", "type": "'join'", "types": "ping, sync, action, join", "until": "2026-12-31 12:00",
    "limit": "5,000.00", "left": "120.00", "balance": "3,004.00", "needs": "99,999.00", "amount": "10.00",
    "minimum": "1,500.00", "table": "3", "key": "buyin:3:7:a1", "field": "amount", "total": "0.50",
    "transaction": 42, "reason": "0", "say": "'shout'",
}
#: Latin words a Chinese message may keep: the protocol's own names and values (what a client
#: sends stays as it is) and "ID", as Chinese writes it.
PROTOCOL_WORDS = frozenset({"JSON", "id", "ID", "type", "true", "false", "ping", "sync", "action", "join", "buy_in",
                            "amount", "NaN", "buyin", "say", "shout"})
