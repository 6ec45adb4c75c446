// The console's progressive JavaScript: every page works without it. It adds copy buttons,
// confirmations of dangerous forms, and the widget's live preview. No inline script: the page's
// Content-Security-Policy allows scripts from this origin only.
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var b = e.target.closest("[data-copy]");
    if (!b) return;
    var src = document.getElementById(b.getAttribute("data-copy"));
    if (!src || !navigator.clipboard) return;
    navigator.clipboard.writeText(src.textContent).then(function () {
      var done = b.getAttribute("data-copied");
      if (done) { b.textContent = done; }
    });
  });
  document.addEventListener("submit", function (e) {
    var msg = e.target.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) { e.preventDefault(); }
  });
})();
