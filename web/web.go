// Package web is upkg's page: plain HTML, CSS and JavaScript (no build step)
// embedded in the binary, which runs upkg's own readers compiled to
// WebAssembly (../wasm) inside a Web Worker. A dropped file is read in the
// browser and never leaves the machine: the Content-Security-Policy the page
// is served with forbids any connection except to the page's own files.
//
// [Handler] serves the page (upkg serve); [WriteSite] writes it as static
// files (upkg web --out DIR). Both need the generated [Assets] from [Build].
package web

//go:generate go run gen.go

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/upkg/upkg/uasset"
)

//go:embed static
var static embed.FS

// CSP is the Content-Security-Policy of every response: scripts, styles,
// the worker and fetches only from the page's own origin; WebAssembly may
// be compiled ('wasm-unsafe-eval'); images and sounds also from blob: URLs
// (thumbnails and converted content made in the page). Nothing can be sent
// anywhere else.
const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; " +
	"connect-src 'self'; img-src 'self' blob: data:; media-src blob:; style-src 'self'; font-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// metaCSP is CSP minus the directives a <meta> element cannot carry.
var metaCSP = strings.Replace(CSP, "; frame-ancestors 'none'", "", 1)

// Files returns the page's files by name, ready to serve or write: the
// embedded HTML/CSS/JS, the WebAssembly modules, wasm_exec.js and
// modules.json (the modules the page may load, and the engine versions it
// offers) from a, and the built-in sample package.
func Files(a *Assets) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		out[strings.TrimPrefix(p, "static/")] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	if idx, ok := out["index.html"]; ok {
		out["index.html"] = bytes.ReplaceAll(idx, []byte("{{CSP}}"), []byte(metaCSP))
	}
	for _, w := range a.Modules {
		out[w.File()] = w.Bytes
	}
	out["wasm_exec.js"] = a.WasmExec
	out["modules.json"] = manifest(a)
	out["sample/"+SampleName] = Sample()
	return out, nil
}

// manifest is modules.json: the page reads it at start-up, before any
// module is loaded (the engine list comes from here for the same reason).
func manifest(a *Assets) []byte {
	var b bytes.Buffer
	b.WriteString(`{"modules":[`)
	for i, w := range a.Modules {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":%q,"file":%q,"title":%q,"size":%d,"key":%q,"preload":%t,"formats":[`, w.Name, w.File(), w.Title, len(w.Bytes), w.Key, w.Preload)
		for j, f := range w.Formats {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q", f)
		}
		b.WriteString("]}")
	}
	b.WriteString(`],"engines":[`)
	for i, e := range uasset.EngineNames() {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", e)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// embeddedAssets returns the assets `go generate ./web` embedded, or nil.
func embeddedAssets() *Assets {
	x, err := static.ReadFile("static/wasm_exec.js")
	if err != nil {
		return nil
	}
	a := &Assets{WasmExec: x, Key: "embedded", Cached: true}
	for _, m := range Modules {
		b, err := static.ReadFile("static/" + m.File())
		if err != nil {
			return nil
		}
		a.Modules = append(a.Modules, &WASM{Module: m, Bytes: b, Key: "embedded-" + m.Name})
	}
	return a
}

// Handler serves the page. Only GET and HEAD of the page's own files are
// answered; every response carries [CSP].
func Handler(a *Assets) (http.Handler, error) {
	files, err := Files(a)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	modules := map[string]*WASM{}
	for _, w := range a.Modules {
		modules[w.File()] = w
		go w.Gzip() // compress ahead of the first request
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		b, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		ct := mime.TypeByExtension(path.Ext(name))
		mod := modules[name]
		if ct == "" || mod != nil {
			ct = map[string]string{".wasm": "application/wasm"}[path.Ext(name)]
		}
		if ct != "" {
			h.Set("Content-Type", ct)
		}
		h.Set("Cache-Control", "no-cache")
		if mod != nil {
			h.Set("ETag", `"`+mod.Key+`"`)
			h.Set("Vary", "Accept-Encoding")
			if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
				h.Set("Content-Encoding", "gzip")
				b = mod.Gzip()
			}
		}
		http.ServeContent(w, r, name, started, bytes.NewReader(b))
	}), nil
}

// siteHeaders is written beside the static site as _headers (the format
// Netlify and Cloudflare Pages read), so a host that honours it sends the
// same policy as upkg serve; index.html carries it as a <meta> tag anyway.
func siteHeaders() []byte {
	return []byte("/*\n  Content-Security-Policy: " + CSP + "\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: no-referrer\n")
}

// WriteSite writes the page as static files into dir (created if needed).
// Only the page's own file names are written; other files in dir are left
// alone. Writes stay inside dir (a symbolic link in it that leads out is
// an error, not followed), and each file is written under a temporary
// name and renamed over its own: a link of that name is replaced, never
// written through.
func WriteSite(dir string, a *Assets) ([]string, error) {
	files, err := Files(a)
	if err != nil {
		return nil, err
	}
	files["_headers"] = siteHeaders()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	var written []string
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := writeInRoot(root, filepath.FromSlash(name), files[name]); err != nil {
			return written, fmt.Errorf("writing %s: %w", p, err)
		}
		written = append(written, p)
	}
	return written, nil
}

// writeInRoot writes b as name inside root: to a temporary file beside it,
// then renamed over name.
func writeInRoot(root *os.Root, name string, b []byte) error {
	if d := filepath.Dir(name); d != "." {
		if err := root.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	tmp := filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".upkg-"+strconv.Itoa(os.Getpid())+".tmp")
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		// Left by a killed run that had this process ID: its own.
		root.Remove(tmp)
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_EXCL, 0o644)
	}
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		root.Remove(tmp)
	}
	return err
}
