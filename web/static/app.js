// upkg page: the user interface. The reading happens in worker.js (upkg
// compiled to WebAssembly); this file shows what it returns.
//
// Ground rules for this file:
//   - Text from a file (names, paths, tags) is hostile: it only ever reaches
//     the page through textContent, never innerHTML.
//   - Tables render only the rows in view (vtable), so a package with tens
//     of thousands of names stays fast.
//   - A failed file shows the error panel; the worker and page keep going.
'use strict';

// ---------- small helpers ----------
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? '' : v);
    }
  }
  for (const kid of kids.flat()) {
    if (kid === undefined || kid === null || kid === false) continue;
    add(el, kid instanceof Node ? kid : String(kid));
  }
  return el;
}
const $ = (id) => document.getElementById(id);
// add appends the children that are not null/false (Element.append would
// print them as text).
function put(el, ...kids) {
  el.replaceChildren();
  return add(el, ...kids);
}
function add(el, ...kids) {
  el.append(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
  return el;
}
const nf = new Intl.NumberFormat('en-US');
const num = (n) => (typeof n === 'number' ? nf.format(n) : n === undefined || n === null ? '' : String(n));
const hex = (n, w) => (n < 0 ? '-0x' + (-n).toString(16).toUpperCase() : '0x' + n.toString(16).toUpperCase().padStart(w || 0, '0'));
function bytes(n) {
  if (n === undefined || n === null) return '';
  if (n < 1024) return num(n) + ' B';
  if (n < 1 << 20) return (n / 1024).toFixed(1) + ' KiB';
  if (n < 1 << 30) return (n / (1 << 20)).toFixed(1) + ' MiB';
  return (n / (1 << 30)).toFixed(2) + ' GiB';
}
function shortPath(p) {
  if (!p) return '';
  const i = Math.max(p.lastIndexOf('.'), p.lastIndexOf(':'), p.lastIndexOf('/'));
  return i >= 0 && i < p.length - 1 ? p.slice(i + 1) : p;
}
function valueText(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
// shownName drops the worker's folder for dropped containers ("/in/3/")
// from a file name: the user dropped "Game.pak", not "/in/3/Game.pak".
function shownName(n) {
  return String(n).replace(/^\/in\/\d+\//, '');
}
// sentence makes a note from the reader a sentence: capital first, full stop.
function sentence(s) {
  s = String(s).trim();
  if (!s) return s;
  s = s[0].toUpperCase() + s.slice(1);
  return /[.!?]$/.test(s) ? s : s + '.';
}
function flagChips(text) {
  const parts = String(text || '').split(/[|,\s]+/).filter(Boolean);
  return parts.map((f) => h('span', { class: 'flag', title: flagHelp(f) || f, text: f }));
}

// ---------- readers: one worker per WebAssembly module ----------
// The readers are split into modules by format family (modules.json lists
// them, with the formats each reads). A module is downloaded and started the
// first time a dropped file needs it (or, if marked preload, when the page
// is idle after opening), then reused; a failed file never
// stops it. Handles the page holds are its own numbers, mapped to the
// module and the module's handle.
let manifest = null; // modules.json: {modules: [{name, file, title, size, formats}], engines}
const readers = new Map(); // module name -> reader
const handles = new Map(); // page handle -> {module, h}
let nextHandle = 0;
window.upkgState = { renders: 0, errors: 0, timings: [], modules: {} };

const manifestLoaded = fetch('modules.json').then((r) => {
  if (!r.ok) throw new Error('HTTP ' + r.status);
  return r.json();
}).then((m) => {
  manifest = m;
  const sel = $('opt-engine');
  for (const e of m.engines || []) add(sel, h('option', { value: e, text: 'UE ' + e }));
  window.upkgState.ready = true;
  // Modules marked preload (the UE4/UE5 package reader) start once the page
  // is idle, so a first drop of the common kind does not wait for them.
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 100));
  idle(() => { for (const x of m.modules) if (x.preload) reader(x.name); }, { timeout: 1000 });
}).catch((err) => {
  const file = location.protocol === 'file:';
  showError('The page could not start', 'modules.json: ' + err.message, file
    ? 'The page was opened from disk (file://), where browsers do not let it read its own files: serve the folder over HTTP (upkg serve, or any web server).'
    : 'Reload the page. The page needs its own files next to index.html.', false);
  throw err;
});

function moduleFor(format) {
  const m = manifest.modules.find((x) => (x.formats || []).includes(format));
  return m ? m.name : manifest.modules[0].name;
}

function reader(name) {
  let r = readers.get(name);
  if (!r) {
    r = startReader(name);
    readers.set(name, r);
  }
  return r;
}

function startReader(name) {
  const mod = manifest.modules.find((m) => m.name === name);
  if (!mod) throw new Error('no reader module ' + name);
  const r = { name, mod, seq: 0, pending: new Map(), loaded: false };
  const st = window.upkgState.modules[name] || (window.upkgState.modules[name] = { starts: 0, loads: 0 });
  st.starts++;
  r.worker = new Worker('worker.js?module=' + encodeURIComponent(mod.file) + '&size=' + mod.size);
  r.ready = new Promise((resolve, reject) => {
    r.worker.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'hello') return;
      if (m.type === 'loading') {
        if (!$('busy').hidden || document.body.dataset.state === 'busy') progress({ phase: 'Downloading the ' + mod.title + ' (' + bytes(mod.size) + ', once)', loaded: m.loaded, total: m.total });
        return;
      }
      if (m.type === 'ready') {
        r.loaded = true;
        st.loads++;
        st.ms = m.ms;
        resolve();
        return;
      }
      if (m.type === 'fatal') {
        reject(new Error(m.error));
        for (const p of r.pending.values()) p.reject(new Error(m.error));
        r.pending.clear();
        // The handles died with the instance; the module restarts on next use.
        for (const [ph, x] of handles) if (x.module === name) handles.delete(ph);
        for (const [k, res] of S.results) if (res.module === name) S.results.delete(k);
        readers.delete(name);
        r.worker.terminate();
        showError('The reader stopped', m.error, 'The page restarts its reader: drop the file again, or another file.');
        return;
      }
      const p = r.pending.get(m.id);
      if (!p) return;
      if (m.progress) { p.progress && p.progress(m.progress); return; }
      r.pending.delete(m.id);
      m.ok ? p.resolve(m.result) : p.reject(new Error(m.error));
    };
    r.worker.onerror = (e) => {
      showError('The reader could not start', e.message || 'worker error', 'Reload the page. If it keeps failing, your browser may block WebAssembly.');
      reject(new Error(e.message || 'worker error'));
    };
  });
  r.ready.catch(() => {});
  return r;
}

// callIn sends a request to module name's worker (started if needed).
function callIn(name, op, args, progressFn, transfer) {
  const r = reader(name);
  const id = ++r.seq;
  if (!r.loaded && progressFn) progressFn({ phase: 'Downloading the ' + r.mod.title + ' (' + bytes(r.mod.size) + ', once)' });
  return new Promise((resolve, reject) => {
    r.pending.set(id, { resolve, reject, progress: progressFn });
    r.worker.postMessage({ id, op, args }, transfer || []);
  });
}

// own gives a result's module handle a page handle.
function own(name, res) {
  if (res && typeof res.handle === 'number') {
    handles.set(++nextHandle, { module: name, h: res.handle });
    res.handle = nextHandle;
    res.module = name;
  }
  return res;
}

// call sends a request about an open file (args[0] is its page handle) to
// the module that opened it.
async function call(op, args, progressFn) {
  const x = handles.get(args[0]);
  if (!x) throw new Error('no open file with handle ' + args[0] + ' (it was closed; drop the file again)');
  if (op === 'close') handles.delete(args[0]);
  const res = await callIn(x.module, op, [x.h, ...args.slice(1)], progressFn);
  return op === 'openFromContainer' ? own(x.module, res) : res;
}

// openFromContainer opens a package inside container c. A module without
// the package's reader (the .pak module) hands the package's files to the
// module that has it.
async function openFromContainer(c, path, progressFn) {
  if (!c.package_reader) return call('openFromContainer', [c.handle, path], progressFn);
  const x = handles.get(c.handle);
  if (!x) throw new Error('no open file with handle ' + c.handle + ' (it was closed; drop the file again)');
  const { meta, data } = await callIn(x.module, 'packageFiles', [x.h, path], progressFn);
  const set = settings();
  const extra = {};
  if (set.mappings && S.files && S.files.has(set.mappings)) extra[set.mappings] = S.files.get(set.mappings);
  const target = moduleFor(c.package_reader);
  return own(target, await callIn(target, 'openBytes', [meta.names, meta.sizes, data, set, extra], progressFn, [data.buffer]));
}

// ---------- routing dropped files to modules ----------
const COMPANIONS = new Set(['.uexp', '.ubulk', '.uptnl']);
function extOf(n) {
  const b = n.slice(n.replace(/\\/g, '/').lastIndexOf('/') + 1);
  const i = b.lastIndexOf('.');
  return i >= 0 ? b.slice(i).toLowerCase() : '';
}
// baseOf matches webapi's baseName: Foo.m.ubulk travels with Foo.uasset.
function baseOf(n) {
  let b = n.replace(/\\/g, '/');
  b = b.slice(b.lastIndexOf('/') + 1);
  const i = b.lastIndexOf('.');
  if (i >= 0) b = b.slice(0, i);
  const low = b.toLowerCase();
  if (low.endsWith('.m') || low.endsWith('.o')) b = b.slice(0, -2);
  return b.toLowerCase();
}

