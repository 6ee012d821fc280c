// On every page: the service worker (/sw.js) registered, and a clear
// offline state while the device has no connection (moves need it).
const banner = document.querySelector("[data-offline-banner]");
const offlinePage = document.querySelector("[data-offline-page]");

function mark() {
  if (banner) banner.hidden = navigator.onLine;
  document.documentElement.classList.toggle("offline", !navigator.onLine);
}

window.addEventListener("online", () => {
  mark();
  // The offline page stands in for another: go back to it.
  if (offlinePage) location.reload();
});
window.addEventListener("offline", mark);
document.querySelector("[data-retry]")?.addEventListener("click", () => location.reload());
mark();

// The offline page shown while the device says it is online: the server
// was away, or the network came back a moment too late. Try again, waiting
// 1, 2, 4 ... up to 60 seconds between tries.
const TRIES = "offline-tries";
if (offlinePage && navigator.onLine) {
  const tries = Number(sessionStorage.getItem(TRIES) || 0);
  setTimeout(() => {
    sessionStorage.setItem(TRIES, String(tries + 1));
    location.reload();
  }, Math.min(60, 2 ** tries) * 1000);
} else if (!offlinePage) {
  sessionStorage.removeItem(TRIES);
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // Without it the site works as before, only not offline.
  });
}
