// The account page: who you are (guest or registered), register keeping the
// guest's records, log in and out, the name shown on the leaderboard, and
// your data: download it, or delete the account (after a confirmation).
// Every call goes through api.js (JSON, CSRF header, language).

import { api, errorText } from "./api.js";
import { feedRead } from "./calendar_feed.js";
import { confirmDialog } from "./confirm.js";
import { announce, gettext } from "./dom.js";
import { fill } from "./format.js";

const root = document.querySelector("[data-account]");
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);
// The server's own words for these are already in the page's language.
const ACCOUNT_CODES = new Set(["bad_credentials", "username_taken", "already_registered",
  "password_required"]);
const FIELD_OF_CODE = { username_taken: "username", password_required: "password" };

function showMessage(text, kind = "info") {
  const box = $("message");
  box.hidden = !text;
  box.className = `message message--${kind}`;
  box.textContent = text;
  if (text) announce(text, { assertive: kind === "error" });
}

function clearErrors(form) {
  for (const el of form.querySelectorAll("[data-error]")) {
    el.hidden = true;
    el.textContent = "";
  }
  for (const input of form.querySelectorAll("input")) input.removeAttribute("aria-invalid");
}

/** Marks fields invalid, fills their messages, focuses the first; returns whether any was shown. */
function showFieldErrors(form, fields) {
  let first = null;
  for (const [name, messages] of Object.entries(fields)) {
    const input = form.elements[name];
    const box = form.querySelector(`[data-error="${name}"]`);
    if (!input || !box) continue;
    input.setAttribute("aria-invalid", "true");
    box.textContent = [].concat(messages).join(" ");
    box.hidden = false;
    first ??= input;
  }
  first?.focus();
  return first !== null;
}

function requiredMissing(form) {
  const fields = {};
  for (const input of form.querySelectorAll("input[required]")) {
    if (!input.value.trim()) fields[input.name] = [gettext("This field is required.")];
  }
  return fields;
}

function render(me) {
  $("status").textContent = me.is_guest
    ? fill(gettext("You are playing as a guest, shown as “%(name)s”. Choose a username and password to keep your records."), { name: me.display_name })
    : fill(gettext("You are logged in as %(username)s, shown as “%(name)s”."), { username: me.username, name: me.display_name });
  $("guest").hidden = !me.is_guest;
  $("member").hidden = me.is_guest;
  $("name").hidden = false;
  $("data").hidden = false;
  // A registered player deletes with the password; a guest with the confirmation alone.
  $("delete-password-field").hidden = me.is_guest;
  $("delete").elements.password.required = !me.is_guest;
  $("rename").elements.display_name.value = me.display_name;
  root.dataset.guest = String(me.is_guest);
}

async function refresh() {
  const me = await api("/me");
  render(me);
  // The page's other parts (the calendar feed) follow who the player is now.
  document.dispatchEvent(new CustomEvent("account:changed", { detail: me }));
  return me;
}

/** ?next=: a path of this site to return to (never another site's). */
function returnPath() {
  const next = new URLSearchParams(location.search).get("next") ?? "";
  return /^\/(?![/\\])/.test(next) ? next : null;
}

/** Runs one form's request: client checks first, then the API; errors go to the fields or the message box. */
function handle(form, action) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (root.dataset.busy === "true") return;
    clearErrors(form);
    const missing = requiredMissing(form);
    if (showFieldErrors(form, missing)) {
      showMessage(gettext("Some fields need your attention."), "error");
      return;
    }
    root.dataset.busy = "true";
    try {
      const text = await action(Object.fromEntries(new FormData(form)));
      form.reset();
      const me = await refresh();
      // Registered or logged in on the way somewhere (an invite link): back there.
      const next = returnPath();
      if (next && !me.is_guest) {
        location.assign(next);
        return;
      }
      showMessage(text);
    } catch (error) {
      const field = FIELD_OF_CODE[error.code];
      const fields = field ? { [field]: [error.message], ...error.fields } : error.fields ?? {};
      showFieldErrors(form, fields);
      // A field the server refused (a weak password, say) is said under the field.
      const refused = error.code === "bad_request" && Object.keys(error.fields ?? {}).length;
      showMessage(ACCOUNT_CODES.has(error.code) ? error.message
        : refused ? gettext("Some fields need your attention.") : errorText(error, gettext), "error");
      // A rejected form keeps what was typed, but not passwords, for the next try.
      for (const input of form.querySelectorAll("input[type=password]")) input.value = "";
    } finally {
      root.dataset.busy = "false";
    }
  });
}

handle($("register"), async ({ username, password, display_name }) => {
  const body = { username: username.trim(), password };
  if (display_name.trim()) body.display_name = display_name.trim();
  await api("/auth/register", { method: "POST", body });
  return gettext("Registered: your records are kept with your new account.");
});

handle($("login"), async ({ username, password }) => {
  await api("/auth/login", { method: "POST", body: { username: username.trim(), password } });
  return gettext("Logged in.");
});

handle($("rename"), async ({ display_name }) => {
  const me = await api("/me", { method: "PATCH", body: { display_name: display_name.trim() } });
  return fill(gettext("Your name on the leaderboard is now “%(name)s”."), { name: me.display_name });
});

$("logout").addEventListener("click", async () => {
  if (root.dataset.busy === "true") return;
  root.dataset.busy = "true";
  try {
    await api("/auth/logout", { method: "POST" });
    await refresh(); // a new guest, as on a first visit
    showMessage(gettext("Logged out. You are playing as a new guest."));
  } catch (error) {
    showMessage(errorText(error, gettext), "error");
  } finally {
    root.dataset.busy = "false";
  }
});

handle($("delete"), async ({ password }) => {
  const sure = await confirmDialog($("delete-dialog"),
    { confirm: $("delete-confirm"), keep: $("delete-keep") });
  if (!sure) return gettext("Your account is kept.");
  const guest = root.dataset.guest === "true";
  await api("/me", { method: "DELETE", body: guest ? { confirm: true } : { password } });
  return gettext("Your account and everything kept about it are deleted. You are playing as a new guest.");
});

/** The JSON of GET /me/data, saved as a file by the browser. */
$("download").addEventListener("click", async () => {
  if (root.dataset.busy === "true") return;
  root.dataset.busy = "true";
  try {
    const data = await api("/me/data");
    const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `solitaire-${data.account.username}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    showMessage(gettext("Your data is downloaded."));
  } catch (error) {
    showMessage(errorText(error, gettext), "error");
  } finally {
    root.dataset.busy = "false";
  }
});

// The forms open once the page's first reads are in, the calendar feed's
// too (calendar_feed.js: feedRead).
Promise.all([refresh(), feedRead])
  .catch((error) => showMessage(errorText(error, gettext), "error"))
  .finally(() => { root.dataset.busy = "false"; });
