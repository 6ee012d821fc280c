// Every call to the play API goes through here: JSON in and out, Django's
// CSRF header, the page's language, and errors of one shape (ApiError).

export const API_ROOT = "/api/v1";

export class ApiError extends Error {
  constructor({ status, code, message, fields = {}, state = null, reason = null }) {
    super(message || code);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.state = state;
    this.reason = reason;
  }
}

export function readCookie(name, cookieText = globalThis.document?.cookie ?? "") {
  for (const part of cookieText.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

// A page's first request may make the visitor's guest (the server makes one for
// any request without a session); requests sent beside it would each make
// another. So the rest wait until the first has answered and set the cookie.
let firstRequest = null;

export function api(path, options = {}) {
  if (firstRequest === null) {
    firstRequest = send(path, options);
    return firstRequest;
  }
  return firstRequest.then(() => send(path, options), () => send(path, options));
}

async function send(path, { method = "GET", body, fetchImpl = globalThis.fetch } = {}) {
  const headers = { Accept: "application/json" };
  const lang = globalThis.document?.documentElement?.lang;
  if (lang) headers["Accept-Language"] = lang;
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    const token = readCookie("csrftoken");
    if (token) headers["X-CSRFToken"] = token;
  }
  let response;
  try {
    response = await fetchImpl(API_ROOT + path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError({ status: 0, code: "network_error", message: String(error?.message ?? error) });
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data?.error ?? {};
    throw new ApiError({
      status: response.status,
      code: error.code ?? `http_${response.status}`,
      message: error.message ?? response.statusText,
      fields: error.fields ?? {},
      state: error.state ?? data?.state ?? null,
      reason: error.reason ?? null,
    });
  }
  return data;
}

// Codes whose server message is written for players (translated, naming the
// move or the limit): shown after our headline. Every other message stays
// out of the page: no server error text and no raw id reaches a player.
const PLAYER_MESSAGES = new Set(["illegal_move", "attempt_limit", "action_limit", "hint_not_for_ranked"]);

/** The user-facing text of an API error: our translation of its code, then the server's words where they are for players. */
export function errorText(error, gettext = (s) => s) {
  const known = {
    bad_request: gettext("The request was not understood."),
    not_found: gettext("Not found."),
    not_authenticated: gettext("Your session has expired: reload the page."),
    forbidden: gettext("You are not allowed to do that."),
    illegal_move: gettext("That move is not allowed."),
    invalid_move: gettext("That move could not be read."),
    stale_version: gettext("The game changed in another tab; this is its current state."),
    attempt_finished: gettext("This attempt is already over."),
    future_date: gettext("That day has not begun yet."),
    deal_not_ready: gettext("There is no deal for that day."),
    day_not_over: gettext("The solution is published once the day is over."),
    day_over: gettext("The day of this ranked attempt is over: its record stays as it stood at midnight."),
    nothing_to_undo: gettext("There is no move to undo."),
    hint_not_for_ranked: gettext("Hints are for practice only."),
    hints_sealed: gettext("Hints on this deal open when its day ends."),
    unknown_game: gettext("Unknown game."),
    csrf_failed: gettext("Your session has expired: reload the page."),
    method_not_allowed: gettext("The request was not understood."),
    throttled: gettext("Too many requests: wait a moment and try again."),
    unavailable: gettext("The service is briefly unavailable: try again in a moment."),
    network_error: gettext("The server could not be reached. Check your connection."),
  };
  const headline = known[error?.code] ?? gettext("Something went wrong on our side. Try again in a moment.");
  const detail = PLAYER_MESSAGES.has(error?.code) && error?.message && error.message !== error.code ? error.message : "";
  return detail ? `${headline} ${detail}` : headline;
}
