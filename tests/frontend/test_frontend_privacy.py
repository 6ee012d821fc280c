"""Your data on the account page: download it as a file, delete the account
after a confirmation (a registered player gives the password); the privacy
page in pt-PT and English, linked from the account page."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model

PASSWORD = "a long enough pass phrase 42"


def wait_ready(page, guest: str | None = None) -> None:
    state = f'[data-guest="{guest}"]' if guest else "[data-guest]"
    page.wait_for_selector(f'[data-account][data-busy="false"]{state}')


def test_a_player_downloads_their_data_then_deletes_the_account(open_page, audit, screenshot):
    page = open_page("/account/")
    wait_ready(page)
    register = page.locator('[data-ref="register"]')
    register.get_by_label("Username").fill("walker")
    register.get_by_label("Password").fill(PASSWORD)
    register.get_by_role("button", name="Register").click()
    wait_ready(page, "false")

    with page.expect_download() as download:
        page.get_by_role("button", name="Download my data").click()
    data = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert data["account"]["username"] == "walker" and data["account"]["is_guest"] is False
    password_hash = get_user_model().objects.get(username="walker").password
    assert password_hash not in json.dumps(data)
    page.wait_for_function(
        "() => document.querySelector('[data-ref=\"message\"]').textContent.includes('downloaded')")

    delete = page.locator('[data-ref="delete"]')
    delete.get_by_label("Your password, to delete the account").fill(PASSWORD)
    delete.get_by_role("button", name="Delete my account").click()
    dialog = page.locator('[data-ref="delete-dialog"]')
    dialog.wait_for(state="visible")
    assert audit(page) == []
    screenshot(page, "account-delete-dialog-en")
    dialog.get_by_role("button", name="Keep my account").click()
    page.wait_for_function(
        "() => document.querySelector('[data-ref=\"message\"]').textContent.includes('is kept')")
    assert get_user_model().objects.filter(username="walker").exists()

    delete.get_by_label("Your password, to delete the account").fill(PASSWORD)
    delete.get_by_role("button", name="Delete my account").click()
    dialog.get_by_role("button", name="Delete everything").click()
    wait_ready(page, "true")
    assert "deleted" in page.locator('[data-ref="message"]').inner_text()
    assert "playing as a guest" in page.locator('[data-ref="status"]').inner_text()
    assert not get_user_model().objects.filter(username="walker").exists()


def test_a_guest_deletes_itself_with_the_confirmation_alone(open_page, transactional_db):
    page = open_page("/account/", locale="pt-PT")
    wait_ready(page, "true")
    guest_id = page.evaluate("async () => (await (await fetch('/api/v1/me')).json()).id")
    delete = page.locator('[data-ref="delete"]')
    assert delete.get_by_label("A sua palavra-passe, para apagar a conta").is_hidden()
    delete.get_by_role("button", name="Apagar a minha conta").click()
    page.locator('[data-ref="delete-dialog"]').get_by_role("button", name="Apagar tudo").click()
    page.wait_for_function(
        "() => document.querySelector('[data-ref=\"message\"]').textContent.includes('apagados')")
    wait_ready(page, "true")
    assert not get_user_model().objects.filter(pk=guest_id).exists()


def test_the_privacy_page_in_portuguese_and_english(open_page, settings, audit, transactional_db):
    settings.PLAY_GUEST_IDLE_DAYS = 30
    page = open_page("/account/", locale="pt-PT")
    wait_ready(page)
    page.get_by_role("link", name="privacidade").click()
    page.wait_for_selector("[data-privacy]")
    assert page.locator("h1").inner_text() == "Privacidade"
    text = page.locator("[data-privacy]").inner_text()
    assert "apagado 30 dias depois da última visita" in text
    assert "14 dias depois do último uso" in text and "30 dias depois de emitido" in text
    assert "GET /api/v1/me/data" in text and "DELETE /api/v1/me" in text
    assert audit(page) == []

    page = open_page("/privacy/", locale="en")
    page.wait_for_selector("[data-privacy]")
    assert page.locator("h1").inner_text() == "Privacy"
    text = page.locator("[data-privacy]").inner_text()
    assert "deleted 30 days after its last visit" in text and "14 days after it was last used" in text
    assert page.get_by_role("link", name="Account").first.get_attribute("href") == "/account/"
    assert audit(page) == []
