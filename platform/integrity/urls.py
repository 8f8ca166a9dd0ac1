"""The integrity pages, mounted under ``admin/integrity/`` and wrapped by the admin site's login."""

from django.contrib import admin
from django.urls import path

from integrity import views

app_name = "integrity"

urlpatterns = [
    path("", admin.site.admin_view(views.pairs_view), name="pairs"),
    path("welcome-coins/", admin.site.admin_view(views.grant_flows_view), name="grant_flows"),
    path("players/", admin.site.admin_view(views.players_view), name="players"),
    path("pairs/<id:a>/<id:b>/", admin.site.admin_view(views.pair_view), name="pair"),
    path("player/<id:user_id>/", admin.site.admin_view(views.player_view), name="player"),
]