// formatOf names the format of a main file from its name and first bytes,
// the way the Go openers match (internal/inspect: matchUasset, matchLegacy,
// matchZen); null when none matches.
async function formatOf(file) {
  const ext = extOf(file.name);
  if (ext === '.pak' || ext === '.sig') return 'pak';
  if (ext === '.utoc' || ext === '.ucas') return 'utoc';
  const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
  const dv = new DataView(head.buffer);
  if (head.length >= 4 && String.fromCharCode(...head.subarray(0, 4)) === 'ACE7') return 'uasset';
  if (head.length >= 22 && new TextDecoder('utf-16le').decode(head.subarray(0, 22)) === 'Lineage2Ver') return 'legacy';
  if (head.length >= 8) {
    const le = dv.getUint32(0, true);
    if (le === 0x9E2A83C1) return dv.getInt32(4, true) < 0 ? 'uasset' : 'legacy';
    if (le === 0xC1832A9E) return dv.getInt32(4, false) < 0 ? 'uasset' : 'legacy';
  }
  if (head.length >= 48) {
    const u = (o) => dv.getUint32(o, true);
    if (u(0) <= 1) {
      const hs = u(4);
      const [a, b, c, d] = [u(24), u(28), u(32), u(36)];
      if (hs >= 44 && a >= 44 && a <= b && b <= c && c <= d && d <= hs && u(8) >>> 30 === 0) return 'zen';
    }
    if (head.length >= 64 && u(24) === 64) {
      const [a, b, c, d] = [u(32), u(40), u(44), u(48)];
      if (a >= 64 && a <= b && b <= c && c <= d) return 'zen';
    }
  }
  return null;
}

// route splits the dropped files by the module that reads them: each main
// file by its format, companions with their main file, .usmap mappings to
// every module that decodes properties with them, and files no reader
// recognises to a module already running (they get its clear error).
async function route(files) {
  const byModule = new Map();
  const put1 = (m, f) => { if (!byModule.has(m)) byModule.set(m, []); byModule.get(m).push(f); };
  const mainOf = new Map(); // base name -> module
  const later = [];
  const maps = [];
  const unknown = [];
  const mains = files.filter((f) => { const e = extOf(f.name); return !COMPANIONS.has(e) && e !== '.usmap'; });
  const formats = [];
  for (let i = 0; i < mains.length; i += 256) formats.push(...await Promise.all(mains.slice(i, i + 256).map(formatOf)));
  mains.forEach((f, i) => {
    if (!formats[i]) { unknown.push(f); return; }
    const m = moduleFor(formats[i]);
    put1(m, f);
    if (!mainOf.has(baseOf(f.name))) mainOf.set(baseOf(f.name), m);
  });
  const fallback = () => {
    for (const m of manifest.modules) if (byModule.has(m.name)) return m.name;
    for (const m of manifest.modules) if (readers.has(m.name)) return m.name;
    return manifest.modules[0].name;
  };
  for (const f of files) {
    const e = extOf(f.name);
    if (e === '.usmap') maps.push(f);
    else if (COMPANIONS.has(e)) later.push(f);
  }
  for (const f of unknown) put1(mainOf.get(baseOf(f.name)) || fallback(), f);
  for (const f of later) put1(mainOf.get(baseOf(f.name)) || fallback(), f);
  if (maps.length) {
    const users = manifest.modules.filter((m) => byModule.has(m.name) && (m.formats || []).some((x) => x === 'uasset' || x === 'zen'));
    if (!users.length) users.push({ name: fallback() });
    for (const m of users) for (const f of maps) put1(m.name, f);
  }
  return byModule;
}

// plan routes the dropped files and merges the modules' plans (webapi.Plan
// in each module), in the order one plan of all the files would have.
async function plan(files, progressFn) {
  const out = { groups: [], orphans: [], mappings: [], sizes: {} };
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  if (files.every((f) => COMPANIONS.has(extOf(f.name)) || extOf(f.name) === '.usmap')) {
    // Nothing to open (webapi.Plan's answer, without loading a module).
    for (const f of files) {
      (extOf(f.name) === '.usmap' ? out.mappings : out.orphans).push(f.name);
      out.sizes[f.name] = f.size;
    }
    out.orphans.sort(cmp);
    out.mappings.sort(cmp);
    return out;
  }
  const byModule = await route(files);
  for (const m of manifest.modules) {
    if (!byModule.has(m.name)) continue;
    const p = await callIn(m.name, 'drop', [byModule.get(m.name)], progressFn);
    for (const g of p.groups) { g.module = m.name; out.groups.push(g); }
    out.orphans.push(...(p.orphans || []));
    for (const x of p.mappings || []) if (!out.mappings.includes(x)) out.mappings.push(x);
    Object.assign(out.sizes, p.sizes);
  }
  out.groups.sort((a, b) => cmp(a.main, b.main));
  out.orphans.sort(cmp);
  out.mappings.sort(cmp);
  return out;
}

// ---------- busy overlay ----------
let busyTimer = null;
let busyStart = 0;
function busy(on, text) {
  clearTimeout(busyTimer);
  document.body.dataset.state = on ? 'busy' : document.body.dataset.state === 'busy' ? 'idle' : document.body.dataset.state;
  if (!on) { $('busy').hidden = true; return; }
  busyStart = performance.now();
  $('busy-text').textContent = text || 'Working…';
  $('busy-bar').className = 'indeterminate';
  $('busy-bar').style.width = '';
  busyTimer = setTimeout(() => { $('busy').hidden = false; tickBusy(); }, 150);
}
function tickBusy() {
  if ($('busy').hidden) return;
  $('busy-time').textContent = ((performance.now() - busyStart) / 1000).toFixed(1) + ' s';
  setTimeout(tickBusy, 200);
}
function progress(p) {
  if (p.phase) $('busy-text').textContent = p.phase + '…';
  const bar = $('busy-bar');
  if (p.total) { bar.className = ''; bar.style.width = Math.round((100 * p.loaded) / p.total) + '%'; } else { bar.className = 'indeterminate'; bar.style.width = ''; }
}

// ---------- state ----------
const S = {
  plan: null, // {groups, orphans, sizes}
  results: new Map(), // group main -> {pkg result | container result | error}
  active: null, // group main
  container: null, // container result when the active group is a container
  pkg: null, // PackageResult being shown
  tab: 'summary',
  dump: null,
  hexReq: null,
  t0: 0,
  inner: null, // the path of the package open from S.container
};

// ---------- reading options ----------
function settings() {
  return { engine: $('opt-engine').value, aes_key: $('opt-aes').value.trim(), mappings: $('opt-mappings').value };
}
$('settings-btn').addEventListener('click', () => { $('settings').hidden = !$('settings').hidden; });
$('settings-apply').addEventListener('click', async () => {
  if (!S.plan || !S.active) return;
  const inner = S.inner; // a package opened from the container: opened again
  closeAll();
  const g = S.plan.groups.find((x) => x.main === S.active);
  if (!g) return;
  S.t0 = performance.now();
  await openGroup(g);
  if (inner && S.container) openInner(S.container, inner);
});
function setMappingsChoices(list) {
  const sel = $('opt-mappings');
  put(sel, h('option', { value: '', text: list.length ? 'none' : 'none (drop a .usmap with the package)' }), list.map((m) => h('option', { value: m, text: m })));
  if (list.length) sel.value = list[0];
}
setMappingsChoices([]);

// ---------- the built-in sample ----------
$('sample-btn').addEventListener('click', async () => {
  const t0 = performance.now();
  try {
    const resp = await fetch('sample/upkgSample.uasset');
    if (!resp.ok) throw new Error('HTTP ' + resp.status);
    const file = new File([await resp.blob()], 'upkgSample.uasset');
    openFiles([file], t0);
  } catch (err) {
    showError('Could not load the sample', err.message, 'The page could not fetch its own sample file.');
  }
});

// closeAll closes what the previous drop opened.
function closeAll() {
  for (const r of S.results.values()) if (r.handle) call('close', [r.handle]).catch(() => {});
  S.results.clear();
}

// ---------- dropping and picking files ----------
$('file-input').addEventListener('change', (e) => {
  const files = [...e.target.files];
  e.target.value = '';
  if (files.length) openFiles(files);
});
let dragDepth = 0;
document.addEventListener('dragenter', (e) => { e.preventDefault(); dragDepth++; $('drop-overlay').hidden = false; });
document.addEventListener('dragleave', () => { if (--dragDepth <= 0) { dragDepth = 0; $('drop-overlay').hidden = true; } });
document.addEventListener('dragover', (e) => { e.preventDefault(); e.dataTransfer.dropEffect = 'copy'; });
document.addEventListener('drop', async (e) => {
  e.preventDefault();
  dragDepth = 0;
  $('drop-overlay').hidden = true;
  const t0 = performance.now();
  const files = await droppedFiles(e.dataTransfer);
  if (files.length) openFiles(files, t0);
});
$('drop-zone').addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); $('file-input').click(); } });

// droppedFiles flattens dropped folders (a Content folder drop gives all its files).
async function droppedFiles(dt) {
  const entries = [...(dt.items || [])].map((it) => (it.webkitGetAsEntry ? it.webkitGetAsEntry() : null));
  if (!entries.length || entries.some((e) => !e)) return [...dt.files];
  const out = [];
  async function walk(entry) {
    if (out.length > 20000) return;
    if (entry.isFile) {
      out.push(await new Promise((res, rej) => entry.file(res, rej)));
    } else if (entry.isDirectory) {
      const rd = entry.createReader();
      for (;;) {
        const batch = await new Promise((res, rej) => rd.readEntries(res, rej));
        if (!batch.length) break;
        for (const b of batch) await walk(b);
      }
    }
  }
  for (const e of entries) await walk(e);
  return out;
}

async function openFiles(files, t0) {
  S.t0 = t0 || performance.now();
  busy(true, 'Starting the reader');
  try {
    await manifestLoaded;
    closeAll();
    S.files = new Map(files.map((f) => [f.name, f]));
    S.plan = await plan(files, progress);
    setMappingsChoices(S.plan.mappings || []);
    renderFilesBar();
    if (!S.plan.groups.length) {
      busy(false);
      showError('Nothing to open', 'You dropped only ' + (S.plan.orphans || []).join(', ') + '.',
        'A .uexp or .ubulk file is the second half of a cooked package: select it together with the .uasset (or .umap) of the same name. A .ucas needs its .utoc.');
      return;
    }
    await openGroup(S.plan.groups[0]);
  } catch (err) {
    busy(false);
    showError('Could not read the files', err.message);
  }
}

function groupLabel(g) {
  const extra = g.files.slice(1).map((f) => f.slice(f.lastIndexOf('.'))).join(' ');
  return [g.main, extra];
}

