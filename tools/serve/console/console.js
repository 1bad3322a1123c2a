// The live console of `mrlocal serve` (issue 22; Fig. 2 of the proportional-share paper):
// what runs on each slot as a Gantt, the jobs, the queues with their budget and share over
// time, and the scheduler's decision latency. Every request is signed as the C++ client
// signs (tools/serve/request_signing.h). The page first reads each view once with a plain
// GET, so that it shows something at once, then follows the Server-Sent Events stream
// /api/v1/events; it reads that with fetch(), because EventSource cannot send headers.
'use strict';

const WINDOW_S = 180;  // seconds of history the Gantt and the charts keep at most
const MIN_SPAN_S = 30;  // what they show at least, so that a fresh page shows detail
const KEY_ITEM = 'mrlocal.console.key';
const QUEUE_COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf',
  '#8c564b', '#e377c2'];

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// ---- The key: entered once, kept in this tab's session storage only.

// A key in the fragment (#key=ID&secret=HEX, what the browser test uses) is moved to
// session storage and removed from the address bar, so that it stays out of the history.
function keyFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.get('key') || !params.get('secret')) return;
  saveKey(params.get('key'), params.get('secret'));
  history.replaceState(null, '', location.pathname + location.search);
}
function saveKey(id, secret) {
  sessionStorage.setItem(KEY_ITEM, JSON.stringify({id, secret: secret.trim().toLowerCase()}));
}
function loadKey() {
  try { return JSON.parse(sessionStorage.getItem(KEY_ITEM)); } catch { return null; }
}

// ---- Signing (the canonical text of request_signing.cc, HMAC-SHA256 by WebCrypto).

const toHex = (buffer) =>
  Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

// Key files hold the secret as hex (start() checks it); the HMAC key is the bytes it spells.
const fromHex = (text) => Uint8Array.from(text.match(/../g), (pair) => parseInt(pair, 16));

let hmac = {secret: null, key: null};  // imported once per secret, not extractable
async function hmacKey(secret) {
  if (hmac.secret !== secret) {
    const key = await crypto.subtle.importKey('raw', fromHex(secret),
      {name: 'HMAC', hash: 'SHA-256'}, false, ['sign']);
    hmac = {secret, key};
  }
  return hmac.key;
}

async function signedHeaders(method, target, body) {
  const key = loadKey();
  if (!key) throw new Error('no key');
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  // The server sorts the parameters as sent (still encoded), so any order signs alike.
  const query = q < 0 ? '' : target.slice(q + 1).split('&').filter(Boolean).sort().join('&');
  const enc = new TextEncoder();
  const bodyHash = toHex(await crypto.subtle.digest('SHA-256', enc.encode(body)));
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = toHex(crypto.getRandomValues(new Uint8Array(16)));
  const text = ['MRLOCAL1-HMAC-SHA256', method, path, query, bodyHash, timestamp, nonce,
    key.id].join('\n');
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(key.secret), enc.encode(text));
  return {'X-Mrlocal-Key': key.id, 'X-Mrlocal-Timestamp': timestamp,
    'X-Mrlocal-Nonce': nonce, 'X-Mrlocal-Signature': toHex(mac)};
}

// Money is integer micro-credits and may pass 2^53: such numbers are kept exact as BigInt
// (from the reviver's source text, where the browser offers it).
function parseJson(text) {
  return JSON.parse(text, (name, value, context) =>
    typeof value === 'number' && name.endsWith('_micro') && !Number.isSafeInteger(value) &&
    context && context.source ? BigInt(context.source) : value);
}

// An answer that is not 2xx, as an error saying what the server said.
async function httpError(response) {
  let why = response.statusText;
  try { why = JSON.parse(await response.text()).error || why; } catch { /* not JSON */ }
  const error = new Error(`${response.status} ${why}`);
  error.status = response.status;
  return error;
}

// A failed connection, told apart from an error of the page itself.
function unreachable(error) {
  const e = new Error(`cannot reach the server (${error.message})`);
  e.network = true;
  return e;
}

async function signedGet(target) {
  const headers = await signedHeaders('GET', target, '');
  let response;
  try {
    response = await fetch(target, {headers, cache: 'no-store'});
  } catch (error) {
    throw unreachable(error);
  }
  if (!response.ok) throw await httpError(response);
  return response;
}

