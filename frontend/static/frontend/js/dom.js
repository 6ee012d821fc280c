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

/**
 * Give a built element the attributes `attrs` (as `h` takes them, no
 * children), touching only those that differ: an unchanged attribute costs
 * the page no style work.
 */
export function update(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "dataset") {
      for (const [name, text] of Object.entries(value)) if (el.dataset[name] !== text) el.dataset[name] = text;
      continue;
    }
    if (/^on/i.test(key)) throw new Error(`use addEventListener, not ${key}`);
    if (key === "text") {
      if (el.textContent !== String(value)) el.textContent = value;
      continue;
    }
    const text = value === false || value === null || value === undefined ? null : value === true ? "" : String(value);
    if (el.getAttribute(key) === text) continue;
    if (text === null) el.removeAttribute(key);
    else el.setAttribute(key, text);
  }
}

/**
 * Make `children` (elements) the element children of `el`, in order, moving
 * only those out of place: an element left where it is keeps its layout
 * (an SVG card face is costly to lay out again).
 */
export function keepChildren(el, children) {
  // Those leaving go first, so that the rest are found in order and stay put.
  const kept = new Set(children);
  for (const child of [...el.children]) if (!kept.has(child)) child.remove();
  children.forEach((child, i) => {
    const at = el.children[i] ?? null;
    if (at !== child) el.insertBefore(child, at);
  });
}

/** Set a CSS custom property inline, when it differs. */
export function setVar(el, name, value) {
  if (el.style.getPropertyValue(name) !== value) el.style.setProperty(name, value);
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
