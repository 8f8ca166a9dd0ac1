from django.urls import path

from responsible.views import LimitsView

urlpatterns = [
    path("", LimitsView.as_view(), name="responsible-limits"),
]