// The first snapshot, view by view: shown before (and without) the stream.
async function loadOnce() {
  const read = async (target) => parseJson(await (await signedGet(target)).text());
  const [jobs, queues, cluster, scheduler] = await Promise.all([read('/api/v1/jobs?limit=50'),
    read('/api/v1/queues'), read('/api/v1/cluster'), read('/api/v1/scheduler')]);
  render({jobs: jobs.jobs, queues: queues.queues, cluster, scheduler});
}

// Follows /api/v1/events until the server ends it: one `data: {json}` event a second.
let events = 0;
async function follow() {
  const response = await signedGet('/api/v1/events');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const {value, done} = await reader.read().catch((error) => { throw unreachable(error); });
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    for (let end; (end = buffer.indexOf('\n\n')) >= 0;) {
      const data = buffer.slice(0, end).split('\n').filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, '')).join('\n');
      buffer = buffer.slice(end + 2);
      if (data) {
        render(parseJson(data));
        // How many events of the stream reached the page (the browser test reads it).
        document.body.dataset.events = String(++events);
      }
    }
  }
}

// Reads, then follows; a new signature (timestamp, nonce) on every reconnection, waiting
// longer after each failure so that a wrong key does not hammer the server.
async function run() {
  let delay = 1000;
  for (;;) {
    try {
      if (!last) await loadOnce();
      await follow();
      setStatus('the event stream ended (server restarting?); reconnecting', 'warn');
      delay = 1000;
    } catch (error) {
      const hint = error.status === 401 ? ' — check the key, or forget it and enter another' : '';
      const what = error.status || error.network ? error.message
        : `console error: ${error.message}`;
      setStatus(`${what}${hint}; retrying in ${delay / 1000} s`, 'error');
      delay = Math.min(2 * delay, 30000);
    }
    await sleep(delay);
  }
}

// ---- State kept from snapshot to snapshot (the server sends only the present).

let last = null;         // the newest snapshot
let lastAt = 0;          // when it arrived (Date.now())
const bars = new Map();  // slot id -> [{job, kind, index, start, end, open}], in server time
const queueHistory = [];  // [{t, queues: {name: {budget, share}}}]
const queueColour = new Map();

// Extends each slot's bars: a task seen again stays open; one that is gone ended when the
// next task on its slot began, or else when it was last seen.
function recordSlots(slots, now) {
  for (const slot of slots) {
    if (!bars.has(slot.id)) bars.set(slot.id, []);
    const list = bars.get(slot.id);
    const open = list.length && list[list.length - 1].open ? list[list.length - 1] : null;
    const t = slot.task;
    const same = t && open && open.job === t.job && open.kind === t.kind &&
      open.index === t.index && open.start === t.since_s;
    if (open && same) { open.end = now; continue; }
    if (open) {
      open.open = false;
      if (t) open.end = Math.min(Math.max(open.end, t.since_s), now);
    }
    if (t) list.push({job: t.job, kind: t.kind, index: t.index, start: t.since_s, end: now,
      open: true});
    while (list.length && list[0].end < now - WINDOW_S) list.shift();
  }
}

function recordQueues(queues, now) {
  const point = {t: now, queues: {}};
  for (const q of queues) {
    point.queues[q.name] = {budget: Number(q.budget_micro) / 1e6, share: q.share_map};
    if (!queueColour.has(q.name)) {
      queueColour.set(q.name, QUEUE_COLOURS[queueColour.size % QUEUE_COLOURS.length]);
    }
  }
  queueHistory.push(point);
  while (queueHistory.length && queueHistory[0].t < now - WINDOW_S) queueHistory.shift();
}

function render(snapshot) {
  const now = snapshot.scheduler.uptime_s;
  // A restarted server counts its time from zero again: what was kept no longer lines up.
  if (last && now < last.scheduler.uptime_s - 1) { bars.clear(); queueHistory.length = 0; }
  last = snapshot;
  lastAt = Date.now();
  recordSlots(snapshot.cluster.slots, now);
  recordQueues(snapshot.queues, now);
  draw();
  setStatus(`live · updated ${new Date().toLocaleTimeString()}`, 'ok');
}

function draw() {
  if (!last) return;
  const now = last.scheduler.uptime_s;
  drawGantt(last.cluster.slots, last.jobs, now);
  drawJobs(last.jobs);
  drawQueues(last.queues);
  drawQueueCharts(now);
  drawScheduler(last.scheduler);
}

// ---- Formatting

