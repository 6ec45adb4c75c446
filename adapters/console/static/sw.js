// The console's service worker (served at /app/sw.js, scope /app/): it shows the owner's Web
// Push alerts ({title, body, url}, sent by the service's worker) and opens the alert's console
// page when one is clicked.
"use strict";
self.addEventListener("push", function (event) {
  var msg = {};
  try { msg = event.data ? event.data.json() : {}; } catch (e) { msg = { body: event.data ? event.data.text() : "" }; }
  var url = typeof msg.url === "string" && msg.url.charAt(0) === "/" && msg.url.charAt(1) !== "/" ? msg.url : "/app/notifications";
  event.waitUntil(self.registration.showNotification(msg.title || "svc", { body: msg.body || "", data: { url: url } }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/app/notifications", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].url === url && "focus" in list[i]) { return list[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
