// Moving between pages without stopping: while the player plays, links and forms of Campus load
// the next page's content in place (the player, outside it, goes on).
(function () {
  "use strict";
  if (!document.getElementById("player-audio") || !window.campus) return;
  const audio = document.getElementById("player-audio");
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
})();
