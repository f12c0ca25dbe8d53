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
  // A station playing live instead of the queue: { mount, name, stream, live, url, nowPlaying }.
  let station = null;
  let stationEvents = null;
  let queueOfRequests = Promise.resolve();

  const time = (seconds) => window.campus.clock(seconds);
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
    }).catch(() => {
      // Offline, what plays (a kept item) plays on; the server hears of the next action online.
      if (navigator.onLine) showError(t("The server cannot be reached."));
      return state;
    });
    return queueOfRequests;
  }

  /** Shows the state and makes the audio element follow it. */
  function apply(next, options = {}) {
    state = next;
    if (station) { render(); return; }
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
    root.classList.toggle("radio", !!station);
    for (const id of ["player-prev", "player-next", "player-seek"]) $(id).disabled = !!station;
    $("player-sleep").querySelector('option[value="end"]').disabled = !!station;
    if (station) { renderStation(); return; }
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
    // Seed 001 §3.6: spoken items go back 15 and forward 30 seconds.
    $("player-back").hidden = !spoken(media);
    $("player-forward").hidden = !spoken(media);
    $("player-marks").hidden = !media;
    const liked = !!(media && media.liked);
    $("player-like").setAttribute("aria-pressed", liked ? "true" : "false");
    $("player-like").textContent = liked ? t("Liked") : t("Like");
    renderQueue();
    renderTime();
  }

  function renderTime() {
    if (station) { $("player-time").textContent = t("Live"); return; }
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
      play.textContent = entry.hidden ? t("{title} (hidden)", { title: entry.media.title }) : entry.media.title;
      play.disabled = entry.hidden;
      play.addEventListener("click", () => { itemChosen(); send("track_change", { place }); });
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
    if (station) { toggleStation(); return; }
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
    if (station) return;
    itemChosen();
    send("track_skip", { position: audio.currentTime || 0 });
  }

  function previous() {
    if (station) return;
    itemChosen();
    const id = loadedID;
    send("track_prev", { position: audio.currentTime || 0 }).then((s) => {
      // Going back more than a few seconds in starts the same item again.
      if (s && current() && current().media.id === id) {
        audio.currentTime = 0;
        if (s.playing) audio.play().catch(() => render());
      }
    });
  }

  /** Moves within a spoken item by `seconds` (back when negative), within its length. */
  function skipBy(seconds) {
    if (station || !current()) return;
    const end = isFinite(audio.duration) ? audio.duration : current().media.duration;
    audio.currentTime = Math.max(0, Math.min(end, (audio.currentTime || 0) + seconds));
    renderTime();
  }

  /** Likes (or unlikes) or hides the current item, as its page's buttons do; a hidden item is
   * skipped at once. The player's state comes back with the item's marks. */
  async function mark(kind) {
    const entry = current();
    if (station || !entry) return;
    const target = `${entry.media.kind}:${entry.media.id}`;
    const undo = kind === "like" && entry.media.liked;
    const response = await window.campus.api(`/api/v1/marks/${target}`, undo
      ? { method: "DELETE" }
      : { method: "PUT", body: JSON.stringify({ mark: kind }) }).catch(() => null);
    if (!response || !response.ok) { showError(t("The player could not do that.")); return; }
    if (kind === "hide") { next(); return; }
    const fresh = await window.campus.api("/api/v1/player").catch(() => null);
    if (fresh && fresh.ok) apply(await fresh.json());
  }

  $("player-back").addEventListener("click", () => skipBy(-15));
  $("player-forward").addEventListener("click", () => skipBy(30));
  $("player-like").addEventListener("click", () => mark("like"));
  $("player-hide").addEventListener("click", () => mark("hide"));
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
    if (!station && spoken(current() && current().media)) audio.playbackRate = Number($("player-speed").value);
  });

  // The sleep timer pauses after some minutes or at the end of the current item (seed 001 §3.7,
  // SleepTimer in Sources/Listen): an item the listener chooses (next, previous, a place in the
  // queue, something new to play) turns off only the timer for the end of the item; a timer of
  // minutes runs on. Clearing the queue turns off either.
  function itemChosen() {
    if (sleep && sleep.kind === "end") cancelSleep();
  }
  function cancelSleep() {
    if (sleep && sleep.timer) clearTimeout(sleep.timer);
    sleep = null;
    $("player-sleep").value = "";
    $("player-sleep-status").textContent = "";
  }
  function sleepNow() {
    cancelSleep();
    if (station) { stopStation(); return; }
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
    if (station) { render(); return; }
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
    if (station) {
      showError(t("{name} went off the air.", { name: station.name }));
      stopStation();
      return;
    }
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
    if (!audio.getAttribute("src")) return;
    if (station) {
      showError(t("{name} is off the air.", { name: station.name }));
      stopStation();
      return;
    }
    showError(t("This item cannot be played."));
  });

  // Lock-screen and media-key controls.
  function updateMediaSession() {
    if (!("mediaSession" in navigator)) return;
    if (station) {
      navigator.mediaSession.metadata = new MediaMetadata({ title: station.name, artist: station.nowPlaying || "" });
      return;
    }
    if (!current()) return;
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
      seekto: (details) => { if (!station && details.seekTime != null) audio.currentTime = details.seekTime; },
    };
    for (const [action, handler] of Object.entries(handlers)) {
      try { navigator.mediaSession.setActionHandler(action, handler); } catch (e) { /* not supported here */ }
    }
  }

  // Leaving Campus (closing the tab) keeps where playback stopped.
  window.addEventListener("pagehide", () => {
    if (station || audio.paused || !current()) return;
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
    if (button.dataset.play) itemChosen();
    if (station && button.dataset.play) leaveStation();
    if (button.dataset.enqueue) {
      send("enqueue_next", { ids: [button.dataset.enqueue] });
      return;
    }
    const ref = button.dataset.play;
    const context = button.dataset.context;
    const payload = context && context !== ref ? { ids: [ref], contextId: context } : { ids: [ref] };
    // "Shuffle" buttons play the new queue shuffled, in the same request (as seed 001's play does).
    if (button.dataset.shuffle) payload.shuffle = "enable";
    send("play", payload);
  });

  // A kept item (offline.js keeps its document and audio on the device): played through the
  // server's queue when it answers, by itself in this player when it does not.
  document.addEventListener("click", async (event) => {
    const button = event.target.closest ? event.target.closest("[data-play-kept]") : null;
    if (!button || !window.caches) return;
    event.preventDefault();
    const kept = await (await caches.open("campus-kept")).match(`/api/v1/media/${button.dataset.playKept}`);
    if (!kept) return;
    const media = await kept.json();
    itemChosen();
    if (station) leaveStation();
    if (navigator.onLine) {
      await send("play", { ids: [media.ref] });
      if (current() && current().media.id === media.id) return;
    }
    apply({ queue: [{ media, hidden: false }], current: 0, playing: true, position: 0, repeat: "disabled", shuffle: false });
  });

  // MARK: A station, live

  // A station plays in the mini player instead of the queue (the queue waits, paused): no
  // seeking, no speed, and the sleep timer counts minutes only (seed 001: live radio has no end).
  function renderStation() {
    $("player-title").textContent = station.name;
    $("player-title").href = station.url;
    $("player-subtitle").textContent = station.nowPlaying || t("Live radio");
    $("player-big-title").textContent = station.name;
    $("player-big-subtitle").textContent = station.nowPlaying || "";
    $("player-cover").hidden = !station.image;
    if (station.image) $("player-cover").src = station.image;
    $("player-big-cover").hidden = true;
    $("player-toggle").classList.toggle("playing", !audio.paused);
    $("player-toggle").setAttribute("aria-label", audio.paused ? t("Play") : t("Pause"));
    $("player-speed-label").hidden = true;
    if (sleep && sleep.kind === "end") cancelSleep();
    renderTime();
  }

  // The station's HLS where the browser plays HLS itself but not an MP3 stream, and on iPhones
  // and iPads (HLS plays on in the background and resumes after a network change); the Icecast
  // stream everywhere else.
  function stationSource() {
    const hls = audio.canPlayType("application/vnd.apple.mpegurl") !== "";
    const apple = /iPhone|iPad|iPod/.test(navigator.userAgent);
    return hls && (apple || audio.canPlayType("audio/mpeg") === "") ? station.stream + "/live.m3u8" : station.stream;
  }

  function followStation() {
    if (stationEvents) stationEvents.close();
    stationEvents = station.live && window.EventSource ? new EventSource(station.live) : null;
    if (!stationEvents) return;
    stationEvents.addEventListener("station", (event) => {
      const live = JSON.parse(event.data);
      if (!station || live.mount !== station.mount) return;
      station.nowPlaying = live.nowPlaying || "";
      render();
      updateMediaSession();
    });
    stationEvents.addEventListener("deleted", () => { if (station) stopStation(); });
  }

  function playStation(next) {
    if (current() && !audio.paused) send("playback_pause", { position: audio.currentTime || 0 });
    station = { ...next, nowPlaying: next.nowPlaying || "" };
    loadedID = null;
    sessionStorage.setItem("campus.station", JSON.stringify(station));
    root.hidden = false;
    document.body.classList.add("has-player");
    audio.playbackRate = 1;
    audio.src = stationSource();
    audio.play().catch(() => render());
    followStation();
    render();
    updateMediaSession();
  }

  // Pausing live radio stops the stream; playing again joins the broadcast where it is now.
  function toggleStation() {
    if (audio.paused) {
      audio.src = stationSource();
      audio.play().catch(() => showError(t("The browser did not start playback; press play again.")));
    } else {
      stopStation();
    }
  }

  function stopStation() {
    audio.pause();
    audio.removeAttribute("src");
    audio.load();
    render();
  }

  /** Back to the queue (a play button of an item was pressed). */
  function leaveStation() {
    stopStation();
    if (stationEvents) stationEvents.close();
    stationEvents = null;
    station = null;
    sessionStorage.removeItem("campus.station");
    if (state) apply(state, { autoplay: false });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest ? event.target.closest("[data-play-station]") : null;
    if (!button) return;
    event.preventDefault();
    const data = button.dataset;
    playStation({
      mount: data.playStation, name: data.name, stream: data.stream, live: data.live, url: data.url,
      image: data.image || "", nowPlaying: data.nowPlaying || "",
    });
  });

  // MARK: Start: show the listener's player as the server keeps it, paused (or the station it
  // played in this tab).

  window.campus.api("/api/v1/player").then((r) => (r.ok ? r.json() : null)).then((s) => {
    const saved = sessionStorage.getItem("campus.station");
    if (saved && !station) {
      try {
        station = JSON.parse(saved);
        root.hidden = false;
        document.body.classList.add("has-player");
        followStation();
      } catch (error) { station = null; }
    }
    if (s) apply({ ...s, playing: false }, { autoplay: false });
    else if (station) render();
  });
})();
