from django.urls import path

from disputes.views import DisputeDetailView, DisputeListView, DisputeOpenView

urlpatterns = [
    path("", DisputeListView.as_view(), name="dispute-list"),
    path("new/<id:hand_id>/", DisputeOpenView.as_view(), name="dispute-open"),
    path("<id:pk>/", DisputeDetailView.as_view(), name="dispute-detail"),
]
