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

// Assets are the two generated files the page needs besides its embedded
// HTML/CSS/JS: the WebAssembly build of upkg and the Go runtime's
// wasm_exec.js that loads it (the two must come from the same toolchain).
type Assets struct {
	WASM     []byte
	WasmExec []byte
	// Key identifies the sources the WASM was built from (hex SHA-256 of the
	// toolchain version and every Go source file it can depend on).
	Key string
	// Cached reports that the WASM came from the cache, not a fresh build.
	Cached bool

	gzOnce sync.Once
	gz     []byte
}

// Gzip returns the WASM gzip-compressed (computed once).
func (a *Assets) Gzip() []byte {
	a.gzOnce.Do(func() {
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		w.Write(a.WASM)
		w.Close()
		a.gz = b.Bytes()
	})
	return a.gz
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
// (GOOS=js GOARCH=wasm go build with [wasmBuildFlags] ./wasm). When no
// source checkout can be found, it falls back to assets embedded by
// `go generate ./web`.
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
	cached := filepath.Join(cache, key+".wasm")
	if b, err := os.ReadFile(cached); err == nil && len(b) > 8 && bytes.HasPrefix(b, []byte("\x00asm")) {
		return &Assets{WASM: b, WasmExec: execJS, Key: key, Cached: true}, nil
	}
	if o.Log != nil {
		fmt.Fprintf(o.Log, "upkg: building the page's WebAssembly with %s (once per source change)...\n", gover)
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		// No usable user cache (e.g. HOME unset): build into a temp dir.
		cache = filepath.Join(os.TempDir(), "upkg-wasm-cache")
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
	}
	tmp, err := os.CreateTemp(cache, key+"-*.tmp")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.CommandContext(ctx, goBin, append([]string{"build"}, append(wasmBuildFlags(tmp.Name()), "./wasm")...)...)
	cmd.Dir = src
	cmd.Env = wasmEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("building the WebAssembly (GOOS=js GOARCH=wasm go build ./wasm in %s): %v\n%s", src, err, stderr.Bytes())
	}
	b, err := os.ReadFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), cached); err != nil {
		return nil, err
	}
	pruneCache(cache, key)
	return &Assets{WASM: b, WasmExec: execJS, Key: key}, nil
}

// pruneCache removes builds of older sources, keeping the newest few.
func pruneCache(dir, keep string) {
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
		if !strings.HasSuffix(e.Name(), ".wasm") || e.Name() == keep+".wasm" {
			continue
		}
		if fi, err := e.Info(); err == nil {
			olds = append(olds, old{filepath.Join(dir, e.Name()), fi.ModTime().UnixNano()})
		}
	}
	sort.Slice(olds, func(i, j int) bool { return olds[i].mod > olds[j].mod })
	for i, o := range olds {
		if i >= 3 {
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
