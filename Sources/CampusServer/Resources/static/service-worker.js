// Campus in the pocket: the installed app's shell, the pages a student reads offline, notes and
// tasks written offline (sent, in order, when the server answers again) and items kept for
// offline listening. Served at /service-worker.js with VERSION and SHELL written above this by
// the server (OfflineApp.swift): a new version of Campus is a new worker, which takes over at
// once and drops the old shell, so an installed app never keeps a stale one.
/* global VERSION, SHELL, OFFLINE_PAGE */
"use strict";

const SHELL_CACHE = "campus-shell-" + VERSION;
/** Pages (and the per-user style sheets) as last read, each with the time it was read. */
const PAGES = "campus-pages";
/** Kept episodes, chapters and lectures: `/api/v1/media/{id}` (their document), their audio and covers. */
const KEPT = "campus-kept";
const PAGE_LIMIT = 300;
/** How often the student's own pages are read again to keep them (at most). */
const WARM_EVERY = 15 * 60 * 1000;
const KEPT_AT = "X-Campus-Kept-At";

/** Form posts kept while offline: notes (new, changed, deleted) and tasks (new, changed, done, deleted). */
const OUTBOX_PATHS = [
  [/^\/timetable\/lessons\/\d+\/notes$/, "note-new"],
  [/^\/timetable\/notes\/\d+$/, "note-change"],
  [/^\/timetable\/notes\/\d+\/delete$/, "note-delete"],
  [/^\/timetable\/mine\/tasks$/, "task-new"],
  [/^\/timetable\/mine\/tasks\/\d+$/, "task-change"],
  [/^\/timetable\/mine\/tasks\/\d+\/done$/, "task-done"],
  [/^\/timetable\/mine\/tasks\/\d+\/delete$/, "task-delete"],
];
/** Posts after which what is kept belongs to someone else (or to no one). */
const FORGET_PATHS = ["/login", "/logout", "/register", "/profile/delete"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("campus-shell-") && name !== SHELL_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST") {
    if (FORGET_PATHS.includes(url.pathname)) {
      event.waitUntil(forget());
      return;
    }
    const kind = outboxKind(url.pathname);
    if (kind && request.mode === "navigate") event.respondWith(sendOrKeep(request, kind));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(fromShell(request));
  } else if (/^\/api\/v1\/(media\/\d+(\/stream)?$|covers\/)/.test(url.pathname)) {
    event.respondWith(keptFirst(request));
  } else if (url.pathname === "/api/v1/player") {
    event.respondWith(pageFirst(event, false));
  } else if (!/^\/(api|openapi|rest|radio|metrics|health)\b/.test(url.pathname)) {
    const html = request.mode === "navigate" || (request.headers.get("Accept") || "").includes("text/html");
    if (html || url.pathname.endsWith(".css") || url.pathname === "/manifest.webmanifest") {
      event.respondWith(pageFirst(event, html));
    }
  }
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  const client = event.source;
  event.waitUntil((async () => {
    if (message.kind === "warm") {
      await warm(false).catch(() => {});
    } else if (message.kind === "flush") {
      await flush();
    } else if (message.kind === "dismiss") {
      await inStore("refused", "readwrite", (store) => store.delete(message.id));
    } else if (message.kind === "timing") {
      // What this worker fetched from the network since the last time asked (Benchmarks/transfer.py:
      // a page's own resource timing counts what the worker answered, not what crossed the network).
      const entries = performance.getEntriesByType("resource").map((entry) => ({
        name: entry.name, transfer: entry.transferSize, encoded: entry.encodedBodySize, decoded: entry.decodedBodySize,
      }));
      performance.clearResourceTimings();
      if (event.ports[0]) event.ports[0].postMessage(entries);
      return;
    }
    if (client) client.postMessage(await outboxState());
  })());
});

// MARK: Files and pages

