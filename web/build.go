package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// modulePath is the module the WebAssembly is built from.
const modulePath = "github.com/upkg/upkg"

// Module is one WebAssembly build of the page. The page's readers are split
// by format family so that each module stays under the size budget
// (6,000,000 bytes) and a user downloads only what the dropped files need:
// each module is ./wasm built with the build tag upkg_only plus its
// families' tags (see package internal/inspect).
type Module struct {
	Name  string   // short name; the file is upkg-<Name>.wasm
	Title string   // what the page calls it while it loads
	Tags  []string // the families' build tags
	// Formats are the formats the module reads, as the page's router names
	// them: "uasset", "legacy", "pak", "utoc", "zen" (an inspect opener's
	// Format, or the container's).
	Formats []string
	// Preload starts the module when the page is idle after opening, before
	// any drop: the UE4/UE5 package reader is what most drops need, so their
	// first drop does not wait for its download and start-up. The others
	// load on first need.
	Preload bool
}

// File is the module's file name in the site.
func (m Module) File() string { return "upkg-" + m.Name + ".wasm" }

// Modules are the page's WebAssembly modules. A package inside a .pak is a
// plain .uasset: the pak module reads its bytes (webapi.PackageFiles) and
// the page opens them with the uasset module. Zen packages need their
// IoStore container, so loose zen packages are read by the iostore module.
var Modules = []Module{
	{Name: "uasset", Title: "UE4/UE5 package reader", Tags: []string{"upkg_uasset"}, Formats: []string{"uasset"}, Preload: true},
	{Name: "legacy", Title: "UE1–UE3 package reader", Tags: []string{"upkg_legacy"}, Formats: []string{"legacy"}},
	{Name: "pak", Title: ".pak container reader", Tags: []string{"upkg_pak"}, Formats: []string{"pak"}},
	{Name: "iostore", Title: "IoStore container and zen package reader", Tags: []string{"upkg_iostore"}, Formats: []string{"utoc", "zen"}},
}

// WASM is one built module.
type WASM struct {
	Module
	Bytes []byte
	// Key identifies the sources and tags the module was built from.
	Key string

	gzOnce sync.Once
	gz     []byte
}

// Gzip returns the module gzip-compressed (computed once).
func (w *WASM) Gzip() []byte {
	w.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(w.Bytes)
		zw.Close()
		w.gz = b.Bytes()
	})
	return w.gz
}

// Assets are the generated files the page needs besides its embedded
// HTML/CSS/JS: the WebAssembly modules and the Go runtime's wasm_exec.js
// that loads them (they must come from the same toolchain).
type Assets struct {
	Modules  []*WASM // in the order of [Modules]
	WasmExec []byte
	// Key identifies the sources the modules were built from (hex SHA-256
	// of the toolchain version and every Go source file they can depend on).
	Key string
	// Cached reports that every module came from the cache.
	Cached bool
}

// Module returns the built module called name, or nil.
func (a *Assets) Module(name string) *WASM {
	for _, w := range a.Modules {
		if w.Name == name {
			return w
		}
	}
	return nil
}

// Size returns the modules' total size, raw and gzipped.
func (a *Assets) Size() (raw, gz int) {
	for _, w := range a.Modules {
		raw += len(w.Bytes)
		gz += len(w.Gzip())
	}
	return raw, gz
}

// BuildOptions are the knobs of [Build].
type BuildOptions struct {
	// Source is the module root to build from; empty means find it (the
	// checkout this binary was built from, else the module of the current
	// directory).
	Source string
	// CacheDir holds built WASM files by key; empty means
	// os.UserCacheDir()/upkg/wasm.
	CacheDir string
	// Log receives one line before a fresh build (which takes a while); may be nil.
	Log io.Writer
}

