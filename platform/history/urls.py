from django.urls import path

from history.views import HandReplayView, MyHandsView

urlpatterns = [
    path("", MyHandsView.as_view(), name="history-hands"),
    path("<int:pk>/", HandReplayView.as_view(), name="history-hand"),
]
