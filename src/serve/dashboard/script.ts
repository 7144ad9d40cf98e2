// Plain browser JavaScript (no template literals, so it sits in this string as written). Everything from the
// server or the web is put on the page with textContent, never as HTML: a search result is untrusted text.
export const PAGE_JS = `"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var SECTIONS = ["abilities", "settings", "try", "health"];
  var TOKEN_KEY = "websift-token";
  var providers = [];

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function notice(text) {
    var n = $("notice");
    n.textContent = text || "";
    n.hidden = !text;
  }

  var asking = null;
  function askToken() {
    asking = asking || new Promise(function (resolve) {
      var dialog = $("token-dialog");
      $("token-input").value = "";
      dialog.addEventListener("close", function done() {
        dialog.removeEventListener("close", done);
        var token = $("token-input").value.trim();
        if (token) sessionStorage.setItem(TOKEN_KEY, token);
        asking = null;
        resolve(!!token);
      });
      dialog.showModal();
    });
    return asking;
  }

  // One door to the API: the bearer token when the server wants one, asked once per tab.
  async function api(method, path, body) {
    for (var attempt = 0; attempt < 3; attempt++) {
      var headers = { accept: "application/json" };
      var token = sessionStorage.getItem(TOKEN_KEY);
      if (token) headers.authorization = "Bearer " + token;
      if (body !== undefined) headers["content-type"] = "application/json";
      var res = await window.fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) });
      if (res.status === 401) {
        sessionStorage.removeItem(TOKEN_KEY);
        if (await askToken()) continue;
      }
      var data = await res.json().catch(function () { return {}; });
      if (!res.ok) throw new Error(data.error || ("HTTP " + res.status));
      return data;
    }
    throw new Error("this server needs its access token");
  }

  function show() {
    var id = location.hash.slice(1);
    if (SECTIONS.indexOf(id) < 0) id = "abilities";
    SECTIONS.forEach(function (s) { $(s).hidden = s !== id; });
    document.querySelectorAll("nav a").forEach(function (a) {
      if (a.getAttribute("href") === "#" + id) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    });
    if (id === "health") loadHealth().catch(fail);
    if (id === "settings" && !$("settings-form").dataset.loaded) loadSettings().catch(fail);
  }
  function fail(error) { notice(error.message); }

  // Abilities
  function renderAbilities(data) {
    var web = data.web;
    var sw = $("web-switch");
    sw.setAttribute("aria-checked", web.on ? "true" : "false");
    var state = $("web-state");
    state.className = "state " + (web.on ? "on" : "off");
    state.textContent = web.on
      ? "On: the agent can search and read the web."
      : "Off: no request leaves; search, read and answer say \\"disabled\\".";
    if (web.changedAt) state.textContent += " Changed " + new Date(web.changedAt).toLocaleString() + ".";
    var held = $("web-held");
    held.hidden = !web.heldOffBy;
    held.textContent = web.heldOffBy ? "Web access is also held off by " + web.heldOffBy + ", whatever this switch says." : "";
  }
  async function loadAbilities() { renderAbilities(await api("GET", "/v1/admin/abilities")); }
  $("web-switch").addEventListener("click", async function () {
    var on = this.getAttribute("aria-checked") !== "true";
    try { renderAbilities(await api("PUT", "/v1/admin/abilities", { web: on })); notice(""); } catch (e) { fail(e); }
  });

  // Settings
  var FIELDS = ["providerOrder", "searxngUrl", "safeSearch", "maxResults", "maxChars", "longPageMode", "waitSeconds"];
  function renderSettings(data) {
    $("config-file").textContent = data.configFile;
    providers = data.providers;
    $("provider-names").textContent = data.providers.map(function (p) { return p.name; }).join(", ");
    data.settings.forEach(function (s) {
      var input = $(s.key);
      if (!input) return;
      if (input.type === "checkbox") input.checked = s.value === true;
      else input.value = s.value === null ? "" : String(s.value);
      var field = input.closest(".field");
      var old = field.querySelector(".warn");
      if (old) old.remove();
      if (s.setBy) {
        var w = el("small", s.env + " in the " + (s.setBy === ".env" ? ".env file" : "environment") + " sets this and wins over the value saved here.", "warn");
        field.appendChild(w);
      }
    });
    var budgets = $("budgets");
    budgets.replaceChildren();
    data.providers.forEach(function (p) {
      var label = el("label", p.name);
      var input = el("input");
      input.type = "number"; input.min = "100"; input.max = "600000"; input.step = "100";
      input.name = "budget-" + p.name; input.dataset.provider = p.name;
      input.placeholder = String(p.budgetMs);
      if (data.budgets[p.name] !== undefined) input.value = String(data.budgets[p.name]);
      label.appendChild(input);
      budgets.appendChild(label);
    });
    renderKeys(data.keys);
    var select = $("try-provider");
    if (select.options.length <= 1)
      data.providers.forEach(function (p) { select.appendChild(new Option(p.name, p.name)); });
  }
  // One load at a time: the first load and a tab switch would otherwise race and refill fields being typed in.
  var settingsLoad = null;
  function loadSettings() {
    settingsLoad = settingsLoad || api("GET", "/v1/admin/settings").then(function (data) {
      renderSettings(data);
      $("settings-form").dataset.loaded = "true";
    }).finally(function () { settingsLoad = null; });
    return settingsLoad;
  }
  $("settings-form").addEventListener("submit", async function (event) {
    event.preventDefault();
    var body = {};
    FIELDS.forEach(function (key) {
      var input = $(key);
      var v = input.value.trim();
      body[key] = v === "" ? null : input.type === "number" ? Number(v) : v;
    });
    body.enablePaid = $("enablePaid").checked ? true : null;
    var budgets = {};
    $("budgets").querySelectorAll("input").forEach(function (i) {
      if (i.value.trim() !== "") budgets[i.dataset.provider] = Number(i.value);
    });
    body.budgets = Object.keys(budgets).length ? budgets : null;
    var status = $("settings-status");
    status.textContent = "Saving…";
    try {
      renderSettings(await api("PUT", "/v1/admin/settings", body));
      status.textContent = "Saved; the next call uses these settings.";
      notice("");
    } catch (e) { status.textContent = "Not saved: " + e.message; }
  });

  function renderKeys(keys) {
    var box = $("keys");
    box.replaceChildren();
    keys.forEach(function (k) {
      var row = el("div", null, "key");
      var id = "key-" + k.name;
      var label = el("label", k.name.charAt(0).toUpperCase() + k.name.slice(1));
      label.htmlFor = id;
      var state = el("span", k.set ? "•••••••• set (" + k.where + ")" : "not set", "masked");
      state.id = id + "-state";
      var input = el("input");
      input.type = "password"; input.id = id; input.autocomplete = "off"; input.placeholder = "paste " + k.env;
      input.setAttribute("aria-describedby", state.id);
      var save = el("button", "Save");
      save.type = "button";
      save.setAttribute("aria-label", "Save the " + k.name + " key");
      save.addEventListener("click", async function () {
        var value = input.value.trim();
        if (!value) { input.focus(); return; }
        try { renderKeys((await api("PUT", "/v1/admin/keys/" + k.name, { value: value })).keys); notice(""); }
        catch (e) { fail(e); }
      });
      var wrap = el("div");
      wrap.append(input, state);
      wrap.style.display = "flex"; wrap.style.flexDirection = "column";
      row.append(label, wrap, save);
      if (k.where === ".env") {
        var remove = el("button", "Remove", "secondary");
        remove.type = "button";
        remove.setAttribute("aria-label", "Remove the " + k.name + " key");
        remove.addEventListener("click", async function () {
          try { renderKeys((await api("DELETE", "/v1/admin/keys/" + k.name)).keys); } catch (e) { fail(e); }
        });
        row.append(remove);
      } else row.append(el("span"));
      box.appendChild(row);
      if (k.overridden) box.appendChild(el("p", k.env + " in the environment wins over the .env value.", "warn"));
    });
  }

  // Try it
  var PATHS = { search: "/v1/search?raw=1", read: "/v1/read?raw=1", answer: "/v1/answer?raw=1" };
  function kind() { return document.querySelector("input[name=kind]:checked").value; }
  document.querySelectorAll("input[name=kind]").forEach(function (r) {
    r.addEventListener("change", function () {
      var k = kind();
      $("try-input-label").textContent = k === "read" ? "URL" : k === "answer" ? "Question" : "Query";
      $("try-input").type = k === "read" ? "url" : "text";
      $("try-provider-field").hidden = k !== "search";
    });
  });
  $("try-form").addEventListener("submit", async function (event) {
    event.preventDefault();
    var k = kind();
    var input = $("try-input").value.trim();
    var body = k === "read" ? { url: input } : { query: input };
    if (k === "search" && $("try-provider").value) body.provider = $("try-provider").value;
    var status = $("try-status");
    status.textContent = "Running…";
    try {
      var r = await api("POST", PATHS[k], body);
      status.textContent = "Status: " + r.status;
      $("try-text").textContent = r.text || "";
      renderSources(r);
      renderAttempts(r.attempted || r.attempts || []);
    } catch (e) { status.textContent = "Failed: " + e.message; }
  });
  function renderSources(r) {
    var list = $("try-sources");
    list.replaceChildren();
    var items = r.results || r.sources || (r.finalUrl ? [{ title: r.title, url: r.finalUrl }] : []);
    items.forEach(function (s) {
      var li = el("li");
      var url = String(s.url || "");
      if (/^https?:\\/\\//.test(url)) {
        var a = el("a", s.title || url);
        a.href = url; a.rel = "noopener noreferrer"; a.target = "_blank";
        li.append(a, el("br"), el("small", url));
      } else li.textContent = s.title || url;
      list.appendChild(li);
    });
    if (!items.length) list.appendChild(el("li", "none"));
  }
  function renderAttempts(attempts) {
    var body = $("try-attempts");
    body.replaceChildren();
    attempts.forEach(function (a) {
      var tr = el("tr");
      var badge = el("span", a.status, "badge " + (a.status === "ok" ? "ok" : a.status === "skipped" ? "" : "bad"));
      var status = el("td"); status.appendChild(badge);
      tr.append(el("td", a.provider), status, el("td", a.ms), el("td", a.error || (a.count !== undefined ? a.count + " result(s)" : "")));
      body.appendChild(tr);
    });
    if (!attempts.length) { var tr = el("tr"); var td = el("td", "no attempt (nothing was sent)"); td.colSpan = 4; tr.appendChild(td); body.appendChild(tr); }
  }

  // Health
  async function loadHealth() {
    var h = await api("GET", "/v1/admin/health");
    $("health-web").textContent = h.web.on ? "On" : "Off (no request leaves)";
    $("health-store").textContent = h.store.backend + (h.store.degraded ? " — degraded: " + (h.store.reason || "unavailable") + "; working on a local fallback" : " — healthy");
    var failures = $("health-failures");
    failures.replaceChildren();
    var kinds = Object.keys(h.failures);
    kinds.forEach(function (k) { failures.appendChild(el("li", k + ": " + h.failures[k])); });
    if (!kinds.length) failures.appendChild(el("li", "none"));
    var rows = $("health-providers");
    rows.replaceChildren();
    h.providers.forEach(function (p) {
      var tr = el("tr");
      tr.append(el("td", p.name), el("td", p.configured ? "yes" : "no"), el("td", p.paid ? "yes" : "no"),
        el("td", p.frozen ? "yes (paid use off)" : "no"),
        el("td", p.coolingUntil ? "until " + new Date(p.coolingUntil).toLocaleTimeString() + " (" + p.coolingReason + ")" : "—"));
      rows.appendChild(tr);
    });
    var recent = $("health-recent");
    recent.replaceChildren();
    h.recent.forEach(function (a) {
      var tr = el("tr");
      var st = el("td"); st.appendChild(el("span", a.status, "badge " + (a.status === "ok" ? "ok" : "bad")));
      tr.append(el("td", new Date(a.at).toLocaleTimeString()), el("td", a.kind), el("td", a.subject, "subject"), st, el("td", a.ms));
      recent.appendChild(tr);
    });
    if (!h.recent.length) { var tr = el("tr"); var td = el("td", "no lookups yet"); td.colSpan = 5; tr.appendChild(td); recent.appendChild(tr); }
  }
  $("health-refresh").addEventListener("click", function () { loadHealth().catch(fail); });

  window.addEventListener("hashchange", show);
  loadAbilities().then(loadSettings).catch(fail);
  show();
})();
`;
