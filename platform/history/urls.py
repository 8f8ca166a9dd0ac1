from django.urls import path

from history.views import HandReplayView, MyHandsView, RecordAddressView

urlpatterns = [
    path("", MyHandsView.as_view(), name="history-hands"),
    path("hands/<id:hand_id>/", HandReplayView.as_view(), name="history-hand"),
    # the old address (the record row's id), redirected
    path("<id:pk>/", RecordAddressView.as_view(), name="history-record"),
]
