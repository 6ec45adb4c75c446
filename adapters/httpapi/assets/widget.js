/* svc website chat widget. No dependencies, no eval, no inline script or style: it works under a
   strict Content-Security-Policy that allows this script and connections to its origin. */
(function () {
  "use strict";
  var me = document.currentScript || document.querySelector("script[data-token][src*='widget.js']");
  if (!me || window.svcWidgetLoaded) return;
  window.svcWidgetLoaded = true;
  var data = me.dataset;
  var token = data.token;
  if (!token) { console.warn("svc widget: the data-token attribute is missing"); return; }
  var api = new URL(me.src, location.href).origin + "/widget/api/" + encodeURIComponent(token);
  var HEX = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i;

  var WORDS = {
    en: { open: "Open chat", close: "Close chat", title: "Chat", input: "Write a message", send: "Send",
      typing: "Typing…", unavailable: "The assistant is unavailable right now.", error: "Something went wrong. Please try again.",
      slow: "Too many messages. Please wait a moment.", offline: "Could not reach the chat. Check your connection and try again.",
      late: "No answer came in time. Please try again.", long: "Your message is too long: at most 8,000 characters.", invalid: "This message could not be sent. Please change it and try again.",
      page: "Open page", cart: "Add to cart", added: "Added to your cart",
      checkout: "Go to checkout", you: "You", suggestions: "Suggested questions", move: "Drag to move the chat" },
    pt: { open: "Abrir conversa", close: "Fechar conversa", title: "Conversa", input: "Escreva uma mensagem", send: "Enviar",
      typing: "A escrever…", unavailable: "O assistente não está disponível agora.", error: "Algo correu mal. Tente de novo.",
      slow: "Demasiadas mensagens. Aguarde um momento.", offline: "Não foi possível ligar à conversa. Verifique a ligação e tente de novo.",
      late: "A resposta não chegou a tempo. Tente de novo.", long: "A mensagem é demasiado longa: no máximo 8000 caracteres.", invalid: "Não foi possível enviar esta mensagem. Altere-a e tente de novo.",
      page: "Abrir página", cart: "Adicionar ao carrinho",
      added: "Adicionado ao carrinho", checkout: "Finalizar compra", you: "Você", suggestions: "Perguntas sugeridas",
      move: "Arraste para mover a conversa" },
    "pt-BR": { typing: "Digitando…", error: "Algo deu errado. Tente de novo.", slow: "Muitas mensagens. Aguarde um momento.",
      offline: "Não foi possível conectar ao chat. Verifique sua conexão e tente de novo.",
      long: "A mensagem é longa demais: no máximo 8.000 caracteres." }, // the rest as in pt
    es: { open: "Abrir chat", close: "Cerrar chat", input: "Escribe un mensaje", send: "Enviar",
      typing: "Escribiendo…", unavailable: "El asistente no está disponible ahora.", error: "Algo salió mal. Inténtalo de nuevo.",
      slow: "Demasiados mensajes. Espera un momento.", offline: "No se pudo conectar con el chat. Revisa tu conexión e inténtalo de nuevo.",
      late: "La respuesta no llegó a tiempo. Inténtalo de nuevo.", long: "El mensaje es demasiado largo: como máximo 8000 caracteres.", invalid: "No se pudo enviar este mensaje. Cámbialo e inténtalo de nuevo.",
      page: "Abrir página", cart: "Añadir al carrito", added: "Añadido al carrito",
      checkout: "Ir a pagar", you: "Tú", suggestions: "Preguntas sugeridas", move: "Arrastra para mover el chat" }
  };
  var lang = pickLang(data.lang || document.documentElement.lang || navigator.language || "en");
  var base = lang.slice(0, 2);
  function t(k) { return (WORDS[lang] && WORDS[lang][k]) || WORDS[base][k] || WORDS.en[k]; }
  function pickLang(l) {
    l = String(l).replace("_", "-").toLowerCase();
    if (l === "pt-br") return "pt-BR";
    l = l.slice(0, 2);
    return WORDS[l] ? l : "en";
  }

  /* The visitor: a first-party cookie of 30 days whose uuid is the visitor's contact (web:<uuid>). */
  var visitor = (document.cookie.match(/(?:^|;\s*)svc_visitor=([0-9a-f-]{36})(?:;|$)/) || [])[1];
  if (!visitor) visitor = uuid();
  document.cookie = "svc_visitor=" + visitor + "; Max-Age=2592000; Path=/; SameSite=Lax" + (location.protocol === "https:" ? "; Secure" : "");
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = b[6] & 15 | 64; b[8] = b[8] & 63 | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /* A call that gets no answer gives up: a chat waits up to 40 seconds for its reply (then 202),
     anything else answers at once. */
  function msgs() { return call("GET", "/messages?visitor_id=" + visitor); }
  function call(method, path, body, key) {
    var init = { method: method, headers: {}, credentials: "omit" }, timer;
    if (body) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    if (key) init.headers["Idempotency-Key"] = key;
    if (window.AbortController) {
      var stop = new AbortController();
      init.signal = stop.signal;
      timer = setTimeout(function () { stop.abort(); }, method === "POST" ? 50000 : 15000);
    }
    return fetch(api + path, init).then(function (r) {
      return r.json().catch(function (e) { if (e.name === "AbortError") throw e; return {}; }).then(function (j) {
        if (!r.ok) { var e = new Error((j.error && j.error.code) || "http_" + r.status); e.status = r.status; throw e; }
        return j;
      });
    }).then(function (j) { clearTimeout(timer); return j; }, function (e) {
      clearTimeout(timer);
      if (!e.status) e.offline = true; // no answer: the network, or the time ran out
      throw e;
    });
  }

  /* Elements: made with createElement and textContent only; nothing from the service becomes HTML. */
  function el(tag, cls, attrs, text, ns) {
    var n = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
    if (cls) n.className = cls;
    for (var k in attrs || {}) n.setAttribute(k, attrs[k]);
    if (text != null) n.textContent = text;
    return n;
  }
  function on(n, type, f) { n.addEventListener(type, f); }

  /* The page's styles stop at the host: `all:initial!important` there beats any rule of the page
     (`div{transform:…}`, `body *{letter-spacing:…}`). */
  var CSS = ":host{all:initial!important}@media print{:host{display:none!important}}" + // not on paper
    ".w{--a:#2563eb;--on:#fff;--at:#2563eb;--i:#111827;--p:#ffffff;--m:#f3f4f6;--b:#e5e7eb;--fx:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;" +
    "font:14px/1.45 var(--fx);color:var(--i);position:fixed;bottom:20px;z-index:2147483000}" +
    ".w.dark{--i:#f3f4f6;--p:#111827;--m:#1f2937;--b:#374151}" +
    ".right,.right .pn{right:20px}.left,.left .pn{left:20px}" +
    ".l{width:56px;height:56px;border-radius:50%;border:0;background:var(--a);color:var(--on);cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);display:grid;place-items:center}" +
    ".l svg{width:26px;height:26px;fill:currentColor}" +
    "button:focus-visible,.act:focus-visible{outline:3px solid var(--a);outline-offset:2px}" +
    ".pn{position:fixed;bottom:88px;width:370px;max-width:calc(100vw - 24px);height:540px;max-height:calc(100vh - 110px);max-height:calc(100dvh - 110px);background:var(--p);color:var(--i);" +
    "border:1px solid var(--b);border-radius:14px;box-shadow:0 12px 40px rgba(0,0,0,.25);display:flex;flex-direction:column;overflow:hidden}" +
    "[hidden]{display:none!important}.pn:focus{outline:none}" +
    ".h{display:flex;align-items:center;gap:10px;padding:12px 14px;background:var(--a);color:var(--on);user-select:none}" +
    ".h.drag{cursor:move;touch-action:none}" +
    ".h img{width:32px;height:32px;border-radius:50%;object-fit:cover;background:#fff}" +
    ".h h2{flex:1;margin:0;font:600 16px/1.2 var(--ft,var(--fx))}" +
    ".x{background:transparent;border:0;color:inherit;font-size:22px;line-height:1;cursor:pointer;padding:2px 6px;border-radius:6px}" +
    ".g{flex:1;overflow-y:auto;padding:14px;display:flex;flex-direction:column;gap:8px}" +
    ".m{position:relative;max-width:85%;padding:8px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere}.m a{color:inherit;text-decoration:underline}.m ul,.m ol,.m table{margin:4px 0;padding-inline-start:20px}.m table{border-collapse:collapse}.m th,.m td{border:1px solid #8888;padding:2px 6px;overflow-wrap:break-word}.m td a{overflow-wrap:anywhere}.m :is(h3,h4,h5,h6){margin:0;font-size:1em}.m code{font-family:monospace}" +
    ".m.agent{align-self:flex-start;background:var(--m)}" +
    /* Who speaks, for a screen reader (the log, the live announcement): generated text it reads
       and the screen does not show ("You: ", the agent's name). */
    ".m[data-who]::before{content:attr(data-who);position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}" +
    ".m.customer{align-self:flex-end;background:var(--a);color:var(--on)}" +
    ".failed{opacity:.6}" +
    ".m.note{align-self:center;background:transparent;color:inherit;opacity:.75;font-size:13px;text-align:center}" +
    ".acts{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}" +
    ".act,.s button{font:inherit;font-size:13px;border:1px solid var(--b);background:var(--p);color:var(--i);border-radius:999px;padding:4px 10px;cursor:pointer}" +
    ".act{border-color:var(--a);color:var(--at);padding:3px 10px;text-decoration:none}" +
    ".ty{align-self:flex-start;opacity:.7;font-style:italic;padding:0 4px}" +
    ".s{display:flex;flex-wrap:wrap;gap:6px;padding:0 14px 8px}" +
    ".f{display:flex;gap:8px;padding:10px;border-top:1px solid var(--b)}" +
    /* The input grows with its text up to 5 lines (120 px where the lh unit is unknown), then scrolls. */
    ".f textarea{flex:1;resize:none;font:inherit;color:var(--i);background:var(--p);border:1px solid var(--b);border-radius:10px;padding:8px 10px;" +
    "box-sizing:border-box;height:40px;min-height:40px;max-height:120px;max-height:calc(5lh + 18px);overflow-y:auto}" +
    ".f button{font:inherit;font-weight:600;background:var(--a);color:var(--on);border:0;border-radius:10px;padding:0 14px;cursor:pointer}" +
    ".f button:disabled{opacity:.5;cursor:default}" +
    "@media (max-width:899px){.pn{left:12px!important;right:12px!important;top:auto!important;bottom:84px;width:auto}.f textarea{font-size:16px}}";

  var host = el("div", null, { id: "svc-chat-widget" });
  var root = host.attachShadow ? host.attachShadow({ mode: "open" }) : host;
  if (root.adoptedStyleSheets !== undefined && window.CSSStyleSheet && CSSStyleSheet.prototype.replaceSync) {
    var sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } else {
    root.appendChild(el("style", null, null, CSS));
  }
  var w = el("div", "w", { lang: lang }); // its words are read in their language, whatever the page's
  var launcher = el("button", "l", { type: "button", "aria-label": t("open"), "aria-expanded": "false", "aria-controls": "svc-panel" });
  var SVG = "http://www.w3.org/2000/svg";
  launcher.appendChild(el("svg", 0, { viewBox: "0 0 24 24", "aria-hidden": "true" }, null, SVG))
    .appendChild(el("path", 0, { d: "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2z" }, null, SVG));
  var panel = el("div", "pn", { id: "svc-panel", role: "dialog", "aria-labelledby": "svc-title", tabindex: "-1", hidden: "" });
  var head = el("div", "h");
  var avatar = el("img", null, { alt: "", hidden: "" });
  var title = el("h2", null, { id: "svc-title" }, t("title"));
  var closer = el("button", "x", { type: "button", "aria-label": t("close") }, "×");
  head.append(avatar, title, closer);
  var log = el("div", "g", { role: "log", "aria-label": t("title"), "aria-live": "polite", "aria-relevant": "additions", tabindex: "0" });
  var typing = el("div", "ty", { role: "status", hidden: "" }, t("typing"));
  var sugg = el("div", "s", { role: "group", "aria-label": t("suggestions") });
  var form = el("form", "f");
  var input = el("textarea", null, { "aria-label": t("input"), placeholder: t("input"), rows: "1", dir: "auto" }); // Arabic, Hebrew: right to left
  var send = el("button", null, { type: "submit" }, t("send"));
  form.append(input, send);
  panel.append(head, log, sugg, form);
  w.append(panel, launcher);
  root.appendChild(w);

  var info = null, seen = {}, busy = false, canDrag = false, carts = [];
  var posKey = "svc_widget_pos:" + token, openKey = "svc_widget_open:" + token;

  function store(k, v) { try { v == null ? localStorage.removeItem(k) : localStorage.setItem(k, v); } catch (e) { /* storage off */ } }
  function load(k) { try { return localStorage.getItem(k); } catch (e) { return null; } }

  /* Colours: the text on the main colour is white or dark, whichever reads better on it; the main
     colour as text on the chat's paper (a page link) gives way to the ink when it reads poorly
     there (under 4.5:1); a page's own ink or paper tints the bubbles and borders from the two. */
  function hex(c) { // as a site owner writes it: "#0a8f3c", "0a8f3c", " #0A8F3C "
    return HEX.test(c = "#" + String(c || "").trim().replace(/^#/, "")) ? c : null;
  }
  function rgb(c) {
    c = c.slice(1);
    if (c.length === 3) c = c.replace(/./g, "$&$&");
    return [0, 2, 4].map(function (i) { return parseInt(c.substr(i, 2), 16); });
  }
  function lum(c) {
    return rgb(c).reduce(function (sum, v, i) {
      v /= 255;
      return sum + [0.2126, 0.7152, 0.0722][i] * (v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    }, 0);
  }
  function contrast(a, b) { var x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }
  function mix(a, b, k) {
    var y = rgb(b);
    return "#" + rgb(a).map(function (v, i) { return (Math.round(v + (y[i] - v) * k) + 256).toString(16).slice(1); }).join("");
  }

  function style(s) {
    var pos = /^(left|right)$/.test(data.position) ? data.position : s.position === "left" ? "left" : "right";
    var dark = s.theme === "dark";
    w.className = "w " + pos + (dark ? " dark" : "");
    var a = hex(data.accent) || hex(s.accent) || "#2563eb", ink = hex(data.ink), paper = hex(data.paper);
    var i = ink || (dark ? "#f3f4f6" : "#111827"), p = paper || (dark ? "#111827" : "#ffffff");
    var vars = { "--a": a, "--on": contrast(a, "#ffffff") >= contrast(a, "#111827") ? "#ffffff" : "#111827",
      "--at": contrast(a, p) >= 4.5 ? a : i, "--i": ink, "--p": paper, "--ft": data.fontTitle, "--fx": data.fontText };
    if (ink || paper) { vars["--m"] = mix(p, i, 0.08); vars["--b"] = mix(p, i, 0.2); }
    for (var k in vars) if (vars[k]) w.style.setProperty(k, vars[k]);
    canDrag = s.drag !== false;
  }

  function text(map) {
    if (!map) return "";
    return map[lang] || map[base] || map[Object.keys(map).find(function (k) { return k.slice(0, 2) === base; })] || map.en || map[Object.keys(map)[0]] || "";
  }

  /* A live reply (the answer to what was just asked) acts at once: its cart actions add to the
     cart, then its checkout action, once every add has succeeded, opens the checkout. */
  function add(role, content, actions, live) {
    var m = el("div", "m " + role, { dir: "auto" }, role === "customer" ? content : null), go = null; // each in its text's direction
    if (role !== "customer") md(m, content);
    carts = [];
    if (role !== "note") m.setAttribute("data-who", (role === "customer" ? t("you") : title.textContent) + ": ");
    (actions || []).forEach(function (a) {
      var b = action(a, live);
      if (!b) return;
      if (a.type === "checkout") go = b.href;
      (m.querySelector(".acts") || m.appendChild(el("div", "acts"))).appendChild(b);
    });
    log.appendChild(m);
    log.scrollTop = log.scrollHeight;
    if (live && go) Promise.all(carts).then(function (ok) { if (ok.every(Boolean)) location.assign(go); });
    return m;
  }

  /* Agent text: a little markdown as elements (never HTML): "- ", "* ", "1. " lines are lists,
     "## " lines headings (h3 to h6, under the chat's h2), "| a | b |" over "|---|:-:|" (as many
     cells) a table of the lines with a bar; a blank line stays; **bold**, *italic*, _italic_,
     `code`; http(s) addresses, bare or [words](address), are links in a new tab (noopener);
     javascript:, data: and the rest stay as written. */
  function md(m, s) {
    var a = String(s == null ? "" : s).split("\n"), l, x, h, k, i = 0, b, al;
    function blk(e) { if (i && !/\S/.test(a[i - 1])) m.appendChild(tx("\n")); return m.appendChild(e); }
    function tr(p, r, c) { p = p.appendChild(el("tr")); h.forEach(function (_, j) { inl(p.appendChild(el(c)), r[j] || "").parentNode.style.textAlign = al[j]; }); }
    for (; i < a.length; i++) {
      s = a[i];
      if ((x = /^\s*(?:[-*]|(\d{1,9})[.)])\s+(.*)/.exec(s))) {
        if (!l || l.tagName != (x[1] ? "OL" : "UL")) l = blk(x[1] ? el("ol", 0, { start: x[1] }) : el("ul"));
        inl(l.appendChild(el("li")), x[2]);
      } else if ((x = /^ {0,3}(#{1,6})\s+(.*?\S)(?:\s+#+)?\s*$/.exec(s))) {
        inl(l = blk(el("h" + Math.max(3, x[1].length + 1))), x[2]);
      } else if ((h = cells(s)) && (k = cells(a[i + 1])) && h.length == k.length && k.every(function (c) { return /^:?-+:?$/.test(c); })) {
        al = k.map(function (c) { return /^:-*:$/.test(c) ? "center" : /:$/.test(c) ? "right" : /^:/.test(c) ? "left" : ""; });
        tr((l = blk(el("table"))).appendChild(el("thead")), h, "th");
        for (b = 0, i += 2; (x = cells(a[i])); i++) tr(b = b || l.appendChild(el("tbody")), x, "td");
        i--;
      } else {
        if (i && !l) m.appendChild(tx("\n"));
        l = 0;
        inl(m, s);
      }
    }
  }

  function cells(r) {
    return r != null && /\|/.test(r) && r.replace(/\\\|/g, "\0").trim().replace(/^\||\|$/g, "").split("|").map(function (c) { return c.replace(/\0/g, "|").trim(); });
  }

  function tx(s) { return document.createTextNode(s); }

  function inl(m, s) {
    var re = /`([^`]+)`|\*\*(\S(?:.*?\S)?)\*\*(?!\w)|\B\*([^\s*](?:[^*]*?[^\s*])?)\*(?!\w)|\b_([^\s_](?:[^_]*?[^\s_])?)_\b|\[([^\]]{1,300})\]\(([^\s)]{1,2000})\)|https?:\/\/[^\s<>"'()\[\]]*[^\s<>"'()\[\].,;:!?]/g, at = 0, x, u;
    while ((x = re.exec(s))) {
      m.appendChild(tx(s.slice(at, x.index)));
      if (x[1]) m.appendChild(el("code", 0, 0, x[1]));
      else if ((u = x[2] || x[3] || x[4])) inl(m.appendChild(el(x[2] ? "b" : "i")), u);
      else {
        u = x[6] || x[0];
        u = /^https?:\/\//i.test(u) && safe(u);
        m.appendChild(u ? el("a", 0, { href: u, target: "_blank", rel: "noopener noreferrer nofollow" }, x[5] || x[0]) : tx(x[0]));
      }
      at = re.lastIndex;
    }
    return m.appendChild(tx(s.slice(at)));
  }

  function safe(u) {
    try { var x = new URL(u, location.href); return x.protocol === "https:" || x.protocol === "http:" ? x.href : null; } catch (e) { return null; }
  }

  /* Action tokens: open a page, add to the cart (the store's ajax call when data-platform says so),
     go to the checkout. */
  function action(a, live) {
    if (a.type === "open" && safe(a.url)) return el("a", "act", { href: safe(a.url) }, t("page"));
    if (a.type === "checkout") return el("a", "act", { href: safe(data.checkout || "/checkout/") || "/checkout/" }, t("checkout"));
    if (a.type === "cart" && /^[0-9A-Za-z_-]+$/.test(a.product_id)) {
      var qty = Math.max(1, Math.min(999, a.qty | 0 || 1));
      if (!data.platform) {
        if (live) carts.push(Promise.resolve(false)); // not in the cart yet: the checkout waits for a click
        return el("a", "act", { href: "/?add-to-cart=" + encodeURIComponent(a.product_id) + "&quantity=" + qty }, t("cart"));
      }
      var b = el("button", "act", { type: "button" }, t("cart"));
      on(b, "click", function () { addToCart(a.product_id, qty, b); });
      if (live) carts.push(addToCart(a.product_id, qty, b));
      return b;
    }
    return null;
  }

  function addToCart(id, qty, b) {
    return fetch("/?wc-ajax=add_to_cart", { method: "POST", body: new URLSearchParams({ product_id: id, quantity: qty }), credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("cart");
      b.textContent = t("added");
      b.disabled = true;
      var jq = window.jQuery;
      if (jq) jq(document.body).trigger("wc_fragment_refresh");
      document.body.dispatchEvent(new CustomEvent("svc:cart", { detail: { product_id: id, qty: qty } }));
      return true;
    }).catch(function () { b.textContent = t("error"); return false; });
  }

  /* Messages not shown yet; the one whose id is live answers what was just asked (its actions act). */
  function render(msgs, live) {
    (msgs || []).forEach(function (m) {
      if (seen[m.id]) return;
      seen[m.id] = true;
      add(m.role === "customer" ? "customer" : "agent", m.content, m.actions, m.id === live);
    });
  }

  function greet() {
    if (!info || log.querySelector(".m")) return;
    var g = text(info.greeting);
    if (g) add("agent greeting", g);
  }

  function suggestions() {
    sugg.textContent = "";
    var list = info && text(info.suggestions);
    if (!list || !list.length || log.querySelector(".m.customer")) return;
    list.slice(0, 4).forEach(function (q) {
      var b = el("button", null, { type: "button" }, q);
      on(b, "click", function () { ask(q); home(); }); // the focus kept in the chat
      sugg.appendChild(b);
    });
  }

  /* What the service takes: no control character but line breaks and tabs, no lone surrogate. */
  var CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, MAX = 8000;
  function clean(q) {
    q = String(q).replace(CONTROL, "");
    return (q.toWellFormed ? q.toWellFormed() : q.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(^|[^\ud800-\udbff])[\udc00-\udfff]/g, "$1\ufffd")).trim();
  }

  /* Why a message was not answered, in the visitor's words: a message the visitor can fix keeps
     its text in the input. */
  function failure(e) {
    if (e.late) return t("late");
    if (e.offline) return t("offline");
    if (e.status === 429) return t("slow");
    if (e.status === 400) return t("invalid");
    if ([402, 403, 404, 409, 503].indexOf(e.status) >= 0) return t("unavailable");
    return t("error");
  }

  /* Each message goes with an Idempotency-Key, kept while not answered: the same text sent again
     after a lost answer is answered again, not stored and charged twice. */
  var unsent = null;
  function ask(q) {
    q = clean(q);
    if (!q || busy) return;
    if (Array.from(q).length > MAX) { add("note", t("long")); input.focus(); return; }
    send.disabled = busy = true;
    sugg.textContent = "";
    var mine = add("customer", q), key = unsent && unsent.q === q ? unsent.key : uuid();
    unsent = null;
    input.value = "";
    grow();
    typing.hidden = false;
    log.appendChild(typing);
    call("POST", "/chat", { message: q, visitor_id: visitor }, key).then(function (r) {
      if (r.customer_message_id) seen[r.customer_message_id] = true;
      if (r.status === "pending") return wait(r.message_id, 2000, Date.now() + 180000);
      seen[r.message_id] = true;
      add("agent", r.reply || "", r.actions, true);
    }).then(tell, function (e) {
      mine.classList.add("failed");
      add("note", failure(e));
      unsent = { q: q, key: key };
      if (!input.value.trim()) { input.value = q; grow(); }
    }).then(function () {
      send.disabled = busy = false;
      typing.hidden = true;
      if (!coarse.matches) input.focus();
    });
  }

  /* The visitor's other tabs of the site show the same conversation: a tab tells the others when
     it has a new answer, and a tab the visitor comes back to looks for what it missed. */
  var others = window.BroadcastChannel ? new BroadcastChannel("svc_widget:" + token) : null;
  function tell() { if (others) others.postMessage("messages"); }
  function refresh() {
    if (!info || busy) return;
    msgs().then(function (c) { render(c.messages); suggestions(); }, function () { /* kept as is */ });
  }
  if (others) others.onmessage = refresh;
  on(document, "visibilitychange", function () { if (document.visibilityState === "visible") refresh(); });

  /* A reply still being made (202): the message was taken; a failed look is tried again, not the
     message sent again. Looks 2 s apart, growing to 10 s (within 30 calls a minute); after 3
     minutes (past the longest reply) the chat says no answer came. */
  function wait(id, gap, until) {
    return new Promise(function (res) { setTimeout(res, gap); }).then(function () {
      return msgs().then(function (c) {
        render(c.messages, id);
        return (c.messages || []).some(function (m) { return m.id === id; });
      }, function () { return false; });
    }).then(function (done) {
      if (done) return;
      if (Date.now() < until) return wait(id, Math.min(gap * 1.5, 10000), until);
      var e = new Error("late"); e.late = true; throw e;
    });
  }

  /* On a touch screen the chat opens with the focus on the dialog, not the input: the phone's
     keyboard would cover the answers; a screen reader still lands in the chat. */
  var coarse = window.matchMedia("(pointer: coarse)");
  function home() { (coarse.matches ? panel : input).focus(); }
  function open(on, focus) {
    panel.hidden = !on;
    launcher.setAttribute("aria-expanded", String(on));
    launcher.setAttribute("aria-label", t(on ? "close" : "open"));
    store(openKey, on ? "1" : null);
    if (on) { place(); log.scrollTop = log.scrollHeight; if (focus) home(); } else if (focus) launcher.focus();
  }

  /* Dragging by the top bar on screens 900 px and wider, remembered per site; below, the corner. */
  var wide = window.matchMedia("(min-width: 900px)");
  function place() {
    var p = null;
    try { p = JSON.parse(load(posKey) || "null"); } catch (e) { p = null; }
    head.classList.toggle("drag", canDrag && wide.matches);
    head.title = canDrag && wide.matches ? t("move") : "";
    if (!canDrag || !wide.matches || !p) return at(0, 0, "");
    at(p.x, p.y, panel.getBoundingClientRect());
  }
  /* The chat at x, y, kept in the window (r its box); r "": back in its corner. */
  function at(x, y, r) {
    var s = panel.style;
    s.left = r && Math.max(0, Math.min(innerWidth - r.width, x)) + "px"; s.top = r && Math.max(0, Math.min(innerHeight - r.height, y)) + "px";
    s.right = s.bottom = r && "auto";
  }
  on(head, "pointerdown", function (e) {
    if (!canDrag || !wide.matches || e.target === closer || e.button !== 0) return;
    var r = panel.getBoundingClientRect(), dx = e.clientX - r.left, dy = e.clientY - r.top;
    head.setPointerCapture(e.pointerId);
    function move(ev) {
      if (ev.pointerId !== e.pointerId) return;
      at(ev.clientX - dx, ev.clientY - dy, r);
    }
    /* The drag ends when the button is let go, and when the browser takes the pointer back
       (pointercancel: a touch turned into a scroll, a gesture of the system; the capture lost):
       where the chat is then, kept in the window, is remembered. */
    function up(ev) {
      if (ev.pointerId !== e.pointerId) return;
      for (var n in hs) head.removeEventListener(n, hs[n]);
      if (head.hasPointerCapture(e.pointerId)) head.releasePointerCapture(e.pointerId);
      var b = panel.getBoundingClientRect();
      store(posKey, JSON.stringify({ x: Math.round(b.left), y: Math.round(b.top) }));
      place();
    }
    var hs = { pointermove: move, pointerup: up, pointercancel: up, lostpointercapture: up };
    for (var n in hs) on(head, n, hs[n]);
  });
  if (wide.addEventListener) wide.addEventListener("change", place);
  on(window, "resize", function () { if (!panel.hidden) place(); }); // a smaller window keeps the chat in sight

  on(launcher, "click", function () { open(panel.hidden, true); });
  on(closer, "click", function () { open(false, true); });
  on(w, "keydown", function (e) { if (e.key === "Escape" && !panel.hidden) open(false, true); }); // the launcher too
  on(form, "submit", function (e) { e.preventDefault(); ask(input.value); });
  /* The input is as tall as its text (Shift+Enter makes a new line), up to its greatest height. */
  function grow() {
    input.style.height = "";
    if (input.scrollHeight > input.clientHeight) input.style.height = input.scrollHeight + input.offsetHeight - input.clientHeight + "px";
  }
  on(input, "input", grow);
  on(input, "keydown", function (e) {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); ask(input.value); }
  });

  /* The chat appears once the service answers: while it cannot be reached the page asks again
     after about 2 s, then twice as long each time up to a minute, as long as it stays open; each
     wait is drawn between its half and its whole, so many visitors' tabs do not come back at once.
     A hidden tab asks when shown again, or when the browser is back online. A refusal (the widget
     off) is final; 429 is not. A domain the account does not allow gets no readable answer, as when
     the service is down: told once on the console, it asks as seldom. */
  var retry = null, later = 2000, tries = 0, booting = false, due = false;
  function again() {
    retry = null;
    if (document.visibilityState === "hidden") due = true; else boot();
  }
  function boot() {
    if (booting || info) return;
    clearTimeout(retry); retry = null; due = false; booting = true;
    call("GET", "/info").then(function (i) {
      info = i;
      style(i.style || {});
      if (i.name) title.textContent = i.name;
      if (i.avatar_url && safe(i.avatar_url)) { avatar.src = safe(i.avatar_url); avatar.hidden = false; }
      (document.body || document.documentElement).appendChild(host);
      return msgs().then(function (c) { render(c.messages); }, function () { /* shown empty */ });
    }).then(function () {
      booting = false;
      if (!info) return;
      greet();
      suggestions();
      if (load(openKey)) open(true, false);
      host.setAttribute("data-ready", "");
    }).catch(function (e) {
      booting = false;
      if (!tries++) console.warn("svc widget: not available on this page (" + e.message + ")");
      if (!info && (e.offline || e.status >= 500 || e.status === 429)) {
        retry = setTimeout(again, later * (0.5 + Math.random() / 2));
        later = Math.min(later * 2, 60000);
      }
    });
  }
  function now() { if (retry || due) boot(); }
  on(window, "online", now);
  on(document, "visibilitychange", function () { if (document.visibilityState !== "hidden") now(); });
  boot();
})();
