// On every page. The first API call logs the new guest in, which gives the
// session a new CSRF token; forms rendered before that send the current one.
import { readCookie } from "./api.js";
import { applyDeck, loadSettings } from "./settings.js";
import { rescueTaps } from "./taps.js";

rescueTaps(document);

// A touch screen as the page first met it: the keyboard help stays hidden
// even when a full-page capture (or a docked keyboard) changes the media.
if (matchMedia("(pointer: coarse)").matches) document.documentElement.dataset.touch = "true";

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

// A phone's menu: a sheet behind the Menu button (CSS shows the button only
// on a narrow screen). Escape, a tap outside or a wider window closes it.
const header = document.querySelector(".site-header");
const menuButton = header?.querySelector(".menu-button");
if (menuButton) {
  const isOpen = () => menuButton.getAttribute("aria-expanded") === "true";
  const setOpen = (open) => {
    menuButton.setAttribute("aria-expanded", String(open));
    header.classList.toggle("site-header--open", open);
  };
  menuButton.addEventListener("click", () => setOpen(!isOpen()));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      setOpen(false);
      menuButton.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (isOpen() && !header.contains(event.target)) setOpen(false);
  });
  window.matchMedia("(min-width: 701px)").addEventListener("change", () => setOpen(false));
}
