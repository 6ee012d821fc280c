"""Page views: each renders a template whose scripts read everything from the
play API. No view imports the engine; the pages hold no rules."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import ensure_csrf_cookie

from api import clock
from api.deals.models import Game
from frontend.dates import long_date

# The games' names as the pages show them, keyed by the games' one list.
GAMES = {Game.CRUEL.value: _("Cruel"), Game.FLOWER.value: _("Flower Garden")}


def _game_or_404(game: str) -> str:
    if game not in GAMES:
        raise Http404(f"unknown game {game!r}")
    return game


def rules_template(game: str) -> str:
    """The rules in the page's language: pt-PT as published, English as docs/rules/ states them."""
    language = "en" if (get_language() or "").startswith("en") else "pt"
    return f"frontend/rules/{game}.{language}.html"


def _date_or_404(text: str) -> datetime.date:
    try:
        return clock.parse_day(text)
    except ValueError:
        raise Http404(f"not a date: {text!r}") from None


@ensure_csrf_cookie
def today(request: HttpRequest) -> HttpResponse:
    """The front page: both of today's deals with the player's state on each,
    the streak, the countdown to the next day, and how each game is played."""
    return render(request, "frontend/today.html", {"nav": "today", "games": list(GAMES.items())})


@ensure_csrf_cookie
def play(request: HttpRequest, game: str, date: str | None = None) -> HttpResponse:
    """Today's deal of a game, or with ``date`` a past day of its archive
    (played as practice; the page asks the API whether that day had a deal).
    A dated link to a day that is not over (a shared link of today) is
    today's page: ranked rules and today's words. A future date reaches the
    page too, whose API call answers ``future_date``."""
    game = _game_or_404(game)
    day = _date_or_404(date) if date else None
    if day is not None and day == clock.today():
        day = None
    return render(
        request,
        "frontend/play.html",
        {"game": game, "game_name": GAMES[game], "rules_template": rules_template(game),
         "nav": game, "date": day.isoformat() if day else "",
         "date_text": long_date(day) if day else ""},
    )


@ensure_csrf_cookie
def calendar(request: HttpRequest, game: str) -> HttpResponse:
    """A game's archive, a month at a time (?month=YYYY-MM; the API checks it)."""
    game = _game_or_404(game)
    month = request.GET.get("month", "")
    return render(
        request,
        "frontend/calendar.html",
        {"game": game, "game_name": GAMES[game], "nav": "calendar", "month": month,
         "games": GAMES.items()},
    )


@ensure_csrf_cookie
def history(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/history.html", {"nav": "history"})


@ensure_csrf_cookie
def leaderboard(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", Game.CRUEL.value)
    if game not in GAMES:
        game = Game.CRUEL.value
    return render(
        request,
        "frontend/leaderboard.html",
        {"nav": "leaderboard", "game": game, "date": request.GET.get("date", ""), "games": GAMES.items(),
         "registered": request.GET.get("registered") == "true"},
    )


@ensure_csrf_cookie
def replay(request: HttpRequest, game: str, date: str) -> HttpResponse:
    """A past day's solution, or with ?attempt=id the player's own attempt
    (reached from their history, so the menu marks History)."""
    game = _game_or_404(game)
    day = _date_or_404(date)
    attempt = request.GET.get("attempt", "")
    return render(
        request,
        "frontend/replay.html",
        {"nav": "history" if attempt else "calendar", "game": game, "game_name": GAMES[game],
         "date": day.isoformat(), "date_text": long_date(day), "attempt": attempt},
    )


def rules(request: HttpRequest, game: str) -> HttpResponse:
    game = _game_or_404(game)
    return render(
        request,
        "frontend/rules.html",
        {"nav": "rules", "game": game, "game_name": GAMES[game], "rules_template": rules_template(game)},
    )


@ensure_csrf_cookie
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/account.html",
                  {"nav": "account", "privacy_url": reverse("frontend:privacy")})


def privacy(request: HttpRequest) -> HttpResponse:
    """What is kept about a player, for how long, and how to take it or delete it;
    the periods are the settings in force."""
    return render(request, "frontend/privacy.html", {
        "nav": "privacy",
        "guest_idle_days": settings.PLAY_GUEST_IDLE_DAYS,
        "session_days": round(settings.SESSION_COOKIE_AGE / 86400),
        "token_days": round(settings.API_TOKEN_TTL_SECONDS / 86400),
        "lockout_hours": round(settings.AUTH_LOCKOUT_MAX_SECONDS / 3600, 1),
    })


@ensure_csrf_cookie
def leagues(request: HttpRequest, code: str = "") -> HttpResponse:
    """Private leagues: mine, a new one, a league's boards; with ``code``
    (an invite link) the offer to join that league (the API checks the code)."""
    return render(request, "frontend/leagues.html", {"nav": "leagues", "invite_code": code})
