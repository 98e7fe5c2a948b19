// The page's service worker: once the page has been loaded, every file of its folder is kept
// in a cache, so the arbiter works offline.  The build fills in the version and the files.
// Copyright the xqadj developers; GPL-3.0-or-later.
const CACHE = "xqadj-__VERSION__";
const FILES = "__FILES__";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = (key) => key.startsWith("xqadj-") && key !== CACHE;
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter(old).map((key) => caches.delete(key)))).then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  // A shared link (?fen=...) is the same page: the query is read by the page, not the server.
  event.respondWith(
    caches.match(event.request, { ignoreSearch: true }).then((hit) => hit || fetch(event.request)),
  );
});
