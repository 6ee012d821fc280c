from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from frontend import catalog, pwa, views

app_name = "frontend"

urlpatterns = [
    path("", views.today, name="home"),
    path("play/<str:game>/", views.play, name="play"),
    path("play/<str:game>/<str:date>/", views.play, name="play-day"),
    path("calendar/<str:game>/", views.calendar, name="calendar"),
    path("history/", views.history, name="history"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("replay/<str:game>/<str:date>/", views.replay, name="replay"),
    path("account/", views.account, name="account"),
    path("privacy/", views.privacy, name="privacy"),
    path("rules/<str:game>/", views.rules, name="rules"),
    path("leagues/", views.leagues, name="leagues"),
    path("leagues/join/<str:code>/", views.leagues, name="league-join"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["frontend"]), name="jsi18n"),
    path("jsi18n/<str:language>/<str:version>/", catalog.js_catalog, name="jsi18n-versioned"),
    path("i18n/", include("django.conf.urls.i18n")),
]