function renderFilesBar() {
  const bar = $('files-bar');
  put(bar, );
  if (!S.plan) { bar.hidden = true; return; }
  bar.hidden = false;
  if (S.plan.groups.length > 12) {
    // Many files (a dropped folder): a list to pick from instead of chips.
    const sel = h('select', { 'aria-label': 'Dropped packages', title: 'Pick a package to open' },
      S.plan.groups.map((g) => {
        const r = S.results.get(g.main);
        const [name, extra] = groupLabel(g);
        return h('option', { value: g.main, selected: S.active === g.main ? true : null, text: (r && r.error ? '✗ ' : '') + name + (extra ? '  + ' + extra : '') });
      }));
    sel.addEventListener('change', () => { const g = S.plan.groups.find((x) => x.main === sel.value); if (g) { S.t0 = performance.now(); openGroup(g); } });
    add(bar, h('span', { class: 'label', text: num(S.plan.groups.length) + ' packages and containers dropped; showing:' }), sel);
  } else add(bar, h('span', { class: 'label', text: S.plan.groups.length > 1 ? 'Opened files (click to switch):' : 'Opened:' }));
  if (S.plan.groups.length <= 12) for (const g of S.plan.groups) {
    const r = S.results.get(g.main);
    const [name, extra] = groupLabel(g);
    add(bar, h('button', {
      class: 'chip' + (S.active === g.main ? ' active' : '') + (r && r.error ? ' failed' : ''),
      title: g.files.map((f) => f + ' (' + bytes(S.plan.sizes[f]) + ')').join('\n'),
      onclick: () => openGroup(g),
      dataset: { main: g.main },
    }, name, extra ? h('span', { class: 'sub', text: '+ ' + extra }) : null));
  }
  if (S.plan.mappings && S.plan.mappings.length) {
    add(bar, h('span', { class: 'badge gray', title: 'Used to decode unversioned properties; change it under Reading options', text: 'Mappings: ' + ($('opt-mappings').value || 'none') }));
  }
  if (S.plan.orphans && S.plan.orphans.length) {
    add(bar, h('span', { class: 'warn', title: 'A .uexp/.ubulk is the second half of a cooked package: drop it together with the .uasset/.umap of the same name.', text: 'Not opened (main file missing): ' + S.plan.orphans.join(', ') }));
  }
}

async function openGroup(g) {
  S.active = g.main;
  S.container = null;
  S.inner = null;
  renderFilesBar();
  let r = S.results.get(g.main);
  if (!r) {
    busy(true, 'Reading ' + g.main);
    try {
      const res = own(g.module, await callIn(g.module, 'openGroup', [g, settings()], progress));
      r = g.kind === 'container' ? { container: res, handle: res.handle, module: g.module } : { pkg: res, handle: res.handle, module: g.module };
    } catch (err) {
      r = { error: err.message };
    }
    busy(false);
    S.results.set(g.main, r);
    renderFilesBar();
  }
  if (r.error) {
    showError('Could not read ' + g.main, r.error);
    return;
  }
  if (r.container) {
    S.container = r.container;
    S.containerGroup = g;
    showPackage(null, 'container');
  } else {
    showPackage(r.pkg, 'summary');
  }
}

// openInner opens the package at path of the open container c.
async function openInner(c, path) {
  busy(true, 'Opening ' + path);
  try {
    const res = await openFromContainer(c, path, progress);
    busy(false);
    S.inner = path;
    showPackage(res, 'summary');
  } catch (err) {
    busy(false);
    showError('Could not read ' + path, err.message);
    add($('error-hint'), ' ', h('button', { class: 'btn small', text: '← Back to the container', onclick: () => showPackage(null, 'container') }));
  }
}

