// The explorer's pages (src/http/routes/ui/explore-page.ts): calls the metered API from the browser
// with the key the user pasted (kept in this tab's sessionStorage), renders the answers with
// textContent only (values from the API never become markup) and draws the charts with Chart.js
// (window.Chart, loaded before this file).
const form = document.getElementById('explore-form');
const keyField = document.getElementById('api-key');
const status = document.getElementById('explore-status');
const page = form.dataset.page;
let chart = null;

keyField.value = sessionStorage.getItem('dcledger-key') || '';
keyField.addEventListener('change', () => sessionStorage.setItem('dcledger-key', keyField.value.trim()));

const say = (text) => {
  status.textContent = text;
};

/** A metered call; the answer's credits are added to `spent`. */
async function api(path, spent) {
  const response = await fetch(path, { headers: { 'DC-API-Key': keyField.value.trim() } });
  const body = await response.json().catch(() => null);
  spent.credits += Number(response.headers.get('x-credits-charged') || 0);
  spent.remaining = response.headers.get('x-credits-remaining') ?? spent.remaining;
  return { ok: response.ok, status: response.status, body };
}

function refused(answer) {
  return new Error(`refused (${answer.status}): ${answer.body?.detail ?? 'no detail'}`);
}

// Tickers with a page of their own: "N/A" (no public ticker) and odd text get no link.
const linkableTicker = (ticker) => typeof ticker === 'string' && /^[A-Z0-9.^-]{1,12}$/.test(ticker);

function cell(row, value, header) {
  const td = document.createElement(header ? 'th' : 'td');
  if (header) td.scope = 'col';
  td.textContent = value == null ? '' : String(value);
  row.appendChild(td);
  return td;
}

function link(td, href, text) {
  td.textContent = '';
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  td.appendChild(a);
}

function table(columns, rows, decorate) {
  const results = document.getElementById('results');
  results.textContent = '';
  const caption = results.createCaption();
  caption.className = 'skip';
  caption.textContent = 'Results';
  const head = results.createTHead().insertRow();
  for (const [, label] of columns) cell(head, label, true);
  const body = results.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const [name] of columns) decorate(cell(tr, row[name]), name, row);
  }
}

const TRADE_COLUMNS = [
  ['transaction_date', 'Traded'],
  ['politician_name', 'Member'],
  ['chamber', 'Chamber'],
  ['ticker', 'Ticker'],
  ['trade_type', 'Type'],
  ['amount_range', 'Amount'],
  ['price_on_trade_date', 'Price'],
  ['disclosure_date', 'Disclosed'],
];

function tradeTable(trades) {
  table(TRADE_COLUMNS, trades, (td, name, trade) => {
    if (name === 'politician_name' && trade.politician_id != null)
      link(
        td,
        `/ui/explore/member?id=${encodeURIComponent(trade.politician_slug || trade.politician_id)}`,
        trade.politician_name,
      );
    // Closes come as the price files hold them (adjusted closes carry long fractions): shown to the cent.
    if (name === 'price_on_trade_date' && typeof trade.price_on_trade_date === 'number')
      td.textContent = trade.price_on_trade_date.toFixed(2);
    if (name === 'ticker' && linkableTicker(trade.ticker))
      link(td, `/ui/explore/ticker?symbol=${encodeURIComponent(trade.ticker)}`, trade.ticker);
  });
}

// Chart.js draws on a canvas: the canvas is named for screen readers, the summary under it says the
// same in text, and the table below lists every row drawn.
function canvasFor(label) {
  const holder = document.getElementById('chart');
  if (chart) chart.destroy();
  holder.textContent = '';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  holder.appendChild(canvas);
  document.getElementById('chart-summary').textContent = label;
  return canvas;
}

function noChart(text) {
  if (chart) chart.destroy();
  chart = null;
  document.getElementById('chart').textContent = '';
  document.getElementById('chart-summary').textContent = text;
}

const day = (ms) => new Date(ms).toISOString().slice(0, 10);
const dateAxis = { type: 'linear', ticks: { callback: (value) => day(value), maxTicksLimit: 6 } };
if (window.Chart) {
  Chart.defaults.color = '#1a1a1a';
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
}

const isSell = (trade) => /sell/i.test(trade.trade_type || '');
const isBuy = (trade) => /buy|purchase/i.test(trade.trade_type || '');