/** Static files: linked with their digest, so the shell's copy is the file (or the network's). */
async function fromShell(request) {
  const kept = await caches.match(request, { ignoreVary: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && new URL(request.url).searchParams.has("v")) {
    const copy = response.clone();
    caches.open(SHELL_CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

/** The network's answer, kept; without a network, the kept one, marked with when it was read. */
async function pageFirst(event, html) {
  const request = event.request;
  const cache = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    if (keepable(response)) event.waitUntil(keep(cache, request.url, response.clone()).catch(() => {}));
    flushSoon();
    return response;
  } catch (error) {
    const kept = await cache.match(request.url, { ignoreVary: true });
    if (kept) return html ? marked(kept) : kept;
    if (html && request.mode === "navigate") {
      const offline = await caches.match(OFFLINE_PAGE, { ignoreVary: true });
      if (offline) return marked(offline);
    }
    return Response.error();
  }
}

/** Pages, style sheets, the manifest and the player's state; never a download. */
function keepable(response) {
  const type = response.headers.get("Content-Type") || "";
  return response.ok && !response.redirected && response.type === "basic" &&
    !(response.headers.get("Content-Disposition") || "").startsWith("attachment") &&
    /^(text\/html|text\/css|application\/json|application\/manifest\+json)/.test(type);
}

/** Keeps a copy of `response` under `url` with the time it was read (the oldest go past PAGE_LIMIT, a few over at most). */
async function keep(cache, url, response) {
  const headers = new Headers(response.headers);
  // The body is decoded already; what it was sent as no longer holds.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set(KEPT_AT, new Date().toISOString());
  const body = await response.arrayBuffer();
  await cache.put(url, new Response(body, { status: response.status, statusText: response.statusText, headers }));
  // The list of kept pages is read to trim it every 20 pages kept, not on every page.
  keptSinceTrim += 1;
  if (keptSinceTrim < 20) return;
  keptSinceTrim = 0;
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - PAGE_LIMIT))) await cache.delete(old);
}
let keptSinceTrim = 0;

/** A kept page says it is kept, and since when: `<body data-offline-since="…">` (campus's offline.js shows it). */
async function marked(response) {
  const since = response.headers.get(KEPT_AT) || "";
  const text = (await response.text()).replace("<body>", `<body data-offline-since="${since}">`);
  const headers = new Headers(response.headers);
  return new Response(text, { status: 200, headers });
}

