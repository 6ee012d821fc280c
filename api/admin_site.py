"""The admin site, served at ADMIN_PATH only (none by default), with its
login throttled per address like the API's (scope ``login_address``); wrong
passwords lock a username out there too (api.play.accounts.lockout)."""

from __future__ import annotations

import math

from django.contrib import admin
from django.http import HttpResponse

from api.play.rest import throttles


class AdminSite(admin.AdminSite):
    def login(self, request, extra_context=None):
        if request.method == "POST":
            wait = throttles.allowed(throttles.LoginAddressThrottle, request=request)
            if wait is not None:
                return HttpResponse(
                    "Too many login attempts: try again later.\n",
                    status=429,
                    content_type="text/plain; charset=utf-8",
                    headers={"Retry-After": str(math.ceil(wait))},
                )
        return super().login(request, extra_context)

