from django.urls import path

from history.views import HandReplayView, MyHandsExportView, MyHandsView, RecordAddressView

urlpatterns = [
    path("", MyHandsView.as_view(), name="history-hands"),
    path("export/", MyHandsExportView.as_view(), name="history-export"),
    path("hands/<id:hand_id>/", HandReplayView.as_view(), name="history-hand"),
    # the old address (the record row's id), redirected
    path("<id:pk>/", RecordAddressView.as_view(), name="history-record"),
]
