"""The channel-layer group of the lobby: its lobby sockets (``tables.consumers``) listen on it and
live play's lobby feed (``games.lobby``) sends to it. A module of its own, so that the sender
needs nothing of the consumer."""

#: The channel-layer group every lobby socket listens on.
LOBBY_GROUP = "lobby"
