"""The REST layer of the calendar feed (api.play.reminders): the player's
switch under /api/v1/me/calendar-feed, and the feed itself, a plain
text/calendar answer at its unguessable address."""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpResponse
from django.urls import path, reverse
from django.utils.translation import get_language, gettext_lazy
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from api import clock
from api.play.reminders import feed, services
from api.play.rest.auth import user_or_guest
from api.play.rest.inputs import Input
from api.play.rest.schema import documented
from api.play.rest.shapes import ClockTime, Computed, Output


class FeedIn(Input):
    # A pattern, not a TimeField: the schema then says HH:MM, and nothing else is taken.
    reminder = serializers.RegexField(
        r"^([01][0-9]|2[0-3]):[0-5][0-9]$", max_length=5,
        error_messages={"invalid": gettext_lazy("Use HH:MM, from 00:00 to 23:59.")},
        help_text="HH:MM in the daily time zone: the reminder's time each day.")

    def validate_reminder(self, value: str) -> dt.time:
        return dt.time.fromisoformat(value)


# The player's feed (``feed``: a CalendarFeed, or None while it is off), its
# address built for the context's ``request``.
class FeedOut(Output):
    enabled = Computed(serializers.BooleanField())
    url = Computed(serializers.URLField(allow_null=True, help_text="The feed's private address."))
    reminder = ClockTime(source="feed.reminder", allow_null=True,
                         help_text="HH:MM, daily time zone.")
    time_zone = Computed(serializers.CharField())

    def get_enabled(self, mine) -> bool:
        return mine["feed"] is not None

    def get_url(self, mine) -> str | None:
        if mine["feed"] is None:
            return None
        path = reverse("play:calendar-feed-ics", args=[mine["feed"].token])
        return self.context["request"].build_absolute_uri(path)

    def get_time_zone(self, mine) -> str:
        return str(clock.daily_zone())


def _feed_out(request, found) -> dict:
    return FeedOut.build({"feed": found}, request=request)


class CalendarFeedView(APIView):
    @documented(ok={200: FeedOut}, operation_id="calendar_feed_get",
                summary="My calendar feed: on or off, its address and hour")
    def get(self, request):
        user = user_or_guest(request)
        return Response(_feed_out(request, services.feed_of(user)))

    @documented(request=FeedIn, ok={200: FeedOut}, errors=(403,),
                summary="Turn my calendar feed on, or change its reminder's hour")
    def put(self, request):
        serializer = FeedIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_or_guest(request)
        found = services.feed_set(user=user, reminder=serializer.validated_data["reminder"],
                                  language=get_language() or "pt-pt", now=clock.now())
        return Response(_feed_out(request, found))

    @documented(ok={204: None}, body=False,
                summary="Turn my calendar feed off: its address stops working")
    def delete(self, request):
        services.feed_revoke(user=user_or_guest(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


def calendar_feed_ics(request, token: str) -> HttpResponse:
    """The feed (text/calendar); an unknown or revoked address is a 404."""
    found = services.feed_by_token(token)
    if found is None:
        raise Http404("no such calendar feed")
    text = feed.feed_text(reminder=found.reminder, language=found.language, now=clock.now(),
                          site=f"{request.scheme}://{request.get_host()}",
                          host=request.get_host().split(":")[0])
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="daily-patience.ics"'
    return response


urlpatterns = [
    path("me/calendar-feed", CalendarFeedView.as_view(), name="calendar-feed"),
    path("calendar-feed/<str:token>.ics", calendar_feed_ics, name="calendar-feed-ics"),
]