const esc = (text) => String(text).replace(/[&<>"']/g,
  (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]);

// Micro-credits as credits, exactly: up to 6 decimals, thousands grouped.
function credits(micro) {
  const m = BigInt(micro);
  const abs = m < 0n ? -m : m;
  const whole = (abs / 1000000n).toString().replace(/\B(?=(\d{3})+$)/g, ',');
  const frac = (abs % 1000000n).toString().padStart(6, '0').replace(/0+$/, '');
  return (m < 0n ? '−' : '') + whole + (frac ? '.' + frac : '');
}

function seconds(s) {
  const a = Math.abs(s);
  if (a < 60) return `${a.toFixed(1)} s`;
  if (a < 3600) return `${Math.floor(a / 60)}m ${String(Math.floor(a % 60)).padStart(2, '0')}s`;
  return `${Math.floor(a / 3600)}h ${String(Math.floor(a % 3600 / 60)).padStart(2, '0')}m`;
}

// A latency in microseconds; a dash when the server gives none.
function latency(us) {
  if (!Number.isFinite(us)) return '—';
  if (us < 1000) return `${us.toFixed(us < 10 ? 1 : 0)} µs`;
  if (us < 1e6) return `${(us / 1000).toFixed(2)} ms`;
  return `${(us / 1e6).toFixed(2)} s`;
}

// A bucket's bound, short (three figures) for an axis label.
const microseconds = (us) => us < 1000 ? `${us}µs`
  : us < 1e6 ? `${+(us / 1000).toPrecision(3)}ms` : `${+(us / 1e6).toPrecision(3)}s`;

// A colour per job, far apart for consecutive ids (golden-angle hues).
const jobColour = (id) => `hsl(${(id * 137.508) % 360}, 62%, 52%)`;

// ---- Drawing

function setStatus(text, level) {
  const status = $('status');
  status.textContent = text;
  status.className = `status ${level}`;
}

function svgSize(svg, height) {
  const width = Math.max(320, Math.round(svg.getBoundingClientRect().width) || 1000);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('height', height);
  return width;
}

// The seconds the time axes show: what the page has seen, from MIN_SPAN_S up to WINDOW_S.
function span(now) {
  let oldest = queueHistory.length ? queueHistory[0].t : now;
  for (const list of bars.values()) if (list.length) oldest = Math.min(oldest, list[0].start);
  return Math.min(WINDOW_S, Math.max(MIN_SPAN_S, Math.ceil((now - oldest) / 10) * 10));
}

// `x` of a time axis ending at `now`, over pixels [left, right].
const timeScale = (now, spanS, left, right) =>
  (t) => left + (t - (now - spanS)) / spanS * (right - left);

// Ticks back from "now", as many as fit in `pixels`.
function timeAxis(x, now, spanS, pixels, y, top) {
  const step = [5, 10, 15, 30, 60, 120].find((s) => pixels / (spanS / s) >= 56) || 120;
  const out = [];
  for (let back = 0; back <= spanS; back += step) {
    const at = x(now - back);
    const name = !back ? 'now' : back < 60 ? `−${back}s`
      : `−${Math.floor(back / 60)}m${back % 60 ? `${back % 60}s` : ''}`;
    out.push(`<line class="tick" x1="${at}" x2="${at}" y1="${top}" y2="${y}"/>`,
      `<text class="axis" x="${at}" y="${y + 13}" text-anchor="middle">${name}</text>`);
  }
  return out.join('');
}

function drawGantt(slots, jobs, now) {
  const svg = $('gantt');
  const rows = [...slots].sort((a, b) =>
    (a.kind === b.kind ? 0 : a.kind === 'map' ? -1 : 1) || a.node - b.node || a.id - b.id);
  const rowH = 26, left = 190, right = 12, axisH = 20;
  const width = svgSize(svg, rows.length * rowH + axisH);
  const shown = span(now);
  const x = timeScale(now, shown, left, width - right);
  const seen = new Set();
  // Lanes first, then the time grid, then the rows' labels and bars above both.
  const parts = ['<defs><pattern id="stripes" width="6" height="6" patternUnits="userSpaceOnUse"',
    ' patternTransform="rotate(45)"><rect width="3" height="6" fill="rgba(255,255,255,0.45)"/>',
    '</pattern></defs>',
    ...rows.map((_, i) => `<rect class="lane${i % 2 ? ' odd' : ''}" x="0" y="${i * rowH}" ` +
      `width="${width}" height="${rowH}"/>`),
    timeAxis(x, now, shown, width - left - right, rows.length * rowH, 0),
    ...rows.map((slot, i) => ganttRow(slot, i * rowH, rowH, left, x, seen))];
  const split = rows.findIndex((slot) => slot.kind !== 'map');
  if (split > 0) {
    const y = split * rowH;
    parts.push(`<line class="split" x1="0" x2="${width}" y1="${y}" y2="${y}"/>`);
  }
  svg.innerHTML = parts.join('');
  const busy = slots.filter((slot) => slot.task);
  const count = (kind, list) => list.filter((slot) => slot.kind === kind).length;
  $('slots-summary').textContent = `${busy.length} of ${slots.length} busy ` +
    `(map ${count('map', busy)}/${count('map', slots)}, ` +
    `reduce ${count('reduce', busy)}/${count('reduce', slots)}) · last ${shown} s`;
  drawGanttLegend(seen, jobs);
}

// One slot: its name and speed, and a bar per task it ran (reduce tasks striped; the
// running one outlined). Adds the jobs it drew to `seen`, for the legend.
function ganttRow(slot, y, rowH, left, x, seen) {
  const state = slot.task ? `busy with job ${slot.task.job}` : 'idle';
  const parts = [`<g class="slot ${slot.kind}" data-slot="${slot.id}">`,
    `<title>slot ${slot.id}: ${state}</title>`,
    `<text class="label" x="8" y="${y + 17}">` +
    `node ${slot.node} · ${slot.kind} slot ${slot.id}</text>`,
    `<text class="speed" x="${left - 10}" y="${y + 17}" text-anchor="end">` +
    `${Number(slot.speed).toFixed(2)}×</text>`];
  for (const bar of bars.get(slot.id) || []) {
    const x0 = Math.max(left, x(bar.start));
    const x1 = Math.max(x0 + 2, x(bar.end) - 1);  // a gap between tasks back to back
    if (x1 <= left) continue;
    seen.add(bar.job);
    const box = `x="${x0}" y="${y + 4}" width="${x1 - x0}" height="${rowH - 8}"`;
    parts.push(`<g class="bar ${bar.kind}${bar.open ? ' open' : ''}" data-job="${bar.job}">`,
      `<title>job ${bar.job}, ${bar.kind} task ${bar.index}: ${seconds(bar.end - bar.start)}` +
      `${bar.open ? ', running' : ''}</title>`,
      `<rect ${box} rx="2" fill="${jobColour(bar.job)}"/>`,
      bar.kind === 'reduce' ? `<rect ${box} fill="url(#stripes)"/>` : '',
      x1 - x0 > 46 ? `<text class="on-bar" x="${x0 + 4}" y="${y + 17}">` +
        `j${bar.job} ${bar.kind === 'map' ? 'm' : 'r'}${bar.index}</text>` : '',
      '</g>');
  }
  parts.push('</g>');
  return parts.join('');
}

function drawGanttLegend(seen, jobs) {
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const items = [...seen].sort((a, b) => a - b).map((id) => {
    const j = byId.get(id);
    return `<span class="item"><i class="swatch" style="background:${jobColour(id)}"></i>` +
      `job ${id}${j ? ` (${esc(j.app)}, ${esc(j.queue)})` : ''}</span>`;
  });
  $('gantt-legend').innerHTML = '<span class="item"><i class="swatch map"></i>map task</span>' +
    '<span class="item"><i class="swatch reduce"></i>reduce task (striped)</span>' +
    items.join('');
}

function progress(done, total) {
  if (!total) return dash;
  const pct = Math.min(100, 100 * done / total);
  return `<div class="progress" title="${done} of ${total} done">` +
    `<div class="fill" style="width:${pct.toFixed(1)}%"></div><span>${done}/${total}</span></div>`;
}

const dash = '<span class="muted">—</span>';  // no figure

function drawJobs(jobs) {
  const rows = jobs.map((j) => {
    const slack = j.slack_s == null ? dash
      : `${j.slack_s < 0 ? '−' : '+'}${seconds(j.slack_s)}`;
    return `<tr data-job="${j.id}"><td class="num">` +
      `<i class="swatch" style="background:${jobColour(j.id)}"></i>${j.id}</td>` +
      `<td>${esc(j.owner)}</td><td>${esc(j.queue)}</td><td>${esc(j.app)}</td>` +
      `<td><span class="phase ${esc(j.phase)}" title="${esc(j.message || j.admission || '')}">` +
      `${esc(j.phase)}</span></td>` +
      `<td>${progress(j.maps_done, j.maps)}</td><td>${progress(j.reduces_done, j.reduces)}</td>` +
      `<td class="num">${j.deadline_s == null ? dash : seconds(j.deadline_s)}</td>` +
      `<td class="num${j.slack_s < 0 ? ' late' : ''}">${slack}</td>` +
      `<td class="num">${seconds(j.elapsed_s)}</td></tr>`;
  });
  $('jobs').tBodies[0].innerHTML = rows.join('') ||
    '<tr><td colspan="10" class="empty">no jobs yet</td></tr>';
  const active = jobs.filter((j) => j.phase === 'running' || j.phase === 'queued').length;
  $('jobs-summary').textContent = `${active} queued or running · newest ${jobs.length} shown`;
}

function shareBar(fraction, kind) {
  const pct = 100 * (fraction || 0);
  return `<div class="share ${kind}" title="${kind} slots: ${pct.toFixed(1)}%">` +
    `<div class="fill" style="width:${Math.min(100, pct).toFixed(1)}%"></div>` +
    `<span>${pct.toFixed(0)}%</span></div>`;
}

// A cell of credits, with the exact micro-credits in data-micro (the browser test reads it).
const money = (name, micro) =>
  `<td class="num ${name}" data-micro="${micro}">${credits(micro)}</td>`;

function drawQueues(queues) {
  $('queues').tBodies[0].innerHTML = queues.map((q) => {
    const low = BigInt(q.budget_micro) < BigInt(q.rate_micro) ? ' low' : '';
    return `<tr data-queue="${esc(q.name)}"><td>` +
      `<i class="swatch" style="background:${queueColour.get(q.name)}"></i>${esc(q.name)}</td>` +
      money('budget' + low, q.budget_micro) + money('rate', q.rate_micro) +
      money('charged', q.charged_micro) + money('deposits', q.deposits_micro) +
      `<td class="shares">${shareBar(q.share_map, 'map')}` +
      `${shareBar(q.share_reduce, 'reduce')}</td>` +
      `<td class="num">${q.running}</td><td class="num">${q.pending}</td></tr>`;
  }).join('') || '<tr><td colspan="8" class="empty">no queues</td></tr>';
}

// 1, 2 or 5 times a power of ten, at least `v`: a round top for a chart's scale.
function roundUp(v) {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((c) => c >= v);
}

// One line per queue over the last WINDOW_S seconds.
function lineChart(svg, now, value, top, label) {
  const height = 150, left = 64, right = 10, bottom = 20;
  const width = svgSize(svg, height);
  const shown = span(now);
  const x = timeScale(now, shown, left, width - right);
  const y = (v) => 6 + (1 - v / top) * (height - 6 - bottom);
  const parts = [];
  for (const f of [0, 0.5, 1]) {
    const at = y(f * top);
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${at}" y2="${at}"/>`,
      `<text class="axis" x="${left - 6}" y="${at + 4}" text-anchor="end">` +
      `${label(f * top)}</text>`);
  }
  parts.push(timeAxis(x, now, shown, width - left - right, height - bottom, height - bottom - 4));
  for (const [name, colour] of queueColour) {
    const points = queueHistory.filter((p) => name in p.queues)
      .map((p) => [x(p.t).toFixed(1), y(value(p.queues[name])).toFixed(1)]);
    if (!points.length) continue;
    // A dot marks the present value (and shows a series of one point).
    const [cx, cy] = points[points.length - 1];
    parts.push(`<g><title>${esc(name)}</title><polyline fill="none" stroke="${colour}" ` +
      `stroke-width="2" points="${points.map((p) => p.join(',')).join(' ')}"/>` +
      `<circle cx="${cx}" cy="${cy}" r="3" fill="${colour}"/></g>`);
  }
  svg.innerHTML = parts.join('');
}

