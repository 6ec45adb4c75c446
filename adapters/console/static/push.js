// Web Push on the notifications page: "Alert me on this device" registers the console's service
// worker (/app/sw.js, scope /app/), subscribes this browser with the service's VAPID public key
// and posts the subscription (its CSRF token included) to /app/notifications/push; "Stop
// alerting" posts the device's remove form and unsubscribes. Without script or without Push the
// buttons stay hidden and a sentence says so.
(function () {
  "use strict";
  var form = document.getElementById("push-form");
  if (!form) return;
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window) ||
      !window.fetch || !window.URLSearchParams || !form.getAttribute("data-key")) {
    return; // the unsupported sentence stays
  }
  var enable = document.getElementById("push-enable");
  var disable = document.getElementById("push-disable");
  var status = document.getElementById("push-status");
  var say = function (key) { status.textContent = form.getAttribute("data-say-" + key); };

  // The base64url VAPID key as the bytes pushManager.subscribe takes.
  var keyBytes = function (b64url) {
    var s = b64url.replace(/-/g, "+").replace(/_/g, "/");
    s += "====".slice(0, (4 - s.length % 4) % 4);
    var raw = window.atob(s);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  };
  var post = function (action, fields) {
    var body = new URLSearchParams();
    body.set("csrf_token", form.querySelector("[name=csrf_token]").value);
    Object.keys(fields).forEach(function (k) { body.set(k, fields[k]); });
    return fetch(action, { method: "POST", credentials: "same-origin", body: body }).then(function (res) {
      if (!res.ok) { throw new Error("HTTP " + res.status); }
    });
  };
  var show = function (subscribed) {
    enable.hidden = subscribed;
    disable.hidden = !subscribed;
    enable.disabled = disable.disabled = false;
    say(subscribed ? "on" : "off");
  };
  var failed = function () {
    enable.disabled = disable.disabled = false;
    say(Notification.permission === "denied" ? "denied" : "failed");
  };
  var worker = navigator.serviceWorker.register(form.getAttribute("data-worker"), { scope: form.getAttribute("data-scope") })
    .then(function () { return navigator.serviceWorker.ready; });

  document.getElementById("push-unsupported").hidden = true;
  form.hidden = false;
  worker.then(function (reg) { return reg.pushManager.getSubscription(); })
    .then(function (sub) { show(!!sub); }, function () { show(false); failed(); });

  enable.addEventListener("click", function () {
    enable.disabled = true;
    say("busy");
    worker.then(function (reg) {
      return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(form.getAttribute("data-key")) });
    }).then(function (sub) {
      var j = sub.toJSON();
      return post(form.getAttribute("action"), { endpoint: j.endpoint, p256dh: j.keys.p256dh, auth: j.keys.auth });
    }).then(function () { window.location.reload(); }, failed);
  });

  disable.addEventListener("click", function () {
    disable.disabled = true;
    say("busy");
    worker.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
      if (!sub) { return null; }
      var remove = null;
      document.querySelectorAll("form[data-endpoint]").forEach(function (f) {
        if (f.getAttribute("data-endpoint") === sub.endpoint) { remove = f; }
      });
      var done = remove ? post(remove.getAttribute("action"), {}) : Promise.resolve();
      return done.then(function () { return sub.unsubscribe(); });
    }).then(function () { window.location.reload(); }, failed);
  });
}());
