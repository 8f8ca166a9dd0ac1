from django.urls import path

from disputes.views import DisputeDetailView, DisputeListView, DisputeOpenView

urlpatterns = [
    path("", DisputeListView.as_view(), name="dispute-list"),
    path("new/<int:hand_id>/", DisputeOpenView.as_view(), name="dispute-open"),
    path("<int:pk>/", DisputeDetailView.as_view(), name="dispute-detail"),
]