// ---------- error panel ----------
function hintFor(msg) {
  // Matched on the message without its file names (T_Aesthetic.uasset
  // is no AES key): tokens with an extension, and paths.
  const m = msg.replace(/\S*[\/.][^\s:]*\.[A-Za-z0-9]{1,9}(?=[:\s]|$)/g, ' ').toLowerCase();
  if (m.includes('not a package upkg recognises')) return 'This file does not start like any Unreal package upkg knows (.uasset, .umap, UE1–UE3 packages, .utoc, .pak). Is it an asset file, or something else with a similar name?';
  if (m.includes('.uexp') && (m.includes('not exist') || m.includes('missing'))) return 'This is a cooked package whose data lives in a .uexp file: select the .uasset and the .uexp together.';
  if (m.includes('aes key') || m.includes('encrypted')) return 'The data is encrypted: enter the game\'s AES key under "Reading options" (top right) and click "Apply and re-read". The key stays in this page.';
  if (m.includes('unversioned') || m.includes('engine version')) return 'Cooked files often do not record their engine version. The command line accepts --engine to say which one.';
  if (m.includes('larger than') || m.includes('more than this reader')) return 'The file is bigger than the page reads at once; the command line (upkg) reads it.';
  if (m.includes('exceeds remaining') || m.includes('unexpected eof') || m.includes('outside the') || m.includes('past the end') || m.includes('cut short')) return 'A value in the file points past its end: the file looks cut short or damaged (or, for a cooked package, its .uexp is missing).';
  if (m.includes('internal error')) return 'This is a bug in upkg: please report it with the file if you can share it.';
  return 'If this is a valid file, upkg may not support this variant yet.';
}
function showError(title, msg, hint, ready = true) {
  window.upkgState.errors++;
  document.body.dataset.state = 'error';
  $('landing').hidden = true;
  $('viewer').hidden = true;
  $('error-panel').hidden = false;
  $('error-title').textContent = title;
  $('error-text').textContent = pageWording(msg.replace(/\/in\/\d+\//g, ''));
  $('error-hint').textContent = (hint || hintFor(msg)) + (ready ? ' The page is ready for the next file.' : '');
}
// pageWording says what the library's messages say of command-line flags
// in the page's terms (its Reading options).
function pageWording(msg) {
  return msg.replace(/--aes-key( KEY)?/g, 'an AES key (Reading options)')
    .replace(/--mappings( FILE)?/g, 'a .usmap mappings file (Reading options)')
    .replace(/--engine( V(ERSION)?)?/g, 'an engine version (Reading options)');
}

// ---------- viewer ----------
const TABS = [
  { id: 'summary', label: 'Summary', count: () => null },
  { id: 'names', label: 'Names', count: (p) => p.names.length },
  { id: 'imports', label: 'Imports', count: (p) => p.imports.length },
  { id: 'exports', label: 'Exports', count: (p) => p.exports.length },
  { id: 'tree', label: 'Tree', count: () => null },
  { id: 'deps', label: 'Dependencies', count: (p) => Object.values(p.dependencies || {}).reduce((a, l) => a + (l ? l.length : 0), 0) + importPackages(p).length },
  { id: 'thumbs', label: 'Thumbnails', count: (p) => (p.thumbnails || []).length },
  { id: 'text', label: 'Text', count: (p) => sectionCount(p, /gatherable/i) },
  { id: 'registry', label: 'Registry', count: (p) => (p.asset_registry || []).reduce((a, o) => a + Object.keys(o.tags || {}).length, 0) },
  { id: 'bulk', label: 'Bulk data', count: (p) => sectionCount(p, /bulk|trailer|payload|data.?resource/i) },
  { id: 'props', label: 'Properties', count: () => null },
  { id: 'content', label: 'Content', count: (p) => contentExports(p).length, only: (p) => p.format === 'legacy' },
  { id: 'container', label: 'Container', count: () => (S.container ? S.container.entries.length : null) },
  { id: 'hex', label: 'Hex', count: () => null },
  { id: 'model', label: 'JSON', count: () => null },
];
// contentExports lists the exports whose content the format's exporter
// converts (UE1–UE3: textures, sounds, music, script text).
const CONTENT_CLASS = /Texture|^Sound$|^Music$|^TextBuffer$/;
function contentExports(p) {
  return p.format === 'legacy' ? p.exports.filter((e) => CONTENT_CLASS.test(shortPath(e.class))) : [];
}
function sectionCount(p, re) {
  let n = 0;
  let any = false;
  for (const s of p.sections || []) if (re.test(s.name)) { any = true; n += s.count || 0; }
  return any ? n : 0;
}
// rootPackage follows an import's outer chain up to the package it lives in.
function rootPackage(p, o) {
  if (o.package_name && o.package_name !== 'None') return o.package_name;
  let cur = o;
  for (let n = 0; cur && cur.outer_index < 0 && n < 64; n++) {
    const up = p.imports[-cur.outer_index - 1];
    if (!up || up === cur) break;
    cur = up;
  }
  return cur ? cur.name : '';
}
function importPackages(p) {
  return (p.imports || []).filter((o) => !o.outer_index);
}
const EMPTY_PKG = { names: [], imports: [], exports: [], sections: [], summary: [] };

function showPackage(res, tab) {
  S.pkg = res;
  if (!res) S.inner = null; // the container's own view
  S.dump = null;
  S.hexReq = null;
  $('landing').hidden = true;
  $('error-panel').hidden = true;
  $('viewer').hidden = false;
  document.body.dataset.state = 'ready';
  renderTitle();
  selectTab(tab || 'summary');
  window.upkgState.renders++;
  const t0 = S.t0;
  if (t0) {
    S.t0 = 0;
    requestAnimationFrame(() => setTimeout(() => {
      const ms = performance.now() - t0;
      window.upkgState.timings.push({ file: res ? res.package.path : S.container.path, drop_to_render_ms: ms, parse_ms: res ? res.parse_ms : S.container.parse_ms, total_ms: res ? res.total_ms : S.container.total_ms });
      const el = $('render-time');
      if (el) el.textContent = 'shown in ' + Math.round(ms) + ' ms';
    }, 0));
  }
}

function renderTitle() {
  const bar = $('title-bar');
  put(bar, );
  if (!S.pkg) {
    const c = S.container;
    add(bar, h('h1', { text: c.path.replace(/^\/in\/\d+\//, '') }),
      h('span', { class: 'badge', title: 'Container format', text: c.format === 'utoc' ? 'IoStore container (.utoc/.ucas)' : c.format === 'pak' ? '.pak archive' : c.format }),
      h('span', { class: 'badge gray', text: num(c.entries.length) + ' entries, ' + num(c.packages) + ' packages' }),
      h('span', { class: 'muted', id: 'render-time' }));
    return;
  }
  const p = S.pkg.package;
  const base = p.path.split('/').pop().replace(/\.[^.]*$/, '');
  const asset = p.exports.find((e) => e.is_asset) || p.exports.find((e) => !e.outer_index && e.name === base);
  const title = asset ? asset.name : p.path.split('/').pop();
  const kind = formatLabel(p);
  add(bar, 
    S.container ? h('button', { class: 'btn small', text: '← Back to the container', onclick: () => { S.pkg = null; showPackage(null, 'container'); } }) : null,
    h('h1', { text: title, title: p.path }),
    asset ? h('span', { class: 'badge', title: 'Class of the asset: ' + asset.class, text: shortPath(asset.class) }) : null,
    h('span', { class: 'badge gray', title: kind[1], text: kind[0] }),
    p.engine ? h('span', { class: 'badge', title: 'Engine version used to read the file. ' + (HELP.engineSource[p.engine_source] || '') + (p.engine_note ? '\n' + p.engine_note : ''), text: 'Engine ' + p.engine + (p.engine_source ? ' · ' + ({ header: 'from the file', flag: 'given', detected: 'detected' }[p.engine_source] || p.engine_source) : '') }) : null,
    (p.warnings || []).length ? h('span', { class: 'badge warn', title: p.warnings.join('\n'), text: p.warnings.length + ' warning' + (p.warnings.length > 1 ? 's' : '') }) : null,
    h('span', { class: 'muted', title: 'Time from dropping the file to this view (reading + parsing + drawing); parsing alone took ' + S.pkg.parse_ms.toFixed(1) + ' ms', id: 'render-time' }),
  );
}

// plainSummary says in one sentence what the package is.
function plainSummary(p) {
  const base = p.path.split('/').pop().replace(/\.[^.]*$/, '');
  const asset = p.exports.find((e) => e.is_asset) || p.exports.find((e) => !e.outer_index && e.name === base);
  const what = asset ? asset.name + ' is ' + (/^([AEIO]|U(?!s[aeiu]|ni|ti))/i.test(shortPath(asset.class)) ? 'an ' : 'a ') + shortPath(asset.class) : base + ' is a package';
  let how;
  if (p.format === 'legacy') how = ' from an Unreal Engine 1–3 game';
  else if (p.format === 'zen') how = ' cooked for a game (stored in an IoStore container)';
  else if (isCooked(p)) how = ' cooked for a game' + (p.engine ? ' (engine ' + p.engine + (p.engine_source === 'detected' ? ', detected' : '') + ')' : '');
  else how = ' saved by the Unreal Editor' + (p.engine ? ' ' + p.engine : '');
  const pkgs = importPackages(p).length;
  const thumbs = (p.thumbnails || []).filter((t) => t.format !== 'empty').length;
  return what + how + '. It stores ' + num(p.exports.length) + ' object' + (p.exports.length === 1 ? '' : 's') +
    ' and uses ' + num(p.imports.length) + ' from ' + num(pkgs) + ' other package' + (pkgs === 1 ? '' : 's') +
    (thumbs ? ', and has a thumbnail' : '') + '.';
}

function isCooked(p) {
  const flags = (p.summary || []).find((f) => f.key === 'PackageFlags (names)');
  return (flags && /FilterEditorOnly|Cooked/.test(valueText(flags.value))) || (p.companions || []).some((c) => /uexp$/i.test(c));
}
function formatLabel(p) {
  switch (p.format) {
    case 'uasset': return isCooked(p) ? ['Cooked UE4/UE5 package', 'Cooked for a game: editor-only data removed, export data in the .uexp file.'] : ['Editor UE4/UE5 package', 'Saved by the editor (uncooked): the form found in a project\'s Content folder.'];
    case 'legacy': return ['UE1–UE3 package' + (p.package_version ? ' v' + p.package_version : '') + (p.licensee_version ? '/' + p.licensee_version : ''), 'An Unreal Engine 1, 2 or 3 package.'];
    case 'zen': return ['Zen package (IoStore)', 'The cooked package form stored in .utoc/.ucas containers (UE5).'];
  }
  return [p.format, ''];
}

function renderTabs() {
  const nav = $('tabs');
  put(nav, );
  const p = S.pkg ? S.pkg.package : EMPTY_PKG;
  for (const t of TABS) {
    if (t.id === 'container' && !S.container) continue;
    if (!S.pkg && t.id !== 'container') continue;
    if (t.only && !t.only(p)) continue;
    const n = t.count(p);
    add(nav, h('button', {
      role: 'tab', class: (S.tab === t.id ? 'active' : '') + (n === 0 ? ' empty' : ''), title: HELP.tabs[t.id] + (n === 0 ? ' (none in this file)' : ''),
      onclick: () => selectTab(t.id), dataset: { tab: t.id, count: n === null ? '' : String(n) },
    }, t.label, n !== null ? h('span', { class: 'n', text: '(' + num(n) + ')' }) : null));
  }
}

// Left/right arrows move between tabs when one has the focus.
$('tabs').addEventListener('keydown', (e) => {
  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
  const btns = [...$('tabs').querySelectorAll('button')];
  const i = btns.indexOf(document.activeElement);
  if (i < 0) return;
  const next = btns[(i + (e.key === 'ArrowRight' ? 1 : btns.length - 1)) % btns.length];
  selectTab(next.dataset.tab);
  const again = $('tabs').querySelector('button[data-tab="' + next.dataset.tab + '"]');
  if (again) again.focus();
});

function selectTab(id) {
  S.tab = id;
  renderTabs();
  const view = $('view');
  put(view, );
  const fn = VIEWS[id];
  try {
    add(view, fn());
  } catch (err) {
    add(view, h('div', { class: 'pane' }, h('div', { class: 'errbox', text: 'This view failed: ' + err.message })));
    console.error(err);
  }
}

function pane(fill, ...kids) { return h('div', { class: 'pane' + (fill ? ' fill' : '') }, ...kids); }
function intro(text) { return h('p', { class: 'intro', text }); }
function hexButton(req, label) {
  return h('button', { class: 'btn small', text: label || 'Show bytes', title: 'Open the hex view with this range highlighted', onclick: (e) => { e.stopPropagation(); openHex(req); } });
}

// ---------- virtual table ----------
// vtable shows rows (objects) in columns, rendering only what is in view.
function vtable(opts) {
  const RH = 24;
  const cols = opts.columns;
  let all = opts.rows;
  let shown = all;
  let sortCol = -1;
  let sortDir = 1;
  let selected = null;
  const hay = new Map();
  const input = h('input', { type: 'search', placeholder: opts.placeholder || 'Filter…', title: 'Show only rows containing all the words typed (any column)', 'aria-label': 'Filter' });
  const count = h('span', { class: 'vt-count' });
  const tools = h('div', { class: 'vt-tools' }, input, count, opts.tools || null);
  const tmpl = cols.map((c) => c.w || '1fr').join(' ');
  const head = h('div', { class: 'vt-head' });
  head.style.gridTemplateColumns = tmpl;
  cols.forEach((c, i) => add(head, h('div', { class: c.num ? 'num' : '', title: c.title || c.label, text: c.label, onclick: () => sortBy(i) })));
  const spacer = h('div', { class: 'vt-spacer' });
  const body = h('div', { class: 'vt-body', tabindex: '0' }, spacer);
  const empty = h('div', { class: 'vt-empty', hidden: true, text: opts.empty || 'Nothing here.' });
  const el = h('div', { class: 'vt' + (opts.cls ? ' ' + opts.cls : '') }, tools, head, empty, body);
  if (opts.height) el.style.flex = '0 0 ' + opts.height;
  function text(row, c) {
    const v = c.get(row);
    return c.fmt ? c.fmt(v, row) : v === undefined || v === null ? '' : String(v);
  }
  function haystack(row) {
    let s = hay.get(row);
    if (s === undefined) { s = cols.map((c) => text(row, c) + ' ' + (c.full ? c.full(row) || '' : '')).join('\u0001').toLowerCase(); hay.set(row, s); }
    return s;
  }
  function apply() {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    shown = words.length ? all.filter((r) => { const s = haystack(r); return words.every((w) => s.includes(w)); }) : all.slice();
    if (sortCol >= 0) {
      const c = cols[sortCol];
      shown.sort((a, b) => {
        const x = c.get(a); const y = c.get(b);
        if (typeof x === 'number' && typeof y === 'number') return (x - y) * sortDir;
        return String(x ?? '').localeCompare(String(y ?? '')) * sortDir;
      });
    }
    count.textContent = shown.length === all.length ? num(all.length) + ' rows' : num(shown.length) + ' of ' + num(all.length) + ' rows';
    empty.hidden = shown.length > 0;
    if (!shown.length) empty.textContent = all.length ? 'No row matches the filter.' : opts.empty || 'Nothing here.';
    spacer.style.height = shown.length * RH + 'px';
    draw();
  }
  function sortBy(i) {
    if (sortCol === i) { if (sortDir === 1) sortDir = -1; else { sortCol = -1; sortDir = 1; } } else { sortCol = i; sortDir = 1; }
    apply();
  }
  let raf = 0;
  function draw() {
    raf = 0;
    const top = body.scrollTop;
    const hgt = body.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / RH) - 5);
    const last = Math.min(shown.length, Math.ceil((top + hgt) / RH) + 5);
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) {
      const row = shown[i];
      const cls = 'vt-row' + (row === selected ? ' sel' : '') + (opts.rowClass ? ' ' + (opts.rowClass(row) || '') : '');
      const r = h('div', { class: cls, dataset: { i: String(i) } });
      r.style.top = i * RH + 'px';
      r.style.gridTemplateColumns = tmpl;
      for (const c of cols) {
        const t = text(row, c);
        const cell = c.render ? c.render(row) : h('div', { class: (c.num ? 'num ' : '') + (c.mono ? 'mono' : ''), text: t });
        if (!c.render) cell.title = c.full ? c.full(row) || t : t;
        add(r, cell);
      }
      add(frag, r);
    }
    put(spacer, frag);
  }
  body.addEventListener('scroll', () => { if (!raf) raf = requestAnimationFrame(draw); });
  body.addEventListener('click', (e) => {
    const r = e.target.closest('.vt-row');
    if (!r) return;
    select(shown[+r.dataset.i]);
  });
  body.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    let i = shown.indexOf(selected);
    i = Math.max(0, Math.min(shown.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)));
    select(shown[i], true);
  });
  function select(row, scroll) {
    selected = row;
    if (scroll) {
      const i = shown.indexOf(row);
      if (i >= 0 && (i * RH < body.scrollTop || (i + 1) * RH > body.scrollTop + body.clientHeight)) body.scrollTop = i * RH - body.clientHeight / 2;
    }
    draw();
    if (opts.onSelect && row) opts.onSelect(row);
  }
  let t = 0;
  input.addEventListener('input', () => { clearTimeout(t); t = setTimeout(apply, all.length > 20000 ? 120 : 30); });
  new ResizeObserver(() => draw()).observe(body);
  apply();
  return { el, select, input, setRows(rows) { all = rows; hay.clear(); apply(); } };
}