/** Marker radius by the disclosed bracket's lower bound: $1k → 4 px, $1M and up → 13 px. */
function markerRadius(trade) {
  const low = Number(trade.amount_low) || 1000;
  return Math.max(4, Math.min(13, Math.round(4 + 3 * Math.log10(Math.max(low, 1000) / 1000))));
}

async function tickerPage(spent) {
  const ticker = form.dataset.ticker;
  const limit = document.getElementById('f-limit').value || '100';
  const trades = await api(
    `/tickers/${encodeURIComponent(ticker)}/trades?limit=${encodeURIComponent(limit)}`,
    spent,
  );
  if (!trades.ok) throw refused(trades);
  const rows = Array.isArray(trades.body) ? trades.body : trades.body?.trades || [];
  tradeTable(rows);
  const dated = rows
    .filter((trade) => trade.transaction_date)
    .map((trade) => trade.transaction_date)
    .sort();
  if (dated.length === 0) {
    noChart(`No ${ticker} trade to draw.`);
    return rows.length;
  }
  const shift = (date, days) => day(Date.parse(date) + days * 86_400_000);
  let from = shift(dated[0], -30);
  const to = shift(dated[dated.length - 1], 30);
  if (from < shift(to, -3650)) from = shift(to, -3650);
  const prices = await api(
    `/tickers/${encodeURIComponent(ticker)}/prices?date_from=${from}&date_to=${to}`,
    spent,
  );
  const closes = prices.ok ? prices.body?.prices || [] : [];
  if (closes.length < 2) {
    noChart(`No stored ${ticker} closes between ${from} and ${to}: the trades are listed below.`);
    return rows.length;
  }
  // Each trade on the close of its transaction date, or of the first trading day after it.
  const marks = { buy: [], sell: [] };
  for (const trade of rows) {
    if (!trade.transaction_date || !(isBuy(trade) || isSell(trade))) continue;
    const close = closes.find((entry) => entry.date >= trade.transaction_date);
    if (!close) continue;
    const point = {
      x: Date.parse(close.date),
      y: close.close,
      r: markerRadius(trade),
      label: `${trade.transaction_date} ${trade.trade_type} ${trade.amount_range ?? ''} by ${trade.politician_name}`,
    };
    marks[isSell(trade) ? 'sell' : 'buy'].push(point);
  }
  const label = `${ticker} daily close from ${closes[0].date} to ${closes[closes.length - 1].date}, with ${marks.buy.length} buys and ${marks.sell.length} sells by members`;
  const markerSet = (name, data, color, rotation) => ({
    type: 'scatter',
    label: name,
    data,
    pointStyle: 'triangle',
    rotation,
    backgroundColor: color,
    borderColor: '#1a1a1a',
    borderWidth: 1,
    pointRadius: data.map((point) => point.r),
    pointHoverRadius: data.map((point) => point.r + 2),
  });
  chart = new Chart(canvasFor(label), {
    type: 'line',
    data: {
      datasets: [
        {
          label: `${ticker} close`,
          data: closes.map((entry) => ({ x: Date.parse(entry.date), y: entry.close })),
          borderColor: '#444',
          borderWidth: 1.5,
          pointRadius: 0,
        },
        markerSet('Buys', marks.buy, '#1d4ed8', 0),
        markerSet('Sells', marks.sell, '#c81e1e', 180),
      ],
    },
    options: {
      scales: { x: dateAxis, y: { title: { display: true, text: 'US dollars' } } },
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) => item.raw.label ?? `${day(item.raw.x)} close ${item.raw.y}`,
          },
        },
      },
    },
  });
  return rows.length;
}

/**
 * The member's disclosed buys in trade-date order, each adding its 90-day return; the S&P 500 line
 * adds the index's return over the same 90 days (gain_90d − alpha_90d, as the API defines alpha).
 */
function cumulativeSeries(trades) {
  const buys = trades
    .filter(
      (trade) => isBuy(trade) && trade.gain_90d != null && trade.alpha_90d != null && trade.transaction_date,
    )
    .sort((a, b) => a.transaction_date.localeCompare(b.transaction_date));
  let member = 0;
  let index = 0;
  const memberLine = [];
  const indexLine = [];
  for (const trade of buys) {
    member += trade.gain_90d;
    index += trade.gain_90d - trade.alpha_90d;
    const x = Date.parse(trade.transaction_date);
    memberLine.push({ x, y: Number(member.toFixed(2)), label: `${trade.transaction_date} ${trade.ticker}` });
    indexLine.push({ x, y: Number(index.toFixed(2)) });
  }
  return { buys, memberLine, indexLine };
}

