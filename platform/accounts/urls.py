from django.contrib.auth import views as auth_views
from django.urls import path

from accounts.sign_in import SignInView, SignOutView
from accounts.views import ProfileView, SignUpView

urlpatterns = [
    path("signup/", SignUpView.as_view(), name="signup"),
    path("login/", SignInView.as_view(), name="login"),
    path("logout/", SignOutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("profile/", ProfileView.as_view(), name="profile"),
]
