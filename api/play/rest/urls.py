from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView

from api.play.rest import calendar_feed, leagues, views
from api.play.rest.schema import SchemaView

app_name = "play"

urlpatterns = [
    path("me", views.MeView.as_view(), name="me"),
    path("me/data", views.MyDataView.as_view(), name="me-data"),
    path("auth/register", views.RegisterView.as_view(), name="register"),
    path("auth/login", views.LoginView.as_view(), name="login"),
    path("auth/logout", views.LogoutView.as_view(), name="logout"),
    path("auth/token", views.TokenView.as_view(), name="token"),
    path("daily", views.DailyView.as_view(), name="daily"),
    path("daily/<str:date>", views.DailyDocumentView.as_view(), name="daily-day"),
    path("daily/<str:date>/<str:game>", views.DailyDealView.as_view(), name="daily-deal"),
    path("daily/<str:date>/<str:game>/solution", views.DailySolutionView.as_view(),
         name="daily-solution"),
    path("daily/<str:date>/<str:game>/post-mortem", views.PostMortemView.as_view(),
         name="daily-post-mortem"),
    path("attempts", views.AttemptsView.as_view(), name="attempts"),
    path("attempts/<int:attempt_id>", views.AttemptView.as_view(), name="attempt"),
    path("attempts/<int:attempt_id>/moves", views.MoveView.as_view(), name="attempt-moves"),
    path("attempts/<int:attempt_id>/undo", views.UndoView.as_view(), name="attempt-undo"),
    path("attempts/<int:attempt_id>/finish", views.FinishView.as_view(), name="attempt-finish"),
    path("attempts/<int:attempt_id>/retry", views.RetryView.as_view(), name="attempt-retry"),
    path("attempts/<int:attempt_id>/log", views.LogView.as_view(), name="attempt-log"),
    path("attempts/<int:attempt_id>/hint", views.HintView.as_view(), name="attempt-hint"),
    path("attempts/<int:attempt_id>/first-move", views.FirstMoveView.as_view(),
         name="attempt-first-move"),
    path("attempts/<int:attempt_id>/analysis", views.AnalysisView.as_view(),
         name="attempt-analysis"),
    path("history", views.HistoryView.as_view(), name="history"),
    path("calendar/<str:game>", views.CalendarView.as_view(), name="calendar"),
    path("calendar/<str:game>/<str:month>", views.CalendarMonthView.as_view(), name="calendar-month"),
    path("leaderboard/<str:game>/<str:date>", views.LeaderboardView.as_view(), name="leaderboard"),
    path("schema/", SchemaView.as_view(), name="schema"),
    # Split: the page's start script comes from its own URL, so the strict
    # Content-Security-Policy (api.security) needs no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(
        url_name="play:schema", template_name="play/swagger_ui.html"), name="docs"),
]

# Private leagues and the calendar feed: their own modules.
urlpatterns += leagues.urlpatterns + calendar_feed.urlpatterns