async function memberPage(spent) {
  const member = form.dataset.member;
  const limit = document.getElementById('f-limit').value || '200';
  const trades = await api(
    `/politicians/${encodeURIComponent(member)}/trades?limit=${encodeURIComponent(limit)}`,
    spent,
  );
  if (!trades.ok) throw refused(trades);
  const rows = Array.isArray(trades.body) ? trades.body : trades.body?.trades || [];
  tradeTable(rows);
  const { buys, memberLine, indexLine } = cumulativeSeries(rows);
  if (buys.length === 0) {
    noChart('None of these trades is a buy with a known 90-day return: nothing to draw.');
    return rows.length;
  }
  const last = (line) => line[line.length - 1].y;
  const label = `Cumulative 90-day return of ${buys.length} disclosed buys by ${form.dataset.name}: ${last(memberLine)}% against ${last(indexLine)}% for the S&P 500 over the same windows`;
  chart = new Chart(canvasFor(label), {
    type: 'line',
    data: {
      datasets: [
        { label: form.dataset.name, data: memberLine, borderColor: '#1d4ed8', pointRadius: 2, stepped: true },
        {
          label: 'S&P 500, same windows',
          data: indexLine,
          borderColor: '#444',
          borderDash: [6, 4],
          pointRadius: 0,
          stepped: true,
        },
      ],
    },
    options: {
      scales: { x: dateAxis, y: { title: { display: true, text: 'Cumulative return, percentage points' } } },
    },
  });
  return rows.length;
}

const LEADER_COLUMNS = [
  ['rank', 'Rank'],
  ['name', 'Member'],
  ['chamber', 'Chamber'],
  ['party', 'Party'],
  ['trade_count', 'Trades'],
  ['win_rate', 'Win rate'],
  ['avg_alpha_90d', 'Avg 90-day alpha'],
  ['portfolio_return', 'Portfolio return %'],
  ['sharpe_ratio', 'Sharpe'],
];

async function leaderboardPage(spent) {
  const sort = document.getElementById('f-sort_by').value;
  const minimum = Number(document.getElementById('f-min_trades').value || 0);
  const chamber = document.getElementById('f-chamber').value;
  const params = new URLSearchParams({ sort_by: sort, sort_dir: 'desc', limit: '100', has_trades: 'true' });
  if (chamber) params.set('chamber', chamber);
  let answer = await api(`/politicians?${params}&min_trades=${minimum}`, spent);
  // A server without `min_trades` on /politicians refuses the name: ask without it and apply the
  // minimum to the answer's trade_count here.
  if (!answer.ok && answer.status === 400 && /min_trades/.test(answer.body?.detail ?? ''))
    answer = await api(`/politicians?${params}`, spent);
  if (!answer.ok) throw refused(answer);
  const list = Array.isArray(answer.body) ? answer.body : answer.body?.politicians || [];
  const ranked = list
    // The server ranks by the statistics' own sample (enriched_trades); members under the minimum
    // follow the ranked ones, so they are left out here rather than shown out of order.
    .filter((member) => (member.enriched_trades ?? member.trade_count) >= minimum && member[sort] != null)
    .map((member, index) => ({ ...member, rank: index + 1 }));
  table(LEADER_COLUMNS, ranked, (td, name, member) => {
    if (name === 'name') link(td, `/ui/explore/member?id=${encodeURIComponent(member.slug)}`, member.name);
    if (typeof member[name] === 'number' && name !== 'rank' && name !== 'trade_count')
      td.textContent = member[name].toFixed(2);
  });
  const top = ranked.slice(0, 20);
  if (top.length === 0) {
    noChart(`No member with at least ${minimum} trades has this statistic yet.`);
    return ranked.length;
  }
  const label = `Top ${top.length} members by ${sort} with at least ${minimum} trades: ${top
    .slice(0, 3)
    .map((member) => `${member.name} ${member[sort].toFixed(2)}`)
    .join(', ')}${top.length > 3 ? ', …' : ''}`;
  chart = new Chart(canvasFor(label), {
    type: 'bar',
    data: {
      labels: top.map((member) => member.name),
      datasets: [{ label: sort, data: top.map((member) => member[sort]), backgroundColor: '#1d4ed8' }],
    },
    options: { indexAxis: 'y', plugins: { legend: { display: false } } },
  });
  return ranked.length;
}

