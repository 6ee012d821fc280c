// Sharing a result: the text in a read-only box as tall as its lines (no
// line cut off on a phone), the device's own share sheet where there is one,
// and Copy everywhere.

import { announce, gettext } from "./dom.js";

/** Put `text` in the box and make the box as tall as the text. */
export function showShareText(box, text) {
  box.value = text;
  fitHeight(box);
}

/** As tall as the text, wrapped lines included (call again once the box is shown). */
export function fitHeight(box) {
  box.rows = Math.max(2, box.value.split("\n").length);
  // Wrapped lines: grow to the text's own height (through the CSSOM: the CSP refuses style attributes).
  box.style.height = "auto";
  if (box.scrollHeight > box.clientHeight) box.style.height = `${box.scrollHeight + 2}px`;
}

/** Wire the share and copy buttons of a share box. */
export function wireShare({ box, share, copy, status }) {
  share.hidden = typeof navigator.share !== "function";
  share.addEventListener("click", async () => {
    const lines = box.value.split("\n");
    const url = lines.at(-1).startsWith("http") ? lines.pop() : undefined;
    try {
      await navigator.share({ text: lines.join("\n"), url });
    } catch {
      // Dismissed, or refused: the text stays there to copy.
    }
  });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(box.value);
    } catch {
      box.select();
      document.execCommand?.("copy");
    }
    announce(gettext("Copied."));
    status.textContent = gettext("Copied.");
  });
  // The width changes the wrapping, so the height follows it.
  window.addEventListener("resize", () => { if (box.value) fitHeight(box); });
}
