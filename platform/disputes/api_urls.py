from django.urls import path

from disputes.api import DisputeDetailApi, DisputeListApi, DisputeResolveApi, DisputeReviewApi

urlpatterns = [
    path("", DisputeListApi.as_view(), name="api-disputes"),
    path("<int:pk>/", DisputeDetailApi.as_view(), name="api-dispute"),
    path("<int:pk>/review/", DisputeReviewApi.as_view(), name="api-dispute-review"),
    path("<int:pk>/resolve/", DisputeResolveApi.as_view(), name="api-dispute-resolve"),
]