function drawQueueCharts(now) {
  let most = 0;
  for (const p of queueHistory) {
    for (const q of Object.values(p.queues)) most = Math.max(most, q.budget);
  }
  lineChart($('budget-chart'), now, (q) => q.budget, roundUp(most),
    (v) => v.toLocaleString('en-US', {maximumFractionDigits: 2}));
  lineChart($('share-chart'), now, (q) => 100 * (q.share || 0), 100, (v) => `${v}%`);
  $('queue-legend').innerHTML = [...queueColour].map(([name, colour]) => '<span class="item">' +
    `<i class="swatch line" style="background:${colour}"></i>${esc(name)}</span>`).join('');
  $('history-span').textContent = `last ${span(now)} s, kept by this page`;
}

// Two counts (openapi.json, Scheduler): every policy call with its percentiles, and the
// slot decisions (which task a free slot runs) with their histogram and slowest.
function drawScheduler(s) {
  const count = (n) => Number(n || 0).toLocaleString('en-US');
  $('policy').textContent = `policy ${s.policy} · up ${seconds(s.uptime_s)}`;
  $('latency').innerHTML = [['Policy calls', count(s.decisions)],
    ['p50', latency(s.decision_p50_us)], ['p99', latency(s.decision_p99_us)],
    ['Slot decisions', count(s.slot_decisions)],
    ['slowest', latency(1e6 * s.slot_decision_max_s)]]
    .map(([name, v]) => `<div><dt>${name}</dt><dd>${v}</dd></div>`).join('');
  drawHistogram($('latency-chart'), s.slot_decision_buckets_us || []);
}

