"""Headers every response carries (SecurityHeadersMiddleware).

- Content-Security-Policy: scripts, styles, fonts and fetches from this site
  only, with no inline script or style (the pages load theirs from static
  files; Swagger UI is served split, its start script from its own URL);
  images from this site or data: URIs (Swagger UI's icons); no plugins,
  no framing, forms post only here.
- Permissions-Policy: none of the browser features the site has no use for.
- Cache-Control: no-store on the API's answers (they are per player and
  change with every action), except the few a view marks ``public`` (the
  day's document, a leaderboard asked without a session or token) and that
  set no cookie; pages and static files keep their own.
"""

from __future__ import annotations

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture", "geolocation", "gyroscope",
        "magnetometer", "microphone", "midi", "payment", "publickey-credentials-get",
        "screen-wake-lock", "serial", "usb", "xr-spatial-tracking",
    )
)

API_PREFIX = "/api/"


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        if request.path.startswith(API_PREFIX) and not (
                response.get("Cache-Control", "").startswith("public") and not response.cookies):
            response["Cache-Control"] = "no-store"
            response.headers.pop("X-Accel-Expires", None)
        return response
