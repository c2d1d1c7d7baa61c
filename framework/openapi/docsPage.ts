/**
 * The `/docs` page: a status view (indexed height, node head, progress, enabled plugins, refreshed
 * every few seconds from /explorer/status) above Swagger UI rendering /openapi.json. Everything it
 * loads comes from this server, so it works offline; `validatorUrl: null` keeps Swagger UI from
 * calling its public validator. Each plugin's section opens on a click (`docExpansion: 'none'`): Swagger UI
 * 5.35 stops rendering when the whole reference (some 135 operations) is opened at once.
 */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tzidx API reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>
  body { margin: 0; font-family: sans-serif; }
  #status { padding: 12px 20px; background: #1b1b1b; color: #eee; font-size: 14px; display: flex; gap: 24px; flex-wrap: wrap; align-items: center; }
  #status b { color: #fff; }
  #status progress { width: 160px; vertical-align: middle; }
  #status .plugins span { background: #3b4151; border-radius: 3px; padding: 2px 6px; margin-right: 4px; }
</style>
</head>
<body>
<section id="status" aria-label="indexer status">
  <span><b>tzidx</b></span>
  <span>status: <b id="st-status">…</b></span>
  <span>indexed: <b id="st-indexed">…</b> / head <b id="st-head">…</b></span>
  <span>progress: <progress id="st-progress" max="1" value="0"></progress> <b id="st-percent">…</b></span>
  <span class="plugins">plugins: <span id="st-plugins"></span></span>
  <span>live: <a href="/stream" style="color:#9cf">/stream</a> (Server-Sent Events)</span>
</section>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
  function text(id, v) { document.getElementById(id).textContent = v; }
  async function refreshStatus() {
    try {
      const s = await (await fetch('/explorer/status', { cache: 'no-store' })).json();
      text('st-status', s.status + ' (' + s.mode + ')');
      text('st-indexed', s.indexed);
      text('st-head', s.blocks);
      document.getElementById('st-progress').value = s.progress;
      text('st-percent', (s.progress * 100).toFixed(2) + ' %');
    } catch (e) {
      text('st-status', 'unreachable');
    }
  }
  refreshStatus();
  setInterval(refreshStatus, 3000);
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    onComplete: function () {
      const spec = window.ui.specSelectors.specJson().toJS();
      const box = document.getElementById('st-plugins');
      for (const p of spec.info['x-tzidx-plugins'] || []) {
        const tag = document.createElement('span');
        tag.textContent = p.name;
        tag.title = p.description;
        box.appendChild(tag);
      }
    },
  });
</script>
</body>
</html>
`;
}
