"""The account page: a guest registers keeping the attempt, logs out and in
again, changes the name shown on the leaderboard; errors are announced; both
languages; an accessibility audit."""

from __future__ import annotations

from frontend_steps import certified, click_move, start_attempt

import solitaire

PASSWORD = "a long enough pass phrase 42"


def wait_ready(page) -> None:
    page.wait_for_selector('[data-account][data-busy="false"][data-guest]')


def test_a_guest_registers_logs_out_and_in_and_keeps_the_attempt(deals, today, open_page, screenshot, audit):
    page = open_page("/play/cruel/")
    start_attempt(page)
    position, certificate = certified("cruel")
    first = certificate.split()[0]
    click_move(page, first)
    home = solitaire.parse_position(position).apply(solitaire.Move.parse(first)).cards_home()

    page.get_by_role("link", name="Account").click()
    wait_ready(page)
    assert page.locator('[data-account]').get_attribute("data-guest") == "true"
    assert "playing as a guest" in page.locator('[data-ref="status"]').inner_text()
    # The calendar feed is for registered players: its note, not its form.
    page.wait_for_selector("[data-calendar-feed]:not([hidden])")
    assert page.locator('[data-ref="feed-guest"]').is_visible()
    assert page.locator('[data-ref="feed-form"]').is_hidden()
    assert audit(page) == []
    screenshot(page, "account-guest-en")

    register = page.locator('[data-ref="register"]')
    register.get_by_label("Username").fill("walker")
    register.get_by_label("Password").fill(PASSWORD)
    register.get_by_role("button", name="Register").click()
    page.wait_for_selector('[data-account][data-busy="false"][data-guest="false"]')
    assert "logged in as walker" in page.locator('[data-ref="status"]').inner_text()
    assert "records are kept" in page.locator('[data-ref="message"]').inner_text()
    # Registered: the feed's form instead of its guest note, without a reload.
    page.locator('[data-ref="feed-form"]').wait_for()
    assert page.locator('[data-ref="feed-guest"]').is_hidden()

    page.locator('[data-ref="logout"]').click()
    page.wait_for_selector('[data-account][data-busy="false"][data-guest="true"]')
    assert "new guest" in page.locator('[data-ref="message"]').inner_text()
    page.goto(page.url.replace("/account/", "/history/"))
    page.wait_for_selector('[data-ref="streaks"] li')
    assert page.locator('[data-ref="days"] tr').count() == 0, "the new guest has no history"

    page.get_by_role("link", name="Account").click()
    wait_ready(page)
    login = page.locator('[data-ref="login"]')
    login.get_by_label("Username").fill("walker")
    login.get_by_label("Password").fill(PASSWORD)
    login.get_by_role("button", name="Log in").click()
    page.wait_for_selector('[data-account][data-busy="false"][data-guest="false"]')

    page.get_by_role("link", name="History").click()
    page.wait_for_selector('[data-ref="days"] tr')
    day = page.locator('[data-ref="days"] tr').first
    assert day.locator(f'th time[datetime="{today.isoformat()}"]').count() == 1
    assert day.locator("td .day-cell__result").first.inner_text() == f"{home}/52 playing"

    page.get_by_role("link", name="Account").click()
    wait_ready(page)
    rename = page.locator('[data-ref="rename"]')
    assert rename.get_by_label("Display name").input_value() == "walker"
    rename.get_by_label("Display name").fill("Walker of Lisbon")
    rename.get_by_role("button", name="Save name").click()
    page.wait_for_function(
        "() => document.querySelector('[data-ref=\"message\"]').textContent.includes('Walker of Lisbon')"
    )
    assert "Walker of Lisbon" in page.locator('[data-ref="status"]').inner_text()

    page.goto(page.url.replace("/account/", "/leaderboard/?game=cruel"))
    page.wait_for_selector('[data-ref="rows"] tr.me')
    assert "Walker of Lisbon" in page.locator('[data-ref="rows"] tr.me').inner_text()


def test_account_errors_are_shown_by_their_fields_and_announced_in_portuguese(deals, open_page, audit):
    page = open_page("/account/", locale="pt-PT")
    wait_ready(page)
    assert page.get_by_role("link", name="Conta").get_attribute("aria-current") == "page"
    register = page.locator('[data-ref="register"]')
    register.get_by_role("button", name="Criar conta").click()
    username = register.get_by_label("Nome de utilizador")
    assert username.get_attribute("aria-invalid") == "true"
    assert page.evaluate("() => document.activeElement.id") == "register-username"
    assert "obrigatório" in page.locator("#register-username-error").inner_text()

    username.fill("walker")
    register.get_by_label("Palavra-passe").fill("123")
    register.get_by_role("button", name="Criar conta").click()
    page.wait_for_selector("#register-password-error:not([hidden])")
    assert register.get_by_label("Palavra-passe").get_attribute("aria-invalid") == "true"
    page.wait_for_function("() => document.querySelector('#alert-region').textContent.length > 0")
    # A weak password is said as such: the fields, never "not understood".
    assert page.locator('[data-ref="message"]').inner_text() == "Alguns campos precisam da sua atenção."
    assert audit(page) == []

    login = page.locator('[data-ref="login"]')
    login.get_by_label("Nome de utilizador").fill("nobody")
    login.get_by_label("Palavra-passe").fill("wrong password")
    login.get_by_role("button", name="Iniciar sessão").click()
    message = page.locator('[data-ref="message"]')
    page.wait_for_function(
        "() => document.querySelector('[data-ref=\"message\"]').textContent.includes('palavra-passe errados')"
    )
    assert "message--error" in message.get_attribute("class")
    assert page.locator('[data-account]').get_attribute("data-guest") == "true"


def test_a_first_visit_makes_one_guest_though_the_page_asks_several_things_at_once(
        open_page, transactional_db):
    # The account page asks for the player and the calendar feed together;
    # each request without a session would make a guest of its own.
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    before = users.count()
    page = open_page("/account/")
    wait_ready(page)
    page.wait_for_selector("[data-calendar-feed]:not([hidden])")
    page.wait_for_load_state("networkidle")
    assert users.count() == before + 1
    me = page.evaluate("async () => (await (await fetch('/api/v1/me')).json()).id")
    assert users.filter(pk=me).exists()
