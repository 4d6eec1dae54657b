//go:build !wasm

package jsonenc

import "encoding/json"

// forceCompact makes Marshal use the compact encoder (a test hook).
var forceCompact bool

// Marshal returns the JSON encoding of v: encoding/json's Marshal in native
// programs.
func Marshal(v any) ([]byte, error) {
	if forceCompact {
		return encode(v)
	}
	return json.Marshal(v)
}

// setCompact is the test hook behind forceCompact.
func setCompact(on bool) { forceCompact = on }
