from django.urls import path

from friends import views

app_name = "friends"
urlpatterns = [
    path("", views.FriendsView.as_view(), name="friends"),
    path("panel/", views.FriendsPanelView.as_view(), name="panel"),
    path("request/", views.FriendRequestSendView.as_view(), name="request"),
    path("requests/<int:pk>/accept/", views.FriendRequestAcceptView.as_view(), name="accept"),
    path("requests/<int:pk>/decline/", views.FriendRequestDeclineView.as_view(), name="decline"),
    path("block/", views.FriendBlockView.as_view(), name="block-name"),
    path("<int:user_id>/remove/", views.FriendRemoveView.as_view(), name="remove"),
    path("<int:user_id>/block/", views.FriendBlockView.as_view(), name="block"),
    path("<int:user_id>/unblock/", views.FriendUnblockView.as_view(), name="unblock"),
    path("<int:user_id>/invite/", views.FriendInviteView.as_view(), name="invite"),
]
