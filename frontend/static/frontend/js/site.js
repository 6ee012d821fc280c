// On every page. The first API call logs the new guest in, which gives the
// session a new CSRF token; forms rendered before that send the current one.
import { readCookie } from "./api.js";
import { rescueTaps } from "./taps.js";

rescueTaps(document);

for (const form of document.querySelectorAll("form[method=post]")) {
  form.addEventListener("submit", () => {
    const token = readCookie("csrftoken");
    const field = form.querySelector("input[name=csrfmiddlewaretoken]");
    if (token && field) field.value = token;
  });
}