// Bucket i holds the decisions under 2^i µs, the last one the rest. Heights are on a log
// scale so that the tail beside a tall mode still shows; each bar is labelled with its count.
function drawHistogram(svg, buckets) {
  const height = 130, bottom = 20, topPad = 14;
  const width = svgSize(svg, height);
  let first = buckets.findIndex((n) => n > 0);
  let end = buckets.length - [...buckets].reverse().findIndex((n) => n > 0);
  if (first < 0) { first = 0; end = Math.min(buckets.length, 8); }
  end = Math.min(buckets.length, Math.max(end, first + 8));
  const shown = buckets.slice(first, end);
  const most = Math.log10(1 + Math.max(1, ...shown));
  const step = (width - 8) / Math.max(1, shown.length);
  const every = Math.ceil(52 / step);  // label every bucket, or every n-th where they crowd
  const parts = [];
  shown.forEach((n, k) => {
    const i = first + k;
    const h = (height - bottom - topPad) * Math.log10(1 + n) / most;
    const x0 = 4 + k * step;
    const name = i + 1 === buckets.length ? `≥${microseconds(2 ** (i - 1))}`
      : `<${microseconds(2 ** i)}`;
    parts.push(`<rect class="hbar" x="${x0 + 2}" y="${height - bottom - h}" ` +
      `width="${step - 4}" height="${h}">` +
      `<title>${name}: ${n} decisions</title></rect>`);
    if (k % every === 0) {
      parts.push(`<text class="axis" x="${x0 + step / 2}" y="${height - 6}" ` +
        `text-anchor="middle">${name}</text>`);
    }
    if (n) {
      parts.push(`<text class="count" x="${x0 + step / 2}" y="${height - bottom - h - 3}" ` +
        `text-anchor="middle">${n}</text>`);
    }
  });
  svg.innerHTML = parts.join('');
}

