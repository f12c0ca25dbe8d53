// Campus in the pocket, the page's side: registers the service worker (service-worker.js), says
// when a page is the kept copy and since when, shows notes and tasks waiting to be sent (and any
// the server refused, with their text), and keeps episodes, chapters and lectures for offline
// listening. Pages work without it.
(function () {
  "use strict";
  if (!window.campus) return;
  const t = window.campus.t;
  const main = document.getElementById("main");
  const signedIn = !!document.getElementById("player");
  const KEPT = "campus-kept";

  /** A line at the top of the page's content (made once per id). */
  function notice(id, className) {
    let element = document.getElementById(id);
    if (!element && main) {
      element = document.createElement("div");
      element.id = id;
      element.className = className;
      element.setAttribute("role", "status");
      main.prepend(element);
    }
    return element;
  }

  const when = (iso) => {
    const date = new Date(iso);
    if (isNaN(date)) return "";
    return new Intl.DateTimeFormat(document.documentElement.lang || undefined,
      { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit" }).format(date);
  };

  // MARK: A kept page says so

  const since = document.body.getAttribute("data-offline-since");
  if (since !== null) {
    document.body.classList.add("offline");
    const mark = notice("offline-mark", "flash offline");
    mark.textContent = since
      ? t("Offline: this page as of {time}.", { time: when(since) })
      : t("Offline: this page is not kept on this device.");
  }

  // MARK: The service worker and its outbox

  const kinds = {
    "note-new": () => t("New note"), "note-change": () => t("Changed note"), "note-delete": () => t("Deleted note"),
    "task-new": () => t("New task"), "task-change": () => t("Changed task"), "task-done": () => t("Task done or undone"),
    "task-delete": () => t("Deleted task"),
  };
  const describe = (item) => kinds[item.kind] ? kinds[item.kind]() + (item.text ? ": «" + item.text + "»" : "") : item.text;

  function showOutbox(state) {
    const box = notice("outbox", "outbox");
    if (!box) return;
    box.textContent = "";
    if (state.sent) {
      const done = document.createElement("p");
      done.className = "flash success";
      done.id = "outbox-sent";
      done.textContent = t("What you wrote offline is sent.");
      box.append(done);
    }
    if (state.waiting.length) {
      const title = document.createElement("p");
      title.id = "outbox-waiting";
      title.textContent = t("Waiting to be sent when the server can be reached:");
      const list = document.createElement("ul");
      for (const item of state.waiting) {
        const row = document.createElement("li");
        row.textContent = describe(item);
        list.append(row);
      }
      box.append(title, list);
    }
    for (const item of state.refused) {
      const row = document.createElement("p");
      row.className = "flash error refused";
      const reason = item.reason === "signed-out" ? t("You were signed out; sign in and write it again.") : item.reason;
      row.textContent = t("The server did not take this: {what}. {reason}", { what: describe(item), reason });
      const dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "secondary small";
      dismiss.textContent = t("Dismiss");
      dismiss.addEventListener("click", () => post({ kind: "dismiss", id: item.id }));
      row.append(" ", dismiss);
      box.append(row);
    }
    box.hidden = !box.childElementCount;
    if (state.sent && since !== null) setTimeout(() => location.reload(), 1500);
  }

  function post(message) {
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.ready.then((registration) => registration.active && registration.active.postMessage(message));
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/service-worker.js", { scope: "/", updateViaCache: "none" }).catch(() => {});
    navigator.serviceWorker.addEventListener("message", (event) => {
      if (event.data && event.data.kind === "outbox") showOutbox(event.data);
    });
    post({ kind: "flush" });
    // A student who stays on a page a moment has their own pages read again to keep (at most
    // every quarter of an hour); one passing through does not.
    if (signedIn && since === null) setTimeout(() => post({ kind: "warm" }), 2000);
    window.addEventListener("online", () => post({ kind: "flush" }));
  }

  // MARK: Kept for offline listening

  if (!signedIn || !window.caches || !navigator.serviceWorker) return;
  const mediaKey = (id) => new URL(`/api/v1/media/${id}`, location.origin).href;

  async function keptIDs() {
    const cache = await caches.open(KEPT);
    return new Set((await cache.keys()).map((r) => /\/api\/v1\/media\/(\d+)$/.exec(new URL(r.url).pathname))
      .filter(Boolean).map((m) => m[1]));
  }

  async function keep(id) {
    const answer = await window.campus.api(`/api/v1/media/${id}`);
    if (!answer.ok) throw new Error(String(answer.status));
    const media = await answer.json();
    const audio = await fetch(media.streamUrl, { credentials: "same-origin" });
    if (!audio.ok || new URL(audio.url).origin !== location.origin) throw new Error(String(audio.status));
    const cache = await caches.open(KEPT);
    await cache.put(new URL(media.streamUrl, location.origin).href, audio);
    for (const size of ["thumbnail", "medium"]) {
      const cover = media.images && media.images[size];
      const answer = cover ? await fetch(cover, { credentials: "same-origin" }).catch(() => null) : null;
      if (answer && answer.ok) await cache.put(new URL(cover, location.origin).href, answer);
    }
    await cache.put(mediaKey(id), new Response(JSON.stringify(media), { headers: { "Content-Type": "application/json" } }));
  }

  async function unkeep(id) {
    const cache = await caches.open(KEPT);
    const document = await cache.match(mediaKey(id));
    if (document) {
      const media = await document.json();
      await cache.delete(new URL(media.streamUrl, location.origin).href);
    }
    await cache.delete(mediaKey(id));
  }

  async function showKeepButtons() {
    const kept = await keptIDs();
    for (const button of document.querySelectorAll("button[data-keep]")) {
      const isKept = kept.has(button.dataset.keep);
      button.hidden = false;
      button.textContent = isKept ? t("Remove from device") : t("Keep offline");
      button.setAttribute("aria-pressed", isKept ? "true" : "false");
    }
    await showKeptList(kept);
  }

  async function showKeptList(kept) {
    const section = document.getElementById("kept-items");
    const list = document.getElementById("kept-list");
    if (!section || !list) return;
    const cache = await caches.open(KEPT);
    list.textContent = "";
    for (const id of kept) {
      const answer = await cache.match(mediaKey(id));
      if (!answer) continue;
      const media = await answer.json();
      const row = document.createElement("li");
      row.id = `kept-${id}`;
      const play = document.createElement("button");
      play.type = "button";
      play.className = "link play-item";
      play.dataset.playKept = id;
      play.setAttribute("aria-label", t("Play {title}", { title: media.title }));
      play.textContent = "▶";
      const title = document.createElement("a");
      title.href = media.url || "#";
      title.textContent = media.title;
      const parent = document.createElement("span");
      parent.className = "muted";
      parent.textContent = media.parent && media.parent.title ? " · " + media.parent.title : "";
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "link";
      remove.dataset.keep = id;
      remove.setAttribute("aria-pressed", "true");
      remove.textContent = t("Remove from device");
      row.append(play, " ", title, parent, " ", remove);
      list.append(row);
    }
    section.hidden = kept.size === 0;
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest ? event.target.closest("button[data-keep]") : null;
    if (!button) return;
    event.preventDefault();
    const id = button.dataset.keep;
    const status = document.getElementById("share-toast") || notice("keep-status", "flash");
    button.disabled = true;
    try {
      if (button.getAttribute("aria-pressed") === "true") {
        await unkeep(id);
        status.textContent = t("Removed from this device.");
      } else {
        button.textContent = t("Keeping…");
        await keep(id);
        status.textContent = t("Kept on this device: it plays without a network.");
      }
    } catch (error) {
      status.textContent = t("This item could not be kept on this device.");
    }
    button.disabled = false;
    await showKeepButtons();
  });

  const previousInit = window.campus.initPage;
  window.campus.initPage = () => { previousInit(); showKeepButtons(); };
  showKeepButtons();
})();
