// The leagues page: my leagues, a new one, joining by an invite link, and a
// league's boards (today's, the week's, the month's) from the leagues API.
import { api, errorText } from "./api.js";
import { gettext, h, ngettext, replace } from "./dom.js";
import { fill, formatTenths } from "./format.js";

const root = document.querySelector("[data-leagues]");
const $ = (name) => root.querySelector(`[data-ref="${name}"]`);
const lang = document.documentElement.lang || "pt-pt";
// The leagues API's own codes: its message says what happened, in the page's language.
const LEAGUE_CODES = new Set(["registration_required", "not_league_owner", "unknown_invite",
  "league_full", "league_limit", "owner_stays"]);
let today = null;

function show(error) {
  $("message").hidden = false;
  $("message").textContent = LEAGUE_CODES.has(error?.code) || error?.code === "bad_request"
    ? [error.message, ...Object.values(error.fields || {}).flat()].join(" ")
    : errorText(error, gettext);
}

function leagueId() {
  return new URLSearchParams(location.search).get("league");
}

async function loadList() {
  const { leagues } = await api("/leagues");
  $("none").hidden = leagues.length > 0;
  replace($("list"), leagues.map((league) => h("li", {},
    h("a", { href: `/leagues/?league=${league.id}`, "aria-current": String(league.id) === leagueId() ? "page" : null },
      league.name), " ",
    fill(ngettext("(%(n)s member)", "(%(n)s members)", league.member_count), { n: league.member_count }))));
}

function boardRow(e) {
  return h("tr", { class: e.is_me ? "me" : null },
    h("td", { class: "num" }, String(e.rank)), h("td", {}, e.display_name),
    h("td", { class: "num" }, `${e.cards_home}/52`), h("td", { class: "num" }, String(e.undos)),
    h("td", { class: "num" }, String(e.redeals)), h("td", { class: "num" }, formatTenths(e.elapsed_seconds, lang)));
}

function standingRow(s) {
  return h("tr", { class: s.is_me ? "me" : null },
    h("td", { class: "num" }, String(s.rank)), h("td", {}, s.display_name),
    h("td", { class: "num" }, String(s.points)), h("td", { class: "num" }, String(s.days_played)));
}

async function loadBoards(id) {
  const game = $("board-form").game.value;
  const data = await api(`/leagues/${id}/boards/${game}/${today}`);
  replace($("board"), data.entries.map(boardRow));
  $("not-played").textContent = data.not_played.length
    ? fill(gettext("Not played yet today: %(names)s"), { names: data.not_played.join(", ") })
    : gettext("Every member has played today.");
  replace($("week"), data.week.standings.map(standingRow));
  replace($("month"), data.month.standings.map(standingRow));
}

async function loadLeague(id) {
  const league = await api(`/leagues/${id}`);
  $("league").hidden = false;
  $("league-name").textContent = league.name;
  $("owner-tools").hidden = !league.is_owner;
  $("close-tools").hidden = !league.is_owner;
  $("leave").hidden = league.is_owner;
  if (league.is_owner) $("invite-link").value = new URL(league.invite_path, location.origin).href;
  replace($("members"), league.members.map((m) => h("li", {}, m.display_name,
    m.is_owner ? [" ", h("span", { class: "badge" }, gettext("owner"))] : null,
    league.is_owner && !m.is_owner
      ? [" ", h("button", { type: "button", class: "button", dataset: { remove: String(m.id) } }, gettext("Remove"))]
      : null)));
  await loadBoards(id);
}

async function act(work) {
  $("message").hidden = true;
  try {
    await work();
  } catch (error) {
    show(error);
  }
}

/** An invite link opened: the league it names and who invites; Join in one tap (a guest registers first). */
async function showInvite(me) {
  const code = root.dataset.invite;
  const invite = await api(`/leagues/invites/${encodeURIComponent(code)}`);
  if (invite.is_member) {
    location.replace(`/leagues/?league=${invite.league_id}`);
    return;
  }
  $("invite").hidden = false;
  $("invite-text").textContent = fill(ngettext(
    "%(owner)s invites you to join “%(league)s” (%(n)s member).",
    "%(owner)s invites you to join “%(league)s” (%(n)s members).", invite.member_count),
  { owner: invite.invited_by, league: invite.name, n: invite.member_count });
  $("invite-guest").hidden = !me.is_guest;
  // Back here once registered: the account page returns to this link.
  $("invite-register").href = `/account/?next=${encodeURIComponent(location.pathname)}`;
  $("invite-register").hidden = !me.is_guest;
  $("join").hidden = me.is_guest;
}

async function init() {
  await act(async () => {
    const [me, daily] = await Promise.all([api("/me"), api("/daily")]);
    today = daily.date;
    if (root.dataset.invite) await showInvite(me);
    if (me.is_guest) {
      $("guest").hidden = Boolean(root.dataset.invite);
      return;
    }
    $("mine").hidden = false;
    await loadList();
    if (leagueId()) await loadLeague(leagueId());
  });
}

$("join").addEventListener("click", () => act(async () => {
  const league = await api("/leagues/join", { method: "POST", body: { code: root.dataset.invite } });
  location.assign(`/leagues/?league=${league.id}`);
}));
$("create").addEventListener("submit", (event) => {
  event.preventDefault();
  act(async () => {
    const league = await api("/leagues", { method: "POST", body: { name: $("create").name.value } });
    location.assign(`/leagues/?league=${league.id}`);
  });
});
$("copy-link").addEventListener("click", async () => {
  const box = $("invite-link");
  try {
    await navigator.clipboard.writeText(box.value);
  } catch {
    box.select();
    document.execCommand?.("copy");
  }
  $("copy-status").textContent = gettext("Copied.");
});
$("share-link").hidden = typeof navigator.share !== "function";
$("share-link").addEventListener("click", async () => {
  try {
    await navigator.share({ title: $("league-name").textContent, url: $("invite-link").value });
  } catch {
    // Dismissed, or refused: the link stays there to copy.
  }
});
$("renew").addEventListener("click", () => act(async () => {
  const league = await api(`/leagues/${leagueId()}/invite`, { method: "POST", body: {} });
  $("invite-link").value = new URL(league.invite_path, location.origin).href;
}));
$("close").addEventListener("click", () => act(async () => {
  if (!window.confirm(gettext("Close this league for every member? It cannot be undone."))) return;
  await api(`/leagues/${leagueId()}`, { method: "DELETE" });
  location.assign("/leagues/");
}));
$("leave").addEventListener("click", () => act(async () => {
  await api(`/leagues/${leagueId()}/leave`, { method: "POST", body: {} });
  location.assign("/leagues/");
}));
$("members").addEventListener("click", (event) => {
  const id = event.target.closest("[data-remove]")?.dataset.remove;
  if (id) act(async () => {
    await api(`/leagues/${leagueId()}/members/${id}`, { method: "DELETE" });
    await loadLeague(leagueId());
  });
});
$("board-form").addEventListener("change", () => act(() => loadBoards(leagueId())));

init();
