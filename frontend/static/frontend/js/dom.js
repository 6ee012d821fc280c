// The one place that builds DOM: text always goes in as text nodes, so
// escaping is automatic. Attributes named on* are refused; style is set
// through the CSSOM (the site's CSP allows no inline style attribute).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElementNS(
    tag === "svg" || attrs.svg ? "http://www.w3.org/2000/svg" : "http://www.w3.org/1999/xhtml",
    tag,
  );
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "svg" || value === false || value === null || value === undefined) continue;
    if (/^on/i.test(key)) throw new Error(`use addEventListener, not ${key}`);
    if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    else if (key === "style") el.style.cssText = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function s(tag, attrs = {}, ...children) {
  return h(tag, { ...attrs, svg: true }, ...children);
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** gettext from Django's JavaScript catalog, or the text itself. */
export const gettext = (text) => (globalThis.gettext ? globalThis.gettext(text) : text);
export const ngettext = (singular, plural, n) => (
  globalThis.ngettext ? globalThis.ngettext(singular, plural, n) : (n === 1 ? singular : plural)
);

/** Says `text` to screen readers through the page's polite live region. */
export function announce(text, { assertive = false } = {}) {
  const region = document.getElementById(assertive ? "alert-region" : "live-region");
  if (!region) return;
  region.textContent = "";
  // A fresh text node after a tick makes screen readers read it again.
  setTimeout(() => { region.textContent = text; }, 30);
}
