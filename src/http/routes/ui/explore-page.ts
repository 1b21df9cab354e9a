// /ui/explore: a small data explorer over the metered API. The browser calls /trades,
// /politicians/{id}/trades, /tickers/{ticker}/trades and /tickers/{ticker}/prices itself with a key the user pastes (kept in
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
  var ns = 'http://www.w3.org/2000/svg', w = 640, h = 240, pad = 40;
  function el(name, attrs) { var node = document.createElementNS(ns, name); Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); }); return node; }
  function isSell(t) { return /sell/i.test(t.trade_type); }
  // Buys are upward blue triangles, sells downward red ones: told apart by shape, not colour only.
  function marker(svg, cx, cy, t, price) {
    var d = isSell(t) ? 6 : -6;
    var mark = el('polygon', { points: (cx - 6) + ',' + (cy - d) + ' ' + (cx + 6) + ',' + (cy - d) + ' ' + cx + ',' + (cy + d), fill: isSell(t) ? '#a4161a' : '#1d4ed8', tabindex: '0', role: 'img', 'aria-label': t.transaction_date + ' ' + t.trade_type + ' ' + (t.ticker || '') + ' at ' + price });
    var tip = el('title', {});
    tip.textContent = t.transaction_date + ' ' + t.trade_type + ' ' + (t.ticker || '') + (t.politician_name ? ' by ' + t.politician_name : '') + ' at ' + price;
    mark.appendChild(tip); svg.appendChild(mark);
  }
  function frame(label) {
    var svg = el('svg', { viewBox: '0 0 ' + w + ' ' + h, role: 'img', width: '100%' });
    var title = el('title', {}); title.textContent = label; svg.appendChild(title);
    return svg;
  }
  // Without stored closes: the trades alone, at their trade-date price.
  function tradesOnly(holder, trades) {
    var points = trades.filter(function (t) { return t.price_on_trade_date != null && t.transaction_date; });
    if (points.length === 0) { holder.textContent = 'No trade with a known price to draw.'; return; }
    var times = points.map(function (p) { return Date.parse(p.transaction_date); });
    var prices = points.map(function (p) { return p.price_on_trade_date; });
    var t0 = Math.min.apply(null, times), t1 = Math.max.apply(null, times) || t0 + 1;
    var p0 = Math.min.apply(null, prices), p1 = Math.max.apply(null, prices);
    if (p1 === p0) { p1 = p0 + 1; }
    if (t1 === t0) { t1 = t0 + 1; }
    var svg = frame('Trades at their trade-date price: ' + points.length + ' trades, prices ' + p0 + ' to ' + p1);
    var sorted = points.slice().sort(function (a, b) { return Date.parse(a.transaction_date) - Date.parse(b.transaction_date); });
    var x = function (t) { return pad + (Date.parse(t.transaction_date) - t0) / (t1 - t0) * (w - 2 * pad); };
    var y = function (t) { return h - pad - (t.price_on_trade_date - p0) / (p1 - p0) * (h - 2 * pad); };
    svg.appendChild(el('polyline', { points: sorted.map(function (t) { return x(t) + ',' + y(t); }).join(' '), fill: 'none', stroke: '#555' }));
    sorted.forEach(function (t) { marker(svg, x(t), y(t), t, t.price_on_trade_date); });
    holder.appendChild(svg);
  }
  // The stock's daily close line, each trade a marker on it (at its trade-date price, or the close
  // of the first trading day on or after it).
  function priceLine(holder, ticker, closes, trades) {
    var t0 = Date.parse(closes[0].date), t1 = Date.parse(closes[closes.length - 1].date);
    if (t1 === t0) { t1 = t0 + 1; }
    var marks = [];
    trades.forEach(function (t) {
      if (!t.transaction_date) return;
      var at = null;
      for (var i = 0; i < closes.length; i++) { if (closes[i].date >= t.transaction_date) { at = closes[i]; break; } }
      if (!at) return;
      marks.push({ trade: t, date: at.date, price: t.price_on_trade_date != null ? t.price_on_trade_date : at.close });
    });
    var values = closes.map(function (c) { return c.close; }).concat(marks.map(function (m) { return m.price; }));
    var p0 = Math.min.apply(null, values), p1 = Math.max.apply(null, values);
    if (p1 === p0) { p1 = p0 + 1; }
    var x = function (date) { return pad + (Date.parse(date) - t0) / (t1 - t0) * (w - 2 * pad); };
    var y = function (price) { return h - pad - (price - p0) / (p1 - p0) * (h - 2 * pad); };
    var svg = frame(ticker + ' daily close from ' + closes[0].date + ' to ' + closes[closes.length - 1].date + ' (' + p0 + ' to ' + p1 + '), with ' + marks.filter(function (m) { return !isSell(m.trade); }).length + ' buys (upward triangles) and ' + marks.filter(function (m) { return isSell(m.trade); }).length + ' sells (downward triangles)');
    svg.appendChild(el('polyline', { points: closes.map(function (c) { return x(c.date) + ',' + y(c.close); }).join(' '), fill: 'none', stroke: '#555', 'stroke-width': '1.5' }));
    [[closes[0].date, pad], [closes[closes.length - 1].date, w - pad]].forEach(function (end) {
      var label = el('text', { x: end[1], y: h - pad / 3, 'text-anchor': 'middle', 'font-size': '11' }); label.textContent = end[0]; svg.appendChild(label);
    });
    [p0, p1].forEach(function (p) {
      var label = el('text', { x: 2, y: y(p), 'font-size': '11' }); label.textContent = String(p); svg.appendChild(label);
    });
    marks.forEach(function (m) { marker(svg, x(m.date), y(m.price), m.trade, m.price); });
    holder.appendChild(svg);
  }
  function chartTicker(trades) {
    var fixed = form.dataset.chartTicker || (document.getElementById('f-ticker') || {}).value || '';
    if (fixed.trim()) return fixed.trim().toUpperCase();
    var counts = {}, best = '';
    trades.forEach(function (t) { if (t.ticker) { counts[t.ticker] = (counts[t.ticker] || 0) + 1; if (!best || counts[t.ticker] > counts[best]) best = t.ticker; } });
    return best;
  }
  function shift(date, days) { return new Date(Date.parse(date) + days * 86400000).toISOString().slice(0, 10); }
  async function chart(trades, key) {
    var holder = document.getElementById('chart');
    if (!holder) return;
    holder.textContent = '';
    var ticker = chartTicker(trades);
    var shown = trades.filter(function (t) { return t.ticker === ticker && t.transaction_date; });
    if (ticker && shown.length > 0) {
      var dates = shown.map(function (t) { return t.transaction_date; }).sort();
      var to = shift(dates[dates.length - 1], 30), from = shift(dates[0], -30);
      if (from < shift(to, -3650)) from = shift(to, -3650);
      var response = await fetch('/tickers/' + encodeURIComponent(ticker) + '/prices?date_from=' + from + '&date_to=' + to, { headers: { 'DC-API-Key': key } });
      var body = response.ok ? await response.json() : null;
      if (body && body.prices.length > 1) {
        var caption = document.createElement('p');
        caption.textContent = ticker + ' close price with ' + shown.length + ' of these trades (the price line cost ' + response.headers.get('x-credits-charged') + ' credits).';
        holder.appendChild(caption);
        priceLine(holder, ticker, body.prices, shown);
        return;
      }
    }
    tradesOnly(holder, trades);
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
    render(trades); await chart(trades, key);
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

function explorer(endpoint: string, fields: Html, chart: boolean, auto: boolean, chartTicker = ''): Html {
  return html`<form id="explore-form" data-endpoint="${endpoint}" data-auto="${auto ? '1' : '0'}" data-chart-ticker="${chartTicker}">
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
        explorer(`/tickers/${encodeURIComponent(symbol)}/trades`, html``, true, true, symbol),
      );
    },
  );
}
