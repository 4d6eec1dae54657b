package web

import (
	"os/exec"
	"strings"
	"testing"
)

// wasmBudget is the size budget for each of the page's WebAssembly
// modules (raw bytes).
const wasmBudget = 6_000_000

// TestWASMSize checks every WebAssembly module against the budget and logs
// each one's size, raw and gzipped, and the total.
func TestWASMSize(t *testing.T) {
	a := testAssets(t)
	for _, w := range a.Modules {
		raw, gz := len(w.Bytes), len(w.Gzip())
		t.Logf("%-20s %9d bytes raw (%.2f MiB), %9d bytes gzip -9 (%.2f MiB)", w.File(), raw, float64(raw)/(1<<20), gz, float64(gz)/(1<<20))
		if raw > wasmBudget {
			t.Errorf("%s is %d bytes, over the %d budget (heavyPackages lists known culprits; UPKG_WASM_BREAKDOWN=1 go test -run WASMBreakdown -v shows what each package costs)", w.File(), raw, wasmBudget)
		}
	}
	raw, gz := a.Size()
	t.Logf("%-20s %9d bytes raw (%.2f MiB), %9d bytes gzip -9 (%.2f MiB); budget %d per module", "all modules", raw, float64(raw)/(1<<20), gz, float64(gz)/(1<<20), wasmBudget)
}

// moduleLeavesOut are the format packages each module must not link: the
// families another module reads (linking one by accident would cost the
// budget, and the page would not route its files here anyway).
var moduleLeavesOut = map[string][]string{
	"uasset":  {"legacy", "pak", "iostore", "zen"},
	"legacy":  {"uasset", "pak", "iostore", "zen", "property", "usmap", "assetprops"},
	"pak":     {"uasset", "legacy", "iostore", "zen", "property", "usmap", "assetprops"},
	"iostore": {"uasset", "legacy", "pak", "assetprops"},
}

// heavyPackages must not be linked into the page's WebAssembly, with what
// each would cost (measured with Go 1.26).
var heavyPackages = map[string]string{
	"net/http":                           "net/http, crypto/tls, crypto/x509: about 1.6 MB",
	"crypto/tls":                         "about 1.6 MB with net/http",
	"encoding/json":                      "use internal/jsonenc: about 0.15 MB (0.47 MB in a small program)",
	"math/big":                           "about 0.3 MB with crypto/rand",
	"github.com/andybalholm/brotli":      "its http.go links net/http; use internal/brotli",
	"github.com/klauspost/compress/zstd": "links its encoder, crypto/rand, math/big: about 0.45 MB; use internal/zstd",
	"image/png":                          "about 0.2 MB; legacy/png.go encodes the exported images",
	"text/template":                      "disables the linker's dead method elimination",
	"html/template":                      "disables the linker's dead method elimination",
	"regexp":                             "about 0.2 MB",
	"os/exec":                            "not usable in a browser",
}

// TestWASMDeps checks that no WebAssembly module imports one of
// heavyPackages or a format family of another module.
func TestWASMDeps(t *testing.T) {
	src := findSource()
	if src == "" {
		t.Skip("no source checkout")
	}
	for _, m := range Modules {
		cmd := exec.Command(goTool(), "list", "-tags", strings.Join(moduleTags(m), ","), "-deps", "./wasm")
		cmd.Dir = src
		cmd.Env = wasmEnv()
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps ./wasm (module %s): %v", m.Name, err)
		}
		deps := map[string]bool{}
		for _, p := range strings.Fields(string(out)) {
			deps[p] = true
			if why, ok := heavyPackages[p]; ok {
				t.Errorf("module %s links %s (%s)", m.Name, p, why)
			}
		}
		for _, p := range moduleLeavesOut[m.Name] {
			if deps[modulePath+"/"+p] {
				t.Errorf("module %s links package %s, which another module reads", m.Name, p)
			}
		}
	}
}

// BenchmarkWASMSize reports the size of the page's WebAssembly modules as
// metrics: the largest module and all of them.
func BenchmarkWASMSize(b *testing.B) {
	a := testAssets(b)
	for b.Loop() {
	}
	largest := 0
	for _, w := range a.Modules {
		largest = max(largest, len(w.Bytes))
	}
	raw, gz := a.Size()
	b.ReportMetric(float64(largest), "bytes-largest")
	b.ReportMetric(float64(raw), "bytes-raw")
	b.ReportMetric(float64(gz), "bytes-gzip")
}
