// /ui/explore: a small data explorer over the metered API. The browser calls /trades,
// /politicians/{id}/trades and /tickers/{ticker}/trades itself with a key the user pastes (kept in
// this tab's sessionStorage only, never sent to the server otherwise), so every search is metered
// like any other call.
import type { App, AppDeps } from '../../types.js';
import { HIDDEN, pageContext, renderPage } from './forms.js';
import { Html, html } from './html.js';

const FILTERS: ReadonlyArray<[string, string, string]> = [
  ['ticker', 'Ticker(s), comma-separated', 'text'],
  ['politician_id', 'Member id or slug', 'text'],
  ['party', 'Party (D, R, I)', 'text'],
  ['chamber', 'Chamber (house, senate, executive)', 'text'],
  ['state', 'State (two letters)', 'text'],
  ['trade_type', 'Trade type (buy, sell, exchange)', 'text'],
  ['date_from', 'Traded from (YYYY-MM-DD)', 'date'],
  ['date_to', 'Traded to (YYYY-MM-DD)', 'date'],
  ['limit', 'Rows (1-100)', 'number'],
];

// Rendering uses textContent only: values from the API never become markup.
const SCRIPT = `
(function () {
  var keyField = document.getElementById('api-key');
  keyField.value = sessionStorage.getItem('dcledger-key') || '';
  keyField.addEventListener('change', function () { sessionStorage.setItem('dcledger-key', keyField.value.trim()); });
  var status = document.getElementById('explore-status');
  var columns = ['transaction_date', 'politician_name', 'chamber', 'ticker', 'trade_type', 'amount_range', 'price_on_trade_date', 'disclosure_date'];
  function cell(row, text, header) { var td = document.createElement(header ? 'th' : 'td'); if (header) td.scope = 'col'; td.textContent = text == null ? '' : String(text); row.appendChild(td); return td; }
  function link(td, href, text) { td.textContent = ''; var a = document.createElement('a'); a.href = href; a.textContent = text; td.appendChild(a); }
  function render(trades) {
    var table = document.getElementById('results');
    table.textContent = '';
    var head = table.createTHead().insertRow();
    columns.forEach(function (c) { cell(head, c.replace(/_/g, ' '), true); });
    var body = table.createTBody();
    trades.forEach(function (t) {
      var row = body.insertRow();
      columns.forEach(function (c) {
        var td = cell(row, t[c]);
        if (c === 'politician_name' && t.politician_id != null) link(td, '/ui/explore/member?id=' + encodeURIComponent(t.politician_id), t.politician_name);
        if (c === 'ticker' && t.ticker) link(td, '/ui/explore/ticker?symbol=' + encodeURIComponent(t.ticker), t.ticker);
      });
    });
  }
  function chart(trades) {
    var holder = document.getElementById('chart');
    if (!holder) return;
    holder.textContent = '';
    var points = trades.filter(function (t) { return t.price_on_trade_date != null && t.transaction_date; });
    if (points.length === 0) { holder.textContent = 'No trade with a known price to draw.'; return; }
    var ns = 'http://www.w3.org/2000/svg', w = 640, h = 240, pad = 40;
    var times = points.map(function (p) { return Date.parse(p.transaction_date); });
    var prices = points.map(function (p) { return p.price_on_trade_date; });
    var t0 = Math.min.apply(null, times), t1 = Math.max.apply(null, times) || t0 + 1;
    var p0 = Math.min.apply(null, prices), p1 = Math.max.apply(null, prices);
    if (p1 === p0) { p1 = p0 + 1; }
    if (t1 === t0) { t1 = t0 + 1; }
    var svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h); svg.setAttribute('role', 'img'); svg.setAttribute('width', '100%');
    var title = document.createElementNS(ns, 'title');
    title.textContent = 'Trades at their trade-date price: ' + points.length + ' trades, prices ' + p0 + ' to ' + p1;
    svg.appendChild(title);
    var sorted = points.slice().sort(function (a, b) { return Date.parse(a.transaction_date) - Date.parse(b.transaction_date); });
    var x = function (t) { return pad + (Date.parse(t.transaction_date) - t0) / (t1 - t0) * (w - 2 * pad); };
    var y = function (t) { return h - pad - (t.price_on_trade_date - p0) / (p1 - p0) * (h - 2 * pad); };
    var line = document.createElementNS(ns, 'polyline');
    line.setAttribute('points', sorted.map(function (t) { return x(t) + ',' + y(t); }).join(' '));
    line.setAttribute('fill', 'none'); line.setAttribute('stroke', '#555');
    svg.appendChild(line);
    sorted.forEach(function (t) {
      var dot = document.createElementNS(ns, 'circle');
      dot.setAttribute('cx', x(t)); dot.setAttribute('cy', y(t)); dot.setAttribute('r', 5);
      dot.setAttribute('fill', /sell/i.test(t.trade_type) ? '#a4161a' : '#1d4ed8');
      var tip = document.createElementNS(ns, 'title');
      tip.textContent = t.transaction_date + ' ' + t.trade_type + ' ' + (t.ticker || '') + ' at ' + t.price_on_trade_date;
      dot.appendChild(tip); svg.appendChild(dot);
    });
    holder.appendChild(svg);
  }
  async function run(url) {
    var key = keyField.value.trim();
    if (!key) { status.textContent = 'Paste one of your API keys first.'; return; }
    sessionStorage.setItem('dcledger-key', key);
    status.textContent = 'Loading…';
    var response = await fetch(url, { headers: { 'DC-API-Key': key } });
    var body = await response.json();
    if (!response.ok) { status.textContent = 'Refused (' + response.status + '): ' + body.detail; return; }
    var trades = Array.isArray(body) ? body : (body.trades || []);
    status.textContent = trades.length + ' trades; this call cost ' + response.headers.get('x-credits-charged') + ' credits, ' + response.headers.get('x-credits-remaining') + ' left.';
    render(trades); chart(trades);
  }
  var form = document.getElementById('explore-form');
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) { if (name !== 'api_key' && String(value).trim()) params.set(name, String(value).trim()); });
    run(form.dataset.endpoint + (form.dataset.endpoint.indexOf('?') < 0 ? '?' : '&') + params.toString()).catch(function (e) { status.textContent = 'Failed: ' + e.message; });
  });
  if (form.dataset.auto === '1' && keyField.value) form.requestSubmit();
})();
`;

