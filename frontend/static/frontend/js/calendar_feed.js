// The account page's calendar feed: turn it on at an hour, show its private
// address, turn it off (GET/PUT/DELETE /api/v1/me/calendar-feed).
import { api, errorText } from "./api.js";
import { gettext } from "./dom.js";

const root = document.querySelector("[data-calendar-feed]");
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);

function draw(feed) {
  $("feed-on").hidden = !feed.enabled;
  $("feed-url").value = feed.url || "";
  if (feed.reminder) $("feed-form").reminder.value = feed.reminder;
}

async function act(work) {
  $("feed-message").hidden = true;
  try {
    await work();
  } catch (error) {
    $("feed-message").hidden = false;
    $("feed-message").textContent = error?.code === "registration_required" || error?.code === "bad_request"
      ? [error.message, ...Object.values(error.fields || {}).flat()].join(" ")
      : errorText(error, gettext);
  }
}

async function init() {
  await act(async () => {
    const [me, feed] = await Promise.all([api("/me"), api("/me/calendar-feed")]);
    root.hidden = false;
    $("feed-guest").hidden = !me.is_guest;
    $("feed-form").hidden = me.is_guest;
    draw(feed);
  });
}

$("feed-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act(async () => draw(await api("/me/calendar-feed", {
    method: "PUT", body: { reminder: $("feed-form").reminder.value } })));
});
$("feed-off").addEventListener("click", () => act(async () => {
  await api("/me/calendar-feed", { method: "DELETE" });
  draw({ enabled: false, url: null, reminder: null });
}));

// Registered, logged in or out on this page: the feed follows without a reload.
/**
 * The feed's latest read of who the player is. The account's forms wait for
 * the first: a request still carrying the session that a registration or a
 * login replaces would come back as a new guest, and its cookie would win.
 */
export let feedRead = init();
document.addEventListener("account:changed", () => { feedRead = init(); });
