from django.urls import path

from tables.room_views import RoomEnterView, RoomOpenView
from tables.views import LobbyView, TablePlayView, TableView

urlpatterns = [
    path("lobby/", LobbyView.as_view(), name="lobby"),
    path("lobby/play/<id:level_id>/", TablePlayView.as_view(), name="table-play"),
    path("tables/<id:table_id>/", TableView.as_view(), name="table"),
    path("rooms/", RoomEnterView.as_view(), name="room-enter-form"),
    path("rooms/open/", RoomOpenView.as_view(), name="room-open"),
    path("rooms/<str:code>/", RoomEnterView.as_view(), name="room-enter"),
]