function explorer(endpoint: string, fields: Html, chart: boolean, auto: boolean): Html {
  return html`<form id="explore-form" data-endpoint="${endpoint}" data-auto="${auto ? '1' : '0'}">
<label for="api-key">Your API key (kept in this tab only; each search is a metered call)</label>
<input id="api-key" name="api_key" type="password" autocomplete="off" size="50">
${fields}
<div><button type="submit">Search</button></div></form>
<p id="explore-status" role="status" aria-live="polite"></p>
${chart ? html`<h2>Trades on the price chart</h2><div id="chart"></div>` : ''}
<table id="results"><caption class="skip">Trades found</caption></table>
<script>${new Html(SCRIPT)}</script>`;
}

export function explorePages(app: App, deps: AppDeps): void {
  app.get('/ui/explore', { schema: HIDDEN }, async (request, reply) => {
    const fields = FILTERS.map(
      ([name, label, type]) =>
        html`<label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}"${name === 'limit' ? html` min="1" max="100" value="25"` : ''}>`,
    );
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      'Explore trades',
      '/ui/explore',
      html`<p>Search disclosed trades with the filters of <code>GET /trades</code>. Follow a member or a ticker for its own page.</p>${explorer('/trades', html`${fields}`, false, false)}`,
    );
  });
  app.get<{ Querystring: { id?: string } }>(
    '/ui/explore/member',
    { schema: HIDDEN },
    async (request, reply) => {
      const id = (request.query.id ?? '').slice(0, 120);
      const fields = html`<label for="f-ticker">Ticker (draws that stock's trades on its price line)</label><input id="f-ticker" name="ticker" size="10">`;
      return renderPage(
        reply,
        pageContext(request, reply, deps),
        `Member ${id}`,
        '/ui/explore',
        explorer(`/politicians/${encodeURIComponent(id)}/trades`, fields, true, true),
      );
    },
  );
  app.get<{ Querystring: { symbol?: string } }>(
    '/ui/explore/ticker',
    { schema: HIDDEN },
    async (request, reply) => {
      const symbol = (request.query.symbol ?? '').slice(0, 20).toUpperCase();
      return renderPage(
        reply,
        pageContext(request, reply, deps),
        `Ticker ${symbol}`,
        '/ui/explore',
        explorer(`/tickers/${encodeURIComponent(symbol)}/trades`, html``, true, true),
      );
    },
  );
}
