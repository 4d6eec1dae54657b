// upkg page worker: runs one of upkg's WebAssembly modules (Go compiled to
// WebAssembly; each module reads some format families, see web/build.go)
// off the page's main thread, so that the page stays responsive while a
// large file is read. The page starts one worker per module, the first time
// a dropped file needs it: worker.js?module=upkg-NAME.wasm&size=BYTES.
//
// Ground rules for this file:
//   - Every request gets exactly one reply: {id, ok: true, result} or
//     {id, ok: false, error}. Progress messages ({id, progress}) may come
//     before it; {type: 'loading', loaded, total} while the module downloads.
//   - Files are read from the File objects the user dropped; nothing is
//     fetched except the module itself (and the page's CSP forbids anything else).
//   - Containers (.utoc/.ucas, .pak) can be gigabytes: they are not copied
//     into memory but exposed to Go as a read-only file system (memfs below)
//     whose reads slice the File synchronously (FileReaderSync, workers only).
'use strict';

// ---- memfs: the read-only file system Go's os package sees (syscall/fs_js.go).
const memfs = (() => {
  const files = new Map(); // absolute path -> Blob
  const fds = new Map(); // fd -> {path, blob, pos}
  let nextFd = 100;
  const reader = new FileReaderSync();
  let outputBuf = '';
  const decoder = new TextDecoder('utf-8');
  function err(code) {
    const e = new Error(code);
    e.code = code;
    return e;
  }
  function dirOf(p) {
    const i = p.lastIndexOf('/');
    return i <= 0 ? '/' : p.slice(0, i);
  }
  function isDir(p) {
    const prefix = p.endsWith('/') ? p : p + '/';
    for (const k of files.keys()) if (k.startsWith(prefix)) return true;
    return p === '/';
  }
  function lookup(p) {
    if (files.has(p)) return p;
    // Dropped files keep the case the user's file system gave them; Unreal
    // names companions case-insensitively.
    const low = p.toLowerCase();
    for (const k of files.keys()) if (k.toLowerCase() === low) return k;
    return null;
  }
  function stat(p) {
    const k = lookup(p);
    const now = Date.now();
    const base = { dev: 1, nlink: 1, uid: 0, gid: 0, rdev: 0, blksize: 4096, atimeMs: now, mtimeMs: now, ctimeMs: now };
    if (k !== null) {
      const size = files.get(k).size;
      return Object.assign(base, { ino: 1, mode: 0o100444, size, blocks: Math.ceil(size / 512), isDirectory: () => false });
    }
    if (isDir(p)) return Object.assign(base, { ino: 2, mode: 0o40555, size: 0, blocks: 0, isDirectory: () => true });
    return null;
  }
  const fs = {
    constants: { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_TRUNC: 512, O_APPEND: 1024, O_EXCL: 128, O_DIRECTORY: 65536 },
    add(path, blob) { files.set(path, blob); },
    clear(prefix) { for (const k of [...files.keys()]) if (k.startsWith(prefix)) files.delete(k); },
    writeSync(fd, buf) {
      outputBuf += decoder.decode(buf);
      const nl = outputBuf.lastIndexOf('\n');
      if (nl !== -1) {
        console.log(outputBuf.substring(0, nl));
        outputBuf = outputBuf.substring(nl + 1);
      }
      return buf.length;
    },
    write(fd, buf, offset, length, position, cb) {
      if (fd !== 1 && fd !== 2) return cb(err('EROFS'));
      cb(null, this.writeSync(fd, buf.subarray(offset, offset + length)));
    },
    open(path, flags, mode, cb) {
      if ((flags & ~65536) !== 0) return cb(err('EROFS'));
      const k = lookup(path);
      if (k === null) {
        if (isDir(path)) { const fd = nextFd++; fds.set(fd, { path, blob: null, pos: 0 }); return cb(null, fd); }
        return cb(err('ENOENT'));
      }
      const fd = nextFd++;
      fds.set(fd, { path: k, blob: files.get(k), pos: 0 });
      cb(null, fd);
    },
    close(fd, cb) { fds.delete(fd); cb(null); },
    fstat(fd, cb) {
      const f = fds.get(fd);
      if (!f) return cb(err('EBADF'));
      cb(null, stat(f.path));
    },
    stat(path, cb) { const s = stat(path); s ? cb(null, s) : cb(err('ENOENT')); },
    lstat(path, cb) { const s = stat(path); s ? cb(null, s) : cb(err('ENOENT')); },
    readdir(path, cb) {
      const prefix = path.endsWith('/') ? path : path + '/';
      const names = new Set();
      for (const k of files.keys()) if (k.startsWith(prefix)) names.add(k.slice(prefix.length).split('/')[0]);
      cb(null, [...names]);
    },
    read(fd, buffer, offset, length, position, cb) {
      const f = fds.get(fd);
      if (!f || !f.blob) return cb(err('EBADF'));
      const pos = position === null || position === undefined ? f.pos : position;
      const end = Math.min(f.blob.size, pos + length);
      if (pos >= end) return cb(null, 0);
      try {
        const ab = reader.readAsArrayBuffer(f.blob.slice(pos, end));
        buffer.set(new Uint8Array(ab), offset);
        if (position === null || position === undefined) f.pos = pos + ab.byteLength;
        cb(null, ab.byteLength);
      } catch (e) {
        cb(err('EIO'));
      }
    },
    fsync(fd, cb) { cb(null); },
  };
  for (const name of ['chmod', 'chown', 'fchmod', 'fchown', 'ftruncate', 'lchown', 'link', 'mkdir', 'readlink', 'rename', 'rmdir', 'symlink', 'truncate', 'unlink', 'utimes']) {
    fs[name] = (...args) => args[args.length - 1](err('EROFS'));
  }
  void dirOf;
  return fs;
})();
self.fs = memfs;

