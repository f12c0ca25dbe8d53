// Live tracking (issue 41): a participant's positions from the phone's Geolocation API go to the
// competition in batches every few seconds; without a network they wait in localStorage (on every
// page of Campus, until they are sent). The live map follows every track over Server-Sent Events.
(function () {
  "use strict";
  if (!window.campus) return;
  const t = window.campus.t;
  const STORE = "campus-tracking";
  const SEND_EVERY = 5000;
  const BATCH = 500;

  // The waiting positions, by the URL they go to: { "/api/v1/competitions/7/tracking": [...] }.
  const load = () => {
    try { return JSON.parse(localStorage.getItem(STORE) || "{}") || {}; } catch (error) { return {}; }
  };
  const save = (all) => {
    if (Object.keys(all).length === 0) localStorage.removeItem(STORE);
    else localStorage.setItem(STORE, JSON.stringify(all));
  };
  const waiting = (url) => load()[url] || [];
  const keep = (url, point) => {
    const all = load();
    (all[url] = all[url] || []).push(point);
    save(all);
  };
  const forget = (url, count) => {
    const all = load();
    const rest = (all[url] || []).slice(count);
    if (rest.length > 0) all[url] = rest; else delete all[url];
    save(all);
  };

  // What the panel of the page's competition shows (nothing when the page is another one).
  const panel = () => document.getElementById("tracking");
  const say = (text) => {
    const state = document.getElementById("tracking-state");
    if (state) state.textContent = text;
  };
  const decimal = (value) => {
    const separator = document.querySelector("[data-decimal]")?.getAttribute("data-decimal") || ".";
    return String(Math.round(value * 100) / 100).replace(".", separator);
  };
  const clock = (seconds) => window.campus.clock(seconds, Math.round);
  const figures = (tracking) => t("{distance}, moving {moving}", {
    distance: t("{number} km", { number: decimal(tracking.distanceMeters / 1000) }),
    moving: clock(tracking.movingSeconds),
  });
  const showFigures = (url, tracking) => {
    const element = panel();
    if (element && element.getAttribute("data-send") === url) {
      document.getElementById("tracking-figures").textContent = figures(tracking);
    }
  };
  const problemText = async (response) => {
    try {
      const problem = await response.json();
      return problem.detail || problem.title || String(response.status);
    } catch (error) { return String(response.status); }
  };

  // Sends what waits, a batch at a time. A network failure, a lost sign-in (401/403) or a busy
  // server keeps the positions for the next round; a refusal of the batch (422) drops it with the
  // reason, and a track that takes no more (409) drops everything of that competition.
  let sending = false;
  async function send() {
    if (sending) return;
    sending = true;
    try {
      for (const url of Object.keys(load())) {
        for (let batch = waiting(url).slice(0, BATCH); batch.length > 0; batch = waiting(url).slice(0, BATCH)) {
          let response;
          try {
            response = await window.campus.api(url, { method: "POST", body: JSON.stringify({ points: batch }) });
          } catch (error) {
            say(t("No network. Positions waiting on this phone: {count}.", { count: waiting(url).length }));
            return;
          }
          if (response.ok) {
            forget(url, batch.length);
            const stored = await response.json().catch(() => null);
            if (stored) showFigures(url, stored.tracking);
            if (panel()?.getAttribute("data-send") === url) {
              say(watching ? t("Tracking: positions are sent.") : t("All positions are sent."));
            }
            continue;
          }
          if (response.status === 401 || response.status === 403 || response.status === 429 || response.status >= 500) {
            say(t("The positions wait on this phone: {reason}", { reason: await problemText(response) }));
            return;
          }
          const reason = await problemText(response);
          if (response.status === 409) {
            forget(url, waiting(url).length);
            if (panel()?.getAttribute("data-send") === url) stop();
          } else {
            forget(url, batch.length);
          }
          say(reason);
        }
      }
    } finally {
      sending = false;
    }
  }
  setInterval(send, SEND_EVERY);
  window.addEventListener("online", send);

  // Watching the position: one competition at a time, while its page is open.
  let watching = null;
  function start() {
    const element = panel();
    if (!element || !navigator.geolocation) {
      say(t("This browser cannot tell where you are."));
      return;
    }
    const url = element.getAttribute("data-send");
    stop();
    say(t("Waiting for the position…"));
    watching = {
      url,
      id: navigator.geolocation.watchPosition(
        (position) => {
          const point = {
            lat: position.coords.latitude,
            lon: position.coords.longitude,
            time: new Date(position.timestamp || Date.now()).toISOString(),
          };
          if (position.coords.altitude != null) point.ele = position.coords.altitude;
          keep(url, point);
          say(t("Tracking. Positions waiting to be sent: {count}.", { count: waiting(url).length }));
        },
        (error) => say(t("Where you are is not known: {reason}", { reason: error.message || String(error.code) })),
        { enableHighAccuracy: true, maximumAge: 0, timeout: 30000 },
      ),
    };
    showButtons();
  }
  function stop() {
    if (watching) navigator.geolocation.clearWatch(watching.id);
    watching = null;
    showButtons();
  }
  function showButtons() {
    const startButton = document.getElementById("tracking-start");
    const stopButton = document.getElementById("tracking-stop");
    if (startButton) startButton.hidden = watching !== null;
    if (stopButton) stopButton.hidden = watching === null;
  }
  async function finish(button) {
    if (!window.confirm(button.getAttribute("data-confirm-text"))) return;
    const element = panel();
    stop();
    await send();
    const url = element.getAttribute("data-send");
    if (waiting(url).length > 0) {
      say(t("Send the waiting positions first: the phone has no network."));
      return;
    }
    const response = await window.campus.api(element.getAttribute("data-finish"), { method: "POST" }).catch(() => null);
    if (!response) { say(t("No network: try again.")); return; }
    if (!response.ok) { say(await problemText(response)); return; }
    const finished = await response.json();
    showFigures(url, finished.tracking);
    element.setAttribute("data-finished", "");
    document.getElementById("tracking-actions")?.remove();
    say(finished.entry && finished.entry.resultText
      ? t("Finished: your result is {result}.", { result: finished.entry.resultText })
      : t("You finished your live track."));
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest ? event.target.closest("#tracking-start, #tracking-stop, #tracking-finish") : null;
    if (!button) return;
    if (button.id === "tracking-start") start();
    else if (button.id === "tracking-stop") { stop(); say(t("Paused: no positions are taken.")); }
    else finish(button);
  });

  // The live map: new positions extend each track's line and move its marker; a participant who
  // starts later gets a line and a row; the drawing grows when someone leaves it.
  let mapSource = null;
  function followMap() {
    if (mapSource) { mapSource.close(); mapSource = null; }
    const map = document.getElementById("live-map");
    if (!map || !window.EventSource) return;
    const svg = document.getElementById("track-map");
    const rows = document.querySelector("#trackers tbody");
    const status = document.getElementById("live-status");
    const number = (name) => Number(map.getAttribute("data-" + name));
    const west = number("west"), north = number("north"), cosine = number("cosine"), scale = number("scale");
    const project = (lat, lon) => [(lon - west) * cosine * scale, (north - lat) * scale];
    const tenths = (value) => String(Math.round(value * 10) / 10);
    const box = svg.viewBox.baseVal;
    const grow = (x, y) => {
      const margin = 20;
      const left = Math.min(box.x, x - margin), top = Math.min(box.y, y - margin);
      const right = Math.max(box.x + box.width, x + margin), bottom = Math.max(box.y + box.height, y + margin);
      svg.setAttribute("viewBox", `${left} ${top} ${right - left} ${bottom - top}`);
      size();
    };
    // Markers and names keep their size on screen whatever the drawing's scale (campus.css).
    const size = () => { if (svg.clientWidth > 0) svg.style.setProperty("--unit", String(box.width / svg.clientWidth)); };
    size();
    window.addEventListener("resize", size);
    const SVG = "http://www.w3.org/2000/svg";
    const track = (summary) => {
      const id = String(summary.participant.id);
      let group = svg.querySelector(`g.track[data-user="${id}"]`);
      if (group) return group;
      const colour = svg.querySelectorAll("g.track").length % 8;
      group = document.createElementNS(SVG, "g");
      group.setAttribute("class", `track track-${colour}`);
      group.setAttribute("data-user", id);
      const line = document.createElementNS(SVG, "polyline");
      line.setAttribute("points", "");
      const marker = document.createElementNS(SVG, "circle");
      marker.setAttribute("r", "9");
      const label = document.createElementNS(SVG, "text");
      label.textContent = summary.participant.name;
      group.append(line, marker, label);
      svg.append(group);
      const row = document.createElement("tr");
      row.setAttribute("data-user", id);
      row.innerHTML = `<td><span class="swatch track-${colour}"></span> <span class="tracker-name"></span><br>` +
        '<a class="osm small" rel="noopener" target="_blank"></a></td><td class="value"><span class="distance"></span><br><span class="moving muted small"></span></td>';
      row.querySelector(".tracker-name").textContent = summary.participant.name;
      row.querySelector(".osm").textContent = t("On OpenStreetMap");
      rows.append(row);
      document.getElementById("no-tracks")?.remove();
      return group;
    };
    const show = (summary, added) => {
      const group = track(summary);
      const line = group.querySelector("polyline");
      const points = (added || []).map(([lat, lon]) => project(lat, lon));
      if (points.length === 0 && summary.last) points.push(project(summary.last.lat, summary.last.lon));
      if (points.length > 0) {
        const text = points.map(([x, y]) => `${tenths(x)},${tenths(y)}`).join(" ");
        const before = line.getAttribute("points");
        if (added && added.length > 0) line.setAttribute("points", before ? `${before} ${text}` : text);
        points.forEach(([x, y]) => grow(x, y));
      }
      if (summary.last) {
        const [x, y] = project(summary.last.lat, summary.last.lon);
        for (const element of group.querySelectorAll("circle, text")) {
          element.setAttribute(element.tagName === "circle" ? "cx" : "x", tenths(x));
          element.setAttribute(element.tagName === "circle" ? "cy" : "y", tenths(y));
        }
        group.querySelector("text").classList.toggle("east", x > box.x + box.width / 2);
      }
      const row = rows.querySelector(`tr[data-user="${summary.participant.id}"]`);
      row.querySelector(".distance").textContent = t("{number} km", { number: decimal(summary.distanceMeters / 1000) });
      row.querySelector(".moving").textContent = t("moving {moving}", { moving: clock(summary.movingSeconds) });
      const link = row.querySelector("a.osm");
      if (link && summary.last) {
        const lat = summary.last.lat.toFixed(5), lon = summary.last.lon.toFixed(5);
        link.href = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
      }
    };
    const source = new EventSource(map.getAttribute("data-live"));
    mapSource = source;
    source.addEventListener("open", () => { if (status) status.textContent = t("Live: the map updates by itself."); });
    source.addEventListener("error", () => { if (status) status.textContent = t("Reconnecting…"); });
    source.addEventListener("tracks", (event) => JSON.parse(event.data).forEach((summary) => show(summary, null)));
    source.addEventListener("position", (event) => {
      const data = JSON.parse(event.data);
      show(data, data.added);
    });
  }

  // Pages come in place while the player plays (soft-navigation.js): set them up again.
  function initPage() {
    if (watching && panel()?.getAttribute("data-send") !== watching.url) stop();
    const actions = document.getElementById("tracking-actions");
    if (actions) actions.hidden = false;
    showButtons();
    const element = panel();
    if (element && waiting(element.getAttribute("data-send")).length > 0) {
      say(t("Tracking. Positions waiting to be sent: {count}.", { count: waiting(element.getAttribute("data-send")).length }));
    }
    followMap();
    send();
  }
  const previousInit = window.campus.initPage;
  window.campus.initPage = () => { previousInit(); initPage(); };
  initPage();
})();
