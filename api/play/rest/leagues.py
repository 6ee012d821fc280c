"""The REST layer of private leagues (api.play.leagues): inputs, answers
(Outputs: each builds its answer and is what the schema documents), views
and their URLs (included by rest/urls.py)."""

from __future__ import annotations

from django.conf import settings
from django.urls import path, reverse
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from api import clock
from api.deals import selectors as day_deals
from api.deals.models import DailyDeal
from api.errors import FutureDate
from api.play.leagues import services
from api.play.leagues.models import League
from api.play.records import league_boards as boards
from api.play.rest import throttles
from api.play.rest.answers import LeaderboardEntryOut
from api.play.rest.auth import user_or_guest
from api.play.rest.inputs import DisplayNameField, Input, StrictCharField, _display_name
from api.play.rest.schema import DATE, GAME, documented
from api.play.rest.shapes import Computed, Output
from api.play.rest.views import _date, deal_at

# -- input -------------------------------------------------------------------------


class LeagueIn(Input):
    # Cleaned as display names are (api.play.names).
    name = DisplayNameField(max_length=40, min_length=1)

    def validate_name(self, value):
        return _display_name(value)


class JoinIn(Input):
    code = StrictCharField(max_length=64, min_length=1)


def _valid(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# -- answers -------------------------------------------------------------------------


# A league (api.play.leagues.models.League) as the player of the context's
# ``user`` sees it.
class LeagueSummaryOut(Output):
    id = serializers.IntegerField()
    name = serializers.CharField()
    is_owner = Computed(serializers.BooleanField())
    member_count = Computed(serializers.IntegerField())

    def get_is_owner(self, league) -> bool:
        return league.owner_id == self.context["user"].pk

    def get_member_count(self, league) -> int:
        count = getattr(league, "member_count", None)  # annotated by services.leagues_of
        return league.members.count() if count is None else count


class LeagueListOut(Output):
    leagues = LeagueSummaryOut(many=True)


# Built from api.play.records.league_boards.Member.
class LeagueMemberOut(Output):
    id = serializers.IntegerField(help_text="The membership's id: the owner removes by it.")
    display_name = serializers.CharField()
    is_owner = serializers.BooleanField()
    is_me = serializers.BooleanField()


# A league with its members (in the context: ``members``).
class LeagueOut(LeagueSummaryOut):
    max_members = Computed(serializers.IntegerField())
    members = Computed(LeagueMemberOut(many=True))
    invite_code = Computed(serializers.CharField(allow_null=True, help_text="The owner's only."))
    invite_path = Computed(serializers.CharField(allow_null=True,
                                                 help_text="The page that joins by the code."))

    def get_member_count(self, league) -> int:
        return len(self.context["members"])

    def get_max_members(self, league) -> int:
        return settings.LEAGUE_MAX_MEMBERS

    def get_members(self, league) -> list:
        return self.context["members"]

    def get_invite_code(self, league) -> str | None:
        return league.invite_code if self.get_is_owner(league) else None

    def get_invite_path(self, league) -> str | None:
        if not self.get_is_owner(league):
            return None
        return reverse("frontend:league-join", args=[league.invite_code])


class StandingOut(Output):
    rank = serializers.IntegerField()
    display_name = serializers.CharField()
    points = serializers.IntegerField()
    days_played = serializers.IntegerField()
    is_me = serializers.BooleanField()


class PeriodOut(Output):
    start = serializers.DateField()
    end = serializers.DateField()
    standings = StandingOut(many=True)


class LeagueRefOut(Output):
    id = serializers.IntegerField()
    name = serializers.CharField()


# Built from api.play.records.league_boards.LeagueBoards.
class LeagueBoardsOut(Output):
    league = LeagueRefOut()
    game = serializers.CharField(source="deal.game")
    date = serializers.DateField(source="deal.date")
    today = serializers.BooleanField()
    entries = LeaderboardEntryOut(many=True, help_text="The day's leaderboard, members only.")
    not_played = serializers.ListField(child=serializers.CharField(),
                                       help_text="Members not on the day's board.")
    week = PeriodOut(help_text="Monday to the day.")
    month = PeriodOut(help_text="The month's first day to the day.")


# Built from api.play.records.league_boards.Place.
class PlaceOut(Output):
    league = LeagueRefOut()
    game = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True,
                                    help_text="Among the members on the day's board; null "
                                              "while the player is not on it.")
    players = serializers.IntegerField(help_text="Members on the day's board.")
    members = serializers.IntegerField(help_text="Members of the league.")


class PlacesOut(Output):
    date = serializers.DateField()
    places = PlaceOut(many=True, help_text="Each league of mine (by name), each game of the day.")


# What an invite names (api.play.leagues.services.Invite).
class InviteOut(Output):
    name = serializers.CharField(source="league.name")
    invited_by = serializers.CharField(help_text="The owner's display name.")
    member_count = serializers.IntegerField()
    max_members = Computed(serializers.IntegerField())
    is_member = serializers.BooleanField()
    league_id = Computed(serializers.IntegerField(allow_null=True,
                                                  help_text="Given to its members only."))

    def get_max_members(self, invite) -> int:
        return settings.LEAGUE_MAX_MEMBERS

    def get_league_id(self, invite) -> int | None:
        return invite.league.pk if invite.is_member else None


def _league_out(league: League, *, user) -> dict:
    members = boards.members_of(league, user_id=user.pk)
    return LeagueOut.build(league, user=user, members=members)


