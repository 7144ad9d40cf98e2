/** The dashboard's one page: plain HTML, its style and script served beside it from this process, nothing external. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>websift dashboard</title>
<link rel="icon" href="/dashboard/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/style.css">
<script src="/dashboard/app.js" defer></script>
</head>
<body>
<header>
  <h1>websift</h1>
  <nav aria-label="Dashboard sections">
    <a href="#abilities">Abilities</a>
    <a href="#settings">Settings</a>
    <a href="#try">Try it</a>
    <a href="#health">Health</a>
  </nav>
</header>
<p id="notice" role="alert" hidden></p>
<main>

<section id="abilities" aria-labelledby="abilities-title">
  <h2 id="abilities-title">Abilities</h2>
  <div class="card">
    <div class="row">
      <div>
        <h3 id="web-label">Web search and page reading</h3>
        <p id="web-state" class="state" aria-live="polite">…</p>
      </div>
      <button type="button" id="web-switch" class="switch" role="switch" aria-checked="false"
        aria-labelledby="web-label"><span class="knob" aria-hidden="true"></span></button>
    </div>
    <p class="why">Everything a web page says reaches the agent. With web access on, text written by strangers
      enters its context, and a page can try to steer what it does next. Turn it off while the agent works on
      something that must stay clear of the web: off holds at once for every surface sharing this state (this
      server, the CLI, the MCP server, other instances), and no request leaves until it is back on.</p>
    <p id="web-held" class="warn" hidden></p>
  </div>
</section>

<section id="settings" aria-labelledby="settings-title" hidden>
  <h2 id="settings-title">Settings → Web</h2>
  <p class="hint">Defaults for calls that do not say otherwise (HTTP API, MCP, library). Saved to
    <code id="config-file"></code>; an empty field means the built-in default.</p>
  <form id="settings-form" class="card" novalidate>
    <div class="field">
      <label for="providerOrder">Provider order</label>
      <input id="providerOrder" name="providerOrder" autocomplete="off" spellcheck="false"
        aria-describedby="providerOrder-help">
      <small id="providerOrder-help">Providers <code>auto</code> asks first, comma-separated; the rest follow in
        the usual order. Known: <span id="provider-names"></span>. Paid providers still need paid use on.</small>
    </div>
    <div class="field">
      <label for="searxngUrl">SearXNG URL</label>
      <input id="searxngUrl" name="searxngUrl" type="url" placeholder="http://searxng.internal:8080" spellcheck="false">
    </div>
    <div class="grid">
      <div class="field">
        <label for="safeSearch">Safe search</label>
        <select id="safeSearch" name="safeSearch" aria-describedby="safeSearch-help">
          <option value="">Default</option>
          <option value="off">Off</option><option value="moderate">Moderate</option><option value="strict">Strict</option>
        </select>
        <small id="safeSearch-help">Default: each engine's own.</small>
      </div>
      <div class="field">
        <label for="maxResults">Max results</label>
        <input id="maxResults" name="maxResults" type="number" min="1" max="20" placeholder="5">
      </div>
      <div class="field">
        <label for="maxChars">Max characters per page</label>
        <input id="maxChars" name="maxChars" type="number" min="200" max="100000" placeholder="6000">
      </div>
      <div class="field">
        <label for="longPageMode">Long-page mode</label>
        <select id="longPageMode" name="longPageMode" aria-describedby="longPageMode-help">
          <option value="">Default</option>
          <option value="passages">Passages</option><option value="cut">Cut at a paragraph</option>
          <option value="head-tail">Head and tail</option>
        </select>
        <small id="longPageMode-help">Default: passages when the call says what it looks for, else cut.</small>
      </div>
      <div class="field">
        <label for="waitSeconds">Wait seconds</label>
        <input id="waitSeconds" name="waitSeconds" type="number" min="0" max="60" step="0.1" placeholder="3"
          aria-describedby="waitSeconds-help">
        <small id="waitSeconds-help">A conversation waits this long for a lookup, then goes on; the result
          arrives later by itself.</small>
      </div>
    </div>
    <div class="field check">
      <input id="enablePaid" name="enablePaid" type="checkbox">
      <label for="enablePaid">Let <code>auto</code> call paid providers (keys below)</label>
    </div>
    <fieldset>
      <legend>Budgets (ms per provider)</legend>
      <div id="budgets" class="budgets"></div>
    </fieldset>
    <div class="actions">
      <button type="submit">Save settings</button>
      <span id="settings-status" class="status" role="status"></span>
    </div>
  </form>

  <h3>API keys</h3>
  <p class="hint">Written to <code id="env-file">.env</code> (readable by you only), never to the config file,
    never shown again: the next search uses them.</p>
  <div id="keys" class="card keys"></div>
</section>

<section id="try" aria-labelledby="try-title" hidden>
  <h2 id="try-title">Try it</h2>
  <form id="try-form" class="card">
    <fieldset class="inline">
      <legend>Call</legend>
      <label><input type="radio" name="kind" value="search" checked> Search</label>
      <label><input type="radio" name="kind" value="read"> Read</label>
      <label><input type="radio" name="kind" value="answer"> Answer</label>
    </fieldset>
    <div class="row">
      <div class="field grow">
        <label for="try-input" id="try-input-label">Query</label>
        <input id="try-input" name="input" required spellcheck="false">
      </div>
      <div class="field" id="try-provider-field">
        <label for="try-provider">Provider</label>
        <select id="try-provider" name="provider"><option value="">auto</option></select>
      </div>
      <button type="submit">Run</button>
    </div>
    <p id="try-status" class="status" role="status"></p>
  </form>
  <div class="split">
    <div class="card">
      <h3>What the model receives</h3>
      <pre id="try-text" tabindex="0" aria-label="What the model receives"></pre>
    </div>
    <div>
      <div class="card">
        <h3>Sources</h3>
        <ol id="try-sources"></ol>
      </div>
      <div class="card">
        <h3>Attempts</h3>
        <table><thead><tr><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">ms</th>
          <th scope="col">Note</th></tr></thead><tbody id="try-attempts"></tbody></table>
      </div>
    </div>
  </div>
</section>

<section id="health" aria-labelledby="health-title" hidden>
  <h2 id="health-title">Health</h2>
  <p><button type="button" id="health-refresh">Refresh</button></p>
  <div class="grid">
    <div class="card"><h3>Web access</h3><p id="health-web"></p></div>
    <div class="card"><h3>Shared state</h3><p id="health-store"></p></div>
    <div class="card"><h3>Recent failures</h3><ul id="health-failures"></ul></div>
  </div>
  <div class="card">
    <h3>Providers</h3>
    <table><thead><tr><th scope="col">Provider</th><th scope="col">Configured</th><th scope="col">Paid</th>
      <th scope="col">Frozen</th><th scope="col">Cooling down</th></tr></thead><tbody id="health-providers"></tbody></table>
  </div>
  <div class="card">
    <h3>Recent lookups</h3>
    <table><thead><tr><th scope="col">When</th><th scope="col">Call</th><th scope="col">Subject</th>
      <th scope="col">Status</th><th scope="col">ms</th></tr></thead><tbody id="health-recent"></tbody></table>
  </div>
</section>
</main>

<dialog id="token-dialog" aria-labelledby="token-title">
  <form method="dialog" id="token-form">
    <h2 id="token-title">Access token</h2>
    <p>This server asks for its token: the admin token (WEBSIFT_ADMIN_TOKEN) for the switch, settings and keys, where one is set, else the API token (WEBSIFT_SERVE_TOKEN). It is kept in this tab only.</p>
    <label for="token-input">Token</label>
    <input id="token-input" type="password" autocomplete="off" required>
    <div class="actions"><button type="submit">Continue</button></div>
  </form>
</dialog>
</body>
</html>
`;

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#15202e"/><path d="M7 10l4 13 5-10 5 10 4-13" fill="none" stroke="#fff" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/></svg>
`;
