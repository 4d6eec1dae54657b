//go:build wasm

package assetprops

import "os"

// readFile: in the browser the page gives every reader (its files are in
// memory). Leaving os.ReadFile out keeps the os package's file types and,
// through their FileInfo, time formatting out of the WebAssembly modules.
func readFile(string) ([]byte, error) { return nil, os.ErrNotExist }