// ---- Start

function showForm(show) {
  $('key-form').hidden = !show;
  $('main').hidden = show;
  $('forget').hidden = show;
}

function start() {
  keyFromFragment();
  const key = loadKey();
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    saveKey($('key-id').value.trim(), $('key-secret').value);
    location.reload();
  });
  $('forget').addEventListener('click', () => {
    sessionStorage.removeItem(KEY_ITEM);
    location.reload();
  });
  if (!key || !/^([0-9a-f]{2})+$/.test(key.secret)) {
    showForm(true);
    setStatus(key ? 'the secret must be hex digits: enter the key again' : 'enter a key to connect',
      key ? 'error' : 'warn');
    return;
  }
  if (!window.crypto || !crypto.subtle) {
    setStatus('this page needs WebCrypto: open it over http://127.0.0.1 or https', 'error');
    return;
  }
  showForm(false);
  $('who').textContent = `key ${key.id}`;
  // Redraw when the window changes size; say so when updates stop arriving.
  addEventListener('resize', draw);
  setInterval(() => {
    const quiet = (Date.now() - lastAt) / 1000;
    if (last && quiet > 5 && $('status').classList.contains('ok')) {
      setStatus(`no update for ${Math.round(quiet)} s`, 'warn');
    }
  }, 1000);
  run();
}

start();