importScripts('wasm_exec.js');

let readyResolve;
const ready = new Promise((resolve) => { readyResolve = resolve; });
self.upkgReady = () => readyResolve();

const params = new URLSearchParams(self.location.search);
const moduleFile = params.get('module') || '';
const moduleSize = +params.get('size') || 0;

// fetchModule fetches the module and reports its download progress (the
// bytes counted are the decompressed ones, so the total is the raw size).
async function fetchModule() {
  if (!/^upkg-[a-z0-9]+\.wasm$/.test(moduleFile)) throw new Error('no such module: ' + moduleFile);
  const resp = await fetch(moduleFile);
  if (!resp.ok) throw new Error('could not load ' + moduleFile + ': HTTP ' + resp.status);
  if (!resp.body) return resp;
  let loaded = 0;
  let lastPost = 0;
  const counted = resp.body.pipeThrough(new TransformStream({
    transform(chunk, ctl) {
      loaded += chunk.byteLength;
      const now = performance.now();
      if (now - lastPost > 50) {
        lastPost = now;
        postMessage({ type: 'loading', loaded, total: moduleSize });
      }
      ctl.enqueue(chunk);
    },
  }));
  return new Response(counted, { headers: { 'Content-Type': 'application/wasm' } });
}

async function start() {
  const t0 = performance.now();
  const go = new Go();
  const resp = await fetchModule();
  let result;
  try {
    result = await WebAssembly.instantiateStreaming(resp.clone(), go.importObject);
  } catch (e) {
    // Browsers without streaming compilation of a constructed Response.
    result = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
  }
  go.run(result.instance).then(() => {
    postMessage({ type: 'fatal', error: 'The WebAssembly instance stopped unexpectedly.' });
  });
  await ready;
  postMessage({ type: 'ready', ms: performance.now() - t0 });
}
const started = start().catch((e) => {
  postMessage({ type: 'fatal', error: 'Could not start the reader: ' + (e && e.message ? e.message : e) });
  throw e;
});

// exactInts keeps integers beyond 2^53 (64-bit hashes, tags, offsets) as
// their exact decimal text instead of a rounded number (the reviver's third
// argument gives the source text in current browsers).
function exactInts(key, value, context) {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value) && context && typeof context.source === 'string') {
    return context.source;
  }
  return value;
}

// unwrap turns a Go result object into a value or a thrown Error.
function unwrap(r) {
  if (!r) throw new Error('no answer from the reader');
  if (r.error !== undefined) throw new Error(r.error);
  const out = JSON.parse(r.json, exactInts);
  if (r.data !== undefined) return { meta: out, data: r.data };
  return out;
}

const dropped = new Map(); // name -> File, for the current drop
// MAX_PACKAGE_FILE matches webapi's maxPackageFile: package files are copied
// into the WebAssembly memory, containers are not.
const MAX_PACKAGE_FILE = 1 << 30;
let dropSeq = 0;

