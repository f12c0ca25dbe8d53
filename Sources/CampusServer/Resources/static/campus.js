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
  };

  // Forms that destroy something ask first.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    const question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  });
})();
