//go:build wasm

package jsonenc

// Marshal returns the JSON encoding of v, as encoding/json's Marshal does,
// with the compact encoder.
func Marshal(v any) ([]byte, error) { return encode(v) }

// setCompact is a test hook: Marshal is always the compact encoder here.
func setCompact(bool) {}