// Build returns the page's generated assets: from the cache when the
// sources have not changed, otherwise by running the go toolchain
// (GOOS=js GOARCH=wasm go build with [wasmBuildFlags] ./wasm, once per
// module, in parallel). When no source checkout can be found, it falls back
// to assets embedded by `go generate ./web`.
func Build(ctx context.Context, o BuildOptions) (*Assets, error) {
	src := o.Source
	if src == "" {
		src = findSource()
	}
	if src == "" {
		if a := embeddedAssets(); a != nil {
			return a, nil
		}
		return nil, errors.New("cannot find the upkg source to build the page's WebAssembly: run from a checkout (go run ./cmd/upkg serve), or run `go generate ./web` before building upkg")
	}
	goBin := goTool()
	gover, err := goEnv(ctx, goBin, src, "GOVERSION")
	if err != nil {
		return nil, err
	}
	key, err := sourceKey(src, gover)
	if err != nil {
		return nil, err
	}
	goroot, err := goEnv(ctx, goBin, src, "GOROOT")
	if err != nil {
		return nil, err
	}
	execJS, err := readWasmExec(goroot)
	if err != nil {
		return nil, err
	}
	cache := o.CacheDir
	if cache == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			d = os.TempDir()
		}
		cache = filepath.Join(d, "upkg", "wasm")
	}
	a := &Assets{WasmExec: execJS, Key: key, Cached: true}
	var missing []*WASM
	for _, m := range Modules {
		w := &WASM{Module: m, Key: moduleKey(key, m)}
		a.Modules = append(a.Modules, w)
		if b, err := os.ReadFile(filepath.Join(cache, w.Key+".wasm")); err == nil && len(b) > 8 && bytes.HasPrefix(b, []byte("\x00asm")) {
			w.Bytes = b
		} else {
			missing = append(missing, w)
		}
	}
	if len(missing) == 0 {
		return a, nil
	}
	a.Cached = false
	if o.Log != nil {
		fmt.Fprintf(o.Log, "upkg: building the page's %d WebAssembly modules with %s (once per source change)...\n", len(missing), gover)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		// No usable user cache (e.g. HOME unset): build into a temp dir.
		cache = filepath.Join(os.TempDir(), "upkg-wasm-cache")
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
	}
	errs := make([]error, len(missing))
	var wg sync.WaitGroup
	for i, w := range missing {
		wg.Go(func() { w.Bytes, errs[i] = buildModule(ctx, goBin, src, cache, w) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, w := range a.Modules {
		keep[w.Key+".wasm"] = true
	}
	pruneCache(cache, keep)
	return a, nil
}

// moduleKey is the cache key of module m built from the sources with key.
func moduleKey(key string, m Module) string {
	h := sha256.Sum256([]byte(key + "\n" + strings.Join(moduleTags(m), ",")))
	return m.Name + "-" + hex.EncodeToString(h[:])[:24]
}

// moduleTags are the build tags of module m.
func moduleTags(m Module) []string { return append([]string{"upkg_only"}, m.Tags...) }

// buildModule runs the go toolchain for one module and stores the result in
// the cache.
func buildModule(ctx context.Context, goBin, src, cache string, w *WASM) ([]byte, error) {
	tmp, err := os.CreateTemp(cache, w.Key+"-*.tmp")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	args := append([]string{"build", "-tags", strings.Join(moduleTags(w.Module), ",")}, wasmBuildFlags(tmp.Name())...)
	cmd := exec.CommandContext(ctx, goBin, append(args, "./wasm")...)
	cmd.Dir = src
	cmd.Env = wasmEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("building the WebAssembly module %s (GOOS=js GOARCH=wasm go build -tags %s ./wasm in %s): %v\n%s", w.Name, strings.Join(moduleTags(w.Module), ","), src, err, stderr.Bytes())
	}
	b, err := os.ReadFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(cache, w.Key+".wasm")); err != nil {
		return nil, err
	}
	return b, nil
}

// pruneCache removes builds of older sources, keeping the newest few
// besides the files in keep.
func pruneCache(dir string, keep map[string]bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type old struct {
		path string
		mod  int64
	}
	var olds []old
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".wasm") || keep[e.Name()] {
			continue
		}
		if fi, err := e.Info(); err == nil {
			olds = append(olds, old{filepath.Join(dir, e.Name()), fi.ModTime().UnixNano()})
		}
	}
	sort.Slice(olds, func(i, j int) bool { return olds[i].mod > olds[j].mod })
	for i, o := range olds {
		if i >= 3*len(Modules) {
			os.Remove(o.path)
		}
	}
}

// findSource returns the root of the upkg module checkout: the one this
// file was compiled from (go run / go build in a checkout), else the module
// of the current directory.
func findSource() string {
	if env := os.Getenv("UPKG_SOURCE"); env != "" {
		return env
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if root := filepath.Dir(filepath.Dir(file)); isModuleRoot(root) {
			return root
		}
	}
	dir, err := os.Getwd()
	for err == nil {
		if isModuleRoot(dir) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

func isModuleRoot(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	if strings.TrimSpace(first) != "module "+modulePath {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, "wasm"))
	return err == nil && st.IsDir()
}

// goTool returns the go command: the one on PATH, else the one of the
// toolchain that built this binary.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "go"
}

func goEnv(ctx context.Context, goBin, dir, name string) (string, error) {
	cmd := exec.CommandContext(ctx, goBin, "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v (the page's WebAssembly is built with the Go toolchain; is `go` installed?)", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// readWasmExec reads the JavaScript support file of the toolchain (moved
// from misc/wasm to lib/wasm in Go 1.24).
func readWasmExec(goroot string) ([]byte, error) {
	var firstErr error
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		b, err := os.ReadFile(filepath.Join(goroot, filepath.FromSlash(p)))
		if err == nil {
			return b, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, fmt.Errorf("wasm_exec.js of the Go toolchain: %w", firstErr)
}

// sourceKey hashes the toolchain version, go.mod/go.sum and every non-test
// Go file of the module outside cmd/ and web/ (which the WASM never
// imports).
func sourceKey(root, gover string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s/%s\n%q\n", gover, "js", "wasm", wasmBuildFlags(""))
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || rel == "cmd" || rel == "web") {
				return filepath.SkipDir
			}
			return nil
		}
		if (strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go")) || rel == "go.mod" || rel == "go.sum" {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// wasmEnv is the environment of the WebAssembly build.
func wasmEnv() []string {
	return append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
}

// wasmBuildFlags are the go build flags of the WebAssembly, writing to out.
//
// -gcflags=<module>/...=-l turns off inlining in upkg's own packages (not in
// the standard library, where it makes the binary smaller): Go's WebAssembly
// code is about twice the size of amd64 code and every inlined copy of a
// helper costs accordingly, about 170 KB in all. Parsing in the page is a
// few percent slower; drop to first render is dominated by the page's
// rendering, not by parsing.
func wasmBuildFlags(out string) []string {
	return []string{"-trimpath", "-ldflags=-s -w", "-gcflags=" + modulePath + "/...=-l", "-o", out}
}