// ---------- tree ----------
// tree shows nodes with lazily rendered children and a filter box.
function tree(opts) {
  const input = h('input', { type: 'search', placeholder: 'Filter…', title: 'Show only objects whose name or class contains the text, with the objects that contain them' });
  const box = h('div', { class: 'tree' });
  const tools = h('div', { class: 'vt-tools' }, input,
    h('button', { class: 'btn small', text: 'Expand all', onclick: () => render(null, true) }),
    h('button', { class: 'btn small', text: 'Collapse all', onclick: () => render(null, false) }), opts.tools || null);
  function node(n, keep, openAll, depth) {
    const kids = opts.children(n).filter((k) => !keep || keep.has(k));
    const [name, cls, val] = opts.label(n);
    const li = h('li', { class: (opts.isAsset && opts.isAsset(n) ? 'asset' : '') + (keep && opts.match && opts.match(n) ? ' match' : '') });
    const tw = h('span', { class: 'tw', text: kids.length ? '▸' : '' });
    add(li, tw, h('span', { class: 'nm', text: name, title: opts.title ? opts.title(n) : name }), cls ? h('span', { class: 'cls', text: cls }) : null, val !== undefined ? h('span', { class: 'val', text: val }) : null);
    let ul = null;
    const open = () => { ul = h('ul'); for (const k of kids) add(ul, node(k, keep, openAll, depth + 1)); add(li, ul); tw.textContent = '▾'; };
    if (kids.length) {
      tw.addEventListener('click', () => { if (ul) { ul.remove(); ul = null; tw.textContent = '▸'; } else open(); });
      if (openAll || keep || depth < (opts.openDepth ?? 1)) open();
    }
    return li;
  }
  function render(keep, openAll) {
    const ul = h('ul');
    const roots = opts.roots().filter((r) => !keep || keep.has(r));
    for (const r of roots) add(ul, node(r, keep, openAll, 0));
    put(box, ul);
    if (!roots.length) add(box, h('div', { class: 'muted', text: keep ? 'Nothing matches the filter.' : 'Empty.' }));
  }
  let t = 0;
  input.addEventListener('input', () => {
    clearTimeout(t);
    t = setTimeout(() => {
      const q = input.value.toLowerCase().trim();
      if (!q) { render(null, false); return; }
      const keep = new Set();
      for (const n of opts.all()) {
        if (opts.search(n).toLowerCase().includes(q)) for (let x = n; x && !keep.has(x); x = opts.parent(x)) keep.add(x);
      }
      render(keep, true);
    }, 80);
  });
  render(null, false);
  return h('div', {}, tools, box);
}

// jsonTree shows any JSON value as a collapsible tree.
function jsonTree(value, rootLabel) {
  const root = { k: rootLabel, v: value, p: null };
  const kidsOf = new Map();
  function children(n) {
    if (kidsOf.has(n)) return kidsOf.get(n);
    let out = [];
    if (n.v && typeof n.v === 'object') {
      out = Array.isArray(n.v) ? n.v.map((v, i) => ({ k: '[' + i + ']', v, p: n })) : Object.entries(n.v).map(([k, v]) => ({ k, v, p: n }));
    }
    kidsOf.set(n, out);
    return out;
  }
  function label(n) {
    const v = n.v;
    if (v && typeof v === 'object') {
      const named = !Array.isArray(v) && (v.name || v.Name);
      const type = !Array.isArray(v) && (v.type || v.Type);
      let simple = !Array.isArray(v) && v.value !== undefined && (v.value === null || typeof v.value !== 'object');
      if (!simple && !Array.isArray(v) && v.value && typeof v.value === 'object') {
        const j = JSON.stringify(v.value);
        if (j.length <= 120) return [n.k + (named && n.k.startsWith('[') ? ' ' + named : ''), type ? String(type) : '', j];
      }
      const size = Array.isArray(v) ? v.length + ' items' : Object.keys(v).length + ' fields';
      return [n.k + (named && n.k.startsWith('[') ? ' ' + named : ''), type ? String(type) : size, simple ? valueText(v.value) : undefined];
    }
    return [n.k, undefined, v === null ? 'null' : typeof v === 'string' ? JSON.stringify(v) : String(v)];
  }
  function all() { const out = []; const walk = (n) => { out.push(n); if (out.length < 200000) children(n).forEach(walk); }; walk(root); return out; }
  return tree({ roots: () => [root], children, label, all, parent: (n) => n.p, search: (n) => n.k + ' ' + (n.v !== null && typeof n.v !== 'object' ? String(n.v) : ''), match: () => true, openDepth: 2 });
}