/** A kept item's document and audio from the device (ranges cut from the kept file), others from the network. */
async function keptFirst(request) {
  const cache = await caches.open(KEPT);
  const kept = await cache.match(request.url, { ignoreVary: true });
  if (!kept) return fetch(request);
  const range = request.headers.get("Range");
  if (!range) return kept;
  const blob = await kept.blob();
  const found = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  let start = 0;
  let end = blob.size - 1;
  if (found && found[1] !== "") {
    start = Number(found[1]);
    if (found[2] !== "") end = Math.min(end, Number(found[2]));
  } else if (found && found[2] !== "") {
    start = Math.max(0, blob.size - Number(found[2]));
  }
  if (!found || start > end) {
    return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${blob.size}` } });
  }
  return new Response(blob.slice(start, end + 1), {
    status: 206,
    headers: {
      "Content-Type": kept.headers.get("Content-Type") || "audio/mpeg",
      "Content-Range": `bytes ${start}-${end}/${blob.size}`,
      "Content-Length": String(end - start + 1),
      "Accept-Ranges": "bytes",
    },
  });
}

// MARK: The student's own pages, kept before they are needed

/** Reads the signed-in student's pages (GET /offline/pages says which) into the kept pages. */
async function warm(force) {
  const cache = await caches.open(PAGES);
  const marker = await cache.match("/offline/warmed");
  if (!force && marker && Date.now() - Number(await marker.text()) < WARM_EVERY) return;
  const answer = await fetch("/offline/pages", { credentials: "same-origin" });
  if (!answer.ok) return;
  await cache.put("/offline/warmed", new Response(String(Date.now())));
  const list = await answer.json();
  const seen = new Set();
  let notePages = 30;
  const read = async (path) => {
    const url = new URL(path, self.location.origin).href;
    if (!path || seen.has(url)) return null;
    seen.add(url);
    const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!keepable(response)) return null;
    const html = await response.clone().text();
    await keep(cache, url, response);
    // The notes of the lessons it lists (today's, this week's), to read and to write offline.
    if ((list.notesFrom || []).includes(path)) {
      for (const link of links(html, /href="(\/timetable\/lessons\/\d+\/notes[^"]*)"/g)) {
        if (notePages-- <= 0) break;
        await read(link);
      }
    }
    return html;
  };
  for (const path of list.pages || []) await read(path);
  for (const schedule of list.schedules || []) {
    let html = await read(schedule.path);
    const exams = schedule.exams && html ? links(html, /<a href="([^"]*)"[^>]*id="exams-view"/g)[0] : null;
    if (exams) await read(exams);
    for (let week = 0; week < (schedule.weeks || 0) && html; week++) {
      const next = links(html, /<a href="([^"]*)"[^>]*id="next-week"/g)[0];
      html = next ? await read(next) : null;
    }
  }
}

/** The links `pattern` finds in a page, as paths (the page writes `&` as `&amp;`). */
function links(html, pattern) {
  return [...html.matchAll(pattern)].map((match) => unescaped(match[1]));
}

/** Text as Campus's templates escape it (Mustache's entities), read back. */
const ENTITIES = {
  "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#x27;": "'", "&#x2F;": "/", "&#x3D;": "=",
};
function unescaped(text) {
  return text.replace(/&[#\w]+;/g, (entity) => ENTITIES[entity] || entity);
}

/** Forgets what is kept of whoever was signed in. */
async function forget() {
  await caches.delete(PAGES);
  await caches.delete(KEPT);
  await inStore("outbox", "readwrite", (store) => store.clear());
  await inStore("refused", "readwrite", (store) => store.clear());
}

// MARK: The outbox: notes and tasks written offline

function outboxKind(path) {
  const found = OUTBOX_PATHS.find(([pattern]) => pattern.test(path));
  return found ? found[1] : null;
}

/**
 * Sends a form with a key of its own (`Idempotency-Key`: if its answer is lost on the way and it is
 * sent again from the outbox, the server answers where it went the first time and does not do it
 * twice); when the server cannot be reached, keeps it and goes back to the page it came from.
 */
async function sendOrKeep(request, kind) {
  const body = await request.clone().arrayBuffer();
  const type = request.headers.get("Content-Type") || "";
  const key = self.crypto.randomUUID();
  try {
    const response = await fetch(request.url, {
      method: "POST", body, credentials: "same-origin", redirect: "manual",
      headers: { "Content-Type": type, Accept: "text/html", "Idempotency-Key": key },
    });
    flushSoon();
    return response;
  } catch (error) {
    const fields = await request.formData().catch(() => null);
    const text = fields ? String(fields.get("text") || fields.get("subject") || "") : "";
    await inStore("outbox", "readwrite", (store) => store.add({
      url: request.url, type, body, kind, key, text: text.slice(0, 500), at: new Date().toISOString(),
    }));
    await tellEveryone();
    return Response.redirect(request.referrer || "/today", 303);
  }
}

let flushing = null;
let flushTimer = null;

/** Sends what waits soon (a page came from the network: the server answers again). */
function flushSoon() {
  if (flushTimer) return;
  flushTimer = setTimeout(() => { flushTimer = null; flush(); }, 500);
}

/** Sends what waits, oldest first, one at a time; stops at the first the network does not carry. */
function flush() {
  if (!flushing) flushing = sendAll().finally(() => { flushing = null; });
  return flushing;
}

async function sendAll() {
  let sent = 0;
  let refused = 0;
  for (;;) {
    const items = await inStore("outbox", "readonly", (store) => store.getAll());
    if (!items.length) break;
    const item = items[0];
    let response;
    try {
      response = await fetch(item.url, {
        method: "POST", body: item.body,
        headers: { "Content-Type": item.type, Accept: "text/html", "Idempotency-Key": item.key },
        credentials: "same-origin", redirect: "follow",
      });
    } catch (error) {
      break;
    }
    // The server is there but cannot take it now: it goes again later.
    if (response.status >= 500 || response.status === 429) break;
    const html = await response.text();
    let reason = null;
    if (response.status >= 400 && (response.headers.get("Content-Type") || "").includes("json")) {
      try { reason = JSON.parse(html).detail || JSON.parse(html).title; } catch (error) { reason = null; }
      reason = reason || String(response.status);
    } else if (response.status >= 400) {
      reason = said(html, /<p class="lead">([\s\S]*?)<\/p>/) || said(html, /<p class="field-error">([\s\S]*?)<\/p>/) ||
        said(html, /<p class="flash error"[^>]*>([\s\S]*?)<\/p>/) || String(response.status);
    } else if (new URL(response.url).pathname === "/login") {
      reason = "signed-out";
    } else {
      reason = said(html, /<p class="flash error"[^>]*>([\s\S]*?)<\/p>/);
    }
    await inStore("outbox", "readwrite", (store) => store.delete(item.id));
    if (reason) {
      refused++;
      await inStore("refused", "readwrite", (store) => store.add({
        kind: item.kind, text: item.text, at: item.at, reason, url: item.url,
      }));
    } else {
      sent++;
    }
  }
  if (sent || refused) await tellEveryone({ sent, refused });
}

function said(html, pattern) {
  const found = pattern.exec(html);
  if (!found) return null;
  return unescaped(found[1].replace(/<[^>]*>/g, "")).trim();
}

async function outboxState(extra = {}) {
  const waiting = await inStore("outbox", "readonly", (store) => store.getAll());
  const refused = await inStore("refused", "readonly", (store) => store.getAll());
  return {
    kind: "outbox", ...extra,
    waiting: waiting.map(({ id, kind, text, at }) => ({ id, kind, text, at })),
    refused,
  };
}

async function tellEveryone(extra) {
  const state = await outboxState(extra);
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(state);
}

// MARK: IndexedDB

let database = null;

function openDatabase() {
  if (!database) {
    database = new Promise((resolve, reject) => {
      const open = indexedDB.open("campus-offline", 1);
      open.onupgradeneeded = () => {
        open.result.createObjectStore("outbox", { keyPath: "id", autoIncrement: true });
        open.result.createObjectStore("refused", { keyPath: "id", autoIncrement: true });
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => { database = null; reject(open.error); };
    });
  }
  return database;
}

/** Runs `work` on the object store `name` in one transaction; its request's result when it commits. */
async function inStore(name, mode, work) {
  const db = await openDatabase();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(name, mode);
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = () => resolve(request ? request.result : undefined);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

// Web Push (issue 39): what the server pushed is shown as a notification (the message decrypted
// by the browser: {id, topic, title, body, link, late}); a click opens its link in a Campus
// window, or a new one.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(message.title || "Campus", {
    body: message.body || "",
    tag: message.id ? "campus-" + message.id : undefined,
    data: { link: message.link || "/notifications" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.link) || "/notifications", self.location.origin);
  if (target.origin !== self.location.origin) return;
  const opening = (async () => {
    // An open Campus window goes to the link (navigating first: only a real click may focus, and a
    // refused focus must not keep the window where it was); none open, a new one opens.
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      if (!("navigate" in client)) continue;
      let navigated;
      try {
        navigated = (await client.navigate(target.href)) || client;
      } catch {
        continue; // a window this worker does not control cannot be moved
      }
      return navigated.focus().catch(() => navigated);
    }
    return self.clients.openWindow(target.href);
  })();
  // waitUntil keeps the worker alive while it opens; an event the browser did not send itself
  // (a test's) cannot be waited on, and the window still opens.
  try {
    event.waitUntil(opening);
  } catch {}
});
