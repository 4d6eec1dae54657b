//go:build ignore

// gen builds the page's WebAssembly and copies the toolchain's wasm_exec.js
// into static/, so that a upkg binary built afterwards embeds them and can
// serve the page without a source checkout or a Go toolchain. Run it with
// `go generate ./web`; the two files are ignored by git.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/upkg/upkg/web"
)

func main() {
	a, err := web.Build(context.Background(), web.BuildOptions{Source: "..", Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	files := map[string][]byte{"wasm_exec.js": a.WasmExec}
	for _, w := range a.Modules {
		files[w.File()] = w.Bytes
		fmt.Printf("static/%s: %d bytes (gzip %d)\n", w.File(), len(w.Bytes), len(w.Gzip()))
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join("static", name), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}