/** The trade search: member slugs are resolved to ids, trade dates filter by transaction date. */
async function tradesPage(spent) {
  const values = Object.fromEntries(
    [...new FormData(form).entries()]
      .filter(([name, value]) => name !== 'api_key' && String(value).trim())
      .map(([name, value]) => [name, String(value).trim()]),
  );
  const params = new URLSearchParams();
  for (const name of ['ticker', 'party', 'chamber', 'state', 'trade_type', 'limit'])
    if (values[name]) params.set(name, values[name]);
  if (values.member) {
    let ids = values.member;
    if (!/^\s*\d+(\s*,\s*\d+)*\s*$/.test(ids)) {
      const found = await api(`/politicians/${encodeURIComponent(values.member.toLowerCase())}`, spent);
      if (!found.ok) throw refused(found);
      ids = String(found.body.politician_id);
    }
    params.set('politician_id', ids);
  }
  const from = values.traded_from;
  const to = values.traded_to;
  if (from || to) {
    // The API's transaction-date range where it has one; else a disclosure-date window that holds
    // every such trade (a trade is disclosed on or after its date), filtered here by trade date.
    if (await hasParameter('/trades', 'transaction_date_from')) {
      if (from) params.set('transaction_date_from', from);
      if (to) params.set('transaction_date_to', to);
    } else {
      params.set('date_from', from || '1990-01-01');
      params.set('date_to', day(Date.now()));
      params.set('sort_by', 'transaction_date');
    }
  }
  const answer = await api(`/trades?${params}`, spent);
  if (!answer.ok) throw refused(answer);
  let rows = Array.isArray(answer.body) ? answer.body : [];
  const served = rows.length;
  if ((from || to) && !params.has('transaction_date_from') && !params.has('transaction_date_to'))
    rows = rows.filter(
      (trade) => (!from || trade.transaction_date >= from) && (!to || trade.transaction_date <= to),
    );
  tradeTable(rows);
  if (rows.length < served)
    say(`${served - rows.length} of the ${served} trades served were traded after ${to}.`);
  return rows.length;
}

const operations = new Map();
/** Whether the API's OpenAPI document lists this query parameter (public and free to read). */
async function hasParameter(path, name) {
  if (!operations.has('doc'))
    operations.set(
      'doc',
      fetch('/openapi.json').then((response) => response.json()),
    );
  const document = await operations.get('doc');
  const parameters = document?.paths?.[path]?.get?.parameters ?? [];
  return parameters.some((parameter) => parameter.name === name);
}

const PAGES = { trades: tradesPage, ticker: tickerPage, member: memberPage, leaderboard: leaderboardPage };

async function run() {
  if (!keyField.value.trim()) {
    say('Paste one of your API keys first.');
    return;
  }
  sessionStorage.setItem('dcledger-key', keyField.value.trim());
  say('Loading…');
  const spent = { credits: 0, remaining: null };
  try {
    const count = await PAGES[page](spent);
    const note = status.textContent === 'Loading…' ? '' : ` ${status.textContent}`;
    say(`${count} rows; these calls cost ${spent.credits} credits, ${spent.remaining ?? '?'} left.${note}`);
  } catch (error) {
    say(`Failed: ${error.message}`);
  }
}

// The whole history (GET /bulk/trades): fetched with the key header (a link could not send it),
// then handed to the browser as a file under the name the API gives it.
async function download(format) {
  if (!keyField.value.trim()) {
    say('Paste one of your API keys first.');
    return;
  }
  sessionStorage.setItem('dcledger-key', keyField.value.trim());
  say('Downloading every trade…');
  try {
    const response = await fetch(`/bulk/trades?format=${format}`, {
      headers: { 'DC-API-Key': keyField.value.trim() },
    });
    if (!response.ok) {
      const body = await response.json().catch(() => null);
      throw refused({ status: response.status, body });
    }
    const blob = await response.blob();
    const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') || '');
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = named ? named[1] : `dcledger-trades.${format}`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
    say(
      `Downloaded ${response.headers.get('x-bulk-rows') ?? '?'} trades (${a.download}); this call cost ${response.headers.get('x-credits-charged') ?? '0'} credits, ${response.headers.get('x-credits-remaining') ?? '?'} left.`,
    );
  } catch (error) {
    say(`Failed: ${error.message}`);
  }
}
for (const button of document.querySelectorAll('.bulk-download'))
  button.addEventListener('click', () => download(button.dataset.format));

form.addEventListener('submit', (event) => {
  event.preventDefault();
  run();
});
if (form.dataset.auto === '1' && keyField.value) run();
