// The service worker (frontend/pwa.py): the pages' static files from the
// cache, pages from the network or else the offline page; /api/ never cached.
const VERSION = "{{ version }}";
const CACHE = `static-${VERSION}`;
const PRECACHE = {{ precache|safe }};
const OFFLINE = {{ offline|safe }};
const STATIC_PREFIX = {{ static_prefix|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll([...PRECACHE, OFFLINE]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;  // the network's answer, never a cached one
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (url.pathname.startsWith(STATIC_PREFIX) || url.pathname.startsWith("/jsi18n/")) {
    // Static files and the versioned catalog never change under one address.
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then((response) => {
      if (response.ok && url.pathname.startsWith(STATIC_PREFIX)) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    })));
  }
});