// ---------- views ----------
const VIEWS = {
  summary() {
    const res = S.pkg;
    const p = res.package;
    const out = pane(false);
    const cards = h('div', { class: 'cards' });
    const card = (k, v, s, tip) => add(cards, h('div', { class: 'card', title: tip || '' }, h('div', { class: 'k', text: k }), h('div', { class: 'v', text: v }), s ? h('div', { class: 's', text: s }) : null));
    const kind = formatLabel(p);
    card('Format', kind[0], p.big_endian ? 'big-endian' : '', kind[1]);
    const alike = (p.engine_candidates || []).length > 1 ? ' · 1 of ' + p.engine_candidates.length + ' that read alike' : '';
    card('Engine version', p.engine || 'unknown', ({ header: 'read from the file', flag: 'given with --engine', detected: 'detected by upkg' }[p.engine_source] || p.engine_source || '') + alike,
      (HELP.engineSource[p.engine_source] || '') + (p.engine_candidates ? '\nCandidates: ' + p.engine_candidates.join(', ') : '') + (p.engine_note ? '\n' + p.engine_note : ''));
    card('Names', num(p.names.length), '', HELP.tabs.names);
    card('Imports', num(p.imports.length), '', HELP.tabs.imports);
    card('Exports', num(p.exports.length), '', HELP.tabs.exports);
    card('Size', bytes(res.files.reduce((a, f) => a + (f.role !== 'unused' ? f.size : 0), 0)), res.files.filter((f) => f.role !== 'unused').map((f) => f.name.slice(f.name.lastIndexOf('.'))).join(' + '));
    add(out, h('p', { class: 'lead', text: plainSummary(p) }));
    add(out, cards);
    const others = (p.engine_candidates || []).filter((c) => c !== p.engine);
    if (p.engine_source === 'detected' || p.engine_note || others.length) {
      add(out, h('div', { class: 'notice' },
        p.engine_source === 'detected' ? 'upkg worked out the engine version from the file\'s layout: cooked files do not record it. ' : '',
        p.engine_note ? sentence(p.engine_note) + ' ' : others.length ? 'It could also be ' + others.join(', ') + '. ' : '',
        'If you know the game\'s engine version, pick it under Reading options.'));
    }
    if ((p.warnings || []).length) {
      add(out, h('h3', { text: 'Warnings' }), h('ul', {}, p.warnings.map((w) => h('li', { text: w }))));
    }
    const files = res.files;
    if (files.length > 1) {
      add(out, h('h3', { text: 'Files' }), h('table', { class: 'kv' }, files.map((f) => h('tr', {},
        h('th', { text: shownName(f.name) }), h('td', { class: 'v', text: bytes(f.size) }),
        h('td', { class: 'help', text: { main: 'the package', companion: 'read with the package', unused: 'dropped but not part of this package' }[f.role] })))));
    }
    add(out, h('h3', { text: 'Header fields' }), intro('The package file summary, in file order. Hover a field (or read the grey text) for what it means.'));
    const kv = h('table', { class: 'kv' });
    for (const f of p.summary || []) {
      const help = fieldHelp(f.key);
      const v = valueText(f.value);
      const isFlags = /flags/i.test(f.key) && /[A-Za-z_]{4,}/.test(v);
      add(kv, h('tr', {}, h('th', { title: help || f.key, text: f.key }),
        h('td', { class: 'v' }, v === '' ? h('span', { class: 'muted', text: '(none)' }) : isFlags ? flagChips(v.replace(/^0x[0-9a-f]+\s*/i, '').replace(/[()]/g, '')) : v, isFlags ? h('span', { class: 'muted', text: ' ' + (v.match(/^0x[0-9a-f]+/i) || [''])[0] }) : null),
        h('td', { class: 'help', text: help })));
    }
    add(out, kv);
    if ((p.custom_versions || []).length) {
      add(out, h('h3', { text: 'Custom versions (' + p.custom_versions.length + ')' }), intro(HELP.fields.CustomVersions));
      add(out, h('table', { class: 'kv' }, h('tr', {}, h('th', { text: 'Name' }), h('th', { text: 'Version' }), h('th', { text: 'GUID' })),
        p.custom_versions.map((c) => h('tr', {}, h('th', { text: c.name || '(unknown to upkg)' }), h('td', { class: 'v', text: String(c.version) }), h('td', { class: 'v', text: c.guid })))));
    }
    add(out, h('h3', { text: 'Sections' }), intro('Where each table sits in the file. Click "Show bytes" for its raw bytes.'));
    add(out, h('table', { class: 'kv' }, h('tr', {}, ['Section', 'File', 'Offset', 'Size', 'Entries', ''].map((t) => h('th', { text: t }))),
      (p.sections || []).map((s) => h('tr', {},
        h('th', { title: fieldHelp(s.name) || s.name, text: s.name }),
        h('td', { class: 'v', text: s.file || mainExt(res) }),
        h('td', { class: 'v', title: num(s.offset), text: hex(s.offset) }),
        h('td', { class: 'v', text: bytes(s.size) }),
        h('td', { class: 'v', text: s.count ? num(s.count) : '' }),
        h('td', {}, s.error ? h('span', { class: 'errbox', text: s.error }) : s.size > 0 ? hexButton({ kind: 'section', name: s.name }) : null)))));
    return out;
  },

  names() {
    const p = S.pkg.package;
    const hasHash = p.names.some((n) => n.hash);
    const hasFlags = p.names.some((n) => n.flags);
    const rows = p.names.map((n, i) => Object.assign({ i }, n));
    const cols = [
      { label: '#', w: '70px', num: true, get: (r) => r.i, title: 'Index in the name map (what the rest of the file uses to refer to the name)' },
      { label: 'Name', get: (r) => r.name },
    ];
    if (hasHash) cols.push({ label: 'Hash', w: '170px', mono: true, get: (r) => r.hash || '', title: 'Hash stored with the name (used to look names up quickly)' });
    if (hasFlags) cols.push({ label: 'Flags', w: '160px', mono: true, get: (r) => r.flags, fmt: (v) => (v ? hex(v) : ''), title: 'UE1–UE3 object flags stored with the name' });
    return pane(true, intro(HELP.tabs.names), vtable({ columns: cols, rows, placeholder: 'Filter names…' }).el);
  },

  imports() {
    const p = S.pkg.package;
    const cols = [
      { label: 'Index', w: '70px', num: true, get: (r) => r.index, title: 'How the file refers to the import (negative numbers are imports)' },
      { label: 'Name', w: 'minmax(140px, 1.2fr)', get: (r) => r.name },
      { label: 'Class', w: 'minmax(100px, .8fr)', get: (r) => r.class, fmt: shortPath, full: (r) => r.class },
      { label: 'Full path', w: 'minmax(200px, 2fr)', get: (r) => r.path, title: 'The imported object\'s full path, resolved through its outers' },
      { label: 'From package', w: 'minmax(120px, 1fr)', get: (r) => rootPackage(p, r), title: 'The package the object comes from (the top of its outer chain)' },
    ];
    if (p.imports.some((o) => o.optional)) cols.push({ label: 'Optional', w: '70px', get: (r) => (r.optional ? 'yes' : ''), title: 'Optional import: loading continues if it is missing' });
    return pane(true, intro(HELP.tabs.imports + ' Top-level entries (with class Package) are the packages this one depends on.'), vtable({ columns: cols, rows: p.imports, placeholder: 'Filter imports…' }).el);
  },

  exports() {
    const res = S.pkg;
    const p = res.package;
    const detail = h('div', { class: 'detail' }, h('div', { class: 'muted', text: 'Click an export to see its details, bytes and properties.' }));
    const cols = [
      { label: 'Index', w: '60px', num: true, get: (r) => r.index, title: 'How the file refers to the export (1 = first export)' },
      { label: 'Name', w: 'minmax(140px, 1.3fr)', get: (r) => r.name, full: (r) => r.path },
      { label: 'Class', w: 'minmax(110px, 1fr)', get: (r) => r.class, fmt: shortPath, full: (r) => r.class },
      { label: 'Outer', w: 'minmax(100px, 1fr)', get: (r) => r.outer || '', fmt: (v) => shortPath(v) || '(package)', full: (r) => r.outer || 'the package itself' },
      { label: 'Size', w: '90px', num: true, get: (r) => r.serial_size, fmt: (v) => bytes(v), title: 'Size of the serialized object data' },
      { label: 'Offset', w: '100px', num: true, mono: true, get: (r) => r.serial_offset, fmt: (v, r) => (v || r.serial_size ? hex(v || 0) : ''), title: 'Where its data starts' + (res.files.some((f) => /uexp$/i.test(f.name)) ? ' (cooked packages count .uexp offsets from the start of the .uasset)' : '') },
      { label: 'Flags', w: 'minmax(120px, 1fr)', get: (r) => r.flags || '', title: 'Object and export flags; see the details below for what they mean' },
    ];
    const vt = vtable({
      columns: cols, rows: p.exports, placeholder: 'Filter exports…',
      rowClass: (r) => (r.is_asset ? 'asset' : ''),
      onSelect: (r) => showExportDetail(detail, r),
    });
    const asset = p.exports.find((e) => e.is_asset);
    const out = pane(true, intro('The objects stored in this package. The asset itself (what the Content Browser shows) is highlighted in yellow. Click a row for its details, bytes and properties.'), h('div', { class: 'split' }, vt.el, detail));
    if (asset) setTimeout(() => vt.select(asset, true), 0);
    return out;
  },

  tree() {
    const p = S.pkg.package;
    const out = pane(false, intro('Objects are nested by their Outer (the object that contains them): the package holds the asset, the asset holds its sub-objects. Imports are grouped under the package they come from.'));
    const mk = (list, kind) => {
      const nodes = list.map((o, i) => ({ o, i, kind, kids: [], parent: null }));
      const byIndex = new Map(nodes.map((n) => [n.o.index, n]));
      const roots = [];
      for (const n of nodes) {
        const par = n.o.outer_index ? byIndex.get(n.o.outer_index) : null;
        if (par && par !== n) { n.parent = par; par.kids.push(n); } else roots.push(n);
      }
      return { nodes, roots };
    };
    const ex = mk(p.exports, 'export');
    const im = mk(p.imports, 'import');
    const common = {
      children: (n) => n.kids,
      label: (n) => [n.o.name, shortPath(n.o.class)],
      title: (n) => n.o.path + '\nClass: ' + n.o.class,
      parent: (n) => n.parent,
      search: (n) => n.o.name + ' ' + n.o.class,
      match: () => true,
    };
    add(out, h('h3', { text: 'Exports (' + num(p.exports.length) + ')' }),
      tree(Object.assign({ roots: () => ex.roots, all: () => ex.nodes, isAsset: (n) => n.o.is_asset, openDepth: 2 }, common)));
    add(out, h('h3', { text: 'Imports (' + num(p.imports.length) + ')' }),
      tree(Object.assign({ roots: () => im.roots, all: () => im.nodes, openDepth: 1 }, common)));
    return out;
  },

  deps() {
    const p = S.pkg.package;
    const out = pane(false, intro(HELP.tabs.deps));
    const pk = importPackages(p).map((o) => ({ v: o.name, c: o.class }));
    add(out, h('h3', { text: 'Hard references: packages imported (' + pk.length + ')' }),
      intro('Loaded together with this package.'),
      vtable({ columns: [{ label: 'Package', get: (r) => r.v }], rows: pk, height: '220px', empty: 'No imported packages.' }).el);
    for (const [k, list] of Object.entries(p.dependencies || {})) {
      const rows = (list || []).map((v) => ({ v }));
      const title = k.includes('_') ? k.charAt(0).toUpperCase() + k.slice(1).replace(/_/g, ' ') : k;
      add(out, h('h3', { text: title + ' (' + rows.length + ')' }), fieldHelp(k) ? intro(fieldHelp(k)) : null,
        vtable({ columns: [{ label: 'Entry', get: (r) => r.v }], rows, height: '220px' }).el);
    }
    if (!Object.keys(p.dependencies || {}).length) add(out, h('p', { class: 'muted', text: 'The file records no soft references or searchable names.' }));
    return out;
  },

  thumbs() {
    const p = S.pkg.package;
    const list = p.thumbnails || [];
    const out = pane(false, intro(HELP.tabs.thumbs));
    if (!list.length) { add(out, h('p', { class: 'muted', text: 'This file has no thumbnails (cooked files never do; the editor saves them with most assets).' })); return out; }
    const grid = h('div', { class: 'thumbs' });
    list.forEach((t, i) => {
      const imgBox = h('div', { class: 'img' }, h('span', { class: 'muted', text: t.format === 'empty' ? 'Empty: the editor stored no image (Blueprints and levels often draw theirs live).' : 'loading…' }));
      add(grid, h('div', { class: 'thumb' }, imgBox,
        h('div', { class: 'cap' }, h('b', { text: t.object }), h('br'), t.format + ' · ' + Math.abs(t.width) + '×' + Math.abs(t.height) + ' · ' + bytes(t.size) + ' ', t.size ? hexButton({ kind: 'thumbnail', index: i }) : null)));
      if (t.format !== 'empty' && t.size) loadThumb(S.pkg.handle, i, t, imgBox);
    });
    add(out, grid);
    return out;
  },

  text() { return dumpSectionView(/gatherable|localiz/i, 'Gatherable text', 'Localisable text (FText) the localisation gatherer collects from this package: namespace, key and source string.'); },
  bulk() { return dumpSectionView(/bulk|trailer|payload|dataresource/i, 'Bulk data', 'Large binary data (texture mips, audio, mesh data) stored apart from the object data: at the end of the file, in the .ubulk file, or (UE5 editor files) in the package trailer.'); },

  registry() {
    const p = S.pkg.package;
    const rows = [];
    for (const o of p.asset_registry || []) for (const [k, v] of Object.entries(o.tags || {})) rows.push({ o: o.object_path, c: o.class, k, v });
    const out = pane(true, intro(HELP.tabs.registry));
    if (!(p.asset_registry || []).length) { add(out, h('p', { class: 'muted', text: 'No asset registry data in this file.' })); return out; }
    add(out, vtable({
      columns: [
        { label: 'Object', w: 'minmax(120px, 1fr)', get: (r) => r.o, fmt: shortPath, full: (r) => r.o + ' (' + r.c + ')' },
        { label: 'Tag', w: 'minmax(120px, 1fr)', get: (r) => r.k },
        { label: 'Value', w: 'minmax(200px, 3fr)', get: (r) => r.v },
      ], rows, placeholder: 'Filter tags…', empty: 'The asset registry objects carry no tags.',
    }).el);
    return out;
  },

  props() {
    const res = S.pkg;
    const p = res.package;
    const out = pane(false, intro(HELP.tabs.props));
    if (!res.capabilities.props) {
      add(out, h('p', { class: 'notice', text: 'Property decoding is not available for this kind of package in this build of upkg yet. The exports, their sizes and their raw bytes (Hex tab) are.' }));
      return out;
    }
    const sel = h('select', { 'aria-label': 'Export' }, p.exports.map((e, i) => h('option', { value: String(i), selected: e.is_asset ? true : null, text: (i + 1) + ': ' + e.name + ' (' + shortPath(e.class) + ')' + (e.is_asset ? ' — the asset' : '') })));
    const box = h('div');
    const load = async () => {
      const i = +sel.value;
      put(box, h('p', { class: 'muted', text: 'Decoding…' }));
      try {
        const v = await call('props', [res.handle, i]);
        put(box, jsonTree(v, p.exports[i].name));
      } catch (err) {
        put(box, h('div', { class: 'errbox', text: err.message }));
      }
    };
    sel.addEventListener('change', load);
    add(out, h('div', { class: 'hex-tools' }, 'Export: ', sel), box);
    if (p.exports.length) load();
    return out;
  },

  container() {
    const c = S.container;
    const out = pane(true, intro('The files stored in ' + c.path.replace(/^\/in\/\d+\//, '') + '. Click a .uasset or .umap to open it, any other file to preview it; sizes are uncompressed, "Stored" is the size in the container.'));
    if ((c.summary || []).length) {
      add(out, h('details', {}, h('summary', { text: 'Container header' }), h('table', { class: 'kv' }, c.summary.map((f) => h('tr', {}, h('th', { text: f.key }), h('td', { class: 'v', text: valueText(f.value) }))))));
    }
    const cols = [
      { label: 'Path', w: 'minmax(240px, 3fr)', get: (r) => r.path || '(chunk ' + (r.chunk_id || '') + ')' },
      { label: 'Size', w: '100px', num: true, get: (r) => r.size, fmt: bytes },
      { label: 'Stored', w: '100px', num: true, get: (r) => r.compressed_size, fmt: bytes },
      { label: 'Compression', w: '110px', get: (r) => r.compression || '', title: 'Compression method of the stored data' },
      { label: 'Encrypted', w: '90px', get: (r) => (r.encrypted ? 'yes' : ''), title: 'Encrypted with the game\'s AES key (set it under Reading options)' },
      { label: 'Type', w: '140px', get: (r) => r.chunk_type || '' },
      { label: 'Offset', w: '110px', num: true, mono: true, get: (r) => r.offset, fmt: (v) => hex(v) },
    ];
    const preview = h('div', { class: 'detail' }, h('div', { class: 'muted', text: 'Click a .uasset or .umap to open it, or any other file to preview it here.' }));
    add(out, h('div', { class: 'split' }, vtable({
      columns: cols, rows: c.entries, placeholder: 'Filter paths…',
      rowClass: (r) => (r.path ? 'clickable' : ''),
      onSelect: async (r) => {
        if (!r.path) return;
        if (!/\.(uasset|umap|uzenasset)$/i.test(r.path)) { previewEntry(c, r, preview); return; }
        openInner(c, r.path);
      },
    }).el, preview));
    return out;
  },

  content() {
    const res = S.pkg;
    const list = contentExports(res.package);
    const out = pane(false, intro('What the package holds, converted the way `upkg export` does: textures as PNG, sounds as WAV, music modules, script source. Textures load as they scroll into view; click a sound, music or script to open it.'));
    if (!list.length) { add(out, h('p', { class: 'muted', text: 'No textures, sounds, music or scripts in this package.' })); return out; }
    const grid = h('div', { class: 'thumbs' });
    const io = new IntersectionObserver((entries) => {
      for (const en of entries) if (en.isIntersecting) { io.unobserve(en.target); en.target.load(); }
    });
    for (const e of list) {
      const box = h('div', { class: 'img' }, h('span', { class: 'muted', text: shortPath(e.class) }));
      const card = h('div', { class: 'thumb' }, box, h('div', { class: 'cap' }, h('b', { text: e.name }), h('br'), shortPath(e.class) + ' · ' + bytes(e.serial_size)));
      const load = () => loadContent(res.handle, e.index - 1, box, card);
      if (/Texture/.test(e.class)) { card.load = load; io.observe(card); } else box.append(h('button', { class: 'btn small', text: 'Open', onclick: load }));
      add(grid, card);
    }
    add(out, grid);
    return out;
  },

  hex() { return hexPane(); },

  model() {
    const res = S.pkg;
    const out = pane(false, intro(HELP.tabs.model));
    if (!res.capabilities.dump) { add(out, h('p', { class: 'muted', text: 'No detailed model for this file.' })); return out; }
    const box = h('div', {}, h('p', { class: 'muted', text: 'Loading…' }));
    add(out, box);
    getDump().then((d) => {
      const blob = new Blob([JSON.stringify(d, null, 1)], { type: 'application/json' });
      const a = h('a', { class: 'btn small', href: URL.createObjectURL(blob), download: res.package.path.split('/').pop() + '.json', text: 'Download as JSON' });
      put(box, h('div', { class: 'row-actions' }, a), jsonTree(d, res.package.path.split('/').pop()));
    }).catch((err) => put(box, h('div', { class: 'errbox', text: err.message })));
    return out;
  },
};

function mainExt(res) {
  const n = res.files[0].name;
  return n.slice(n.lastIndexOf('.'));
}

async function getDump() {
  if (!S.dump) S.dump = call('dump', [S.pkg.handle]);
  return S.dump;
}

// dumpSectionView shows the sections and the parts of the full model whose
// names match re (the model's tables of gatherable text, bulk data…).
function dumpSectionView(re, title, help) {
  const res = S.pkg;
  const p = res.package;
  const out = pane(false, intro(help));
  const secs = (p.sections || []).filter((s) => re.test(s.name));
  if (secs.length) {
    add(out, h('table', { class: 'kv' }, h('tr', {}, ['Section', 'File', 'Offset', 'Size', 'Entries', ''].map((t) => h('th', { text: t }))),
      secs.map((s) => h('tr', {}, h('th', { text: s.name, title: fieldHelp(s.name) }), h('td', { class: 'v', text: s.file || mainExt(res) }), h('td', { class: 'v', text: hex(s.offset) }), h('td', { class: 'v', text: bytes(s.size) }), h('td', { class: 'v', text: s.count ? num(s.count) : '' }), h('td', {}, s.size > 0 ? hexButton({ kind: 'section', name: s.name }) : null)))));
  }
  const box = h('div');
  add(out, box);
  if (!res.capabilities.dump) {
    if (!secs.length) add(box, h('p', { class: 'muted', text: 'None in this file.' }));
    return out;
  }
  add(box, h('p', { class: 'muted', text: 'Loading…' }));
  getDump().then((d) => {
    const found = [];
    const walk = (v, path, depth) => {
      if (!v || typeof v !== 'object' || depth > 4) return;
      for (const [k, x] of Object.entries(v)) {
        if (re.test(k) && x !== null && (typeof x === 'object')) found.push([path ? path + '.' + k : k, x]);
        else walk(x, path ? path + '.' + k : k, depth + 1);
      }
    };
    walk(d, '', 0);
    put(box, );
    for (const [k, x] of found) {
      const arr = Array.isArray(x) ? x : null;
      add(box, h('h3', { text: k + (arr ? ' (' + arr.length + ')' : '') }));
      if (arr && arr.length && arr.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
        const keys = [...new Set(arr.flatMap((r) => Object.keys(r)))].slice(0, 8);
        add(box, vtable({ columns: keys.map((key) => ({ label: key, get: (r) => valueText(r[key]) })), rows: arr, height: Math.min(420, 90 + arr.length * 24) + 'px' }).el);
      } else {
        add(box, jsonTree(x, k));
        // Lists of records inside (a trailer's payloads…) also as tables.
        if (!arr) for (const [ck, cv] of Object.entries(x)) {
          if (Array.isArray(cv) && cv.length && cv.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
            const keys = [...new Set(cv.flatMap((r) => Object.keys(r)))].slice(0, 10);
            add(box, h('h3', { text: k + '.' + ck + ' (' + cv.length + ')' }),
              vtable({ columns: keys.map((key) => ({ label: key, get: (r) => valueText(r[key]) })), rows: cv, height: Math.min(420, 90 + cv.length * 24) + 'px' }).el);
          }
        }
      }
    }
    if (!found.length && !secs.length) add(box, h('p', { class: 'muted', text: 'None in this file.' }));
  }).catch((err) => put(box, h('div', { class: 'errbox', text: err.message })));
  return out;
}

function showExportDetail(box, e) {
  const res = S.pkg;
  const i = e.index - 1;
  const flags = String(e.flags || '');
  put(box, 
    h('h4', {}, 'Export ' + e.index + ': ' + e.name, e.is_asset ? h('span', { class: 'badge', title: HELP.exportFlags.bIsAsset, text: 'the asset' }) : null),
    h('table', { class: 'kv' },
      [['Full path', e.path], ['Class', e.class], ['Outer', e.outer || '(the package)'], ['Super (parent class)', e.super], ['Template (archetype)', e.template],
        ['Data', bytes(e.serial_size) + ' at ' + hex(e.serial_offset || 0) + (e.file ? ' in the ' + e.file + ' file' : '')]]
        .filter(([, v]) => v).map(([k, v]) => h('tr', {}, h('th', { text: k }), h('td', { class: 'v', text: v })))),
    flags ? h('div', { class: 'row-actions' }, 'Flags: ', flagChips(flags)) : null,
    flags ? h('div', { class: 'help' }, flags.split(/[|,\s]+/).filter((f) => flagHelp(f)).map((f) => h('div', { text: f + ': ' + flagHelp(f) }))) : null,
    h('div', { class: 'row-actions' },
      e.serial_size > 0 ? hexButton({ kind: 'export', index: i }, 'Show bytes') : null,
      CONTENT_CLASS.test(shortPath(e.class)) && res.package.format === 'legacy' ? h('button', { class: 'btn small', text: 'Show content', onclick: () => selectTab('content') }) : null,
      res.capabilities.props ? h('button', { class: 'btn small', text: 'Show properties', onclick: () => { selectTab('props'); const s = document.querySelector('#view select'); if (s) { s.value = String(i); s.dispatchEvent(new Event('change')); } } }) : null),
  );
}

// previewEntry shows a file stored in a container: an image, text, or its
// bytes, with a save link.
async function previewEntry(c, r, box) {
  put(box, h('div', { class: 'muted', text: 'Reading ' + r.path + '…' }));
  try {
    const { data } = await call('containerFile', [c.handle, r.path]);
    const name = r.path.split('/').pop();
    const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    const type = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', bmp: 'image/bmp', gif: 'image/gif', wav: 'audio/wav', ogg: 'audio/ogg' }[ext] || 'application/octet-stream';
    const url = URL.createObjectURL(new Blob([data], { type }));
    const head = h('h4', {}, r.path + ' ', h('a', { class: 'btn small', href: url, download: name, text: 'Save' }), data.length < r.size ? h('span', { class: 'muted', text: ' (first ' + bytes(data.length) + ' shown)' }) : null);
    let body;
    if (type.startsWith('image/')) {
      body = h('img', { src: url, alt: name, class: 'preview-img', title: name });
      // Small images are shown enlarged, pixel for pixel.
      body.addEventListener('load', () => { if (body.naturalWidth && body.naturalWidth < 128) { body.style.width = Math.min(256, body.naturalWidth * 4) + 'px'; body.classList.add('pixelated'); } });
    }
    else if (type.startsWith('audio/')) body = h('audio', { controls: true, src: url });
    else if (/^(txt|ini|json|csv|xml|log|md|uplugin|uproject|cfg|int|usf|ush|lua|py)$/.test(ext)) body = h('pre', { class: 'content-text', text: new TextDecoder().decode(data.subarray(0, 200000)) });
    else {
      body = h('div', { class: 'hex preview-hex', tabindex: '0' });
      setTimeout(() => hexView(body, { base: 0, start: 0, size: 0 }, data), 0);
    }
    put(box, head, body);
  } catch (err) {
    put(box, h('div', { class: 'errbox', text: err.message }));
  }
}

// loadContent converts export i and shows it in box (image, audio player,
// text) with a download link in card.
let contentBusy = Promise.resolve();
async function loadContent(handle, i, box, card) {
  put(box, h('span', { class: 'muted', text: 'converting…' }));
  // One conversion at a time keeps the worker free for the rest of the page.
  const job = contentBusy.then(() => call('content', [handle, i]));
  contentBusy = job.catch(() => {});
  try {
    const { meta, data } = await job;
    const type = { texture: 'image/png', sound: 'audio/wav', script: 'text/plain', text: 'text/plain' }[meta.kind] || 'application/octet-stream';
    const url = URL.createObjectURL(new Blob([data], { type }));
    if (meta.kind === 'texture') put(box, h('img', { src: url, alt: meta.object, title: meta.object }));
    else if (meta.kind === 'sound') put(box, h('audio', { controls: true, src: url }));
    else if (meta.kind === 'script' || meta.kind === 'text') put(box, h('pre', { class: 'content-text', text: new TextDecoder().decode(data.subarray(0, 200000)) }));
    else put(box, h('span', { class: 'muted', text: meta.kind + ', ' + bytes(meta.size) }));
    const name = meta.name.split('/').pop();
    add(card.querySelector('.cap'), ' ', h('a', { class: 'btn small', href: url, download: name, text: 'Save ' + name.slice(name.lastIndexOf('.')) }), meta.note ? h('div', { class: 'muted', text: meta.note }) : null);
  } catch (err) {
    put(box, h('span', { class: 'errbox', text: err.message }));
  }
}

async function loadThumb(handle, i, t, box) {
  try {
    const { meta, data } = await call('thumbnail', [handle, i]);
    let el;
    if (meta.format === 'raw' || (!/png|jpe?g/i.test(meta.format) && data.length === meta.width * meta.height * 4)) {
      el = h('canvas', { width: String(meta.width), height: String(meta.height) });
      const img = new ImageData(meta.width, meta.height);
      for (let k = 0; k < data.length; k += 4) { img.data[k] = data[k + 2]; img.data[k + 1] = data[k + 1]; img.data[k + 2] = data[k]; img.data[k + 3] = 255; }
      el.getContext('2d').putImageData(img, 0, 0);
    } else {
      const url = URL.createObjectURL(new Blob([data], { type: /jpe?g/i.test(meta.format) ? 'image/jpeg' : 'image/png' }));
      el = h('img', { alt: 'Thumbnail of ' + t.object, src: url, title: t.object });
      el.addEventListener('error', () => put(box, h('span', { class: 'errbox', text: 'The stored image does not decode.' })));
    }
    put(box, el);
  } catch (err) {
    put(box, h('span', { class: 'errbox', text: err.message }));
  }
}

// ---------- hex view ----------
function openHex(req) {
  S.hexReq = req;
  selectTab('hex');
}

function hexChoices() {
  const res = S.pkg;
  const p = res.package;
  const out = [];
  for (const f of res.files) if (f.role !== 'unused') out.push([{ kind: 'file', name: f.role === 'main' ? '' : f.name.slice(f.name.lastIndexOf('.')).toLowerCase() }, 'Whole file: ' + f.name]);
  for (const s of p.sections || []) if (s.size > 0) out.push([{ kind: 'section', name: s.name }, 'Section: ' + s.name + ' (' + bytes(s.size) + ')']);
  p.exports.forEach((e, i) => { if (e.serial_size > 0) out.push([{ kind: 'export', index: i }, 'Export ' + e.index + ': ' + e.name + ' (' + bytes(e.serial_size) + ')']); });
  (p.thumbnails || []).forEach((t, i) => { if (t.size > 0) out.push([{ kind: 'thumbnail', index: i }, 'Thumbnail: ' + t.object]); });
  return out;
}

function hexPane() {
  const res = S.pkg;
  const choices = hexChoices();
  const req = S.hexReq || choices[0][0];
  const key = (r) => r.kind + ':' + (r.name || '') + ':' + (r.index || 0);
  const sel = h('select', { 'aria-label': 'What to show' }, choices.map(([r, label]) => h('option', { value: key(r), selected: key(r) === key(req) ? true : null, text: label })));
  const goto = h('input', { type: 'text', placeholder: 'Go to offset', title: 'Type an offset (0x1A2B or 6699) and press Enter' });
  const info = h('div', { class: 'hex-info' });
  const box = h('div', { class: 'hex', tabindex: '0' });
  const out = pane(true, h('div', { class: 'hex-tools' }, 'Show: ', sel, goto), info, box);
  sel.addEventListener('change', () => { S.hexReq = choices.find(([r]) => key(r) === sel.value)[0]; selectTab('hex'); });
  let view = null;
  goto.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !view) return;
    const v = goto.value.trim();
    const n = /^0x/i.test(v) ? parseInt(v, 16) : parseInt(v, 10);
    if (!Number.isNaN(n)) view.scrollTo(n);
  });
  info.textContent = 'Loading…';
  call('hex', [res.handle, req]).then(({ meta, data }) => {
    put(info, 
      h('b', { text: meta.title }), ' — ',
      req.kind === 'file' ? 'the whole file, nothing highlighted; pick a section or an export above to highlight its bytes'
        : meta.size ? 'bytes ' + hex(meta.start) + ' to ' + hex(meta.start + meta.size - 1) + ' (' + num(meta.size) + ' bytes, highlighted)' : 'empty range at ' + hex(meta.start),
      ' in ', h('span', { class: 'mono', text: meta.file }), ' (' + bytes(meta.file_size) + ').',
      meta.note ? h('div', { class: 'muted', text: meta.note }) : null,
      h('div', { class: 'row-actions' },
        h('button', { class: 'btn small', text: 'Go to range start', onclick: () => view.scrollTo(meta.start) }),
        h('button', { class: 'btn small', text: 'Go to range end', onclick: () => view.scrollTo(meta.start + Math.max(0, meta.size - 1)) })));
    view = hexView(box, meta, data);
  }).catch((err) => { put(info, h('div', { class: 'errbox', text: err.message })); });
  return out;
}

