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
	for name, b := range map[string][]byte{"upkg.wasm": a.WASM, "wasm_exec.js": a.WasmExec} {
		if err := os.WriteFile(filepath.Join("static", name), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("static/upkg.wasm: %d bytes (gzip %d)\n", len(a.WASM), len(a.Gzip()))
}
