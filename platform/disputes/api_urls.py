from django.urls import path

from disputes.api import DisputeDetailApi, DisputeListApi, DisputeResolveApi, DisputeReviewApi

urlpatterns = [
    path("", DisputeListApi.as_view(), name="api-disputes"),
    path("<id:pk>/", DisputeDetailApi.as_view(), name="api-dispute"),
    path("<id:pk>/review/", DisputeReviewApi.as_view(), name="api-dispute-review"),
    path("<id:pk>/resolve/", DisputeResolveApi.as_view(), name="api-dispute-resolve"),
]
