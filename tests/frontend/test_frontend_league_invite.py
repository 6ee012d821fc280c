"""An invite link in the browser: a guest sees the league and who invites,
registers, comes back to the invitation and joins in one tap; the owner has
Copy (and Share where the device has a share sheet) by the link, and
"Close the league" away from it. Both languages, desktop and phone."""

from __future__ import annotations

import re

import pytest
from frontend_steps import api_get, api_post, hold_requests, wait_until

PASSWORD = "a long enough pass phrase 42"
WORDS = {
    "en": {"invites": "Alice invites you to join “Friday Club” (1 member).", "register": "Create an account to join",
           "username": "Username", "password": "Password", "submit": "Register", "join": "Join the league",
           "copied": "Copied."},
    "pt-PT": {"invites": "Alice convida-o a entrar na liga “Friday Club” (1 membro).",
              "register": "Criar conta para entrar", "username": "Nome de utilizador", "password": "Palavra-passe",
              "submit": "Criar conta", "join": "Entrar na liga", "copied": "Copiado."},
}


@pytest.mark.parametrize(("locale", "view"), [("pt-PT", "phone"), ("en", "desktop")])
def test_a_guest_follows_an_invite_through_sign_up_and_joins_in_one_tap(
        locale, view, deals, device_page, live_server, screenshot, audit):
    words = WORDS[locale]
    owner = device_page(locale, view, live_server.url + "/leagues/")
    owner.wait_for_load_state("networkidle")
    registered = api_post(owner, "/auth/register", {"username": "alice", "password": PASSWORD,
                                                    "display_name": "Alice"})
    assert registered.get("username") == "alice", registered
    league = api_post(owner, "/leagues", {"name": "Friday Club"})
    owner.goto(live_server.url + f"/leagues/?league={league['id']}")
    link = owner.locator('[data-ref="invite-link"]')
    owner.wait_for_function("() => document.querySelector('[data-ref=\"invite-link\"]').value !== ''")
    assert link.input_value().endswith(league["invite_path"])
    copy = owner.locator('[data-ref="copy-link"]')
    copy.click()
    # The status follows the clipboard's answer, a promise: read once it is in.
    status = owner.locator('[data-ref="copy-status"]')
    status.filter(has_text=words["copied"]).wait_for()
    assert status.inner_text() == words["copied"]
    share = owner.locator('[data-ref="share-link"]')
    assert share.is_visible() is owner.evaluate("() => typeof navigator.share === 'function'")
    # Closing the league is away from the link: below the members. Both
    # boxes are read in one frame, once the members are listed (the boards
    # above them still load, and move both).
    owner.locator('[data-ref="members"] li').first.wait_for()
    close, members = owner.evaluate("""() => ['close', 'members'].map((ref) => {
      const box = document.querySelector(`[data-ref="${ref}"]`).getBoundingClientRect();
      return {top: box.top, bottom: box.bottom}; })""")
    assert close["top"] >= members["bottom"], (close, members)
    screenshot(owner, f"leagues-owner-{locale}-{view}")
    assert audit(owner) == []

    guest = device_page(locale, view, live_server.url + league["invite_path"])
    guest.locator('[data-ref="invite-text"]').filter(has_text=words["invites"]).wait_for()
    assert guest.locator('[data-ref="join"]').is_hidden()
    assert guest.locator('[data-ref="guest"]').is_hidden()
    screenshot(guest, f"leagues-invite-guest-{locale}-{view}")
    assert audit(guest) == []
    guest.locator('[data-ref="invite-register"]').click()
    register = guest.locator('[data-ref="register"]')
    register.get_by_label(words["username"]).fill("bob")
    register.get_by_label(words["password"]).fill(PASSWORD)
    register.get_by_role("button", name=words["submit"]).click()
    # Back at the invitation, registered: Join is the primary action, one tap.
    guest.wait_for_url(f"**{league['invite_path']}")
    join = guest.locator('[data-ref="join"]')
    join.wait_for()
    assert "button--primary" in join.get_attribute("class")
    assert guest.locator('[data-ref="invite-text"]').inner_text() == words["invites"]
    join.click()
    guest.wait_for_url(f"**/leagues/?league={league['id']}")
    guest.locator('[data-ref="members"] li').nth(1).wait_for()
    assert guest.locator('[data-ref="members"] li').count() == 2


def test_registering_waits_for_the_account_page_s_first_reads(device_page, live_server):
    """A read sent with the guest's session and answered after a registration
    replaced that session would make a new guest and set its cookie over the
    registered one. The account's forms open only once the page's first
    reads (the calendar feed's too) are in."""
    words = WORDS["en"]
    page = device_page("en", "desktop", live_server.url + "/privacy/")
    held = hold_requests(page, re.compile(r"/api/v1/me/calendar-feed$"))
    sent = []
    page.on("request", lambda request: sent.append(request.url))
    page.goto(live_server.url + "/account/")
    wait_until(page, lambda: held, "the feed's first read, held")
    register = page.locator('[data-ref="register"]')
    register.get_by_label(words["username"]).fill("carol")
    register.get_by_label(words["password"]).fill(PASSWORD)
    register.get_by_role("button", name=words["submit"]).click()
    assert not [url for url in sent if url.endswith("/auth/register")]
    for route in held:
        route.continue_()
    page.unroute(re.compile(r"/api/v1/me/calendar-feed$"))
    page.wait_for_selector('[data-account][data-busy="false"]')
    register.get_by_label(words["password"]).fill(PASSWORD)  # a refused submit kept the rest
    register.get_by_role("button", name=words["submit"]).click()
    page.wait_for_function("() => document.querySelector('[data-account]').dataset.guest === 'false'")
    page.wait_for_load_state("networkidle")
    assert api_get(page, "/me")["username"] == "carol"
