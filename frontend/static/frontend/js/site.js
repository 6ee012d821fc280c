// On every page. The first API call logs the new guest in, which gives the
// session a new CSRF token; forms rendered before that send the current one.
import { readCookie } from "./api.js";
import { applyDeck, loadSettings } from "./settings.js";
import { rescueTaps } from "./taps.js";

rescueTaps(document);

// The deck's colours, on every page that draws cards, and the moment the
// player changes them in Settings (the play page has stored them by then).
applyDeck(loadSettings());
document.addEventListener("change", (event) => {
  if (event.target.closest?.('[data-setting="deck"], [data-setting="highContrast"]')) applyDeck(loadSettings());
});

for (const form of document.querySelectorAll("form[method=post]")) {
  form.addEventListener("submit", () => {
    const token = readCookie("csrftoken");
    const field = form.querySelector("input[name=csrfmiddlewaretoken]");
    if (token && field) field.value = token;
  });
}

// A menu wider than the screen scrolls sideways: mark that more lies beyond
// the edge, and bring the current page's item into view.
const nav = document.querySelector(".site-header")?.querySelector("nav");
if (nav) {
  const mark = () => nav.classList.toggle("nav--more", nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1);
  const current = nav.querySelector('[aria-current="page"]');
  if (current && nav.scrollWidth > nav.clientWidth) {
    nav.scrollLeft = Math.max(0, current.offsetLeft + current.offsetWidth - nav.clientWidth + 16);
  }
  nav.addEventListener("scroll", mark, { passive: true });
  window.addEventListener("resize", mark);
  mark();
}
