"""The strings the lobby and table scripts show about private rooms and watching (translated for
the page's language; ``{name}`` marks a value the script fills in)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: The lobby: invitations, live from the lobby socket.
LOBBY_ROOMS: dict[str, Promise] = {
    "invite_from": _("{name} invites you to a private room ({stake})"),
    "invite_open": _("Go to the room"),
}

#: The table page: the room panel and the watchers.
ROOM: dict[str, Promise] = {
    "room_title": _("Private room"),
    "room_code": _("Room code"),
    "room_link": _("Link to share"),
    "room_copy": _("Copy link"),
    "room_copied": _("Link copied."),
    "room_waiting_start": _("Waiting for the owner to start ({n} of {m} players ready)."),
    "room_start": _("Start"),
    "room_close": _("Close room"),
    "room_close_confirm": _("Close this room? Everyone's table money goes back to their wallets."),
    "room_remove": _("Remove"),
    "room_remove_confirm": _("Remove {name} from the room? Their table money goes back to their wallet."),
    "room_invite": _("Invite a player by name"),
    "room_invite_button": _("Invite"),
    "room_invited": _("{name} is invited."),
    "room_removed_done": _("{name} was removed."),
    "notice_room_removed": _("The owner removed you from this room; your table money is back in your wallet."),
    "watchers": _("{n} watching"),
    "err_room_private": _("This room is private."),
    "err_room_few_players": _("Not enough players to start."),
    "err_no_player": _("No player has that name."),
    "err_not_owner": _("Only the room's owner may do that."),
    "err_invite_refused": _("That player cannot be invited."),
    "err_not_allowed": _("Not allowed."),
}
