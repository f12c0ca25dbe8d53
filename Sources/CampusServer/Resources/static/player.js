// Campus player: the queue lives on the server (POST /api/v1/player with seed 001's actions);
// this plays the current item, shows the mini and big player, and keeps playing while the
// listener moves between pages (links and forms load the next page's content in place).
(function () {
  "use strict";
  const root = document.getElementById("player");
  if (!root || !window.campus) return;
  const t = window.campus.t;
  const $ = (id) => document.getElementById(id);
  const audio = $("player-audio");
  let state = null; // the last Player document from the server
  let loadedID = null; // the media item whose file is in the audio element
  let startedID = null; // the item playback_started was sent for
  let sleep = null; // { kind: "minutes", until, timer } or { kind: "end" }
  let queueOfRequests = Promise.resolve();

  const time = (seconds) => {
    if (!isFinite(seconds)) return "0:00";
    const total = Math.max(0, Math.floor(seconds));
    const h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, s = total % 60;
    const two = (n) => (n < 10 ? "0" : "") + n;
    return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  };
  const current = () => (state && state.current != null ? state.queue[state.current] : null);
  const spoken = (media) => media && media.kind !== "track";

  function showError(text) {
    const error = $("player-error");
    error.textContent = text;
    error.hidden = !text;
    if (text) setTimeout(() => { error.hidden = true; }, 5000);
  }

  /** Sends an action; actions go one after another, in the order the listener made them. */
  function send(action, payload) {
    const body = JSON.stringify(payload ? { action, payload } : { action });
    queueOfRequests = queueOfRequests.then(async () => {
      const response = await window.campus.api("/api/v1/player", { method: "POST", body });
      const document = await response.json().catch(() => ({}));
      if (!response.ok) {
        showError(document.detail || t("The player could not do that."));
        return state;
      }
      apply(document);
      return document;
    }).catch(() => { showError(t("The server cannot be reached.")); return state; });
    return queueOfRequests;
  }

  /** Shows the state and makes the audio element follow it. */
  function apply(next, options = {}) {
    state = next;
    const entry = current();
    root.hidden = state.queue.length === 0;
    document.body.classList.toggle("has-player", !root.hidden);
    if (entry) {
      const media = entry.media;
      if (loadedID !== media.id) {
        loadedID = media.id;
        startedID = null;
        audio.src = media.streamUrl;
        const resumeAt = state.position > 0 ? state.position : (media.resumePosition || 0);
        if (resumeAt > 0) {
          audio.addEventListener("loadedmetadata", () => { audio.currentTime = resumeAt; }, { once: true });
        }
      }
      audio.playbackRate = spoken(media) ? Number($("player-speed").value) : 1;
      if (state.playing && options.autoplay !== false) {
        audio.play().catch(() => render());
      } else if (!state.playing && !audio.paused) {
        audio.pause();
      }
    } else {
      audio.pause();
      audio.removeAttribute("src");
      loadedID = null;
    }
    render();
    updateMediaSession();
  }

  function render() {
    const entry = current();
    const media = entry ? entry.media : null;
    $("player-title").textContent = media ? media.title : "—";
    $("player-title").href = media ? media.url : "/listen";
    const subtitle = media ? [media.author && media.author.name, media.parent.title].filter(Boolean).join(" · ") : "";
    $("player-subtitle").textContent = subtitle;
    $("player-big-title").textContent = media ? media.title : t("Nothing is playing");
    $("player-big-subtitle").textContent = subtitle;
    for (const [id, size] of [["player-cover", "thumbnail"], ["player-big-cover", "medium"]]) {
      const image = $(id);
      image.hidden = !(media && media.images);
      if (media && media.images) image.src = media.images[size];
    }
    $("player-toggle").classList.toggle("playing", !audio.paused);
    $("player-toggle").setAttribute("aria-label", audio.paused ? t("Play") : t("Pause"));
    $("player-shuffle").setAttribute("aria-pressed", state && state.shuffle ? "true" : "false");
    const repeat = state ? state.repeat : "disabled";
    $("player-repeat").dataset.mode = repeat;
    $("player-repeat").textContent = { disabled: t("Repeat: off"), all: t("Repeat: all"), one: t("Repeat: one") }[repeat];
    $("player-speed-label").hidden = !spoken(media);
    renderQueue();
    renderTime();
  }

  function renderTime() {
    const seek = $("player-seek");
    const duration = isFinite(audio.duration) ? audio.duration : (current() ? current().media.duration : 0);
    seek.max = String(duration || 0);
    if (document.activeElement !== seek) seek.value = String(audio.currentTime || 0);
    $("player-time").textContent = `${time(audio.currentTime)} / ${time(duration)}`;
  }

  function renderQueue() {
    const list = $("player-queue");
    list.textContent = "";
    if (!state) return;
    state.queue.forEach((entry, place) => {
      const item = document.createElement("li");
      item.dataset.place = String(place);
      item.dataset.id = String(entry.media.id);
      if (place === state.current) item.className = "current";
      if (entry.hidden) item.classList.add("hidden-item");
      const play = document.createElement("button");
      play.type = "button";
      play.className = "link queue-title";
      play.textContent = entry.media.title + (entry.hidden ? " (hidden)" : "");
      play.disabled = entry.hidden;
      play.addEventListener("click", () => { cancelSleep(); send("track_change", { place }); });
      item.appendChild(play);
      const length = document.createElement("span");
      length.className = "muted";
      length.textContent = " " + time(entry.media.duration) + " ";
      item.appendChild(length);
      const button = (label, text, action) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "link";
        b.textContent = text;
        b.setAttribute("aria-label", label);
        b.addEventListener("click", action);
        item.appendChild(b);
      };
      if (place > 0) button(t("Move {title} up", { title: entry.media.title }), "↑", () => send("track_reorder", { from: place, to: place - 1 }));
      if (place < state.queue.length - 1) {
        button(t("Move {title} down", { title: entry.media.title }), "↓", () => send("track_reorder", { from: place, to: place + 1 }));
      }
      button(t("Remove {title}", { title: entry.media.title }), "✕", () => send("track_delete", { places: [place] }));
      list.appendChild(item);
    });
  }

  // MARK: Controls

  function playOrPause() {
    if (!current()) return;
    if (audio.paused) {
      audio.play().catch(() => showError(t("The browser did not start playback; press play again.")));
      send("playback_resume");
    } else {
      audio.pause();
      send("playback_pause", { position: audio.currentTime });
    }
  }

  function next() {
    cancelSleep();
    send("track_skip", { position: audio.currentTime || 0 });
  }

  function previous() {
    cancelSleep();
    const id = loadedID;
    send("track_prev", { position: audio.currentTime || 0 }).then((s) => {
      // Going back more than a few seconds in starts the same item again.
      if (s && current() && current().media.id === id) {
        audio.currentTime = 0;
        if (s.playing) audio.play().catch(() => render());
      }
    });
  }

  $("player-toggle").addEventListener("click", playOrPause);
  $("player-next").addEventListener("click", next);
  $("player-prev").addEventListener("click", previous);
  $("player-seek").addEventListener("change", (event) => { audio.currentTime = Number(event.target.value); });
  $("player-expand").addEventListener("click", () => {
    const big = $("player-big");
    big.hidden = !big.hidden;
    $("player-expand").setAttribute("aria-expanded", big.hidden ? "false" : "true");
  });
  $("player-shuffle").addEventListener("click", () => send(state && state.shuffle ? "shuffle_disable" : "shuffle_enable"));
  $("player-repeat").addEventListener("click", () => {
    const mode = $("player-repeat").dataset.mode;
    send({ disabled: "repeat_all_enable", all: "repeat_one_enable", one: "repeat_disable" }[mode]);
  });
  $("player-clear").addEventListener("click", () => { cancelSleep(); send("clear_queue"); });
  $("player-speed").addEventListener("change", () => {
    if (spoken(current() && current().media)) audio.playbackRate = Number($("player-speed").value);
  });

  // The sleep timer pauses after some minutes or at the end of the current item; a manual
  // next or previous cancels it.
  function cancelSleep() {
    if (sleep && sleep.timer) clearTimeout(sleep.timer);
    sleep = null;
    $("player-sleep").value = "";
    $("player-sleep-status").textContent = "";
  }
  function sleepNow() {
    cancelSleep();
    audio.pause();
    send("playback_pause", { position: audio.currentTime || 0 });
  }
  $("player-sleep").addEventListener("change", (event) => {
    const value = event.target.value;
    if (sleep && sleep.timer) clearTimeout(sleep.timer);
    sleep = null;
    if (value === "end") {
      sleep = { kind: "end" };
      $("player-sleep-status").textContent = t("Pauses at the end of this item.");
    } else if (value) {
      const until = new Date(Date.now() + Number(value) * 60000);
      sleep = { kind: "minutes", until, timer: setTimeout(sleepNow, Number(value) * 60000) };
      $("player-sleep-status").textContent = t("Pauses at {time}.", { time: until.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false }) });
    } else {
      $("player-sleep-status").textContent = "";
    }
  });

  // MARK: Audio events

  audio.addEventListener("playing", () => {
    if (startedID !== loadedID) {
      startedID = loadedID;
      send("playback_started");
    }
    render();
  });
  audio.addEventListener("pause", render);
  audio.addEventListener("timeupdate", renderTime);
  audio.addEventListener("durationchange", renderTime);
  audio.addEventListener("ended", () => {
    if (sleep && sleep.kind === "end") {
      cancelSleep();
      send("playback_pause", { position: audio.duration || 0 });
      return;
    }
    const id = loadedID;
    send("track_next").then((s) => {
      if (!s) return;
      if (s.playing && current() && current().media.id === id) {
        // Repeat one (or a queue of one with repeat all) plays the same item again.
        audio.currentTime = 0;
        audio.play().catch(() => render());
      } else if (!s.playing && s.current != null) {
        send("queue_ended");
      }
    });
  });
  audio.addEventListener("error", () => {
    if (audio.getAttribute("src")) showError(t("This item cannot be played."));
  });

  // Lock-screen and media-key controls.
  function updateMediaSession() {
    if (!("mediaSession" in navigator) || !current()) return;
    const media = current().media;
    const artwork = media.images
      ? [
          { src: media.images.thumbnail, sizes: "96x96", type: "image/jpeg" },
          { src: media.images.medium, sizes: "300x300", type: "image/jpeg" },
          { src: media.images.large, sizes: "800x800", type: "image/jpeg" },
        ]
      : [];
    navigator.mediaSession.metadata = new MediaMetadata({
      title: media.title, artist: media.author ? media.author.name : "", album: media.parent.title, artwork,
    });
  }
  if ("mediaSession" in navigator) {
    const handlers = {
      play: () => { if (audio.paused) playOrPause(); },
      pause: () => { if (!audio.paused) playOrPause(); },
      previoustrack: previous,
      nexttrack: next,
      seekto: (details) => { if (details.seekTime != null) audio.currentTime = details.seekTime; },
    };
    for (const [action, handler] of Object.entries(handlers)) {
      try { navigator.mediaSession.setActionHandler(action, handler); } catch (e) { /* not supported here */ }
    }
  }

  // Leaving Campus (closing the tab) keeps where playback stopped.
  window.addEventListener("pagehide", () => {
    if (audio.paused || !current()) return;
    window.campus.api("/api/v1/player", {
      method: "POST", keepalive: true,
      body: JSON.stringify({ action: "background_pause", payload: { position: audio.currentTime || 0 } }),
    });
  });

  // MARK: Play buttons on pages

  document.addEventListener("click", (event) => {
    const button = event.target.closest ? event.target.closest("[data-play], [data-enqueue]") : null;
    if (!button) return;
    event.preventDefault();
    cancelSleep();
    if (button.dataset.enqueue) {
      send("enqueue_next", { ids: [button.dataset.enqueue] });
      return;
    }
    const ref = button.dataset.play;
    const context = button.dataset.context;
    const payload = context && context !== ref ? { ids: [ref], contextId: context } : { ids: [ref] };
    const shuffle = button.dataset.shuffle && !(state && state.shuffle);
    send("play", payload).then(() => { if (shuffle) send("shuffle_enable"); });
  });

  // MARK: Moving between pages without stopping

  const playing = () => !audio.paused && !audio.ended;
  const softPath = (url) =>
    url.origin === location.origin && !/^\/(api|static|openapi)/.test(url.pathname) &&
    !/\.(ics|csv|gpx|yaml|json)$/.test(url.pathname);

  async function swapTo(response, push) {
    const type = response.headers.get("Content-Type") || "";
    if (!type.startsWith("text/html")) { location.href = response.url; return; }
    const html = await response.text();
    const page = new DOMParser().parseFromString(html, "text/html");
    const main = page.getElementById("main");
    if (!main || !page.getElementById("player")) {
      // Signed out (or an error page without the layout): load it for real.
      document.open();
      document.write(html);
      document.close();
      return;
    }
    document.getElementById("main").replaceWith(document.adoptNode(main));
    const header = page.querySelector("header.topbar");
    if (header) document.querySelector("header.topbar").replaceWith(document.adoptNode(header));
    document.title = page.title;
    const token = page.querySelector('meta[name="csrf-token"]');
    if (token) {
      window.campus.csrf = token.content;
      document.querySelector('meta[name="csrf-token"]').content = token.content;
    }
    if (push) history.pushState({ soft: true }, "", response.url);
    window.scrollTo(0, 0);
    window.campus.initPage();
  }

  async function navigate(url, push) {
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
      await swapTo(response, push);
    } catch (e) {
      location.href = url;
    }
  }

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || !playing() || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest ? event.target.closest("a[href]") : null;
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href, location.href);
    if (!softPath(url) || (url.pathname === location.pathname && url.hash)) return;
    event.preventDefault();
    if (!history.state) history.replaceState({ soft: true }, "", location.href);
    navigate(url.href, true);
  });

  document.addEventListener("submit", (event) => {
    if (event.defaultPrevented || !playing()) return;
    const form = event.target;
    const url = new URL(form.action, location.href);
    if (!softPath(url)) return;
    event.preventDefault();
    if (!history.state) history.replaceState({ soft: true }, "", location.href);
    const data = new FormData(form, event.submitter);
    if ((form.method || "get").toLowerCase() === "get") {
      url.search = new URLSearchParams(data).toString();
      navigate(url.href, true);
      return;
    }
    const multipart = (form.enctype || "").includes("multipart");
    fetch(url.href, {
      method: "POST", credentials: "same-origin", headers: { Accept: "text/html" },
      body: multipart ? data : new URLSearchParams(data),
    }).then((response) => swapTo(response, true)).catch(() => form.submit());
  });

  window.addEventListener("popstate", (event) => {
    if (event.state && event.state.soft) navigate(location.href, false);
  });

  // MARK: Start: show the listener's player as the server keeps it, paused.

  window.campus.api("/api/v1/player").then((r) => (r.ok ? r.json() : null)).then((s) => {
    if (s) apply({ ...s, playing: false }, { autoplay: false });
  });
})();