async function readAll(file, id, label) {
  const total = file.size;
  const out = new Uint8Array(total);
  let loaded = 0;
  let lastPost = 0;
  const rd = file.stream().getReader();
  for (;;) {
    const { done, value } = await rd.read();
    if (done) break;
    if (loaded + value.length > total) throw new Error(file.name + ': file changed while it was read');
    out.set(value, loaded);
    loaded += value.length;
    const now = performance.now();
    if (now - lastPost > 50) {
      lastPost = now;
      postMessage({ id, progress: { phase: label, loaded, total } });
    }
  }
  return out;
}

const ops = {
  // drop(files): remember the files and group them (a package with its
  // companions, a container with its partitions).
  async drop(files) {
    dropped.clear();
    memfs.clear('/in/');
    dropSeq++;
    for (const f of files) dropped.set(f.name, f);
    const plan = unwrap(upkg.plan([...dropped.keys()]));
    plan.sizes = Object.fromEntries([...dropped].map(([n, f]) => [n, f.size]));
    return plan;
  },
  // openGroup(group, settings): read a package with its companions, or
  // open a container. settings: {engine, aes_key, mappings}.
  async openGroup(group, settings, id) {
    const t0 = performance.now();
    const opts = settings || {};
    if (group.kind === 'container') {
      const dir = '/in/' + dropSeq + '/';
      for (const n of [...dropped.keys()]) memfs.add(dir + n, dropped.get(n));
      postMessage({ id, progress: { phase: 'Reading the container index of ' + group.main } });
      const r = unwrap(upkg.openContainer(dir + group.main, opts));
      r.total_ms = performance.now() - t0;
      return r;
    }
    const files = {};
    const names = [...group.files];
    if (settings && settings.mappings && dropped.has(settings.mappings)) names.push(settings.mappings);
    for (const n of names) {
      const f = dropped.get(n);
      if (!f) throw new Error(n + ': no longer available; drop it again');
      if (f.size > MAX_PACKAGE_FILE) throw new Error(n + ': ' + f.size + ' bytes is more than a package file can be here (1 GiB); containers (.utoc/.ucas, .pak) are read without that limit');
      files[n] = await readAll(f, id, 'Reading ' + n);
    }
    postMessage({ id, progress: { phase: 'Parsing ' + group.main } });
    const t1 = performance.now();
    const r = unwrap(upkg.openPackage(group.main, files, opts));
    r.read_ms = t1 - t0;
    r.total_ms = performance.now() - t0;
    return r;
  },
  // openBytes(names, sizes, data, settings, extra): open a package whose
  // files another module read out of a container (data holds them one after
  // the other, names[0] is the package); extra are dropped files the
  // settings name (the .usmap).
  async openBytes(names, sizes, data, settings, extra, id) {
    const t0 = performance.now();
    const files = {};
    let off = 0;
    names.forEach((n, i) => { files[n] = data.subarray(off, off + sizes[i]); off += sizes[i]; });
    for (const [n, f] of Object.entries(extra || {})) files[n] = await readAll(f, id, 'Reading ' + n);
    postMessage({ id, progress: { phase: 'Parsing ' + names[0] } });
    const r = unwrap(upkg.openPackage(names[0], files, settings || {}));
    r.total_ms = performance.now() - t0;
    return r;
  },
  async packageFiles(handle, path, id) {
    postMessage({ id, progress: { phase: 'Reading ' + path + ' from the container' } });
    return unwrap(upkg.packageFiles(handle, path));
  },
  async openFromContainer(handle, path, id) {
    postMessage({ id, progress: { phase: 'Reading ' + path + ' from the container' } });
    return unwrap(upkg.openFromContainer(handle, path));
  },
  async containerFile(handle, path) { return unwrap(upkg.containerFile(handle, path)); },
  async hex(handle, req) { return unwrap(upkg.hex(handle, req)); },
  async thumbnail(handle, i) { return unwrap(upkg.thumbnail(handle, i)); },
  async props(handle, i) { return unwrap(upkg.props(handle, i)); },
  async content(handle, i) { return unwrap(upkg.content(handle, i)); },
  async dump(handle) { return unwrap(upkg.dump(handle)); },
  async close(handle) { return unwrap(upkg.close(handle)); },
  async version() { return unwrap(upkg.version()); },
};

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    await started;
    if (!ops[op]) throw new Error('unknown request ' + op);
    const result = await ops[op](...(args || []), id);
    const transfer = result && result.data instanceof Uint8Array ? [result.data.buffer] : [];
    postMessage({ id, ok: true, result }, transfer);
  } catch (err) {
    postMessage({ id, ok: false, error: String(err && err.message ? err.message : err) });
  }
};
postMessage({ type: 'hello' });
