// Aubade's page: a remote for the player, on the API of docs/web.md.
// Everything from the server goes into the DOM as text (textContent, or
// setAttribute for data-*/aria-*); src only for same-origin relative URLs.
'use strict';
const $ = (s) => document.querySelector(s);
const view = $('#view');

// ---------- small helpers ----------
function h(tag, props, ...kids) {
  const e = document.createElement(tag);
  for (const k in props || {}) {
    const v = props[k];
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of kids) if (c != null) e.append(c); // strings become text nodes
  return e;
}
const P = {
  play: 'M7 4v16l13-8z', pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  add: 'M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z', next: 'M4 6h11v2H4zm0 5h11v2H4zm0 5h7v2H4zm13-3 5 4-5 4z',
  up: 'M12 6l7 8h-5v4h-4v-4H5z', down: 'M12 18l-7-8h5V6h4v4h5z', x: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6 10.6 12 5 6.4z',
  folder: 'M3 5h7l2 2h9v12H3z', list: 'M4 6h16v2H4zm0 5h16v2H4zm0 5h10v2H4z', grip: 'M8 6h3v3H8zm5 0h3v3h-3zm-5 5h3v3H8zm5 0h3v3h-3zm-5 5h3v3H8zm5 0h3v3h-3z',
};
function icon(d) {
  const s = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  s.setAttribute('viewBox', '0 0 24 24'); s.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  p.setAttribute('d', d); s.append(p); return s;
}
const ib = (d, label, onclick, test, cls) => h('button', { class: 'ic' + (cls ? ' ' + cls : ''), 'aria-label': label, 'data-test': test, onclick }, icon(d));
function fmt(s) {
  if (!(s >= 0) || !isFinite(s)) return '';
  s = Math.floor(s);
  const m = Math.floor(s / 60) % 60, hr = Math.floor(s / 3600), ss = String(s % 60).padStart(2, '0');
  return hr ? `${hr}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
const base = (u) => (u || '').split('/').filter(Boolean).pop() || '';
const titleOf = (t) => (t && (t.title || base(t.uri))) || 'Unknown';
const q = (path, o) => path + '?' + new URLSearchParams(o);
// A cover URL is used only if it is relative and stays on this origin.
function safe(u) {
  if (typeof u !== 'string' || u[0] !== '/' || /[\\\s]/.test(u)) return null;
  try { return new URL(u, location.href).origin === location.origin ? u : null; } catch { return null; }
}
function coverEl(url, eager) {
  const c = h('span', { class: 'cover' }), u = safe(url);
  if (u) {
    const img = h('img', { alt: '', decoding: 'async', loading: eager ? null : 'lazy' });
    img.onerror = () => { img.hidden = true; img.onerror = null; };
    img.src = u; c.append(img);
  }
  return c;
}

// ---------- talking to the daemon ----------
let toastT;
function toast(msg) {
  const t = $('#toast'); t.textContent = String(msg); t.hidden = false;
  clearTimeout(toastT); toastT = setTimeout(() => { t.hidden = true; }, 4000);
}
async function errText(r) {
  try { const j = await r.json(); if (j && typeof j.error === 'string') return j.error; } catch {}
  return r.status === 401 ? 'Not allowed: open the link that `aubade web` prints' : `${r.status} ${r.statusText}`;
}
async function get(path, signal) {
  const r = await fetch(path, { credentials: 'same-origin', signal, headers: { Accept: 'application/json' } });
  if (!r.ok) throw new Error(await errText(r));
  return r.json();
}
async function post(path, body) {
  try {
    const r = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!r.ok) { toast(await errText(r)); return null; }
    return await r.json().catch(() => ({}));
  } catch { toast('Aubade cannot be reached'); return null; }
}
const player = (o) => post('/api/player', o);
const queue = (o) => post('/api/queue', o);
const addUris = (uris, at) => queue({ action: 'add', uris, at });
// Sends at most one request per `ms` while a slider moves, then the last value.
function throttle(fn, ms) {
  let last = 0, t, args;
  return (...a) => {
    args = a; const wait = last + ms - Date.now();
    clearTimeout(t);
    if (wait <= 0) { last = Date.now(); fn(...args); } else t = setTimeout(() => { last = Date.now(); fn(...args); }, wait);
  };
}

// ---------- virtual list: only the visible rows (and a margin) live in the DOM ----------
class VList {
  // o: {page, fetch(offset, limit, signal) -> {total, items}, row(item, i), rowH(width, cols), cols?(width), label, empty, onPage?, restore?}
  constructor(o) {
    this.o = o; this.gen = 0; this.total = null; this.cols = 1; this.rh = 56; this.pin = -1;
    this.pages = new Map(); this.old = null; this.shown = new Map(); this.ctl = new Map();
    this.el = h('div', { class: 'vl', role: 'list', 'aria-label': o.label });
    this.msg = h('p', { class: 'empty', text: o.empty || 'Nothing here', hidden: '' });
    this.onScroll = () => { if (!this.raf) this.raf = requestAnimationFrame(() => { this.raf = 0; this.update(); }); };
    view.addEventListener('scroll', this.onScroll, { passive: true });
    this.ro = new ResizeObserver(() => this.layout());
  }
  mount(parent) { parent.append(this.msg, this.el); this.ro.observe(view); this.load(0); }
  destroy() {
    this.gen++; for (const c of this.ctl.values()) c.abort();
    view.removeEventListener('scroll', this.onScroll); this.ro.disconnect(); clearTimeout(this.ft);
  }
  layout() {
    const w = this.el.clientWidth || view.clientWidth;
    const cols = this.o.cols ? this.o.cols(w) : 1, rh = this.o.rowH(w, cols);
    if (cols !== this.cols || rh !== this.rh) { this.cols = cols; this.rh = rh; this.redraw(); } else this.update();
  }
  redraw() { for (const e of this.shown.values()) e._it = null; this.update(); }
  item(i) {
    const p = Math.floor(i / this.o.page);
    let a = this.pages.get(p);
    if (!Array.isArray(a)) a = this.old && this.old.get(p);
    return Array.isArray(a) ? a[i - p * this.o.page] : undefined;
  }
  update() {
    const n = this.total || 0, cols = this.cols, rh = this.rh, rows = Math.ceil(n / cols);
    this.el.style.height = rows * rh + 'px';
    this.msg.hidden = this.total !== 0;
    const vh = view.clientHeight, top = view.scrollTop - this.el.offsetTop;
    const r0 = Math.max(0, Math.floor((top - vh / 2) / rh)), r1 = Math.min(rows - 1, Math.floor((top + vh * 1.5) / rh));
    const i0 = r0 * cols, i1 = Math.min(n - 1, (r1 + 1) * cols - 1);
    for (const [i, e] of this.shown) if ((i < i0 || i > i1) && i !== this.pin) { e.remove(); this.shown.delete(i); }
    for (let i = i0; i <= i1; i++) {
      const it = this.item(i), e = this.shown.get(i);
      if (e && e._it === it) continue;
      const ne = it === undefined ? h('div', { class: 'row ph' }) : this.o.row(it, i, this);
      ne._it = it;
      const s = ne.style;
      s.top = Math.floor(i / cols) * rh + 'px'; s.height = rh + 'px';
      if (cols > 1) { s.width = 100 / cols + '%'; s.left = (i % cols) * 100 / cols + '%'; }
      ne.setAttribute('role', 'listitem'); ne.setAttribute('aria-posinset', i + 1); ne.setAttribute('aria-setsize', n);
      if (e) e.replaceWith(ne); else this.el.append(ne);
      this.shown.set(i, ne);
    }
    if (this.total == null) return;
    const ps = this.o.page, p0 = Math.floor(i0 / ps), p1 = Math.floor(Math.max(i1, 0) / ps);
    for (const [p, c] of this.ctl) if (p < p0 - 1 || p > p1 + 1) c.abort();
    if (this.pages.size > 24) for (const p of this.pages.keys()) if (p < p0 - 4 || p > p1 + 4) this.pages.delete(p);
    clearTimeout(this.ft);
    this.ft = setTimeout(() => { for (let p = p0; p <= p1; p++) this.load(p); }, 50);
  }
  load(p) {
    if (this.pages.has(p)) return;
    const c = new AbortController(), gen = this.gen, ps = this.o.page;
    this.pages.set(p, 'loading'); this.ctl.set(p, c);
    this.o.fetch(p * ps, ps, c.signal).then((r) => {
      if (gen !== this.gen) return;
      this.ctl.delete(p);
      this.pages.set(p, Array.isArray(r.items) ? r.items : []);
      if (this.old) this.old.delete(p);
      const first = this.total == null;
      this.total = Number.isFinite(r.total) ? r.total : this.pages.get(p).length;
      if (this.o.onPage) this.o.onPage(r);
      if (first) { this.layout(); if (this.o.restore) view.scrollTop = this.o.restore; }
      this.update();
    }, (e) => {
      if (this.ctl.get(p) === c) this.ctl.delete(p);
      if (gen !== this.gen) return;
      if (e.name === 'AbortError') { this.pages.delete(p); return; }
      this.pages.set(p, 'error'); toast(e.message);
      if (this.total == null) { this.total = 0; this.msg.textContent = e.message; this.update(); }
    });
  }
  // Fetches the visible pages again; the old rows stay until the new ones arrive.
  refresh() {
    this.gen++; for (const c of this.ctl.values()) c.abort(); this.ctl.clear();
    this.old = new Map([...this.pages].filter(([, a]) => Array.isArray(a)));
    this.pages = new Map();
    this.update();
  }
}
const pageOf = (path, extra) => (offset, limit, signal) => get(q(path, { ...extra, offset, limit }), signal);

// ---------- rows ----------
function trackRow(t, i, o = {}) {
  const title = titleOf(t);
  const sub = [o.noArtist ? null : t.artist, o.noAlbum ? null : t.album, fmt(t.duration)].filter(Boolean).join(' · ');
  return h('div', { class: 'row', 'data-test': 'track-row', 'data-uri': t.uri || '' },
    h('button', { class: 'go', 'data-test': 'track-play', onclick: () => addUris([t.uri], 'now') },
      o.num ? h('span', { class: 'n', text: t.track || '' }) : null,
      h('span', { class: 'tx' }, h('span', { class: 't1', text: title }), h('span', { class: 't2', text: sub }))),
    ib(P.next, 'Play next: ' + title, () => addUris([t.uri], 'next').then((r) => r && toast('Plays next')), 'track-next'),
    ib(P.add, 'Add to queue: ' + title, () => addUris([t.uri], 'end').then((r) => r && toast('Added')), 'track-add'));
}
const entryRow = (d, text, sub, onclick, extra) => h('div', { class: 'row' },
  h('button', { class: 'go', onclick }, d ? icon(d) : null,
    h('span', { class: 'tx' }, h('span', { class: 't1', text }), sub ? h('span', { class: 't2', text: sub }) : null)), ...(extra || []));
const gridCols = (w) => Math.max(2, Math.floor(w / (w < 600 ? 118 : 170)));
const gridRowH = (w, c) => Math.ceil(w / c + 42);
function albumCard(a, i, list) {
  let url = a.cover;
  const cell = list.el.clientWidth / list.cols - 12;
  if (url && cell * (devicePixelRatio || 1) <= 128) url = url.replace(/([?&]size=)300\b/, '$196');
  return h('div', { class: 'card', 'data-test': 'album-card', 'data-album': a.album || '', 'data-artist': a.artist || '' },
    h('button', { onclick: () => go('album', a.artist || '', a.album || '') }, coverEl(url),
      h('span', { class: 't1', text: a.album || 'Unknown album' }), h('span', { class: 't2', text: a.artist || 'Unknown artist' })));
}
const albumGrid = (extra, restore) => new VList({ page: 120, fetch: pageOf('/api/albums', extra), row: albumCard,
  cols: gridCols, rowH: gridRowH, label: 'Albums', empty: 'No albums', restore });

// ---------- views ----------
// Each returns {lists?, on?: {queue, library, playlists}, tab}.
const views = {
  albums(_, restore) {
    const l = albumGrid({}, restore); l.mount(view);
    return { lists: [l], on: { library: () => l.refresh() } };
  },
  artists(_, restore) {
    const l = new VList({ page: 200, fetch: pageOf('/api/artists'), rowH: () => 56, label: 'Artists', empty: 'No artists', restore,
      row: (a) => entryRow(null, a.name || 'Unknown artist', a.albums != null ? `${a.albums} album${a.albums === 1 ? '' : 's'}` : '', () => go('artist', a.name || '')) });
    l.mount(view);
    return { lists: [l], on: { library: () => l.refresh() } };
  },
  artist([name], restore) {
    view.append(h('div', { class: 'head' }, h('div', { class: 'tx' }, h('h1', { text: name || 'Unknown artist' }))));
    const l = albumGrid({ artist: name }, restore); l.mount(view);
    return { tab: 'artists', lists: [l], on: { library: () => l.refresh() } };
  },
  album([artist, album], restore) {
    const cov = h('span', { class: 'cover' });
    const at = (where, msg) => () => queue({ action: 'addAlbum', album, artist, at: where }).then((r) => r && msg && toast(msg));
    view.append(h('div', { class: 'head' }, cov,
      h('div', { class: 'tx' }, h('h1', { text: album || 'Unknown album' }), h('p', { text: artist || 'Unknown artist' }),
        h('div', { class: 'acts' },
          h('button', { class: 'btn pri', 'data-test': 'play-album', onclick: at('now') }, 'Play'),
          h('button', { class: 'btn', 'data-test': 'next-album', onclick: at('next', 'Plays next') }, 'Next'),
          h('button', { class: 'btn', 'data-test': 'add-album', onclick: at('end', 'Added') }, 'Add')))));
    const l = new VList({ page: 200, fetch: pageOf('/api/album', { album, artist }), rowH: () => 56, label: 'Tracks', empty: 'No tracks', restore,
      row: (t) => trackRow(t, 0, { num: true, noAlbum: true, noArtist: !t.artist || t.artist === artist }),
      onPage: (r) => { const c = r.items && r.items[0] && r.items[0].cover; if (c && !cov.firstChild) cov.replaceWith(coverEl(c, true)); } });
    l.mount(view);
    return { lists: [l], on: { library: () => l.refresh() } };
  },
  folders([path = ''], restore) {
    const crumbs = h('nav', { class: 'crumbs', 'aria-label': 'Folder' });
    const parts = path.split('/').filter(Boolean);
    crumbs.append(h('button', { onclick: () => go('folders') }, 'Music'));
    parts.forEach((p, i) => crumbs.append(h('button', { onclick: () => go('folders', parts.slice(0, i + 1).join('/')) }, p)));
    crumbs.lastChild.setAttribute('aria-current', 'page');
    view.append(crumbs);
    const add = (e) => ib(P.add, 'Add to queue: ' + (e.name || e.uri), () => addUris([e.uri], 'end').then((r) => r && toast('Added')), 'entry-add');
    const l = new VList({ page: 200, fetch: pageOf('/api/folder', { path }), rowH: () => 56, label: 'Folder', empty: 'Empty folder', restore,
      row: (e, i) => e.type === 'folder' ? entryRow(P.folder, e.name || base(e.uri), '', () => go('folders', e.uri), [add(e)])
        : e.type === 'playlist' ? entryRow(P.list, e.name || base(e.uri), 'playlist', () => addUris([e.uri], 'now'), [add(e)])
          : trackRow(e, i) });
    l.mount(view);
    return { lists: [l], on: { library: () => l.refresh() } };
  },
  search() {
    const input = h('input', { class: 'field', type: 'search', 'data-test': 'search-input', 'aria-label': 'Search the library',
      placeholder: 'Title, artist, album, file…', autocomplete: 'off', enterkeyhint: 'search', value: lastQuery });
    const note = h('p', { class: 'note', 'aria-live': 'polite' });
    const box = h('div');
    view.append(h('form', { class: 'form', role: 'search', onsubmit: (e) => { e.preventDefault(); input.blur(); } }, input), note, box);
    const v = { lists: [] };
    let t;
    const run = () => {
      for (const l of v.lists) l.destroy(); // aborts the stale requests
      box.replaceChildren(); v.lists = [];
      lastQuery = input.value;
      const text = input.value.trim();
      note.textContent = text ? 'Searching…' : 'Type to search titles, artists, albums and file names.';
      if (!text) return;
      const l = new VList({ page: 100, fetch: pageOf('/api/search', { q: text }), rowH: () => 56, label: 'Results', empty: 'No match',
        row: (t, i) => trackRow(t, i), onPage: (r) => { note.textContent = `${r.total} track${r.total === 1 ? '' : 's'}`; } });
      l.mount(box); v.lists = [l];
    };
    // 60 ms after the last key: a pause between keys, not a wait the user feels (a stale search is aborted).
    input.addEventListener('input', () => { clearTimeout(t); t = setTimeout(run, 60); });
    run();
    if (matchMedia('(pointer:fine)').matches) input.focus();
    v.on = { library: () => v.lists.forEach((l) => l.refresh()) };
    v.stop = () => clearTimeout(t);
    return v;
  },
  queue(_, restore) {
    const info = h('span', { class: 'note' });
    view.append(h('div', { class: 'bar2' },
      h('button', { class: 'btn', 'data-test': 'queue-clear', onclick: () => queue({ action: 'clear' }) }, 'Clear'),
      h('button', { class: 'btn', 'data-test': 'queue-save', onclick: saveQueue }, 'Save as playlist'), info));
    let cur = null;
    const l = new VList({ page: 150, fetch: pageOf('/api/queue'), rowH: () => 56, label: 'Queue', empty: 'The queue is empty', restore,
      onPage: (r) => { cur = r.current; info.textContent = `${r.total} track${r.total === 1 ? '' : 's'}`; },
      row: (t, i, list) => queueRow(t, i, list, S && S.queue ? S.queue.current : cur) });
    l.mount(view);
    return { lists: [l], on: { queue: () => l.refresh() }, cur: () => l.redraw() };
  },
  playlists() {
    let all = null;
    const l = new VList({ page: 200, rowH: () => 56, label: 'Playlists', empty: 'No saved playlists',
      fetch: async (off, lim, signal) => {
        if (!all || off === 0) all = (await get('/api/playlists', signal)).items || [];
        return { total: all.length, items: all.slice(off, off + lim) };
      },
      row: (p) => h('div', { class: 'row', 'data-test': 'playlist-row', 'data-name': p.name || '' },
        h('span', { class: 'tx' }, h('span', { class: 't1', text: p.name || '' })),
        h('button', { class: 'btn', 'data-test': 'playlist-load', 'aria-label': 'Load ' + (p.name || ''),
          onclick: () => post('/api/playlists', { action: 'load', name: p.name }).then((r) => r && toast('Loaded')) }, 'Load')) });
    l.mount(view);
    return { lists: [l], on: { playlists: () => l.refresh() } };
  },
  stations() {
    const input = h('input', { class: 'field', type: 'url', required: '', 'data-test': 'station-url', 'aria-label': 'Station URL',
      placeholder: 'https://… stream URL', autocomplete: 'url', inputmode: 'url' });
    const now = h('p', { class: 'note', 'data-test': 'station-now' });
    const recent = h('div', { role: 'list', 'aria-label': 'Recent stations' });
    const play = async (url) => {
      if (!/^https?:\/\/\S+$/i.test(url)) { toast('A station is an http:// or https:// URL'); return; }
      if (await post('/api/stations', { url })) {
        input.value = ''; toast('Playing the station');
        saveRecent([url, ...loadRecent().filter((u) => u !== url)].slice(0, 20)); draw();
      }
    };
    const draw = () => recent.replaceChildren(...loadRecent().map((u) => h('div', { class: 'row', role: 'listitem' },
      h('button', { class: 'go', onclick: () => play(u) }, h('span', { class: 'tx' }, h('span', { class: 't1', text: u }))),
      ib(P.x, 'Forget ' + u, () => { saveRecent(loadRecent().filter((x) => x !== u)); draw(); }))));
    const show = () => {
      const c = S && S.current;
      now.textContent = c && c.station ? `On air: ${[c.title, c.artist].filter(Boolean).join(' — ') || c.uri}` : '';
    };
    view.append(h('form', { class: 'form', onsubmit: (e) => { e.preventDefault(); play(input.value.trim()); } },
      input, h('button', { class: 'btn pri', 'data-test': 'station-add' }, 'Play')), now, recent);
    draw(); show();
    return { state: show };
  },
  rooms() {
    const box = h('div', { role: 'list', 'aria-label': 'Rooms' });
    view.append(box);
    const rows = new Map();
    const send = new Map();
    const load = async () => {
      let r;
      try { r = await get('/api/rooms'); } catch (e) { toast(e.message); return; }
      draw(r);
    };
    const draw = (r) => {
      if (!r) { load(); return; }
      setRooms(r.available);
      const ids = new Set();
      for (const room of r.items || []) {
        ids.add(room.id);
        let x = rows.get(room.id);
        if (!x) {
          const id = room.id;
          if (!send.has(id)) send.set(id, throttle((v) => post('/api/rooms', { id, volume: v }), 120));
          const vol = h('input', { type: 'range', min: 0, max: 1, step: 0.01, 'data-test': 'room-volume' });
          const mute = h('button', { class: 'chip', 'data-test': 'room-mute' }, 'Mute');
          vol.addEventListener('input', () => { x.busy = Date.now(); send.get(id)(+vol.value); });
          mute.onclick = () => { const m = mute.getAttribute('aria-pressed') !== 'true'; mute.setAttribute('aria-pressed', m); post('/api/rooms', { id, muted: m }); };
          const t1 = h('span', { class: 't1' }), t2 = h('span', { class: 't2' });
          const row = h('div', { class: 'row room', role: 'listitem', 'data-test': 'room-row', 'data-id': id }, h('span', { class: 'tx' }, t1, t2), mute, vol);
          if (!rows.size) box.replaceChildren();
          x = { row, vol, mute, t1, t2, busy: 0 }; rows.set(id, x); box.append(row);
        }
        x.t1.textContent = room.name || String(room.id);
        x.t2.textContent = room.connected ? 'connected' : 'not connected';
        x.vol.setAttribute('aria-label', 'Volume: ' + (room.name || room.id));
        if (Date.now() - x.busy > 1500) x.vol.value = room.volume;
        x.mute.setAttribute('aria-pressed', !!room.muted);
      }
      for (const [id, x] of rows) if (!ids.has(id)) { x.row.remove(); rows.delete(id); }
      if (!rows.size) box.replaceChildren(h('p', { class: 'empty', text: r.reachable === false ? 'The rooms cannot be reached' : 'No rooms' }));
    };
    load();
    // The `rooms` event keeps them current; polling only while the event stream is down.
    const timer = setInterval(() => { if (!es || es.readyState !== EventSource.OPEN) load(); }, 5000);
    return { stop: () => clearInterval(timer), on: { all: load, rooms: draw } };
  },
};
let lastQuery = '';
function queueRow(t, i, list, cur) {
  const title = titleOf(t), id = t.id;
  const row = h('div', { class: 'row' + (i === cur ? ' cur' : ''), 'data-test': 'queue-row', 'data-id': id, 'data-index': i, 'aria-current': i === cur ? 'true' : null });
  const grip = h('span', { class: 'ic handle', 'aria-hidden': 'true' }, icon(P.grip));
  grip.addEventListener('pointerdown', (e) => drag(e, row, t, i, list));
  const move = (to, sel) => { if (to < 0 || to >= list.total) return; focusAfter = { id, sel }; queue({ action: 'move', id, to }); };
  row.append(grip,
    h('button', { class: 'go', 'data-test': 'queue-play', onclick: () => queue({ action: 'play', id }) },
      h('span', { class: 'n', text: i + 1 }),
      h('span', { class: 'tx' }, h('span', { class: 't1', text: title }), h('span', { class: 't2', text: [t.artist, fmt(t.duration)].filter(Boolean).join(' · ') }))),
    ib(P.up, 'Move up: ' + title, () => move(i - 1, '[data-test=queue-up]'), 'queue-up', 'mv'),
    ib(P.down, 'Move down: ' + title, () => move(i + 1, '[data-test=queue-down]'), 'queue-down', 'mv'),
    ib(P.x, 'Remove: ' + title, () => queue({ action: 'remove', ids: [id] }), 'queue-remove'));
  if (focusAfter && focusAfter.id === id) { const f = focusAfter; focusAfter = null; requestAnimationFrame(() => { const b = row.querySelector(f.sel); if (b) b.focus(); }); }
  return row;
}
let focusAfter = null;
// Drag by the grip: a ghost follows the pointer, a line shows where the entry lands.
function drag(e, row, t, from, list) {
  if (e.button > 0) return;
  e.preventDefault();
  const rh = list.rh, ghost = row.cloneNode(true), line = h('div', { class: 'drop' });
  ghost.removeAttribute('data-test'); ghost.querySelectorAll('[data-test]').forEach((n) => n.removeAttribute('data-test'));
  ghost.classList.add('ghost'); ghost.style.height = rh + 'px'; ghost.setAttribute('aria-hidden', 'true');
  document.body.append(ghost); list.el.append(line); row.classList.add('drag'); list.pin = from;
  let y = e.clientY, to = from;
  const place = () => {
    ghost.style.top = y - rh / 2 + 'px';
    const yy = y - view.getBoundingClientRect().top + view.scrollTop - list.el.offsetTop;
    to = Math.max(0, Math.min(list.total - 1, Math.floor(yy / rh)));
    line.style.top = (to > from ? to + 1 : to) * rh - 2 + 'px';
  };
  const scroll = setInterval(() => {
    const r = view.getBoundingClientRect(), d = y < r.top + 56 ? -14 : y > r.bottom - 56 ? 14 : 0;
    if (d) { view.scrollTop += d; place(); }
  }, 16);
  const mv = (ev) => { if (ev.pointerId === e.pointerId) { y = ev.clientY; place(); } };
  const end = (ev) => {
    if (ev.pointerId !== e.pointerId) return;
    clearInterval(scroll); ghost.remove(); line.remove(); row.classList.remove('drag'); list.pin = -1;
    removeEventListener('pointermove', mv); removeEventListener('pointerup', end); removeEventListener('pointercancel', end);
    if (ev.type === 'pointerup' && to !== from) queue({ action: 'move', id: t.id, to });
    list.update();
  };
  addEventListener('pointermove', mv); addEventListener('pointerup', end); addEventListener('pointercancel', end);
  place();
}
async function saveQueue() {
  const name = prompt('Save the queue as a playlist named:');
  if (name && name.trim() && await queue({ action: 'save', name: name.trim() })) toast('Saved');
}
const loadRecent = () => { try { const a = JSON.parse(localStorage.getItem('aubade.stations')); return Array.isArray(a) ? a.filter((u) => typeof u === 'string') : []; } catch { return []; } };
const saveRecent = (a) => { try { localStorage.setItem('aubade.stations', JSON.stringify(a)); } catch {} };

// ---------- routing: #/tab/arg… ----------
const tabs = [...document.querySelectorAll('[role=tab]')];
let cur = null, curHash = '', curName = '', lastLib = 'albums';
const memo = new Map();
function go(...parts) { location.hash = '#/' + parts.map(encodeURIComponent).join('/'); }
function route() {
  if (cur) { memo.set(curHash, view.scrollTop); for (const l of cur.lists || []) l.destroy(); if (cur.stop) cur.stop(); }
  curHash = location.hash;
  let [name, ...args] = curHash.replace(/^#\/?/, '').split('/').map((s) => { try { return decodeURIComponent(s); } catch { return ''; } });
  if (!views[name] || (name === 'rooms' && $('#tab-rooms').hidden)) name = 'albums';
  curName = name;
  view.replaceChildren(); view.scrollTop = 0;
  cur = views[name](args, memo.get(curHash)) || {};
  const tab = cur.tab || (name === 'album' ? lastLib : name);
  if (['albums', 'artists', 'folders', 'search'].includes(tab)) lastLib = tab;
  for (const b of tabs) {
    const on = b.dataset.tab === tab;
    b.setAttribute('aria-selected', on); b.tabIndex = on ? 0 : -1;
    if (on) { view.setAttribute('aria-labelledby', b.id); b.scrollIntoView({ block: 'nearest', inline: 'nearest' }); }
  }
}
for (const b of tabs) b.addEventListener('click', () => { if (location.hash === '#/' + b.dataset.tab) route(); else go(b.dataset.tab); });
$('.tabs').addEventListener('keydown', (e) => {
  const vis = tabs.filter((b) => !b.hidden), i = vis.indexOf(document.activeElement);
  const j = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: vis.length - 1 }[e.key];
  if (i < 0 || j === undefined) return;
  e.preventDefault(); const b = vis[(j + vis.length) % vis.length]; b.focus(); b.click();
});
addEventListener('hashchange', route);
function notify(kind, data) {
  if (!cur) return;
  const on = cur.on || {};
  if (kind === 'all') { for (const k in on) on[k](); } else if (on[kind]) on[kind](data);
}

// ---------- now playing ----------
let S = null, stateAt = 0, seeking = false, volBusy = 0, tick = 0, lastCur, lastCover;
const el = (id) => document.getElementById(id);
const E = { title: el('now-title'), artist: el('now-artist'), album: el('now-album'), status: el('status'), why: el('why'), route: el('route'),
  img: el('now-img'), play: el('play'), playPath: el('play-path'), seek: el('seek'), pos: el('pos'), dur: el('dur'), fill: el('barfill'),
  vol: el('volume'), loop: el('loop'), shuffle: el('shuffle'), qlen: el('qlen'), now: el('now'), expand: el('expand') };
E.img.onerror = () => { E.img.hidden = true; };
E.img.onload = () => { E.img.hidden = false; };
function position() {
  if (!S) return 0;
  let p = +S.position || 0;
  if (S.status === 'playing') p += (performance.now() - stateAt) / 1000;
  const d = S.current && S.current.duration;
  return d > 0 ? Math.min(p, d) : p;
}
function moveBar() {
  const p = position(), d = (S && S.current && S.current.duration) || 0;
  E.fill.style.transform = `scaleX(${d > 0 ? p / d : 0})`;
  if (!seeking) { E.seek.value = p; E.pos.textContent = fmt(p) || '0:00'; }
}
function applyState(s) {
  if (!s || typeof s !== 'object') return;
  S = s; stateAt = performance.now();
  document.body.dataset.stateVersion = s.version;
  const c = s.current;
  const title = c ? titleOf(c) : 'Nothing queued';
  E.title.textContent = title;
  E.artist.textContent = c ? (c.artist || (c.station ? 'Radio' : '')) : '';
  E.album.textContent = c ? (c.album || (c.station ? c.uri : '')) || '' : '';
  E.status.textContent = ['playing', 'paused', 'stopped'].includes(s.status) ? s.status : 'stopped';
  E.why.textContent = s.pausedBecause || '';
  E.route.textContent = s.route || '';
  const playing = s.status === 'playing';
  E.play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  E.playPath.setAttribute('d', playing ? P.pause : P.play);
  const cov = safe(c && c.cover);
  if (cov !== lastCover) { lastCover = cov; E.img.hidden = true; if (cov) E.img.src = cov; else E.img.removeAttribute('src'); }
  const d = (c && c.duration) || 0;
  E.seek.max = d || 1; E.seek.disabled = !(s.canSeek && d > 0);
  E.dur.textContent = fmt(d);
  if (Date.now() - volBusy > 800 && typeof s.volume === 'number') E.vol.value = s.volume;
  const loop = s.loop || 'None';
  E.loop.textContent = 'Loop: ' + loop; E.loop.setAttribute('aria-label', 'Loop: ' + loop.toLowerCase());
  E.loop.classList.toggle('on', loop !== 'None');
  E.shuffle.setAttribute('aria-pressed', !!s.shuffle);
  E.qlen.textContent = s.queue && s.queue.length ? s.queue.length : '';
  document.title = c ? `${title} · Aubade` : 'Aubade';
  clearInterval(tick); tick = playing ? setInterval(moveBar, 250) : 0;
  moveBar();
  const qc = s.queue ? s.queue.current : null;
  if (qc !== lastCur) { lastCur = qc; if (cur && cur.cur) cur.cur(); }
  if (cur && cur.state) cur.state();
}
E.play.onclick = () => player({ action: 'toggle' });
el('next').onclick = () => player({ action: 'next' });
el('prev').onclick = () => player({ action: 'previous' });
E.seek.addEventListener('input', () => { seeking = true; E.pos.textContent = fmt(+E.seek.value) || '0:00'; });
E.seek.addEventListener('change', () => {
  const p = +E.seek.value; seeking = false;
  if (S) { S.position = p; stateAt = performance.now(); }
  player({ action: 'seek', position: p });
});
const sendVol = throttle((v) => player({ action: 'volume', volume: v }), 100);
E.vol.addEventListener('input', () => { volBusy = Date.now(); sendVol(+E.vol.value); });
E.loop.onclick = () => {
  const order = ['None', 'Playlist', 'Track'];
  player({ action: 'loop', loop: order[(order.indexOf((S && S.loop) || 'None') + 1) % 3] });
};
E.shuffle.onclick = () => player({ action: 'shuffle', shuffle: !(S && S.shuffle) });
function expand(on) {
  E.now.classList.toggle('x', on);
  E.expand.setAttribute('aria-expanded', on);
  E.expand.setAttribute('aria-label', on ? 'Hide player' : 'Show player');
}
E.expand.onclick = () => expand(!E.now.classList.contains('x'));
addEventListener('keydown', (e) => {
  const t = e.target;
  if (e.key === 'Escape' && E.now.classList.contains('x')) { expand(false); E.expand.focus(); return; }
  if (e.key !== ' ' || e.ctrlKey || e.metaKey || e.altKey) return;
  if (t.closest && t.closest('input,textarea,select,button,a,[contenteditable],[role=tab]')) return;
  e.preventDefault(); player({ action: 'toggle' });
});

// ---------- live updates ----------
let es, backoff = 1000, seen = false;
const banner = $('#banner');
const parse = (d) => { try { return JSON.parse(d); } catch { return null; } };
function connect() {
  es = new EventSource('/api/events');
  es.addEventListener('snapshot', (e) => {
    const s = parse(e.data); if (!s) return;
    banner.hidden = true; backoff = 1000;
    applyState(s);
    if (seen) { notify('all'); checkRooms(); } // things may have changed while away
    seen = true;
  });
  es.addEventListener('state', (e) => { applyState(parse(e.data)); window.aubadeLastChange = performance.now(); });
  es.addEventListener('queue', (e) => {
    const d = parse(e.data);
    if (d && S && S.queue) { S.queue.version = d.version; S.queue.length = d.length; E.qlen.textContent = d.length || ''; }
    notify('queue');
  });
  es.addEventListener('library', () => notify('library'));
  es.addEventListener('playlists', () => notify('playlists'));
  es.addEventListener('rooms', (e) => { const d = parse(e.data); if (d) { setRooms(!!d.available); notify('rooms', d); } });
  es.onerror = () => {
    banner.hidden = false;
    // The browser retries by itself unless the stream was refused (e.g. a 502 while restarting).
    if (es.readyState === EventSource.CLOSED) { setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 15000); }
  };
}
function setRooms(on) {
  const t = $('#tab-rooms'); t.hidden = !on;
  if (location.hash.startsWith('#/rooms') && (curName === 'rooms') !== on) route();
}
const checkRooms = () => get('/api/rooms').then((r) => setRooms(!!r.available), () => {});

route();
connect();
checkRooms();
get('/api/state').then((s) => { if (!S) applyState(s); }, () => {});
