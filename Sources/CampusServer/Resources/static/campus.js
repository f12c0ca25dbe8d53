// Campus — small progressive enhancements; every page works without them.
(function () {
  "use strict";

  // The CSRF token of this page, for scripts that call the API with the session cookie.
  const meta = document.querySelector('meta[name="csrf-token"]');
  window.campus = {
    csrf: meta ? meta.content : "",
    /** Calls the Campus API with the session cookie and the CSRF token. */
    api(path, options = {}) {
      const headers = new Headers(options.headers || {});
      headers.set("X-CSRF-Token", window.campus.csrf);
      if (options.body && !(options.body instanceof FormData) && !headers.has("Content-Type")) {
        headers.set("Content-Type", "application/json");
      }
      return fetch(path, { credentials: "same-origin", ...options, headers });
    },
    /**
     * A duration as a clock ("4:05", "1:02:03"): the player floors the seconds it has played,
     * results round them as the server's ResultText.clock does (round = Math.round).
     */
    clock(seconds, round = Math.floor) {
      if (!isFinite(seconds)) return "0:00";
      const total = Math.max(0, round(seconds));
      const h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, s = total % 60;
      const two = (n) => (n < 10 ? "0" : "") + n;
      return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
    },
    /** Sets up the scripts of the page's content; run again when the player swaps pages in. */
    initPage() { followRanking(); followChat(); setUpPush(); },
    /**
     * A message in the page's language (the layout carries the scripts' messages, translated):
     * t('Pauses at {time}.', { time: '22:10' }).
     */
    t(text, values = {}) {
      const element = document.querySelector(`#campus-messages [data-message="${CSS.escape(text)}"]`);
      const message = element ? element.textContent : text;
      return message.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
    },
  };
  const t = window.campus.t;

  // The footer's language switcher sends itself when a language is chosen.
  document.addEventListener("change", (event) => {
    if (event.target.matches && event.target.matches("select[data-submit-on-change]")) event.target.form.submit();
  });

  // Share (seed 001 §3.8): the system's share sheet where the browser has one (phones), the link
  // copied otherwise; the button's status line says what happened.
  document.addEventListener("click", async (event) => {
    const button = event.target.closest && event.target.closest("button[data-share-url]");
    if (!button) return;
    const url = new URL(button.getAttribute("data-share-url"), window.location.href).href;
    const title = button.getAttribute("data-share-title") || document.title;
    let status = button.parentElement.querySelector(".share-status") || document.getElementById("share-toast");
    if (!status) {
      status = document.createElement("p");
      status.id = "share-toast";
      status.className = "toast";
      status.setAttribute("role", "status");
      document.body.append(status);
    }
    const say = (text) => {
      status.textContent = text;
      status.hidden = false;
      // The floating note goes after a while; a button's own status line stays.
      if (status.id === "share-toast") setTimeout(() => { status.hidden = true; }, 4000);
    };
    if (navigator.share) {
      try { await navigator.share({ title, url }); } catch (error) { /* Closed without sharing. */ }
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
      say(t("Link copied."));
    } catch (error) {
      window.prompt(t("Copy this link:"), url);
    }
  });

  // A station shows whether it is on the air and what it plays: a station's page follows it live
  // (Server-Sent Events), the list asks again every 15 seconds.
  const showStation = (element, station) => {
    element.classList.toggle("on-air", station.onAir);
    const state = element.querySelector(".station-state");
    const said = !station.onAir ? "data-off-air" : station.live === false && element.hasAttribute("data-fallback") ? "data-fallback" : "data-on-air";
    if (state) state.textContent = element.getAttribute(said);
    const playing = element.querySelector(".now-playing");
    if (playing) playing.textContent = station.nowPlaying || "";
  };
  document.querySelectorAll("[data-station-live]").forEach((element) => {
    const events = new EventSource(element.getAttribute("data-station-live"));
    events.addEventListener("station", (event) => showStation(element, JSON.parse(event.data)));
    events.addEventListener("deleted", () => events.close());
  });
  const stations = document.querySelectorAll("[data-station]");
  if (stations.length > 0) {
    const refresh = () => stations.forEach(async (element) => {
      try {
        showStation(element, await (await fetch(element.getAttribute("data-station"))).json());
      } catch (error) { /* The next round tries again. */ }
    });
    setInterval(refresh, 15000);
  }

  // Writing another deadline for a task chooses it among the deadlines offered.
  document.addEventListener("input", (event) => {
    if (event.target.id !== "task-deadline") return;
    const other = document.getElementById("deadline-other");
    if (other) other.checked = true;
  });

  // Links that start something big ask first (reusing a competition).
  document.addEventListener("click", (event) => {
    const link = event.target.closest ? event.target.closest("a[data-confirm-link]") : null;
    if (link && !window.confirm(link.getAttribute("data-confirm-link"))) event.preventDefault();
  });

  // A competition's scoreboard follows the live ranking (Server-Sent Events).
  let liveSource = null;
  function followRanking() {
    if (liveSource) { liveSource.close(); liveSource = null; }
    const ranking = document.querySelector("table#ranking[data-live]");
    if (!ranking || !window.EventSource) return;
    const status = document.getElementById("live-status");
    const count = document.getElementById("participant-count");
    const me = Number(document.querySelector("[data-me]")?.getAttribute("data-me") || 0);
    const person = ranking.getAttribute("data-person");
    const source = new EventSource(ranking.getAttribute("data-live"));
    liveSource = source;
    const cell = (text, className) => {
      const td = document.createElement("td");
      if (className) td.className = className;
      td.textContent = text;
      return td;
    };
    source.addEventListener("open", () => { if (status) status.textContent = t("Live: the scoreboard updates by itself."); });
    source.addEventListener("error", () => { if (status) status.textContent = t("Reconnecting…"); });
    source.addEventListener("ranking", (event) => {
      const data = JSON.parse(event.data);
      if (Number(ranking.getAttribute("data-version")) > data.version) return;
      ranking.setAttribute("data-version", String(data.version));
      const body = document.createElement("tbody");
      for (const item of data.items) {
        const row = document.createElement("tr");
        if (item.participant.id === me) row.className = "me";
        row.appendChild(cell(item.rank != null ? String(item.rank) : "–", "rank"));
        // Another participant's name leads to their page (to follow them).
        const linked = person && item.participant.id !== me;
        const name = cell(linked ? "" : item.participant.name);
        if (linked) {
          const link = document.createElement("a");
          link.href = person.replace("{userId}", String(item.participant.id));
          link.textContent = item.participant.name;
          name.appendChild(link);
        }
        row.appendChild(name);
        const value = cell(item.resultText || "", "value");
        if (!item.resultText) {
          const none = document.createElement("span");
          none.className = "muted";
          const waiting = item.review && (item.review.status === "pending" || item.review.status === "appealed");
          none.textContent = waiting ? ranking.getAttribute("data-under-review") : t("no result yet");
          value.appendChild(none);
        }
        const bestLap = ranking.getAttribute("data-best-lap");
        if (item.bestLapText && bestLap) {
          const lap = document.createElement("span");
          lap.className = "muted best-lap";
          lap.textContent = bestLap.replace("{lap}", item.bestLapText);
          value.appendChild(document.createElement("br"));
          value.appendChild(lap);
        }
        row.appendChild(value);
        body.appendChild(row);
      }
      ranking.replaceChild(body, ranking.tBodies[0]);
      if (count) count.textContent = String(data.total);
      const empty = document.getElementById("no-entries");
      if (empty) empty.hidden = data.total > 0;
    });
    source.addEventListener("deleted", () => {
      source.close();
      if (status) status.textContent = t("This competition was deleted.");
    });
  }

  // A competition's chat follows its live stream (Server-Sent Events): new messages are added
  // at the end, deleted ones lose their text; the form sends without leaving the page.
  let chatSource = null;
  function followChat() {
    if (chatSource) { chatSource.close(); chatSource = null; }
    const chat = document.querySelector("section#chat[data-live]");
    const list = document.getElementById("messages");
    if (!chat || !list || !window.EventSource) return;
    const me = Number(chat.getAttribute("data-me"));
    const deleteAll = chat.hasAttribute("data-delete-all");
    const version = Number(chat.getAttribute("data-version") || 0);
    const two = (n) => String(n).padStart(2, "0");
    const when = (at) => {
      const d = new Date(at);
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
    };
    function show(message) {
      let item = list.querySelector(`li[data-id="${message.id}"]`);
      if (!item) {
        item = document.createElement("li");
        item.className = "message" + (message.author.id === me ? " mine" : "");
        item.setAttribute("data-id", String(message.id));
        const head = document.createElement("span");
        head.className = "message-head";
        const author = document.createElement("strong");
        author.textContent = message.author.name;
        const time = document.createElement("time");
        time.className = "muted";
        time.textContent = when(message.at);
        head.append(author, " ", time);
        const text = document.createElement("p");
        text.className = "message-text";
        text.dir = "auto";
        text.textContent = message.text;
        item.append(head, text);
        if (!message.deleted && (deleteAll || message.author.id === me)) {
          const form = document.createElement("form");
          form.method = "post";
          form.className = "inline delete-message";
          form.action = chat.getAttribute("data-delete").replace("{id}", chat.getAttribute("data-id"))
            .replace("{messageId}", String(message.id));
          const csrf = document.createElement("input");
          csrf.type = "hidden";
          csrf.name = "_csrf";
          csrf.value = window.campus.csrf;
          const button = document.createElement("button");
          button.type = "submit";
          button.className = "small secondary";
          button.textContent = t("Delete");
          form.append(csrf, button);
          item.append(form);
        }
        list.append(item);
        const empty = document.getElementById("no-messages");
        if (empty) empty.hidden = true;
      }
      if (message.deleted) {
        item.classList.add("deleted");
        const text = item.querySelector(".message-text");
        text.textContent = t("The message was deleted.");
        text.classList.add("muted");
        const form = item.querySelector("form.delete-message");
        if (form) form.remove();
      }
    }
    // A change may come twice (after a reconnection): show() adds a message once.
    chatSource = new EventSource(chat.getAttribute("data-live") + "?after=" + version);
    chatSource.addEventListener("message", (event) => show(JSON.parse(event.data)));
    const form = document.getElementById("chat-form");
    const state = document.getElementById("chat-state");
    if (form) {
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const field = form.querySelector("textarea");
        const path = chat.getAttribute("data-live").replace(/\/live$/, "");
        const answer = await window.campus.api(path, { method: "POST", body: JSON.stringify({ text: field.value }) })
          .catch(() => null);
        if (answer && answer.ok) {
          field.value = "";
          if (state) state.textContent = "";
          show(await answer.json());
        } else if (answer) {
          const problem = await answer.json().catch(() => ({}));
          if (state) state.textContent = problem.detail || t("The message was not sent.");
        } else if (state) {
          state.textContent = t("The message was not sent.");
        }
      });
    }
  }

  window.campus.initPage();

  // Every password field can show what was typed (seed 002): a button after it, without which
  // the form works as before.
  for (const input of document.querySelectorAll('input[type="password"]')) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "reveal secondary small";
    button.setAttribute("aria-pressed", "false");
    button.textContent = t("Show");
    button.addEventListener("click", () => {
      const shown = input.type === "password";
      input.type = shown ? "text" : "password";
      button.textContent = shown ? t("Hide") : t("Show");
      button.setAttribute("aria-pressed", String(shown));
      input.focus();
    });
    input.insertAdjacentElement("afterend", button);
  }

  // Forms that destroy something ask first.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    const question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });

  // Push in this browser (the notification settings page): subscribes with the server's key and
  // hands the subscription to the API, or ends it there and in the browser.
  function setUpPush() {
    const state = document.getElementById("push-state");
    if (!state || state.dataset.ready) return;
    state.dataset.ready = "1";
    const on = document.getElementById("push-on");
    const off = document.getElementById("push-off");
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      state.textContent = state.dataset.unsupported;
      return;
    }
    const bytes = (text) => {
      const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
      return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    };
    const show = async () => {
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription();
      const denied = Notification.permission === "denied";
      state.textContent = denied ? state.dataset.denied : subscription ? state.dataset.on : state.dataset.off;
      on.hidden = denied || !!subscription;
      off.hidden = !subscription;
    };
    on.addEventListener("click", async () => {
      if ((await Notification.requestPermission()) !== "granted") return show();
      const key = await (await fetch(state.dataset.keyUrl, { credentials: "same-origin" })).json();
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: bytes(key.publicKey),
      });
      const answer = await window.campus.api(state.dataset.subscriptionsUrl, {
        method: "POST", body: JSON.stringify(subscription.toJSON()),
      });
      if (!answer.ok) await subscription.unsubscribe();
      await show();
    });
    off.addEventListener("click", async () => {
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription();
      if (subscription) {
        const list = await (await window.campus.api(state.dataset.subscriptionsUrl)).json();
        for (const item of list.items || []) {
          if (item.endpoint === subscription.endpoint) {
            await window.campus.api(state.dataset.subscriptionsUrl + "/" + item.id, { method: "DELETE" });
          }
        }
        await subscription.unsubscribe();
      }
      await show();
    });
    show().catch(() => { state.textContent = state.dataset.unsupported; });
  }
})();