# -- views -------------------------------------------------------------------------

LEAGUE_ERRORS = (403, 404)


class LeaguesView(APIView):
    @documented(ok={200: LeagueListOut}, operation_id="leagues_list", summary="My leagues")
    def get(self, request):
        user = user_or_guest(request)
        leagues = {"leagues": services.leagues_of(user=user)}
        return Response(LeagueListOut.build(leagues, user=user))

    @documented(request=LeagueIn, ok={201: LeagueOut}, errors=(403, 409),
                summary="Make a league (registered players); you own it")
    def post(self, request):
        data = _valid(LeagueIn, request.data)
        user = user_or_guest(request)
        league = services.league_create(user=user, name=data["name"], now=clock.now())
        return Response(_league_out(league, user=user), status=status.HTTP_201_CREATED)


class LeagueJoinView(APIView):
    throttle_classes = [throttles.PlayAnonThrottle, throttles.PlayUserThrottle,
                        throttles.LeagueJoinThrottle]

    @documented(request=JoinIn, ok={200: LeagueOut}, errors=(403, 404, 409),
                summary="Join a league by its invite code")
    def post(self, request):
        data = _valid(JoinIn, request.data)
        user = user_or_guest(request)
        league = services.league_join(user=user, code=data["code"], now=clock.now())
        return Response(_league_out(league, user=user))


class LeagueInviteReadView(APIView):
    throttle_classes = [throttles.PlayAnonThrottle, throttles.PlayUserThrottle,
                        throttles.LeagueJoinThrottle]

    @documented(ok={200: InviteOut}, errors=(404,),
                summary="What an invite code names: the league and who invites (guests too)")
    def get(self, request, code: str):
        data = _valid(JoinIn, {"code": code})
        invite = services.invite_read(user=user_or_guest(request), code=data["code"])
        return Response(InviteOut.build(invite))


class LeagueView(APIView):
    @documented(ok={200: LeagueOut}, errors=(404,), summary="A league of mine")
    def get(self, request, league_id: int):
        user = user_or_guest(request)
        league = services.league_of_member(user=user, league_id=league_id)
        return Response(_league_out(league, user=user))

    @documented(ok={204: None}, errors=LEAGUE_ERRORS, body=False,
                summary="Close the league (its owner): it is deleted")
    def delete(self, request, league_id: int):
        services.league_close(user=user_or_guest(request), league_id=league_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueLeaveView(APIView):
    @documented(ok={204: None}, errors=(404, 409), body=True,
                summary="Leave a league (not its owner)")
    def post(self, request, league_id: int):
        services.league_leave(user=user_or_guest(request), league_id=league_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueInviteView(APIView):
    @documented(ok={200: LeagueOut}, errors=LEAGUE_ERRORS, body=True,
                summary="A new invite code (its owner); the old link stops working")
    def post(self, request, league_id: int):
        user = user_or_guest(request)
        return Response(_league_out(services.invite_renew(user=user, league_id=league_id),
                                    user=user))


class LeagueMemberView(APIView):
    @documented(ok={204: None}, errors=(403, 404, 409), body=False,
                summary="Remove a member (its owner)")
    def delete(self, request, league_id: int, member_id: int):
        services.member_remove(user=user_or_guest(request), league_id=league_id,
                               member_id=member_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueBoardsView(APIView):
    @documented(ok={200: LeagueBoardsOut}, errors=(400, 404), parameters=[GAME, DATE],
                operation_id="league_boards",
                summary="A day's board among the members, the week's and month's standings")
    def get(self, request, league_id: int, game: str, date: str):
        user = user_or_guest(request)
        league = services.league_of_member(user=user, league_id=league_id)
        now = clock.now()
        deal = deal_at(game, date, now)
        found = boards.league_boards(league, deal=deal, user_id=user.pk, now=now)
        return Response(LeagueBoardsOut.build(found))


class LeaguePlacesView(APIView):
    @documented(ok={200: PlacesOut}, errors=(400, 404), parameters=[DATE],
                operation_id="league_places",
                summary="My place in each of my leagues on a day's deals")
    def get(self, request, date: str):
        user = user_or_guest(request)
        day = _date(date)
        if day > clock.day_of(clock.now()):
            raise FutureDate()
        deals = [deal for deal in day_deals.daily_deals(day=day)
                 if deal.state == DailyDeal.State.VERIFIED]
        places = boards.places(leagues=services.leagues_of(user=user), deals=deals,
                               user_id=user.pk)
        return Response(PlacesOut.build({"date": day, "places": places}))


urlpatterns = [
    path("leagues", LeaguesView.as_view(), name="leagues"),
    path("leagues/join", LeagueJoinView.as_view(), name="league-join"),
    path("leagues/invites/<str:code>", LeagueInviteReadView.as_view(), name="league-invite-read"),
    path("leagues/places/<str:date>", LeaguePlacesView.as_view(), name="league-places"),
    path("leagues/<int:league_id>", LeagueView.as_view(), name="league"),
    path("leagues/<int:league_id>/leave", LeagueLeaveView.as_view(), name="league-leave"),
    path("leagues/<int:league_id>/invite", LeagueInviteView.as_view(), name="league-invite"),
    path("leagues/<int:league_id>/members/<int:member_id>", LeagueMemberView.as_view(),
         name="league-member"),
    path("leagues/<int:league_id>/boards/<str:game>/<str:date>", LeagueBoardsView.as_view(),
         name="league-boards"),
]
