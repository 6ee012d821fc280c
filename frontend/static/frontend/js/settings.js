// The player's play settings, kept in this browser (localStorage): moving
// safe cards home by themselves, one-gesture moves, animation speed, card
// size, the deck's colours. Pure apart from the storage handed in (and the
// element applyDeck marks).

export const SETTINGS_KEY = "solitaire.play.settings";

export const DEFAULTS = Object.freeze({
  autoSafe: false, // send the API's proven-safe moves home after each move
  oneGesture: false, // a card with exactly one legal target plays on one click or tap
  speed: "normal", // "off" | "normal" | "fast"
  cardSize: "auto", // "small" | "auto" | "large"
  deck: "two", // "two" (♦♥ red, ♣♠ black) | "four" (♣ green, ♦ blue, ♥ red, ♠ black)
  highContrast: false, // pure ink, firm card edges, the deepest suit colours
});

const CHOICES = { speed: ["off", "normal", "fast"], cardSize: ["small", "auto", "large"], deck: ["two", "four"] };

/** The settings stored, with unknown or broken values replaced by the defaults. */
export function loadSettings(storage = globalThis.localStorage) {
  let stored = {};
  try {
    stored = JSON.parse(storage?.getItem(SETTINGS_KEY) ?? "{}") ?? {};
  } catch {
    stored = {};
  }
  const settings = { ...DEFAULTS };
  for (const key of ["autoSafe", "oneGesture", "highContrast"]) {
    if (typeof stored[key] === "boolean") settings[key] = stored[key];
  }
  for (const [key, allowed] of Object.entries(CHOICES)) {
    if (allowed.includes(stored[key])) settings[key] = stored[key];
  }
  return settings;
}

export function saveSettings(settings, storage = globalThis.localStorage) {
  try {
    storage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Private mode or a full storage: the settings last for this page only.
  }
}

/** Milliseconds a card takes to slide, or 0 for none (reduced motion wins). */
export function slideMs(settings, reducedMotion) {
  if (reducedMotion || settings.speed === "off") return 0;
  return settings.speed === "fast" ? 120 : 220;
}

export const CARD_SCALE = { small: 0.82, auto: 1, large: 1.18 };

/** Mark the page with the deck's look (cards.css reads html[data-deck], [data-contrast]). */
export function applyDeck(settings, root = globalThis.document?.documentElement) {
  if (!root) return;
  root.dataset.deck = settings.deck;
  root.dataset.contrast = settings.highContrast ? "high" : "normal";
}
