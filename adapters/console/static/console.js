// The console's progressive JavaScript: every page works without it. It adds copy buttons,
// confirmations of dangerous forms, the crawl's progress, and the widget's live preview. No
// inline script: the page's Content-Security-Policy allows scripts from this origin only.
(function () {
  "use strict";
  // The copy buttons need this script: without it they stay hidden.
  document.querySelectorAll("[data-copy][hidden]").forEach(function (b) { b.hidden = false; });
  document.addEventListener("click", function (e) {
    var b = e.target.closest("[data-copy]");
    if (!b) return;
    var src = document.getElementById(b.getAttribute("data-copy"));
    if (!src) return;
    var done = function () {
      var said = b.getAttribute("data-copied");
      if (said) { b.textContent = said; }
    };
    // Without the Clipboard API (a page on plain http other than localhost) or when it is
    // refused: the text is selected and copied the older way; left selected if even that fails,
    // so that the owner can copy it by hand.
    var select = function () {
      var range = document.createRange();
      range.selectNodeContents(src);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (err) { copied = false; }
      if (copied) { done(); }
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(src.textContent).then(done, select);
    } else {
      select();
    }
  });
  document.addEventListener("submit", function (e) {
    var msg = e.target.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) { e.preventDefault(); return; }
    var busy = document.getElementById(e.target.getAttribute("data-busy") || "");
    if (busy) { busy.textContent = busy.getAttribute("data-busy-text"); }
    var progress = e.target.getAttribute("data-progress");
    if (progress && busy && window.fetch && window.TextDecoder && window.URLSearchParams && window.DOMParser) {
      e.preventDefault();
      crawl(e.target, progress, busy);
    }
  });

  // crawl posts the crawl form (its CSRF token included) to the progress address, which answers
  // server-sent events while the site is read: each page read is listed, and when it is done the
  // page list is read again from the Brain page. Without this the form posts as usual.
  function crawl(form, url, status) {
    var list = document.getElementById("crawl-progress");
    var button = form.querySelector("button[type=submit]");
    list.textContent = "";
    list.hidden = false;
    if (button) { button.disabled = true; }
    form.querySelectorAll("[aria-invalid]").forEach(function (f) {
      f.removeAttribute("aria-invalid");
      f.removeAttribute("aria-describedby");
    });
    var finish = function (text) {
      status.textContent = text;
      if (button) { button.disabled = false; }
    };
    var handle = function (event, data) {
      if (event === "page") {
        var li = document.createElement("li");
        li.textContent = data.text;
        list.appendChild(li);
        status.textContent = data.text;
      } else if (event === "done") {
        finish(data.text);
        form.setAttribute("data-done", "yes");
        refreshPages(form.getAttribute("data-refresh"));
      } else if (event === "failed") {
        finish(data.text);
        // A value refused: marked as the page without script marks it, the reason in the status.
        var field = data.field && form.querySelector("[name='" + data.field + "']");
        if (field) {
          field.setAttribute("aria-invalid", "true");
          field.setAttribute("aria-describedby", status.id);
          field.focus();
        }
      }
    };
    fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Accept": "text/event-stream" },
      body: new URLSearchParams(new FormData(form))
    }).then(function (res) {
      if (!res.ok || !res.body) { throw new Error("HTTP " + res.status); }
      var reader = res.body.getReader();
      var decoder = new TextDecoder();
      var buf = "";
      var pump = function () {
        return reader.read().then(function (r) {
          if (r.done) { return; }
          buf += decoder.decode(r.value, { stream: true });
          var at;
          while ((at = buf.indexOf("\n\n")) >= 0) {
            var block = buf.slice(0, at);
            buf = buf.slice(at + 2);
            var event = "message", data = "";
            block.split("\n").forEach(function (line) {
              if (line.indexOf("event: ") === 0) { event = line.slice(7); }
              else if (line.indexOf("data: ") === 0) { data += line.slice(6); }
            });
            if (data) { handle(event, JSON.parse(data)); }
          }
          return pump();
        });
      };
      return pump();
    }).catch(function () {
      finish(status.getAttribute("data-failed-text"));
    });
  }

  // refreshPages reads the Brain page (at url) again and shows its page list.
  function refreshPages(url) {
    fetch(url, { credentials: "same-origin" }).then(function (res) { return res.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("brain-pages");
      var old = document.getElementById("brain-pages");
      if (fresh && old) { old.replaceWith(fresh); }
    });
  }
})();