function hexView(box, meta, data) {
  const RH = 18;
  const base = meta.base;
  const first = base - (base % 16);
  const rows = Math.ceil((base + data.length - first) / 16);
  const lo = meta.start;
  const hi = meta.start + meta.size;
  const spacer = h('div', { class: 'vt-spacer' });
  spacer.style.height = rows * RH + 'px';
  put(box, spacer);
  const HEX = [...Array(256)].map((_, i) => i.toString(16).padStart(2, '0').toUpperCase());
  function line(r) {
    const off = first + r * 16;
    const el = h('div', { class: 'hr' });
    el.style.top = r * RH + 'px';
    add(el, h('span', { class: 'off', text: off.toString(16).padStart(8, '0').toUpperCase() + '  ' }));
    let cur = null; let curCls = null; let hexs = ''; let asc = '';
    const segs = [];
    const flush = () => { if (hexs) segs.push([curCls, hexs, asc]); hexs = ''; asc = ''; };
    for (let k = 0; k < 16; k++) {
      const o = off + k;
      const di = o - base;
      const cls = o >= lo && o < hi ? (o === lo ? 'first' : 'in') : '';
      if (cls !== curCls) { flush(); curCls = cls; }
      if (di < 0 || di >= data.length) { hexs += '   '; asc += ' '; continue; }
      const b = data[di];
      hexs += HEX[b] + (k === 7 ? '  ' : ' ');
      asc += b >= 32 && b < 127 ? String.fromCharCode(b) : '.';
      cur = b;
    }
    void cur;
    flush();
    for (const [cls, hx] of segs) add(el, cls ? h('span', { class: cls, text: hx }) : hx);
    add(el, ' ');
    for (const [cls, , a] of segs) add(el, cls ? h('span', { class: cls, text: a }) : a);
    return el;
  }
  let raf = 0;
  function draw() {
    raf = 0;
    const a = Math.max(0, Math.floor(box.scrollTop / RH) - 5);
    const b = Math.min(rows, Math.ceil((box.scrollTop + (box.clientHeight || 600)) / RH) + 5);
    const frag = document.createDocumentFragment();
    for (let r = a; r < b; r++) add(frag, line(r));
    put(spacer, frag);
  }
  box.addEventListener('scroll', () => { if (!raf) raf = requestAnimationFrame(draw); });
  new ResizeObserver(() => draw()).observe(box);
  function scrollTo(o) {
    const r = Math.floor((Math.max(first, o) - first) / 16);
    box.scrollTop = Math.max(0, r * RH - 3 * RH);
    draw();
  }
  scrollTo(lo);
  return { scrollTo };
}

document.body.dataset.state = 'idle';
