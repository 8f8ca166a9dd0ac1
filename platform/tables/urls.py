from django.urls import path

from tables.views import LobbyView, TablePlayView, TableView

urlpatterns = [
    path("lobby/", LobbyView.as_view(), name="lobby"),
    path("lobby/play/<id:level_id>/", TablePlayView.as_view(), name="table-play"),
    path("tables/<id:table_id>/", TableView.as_view(), name="table"),
]
