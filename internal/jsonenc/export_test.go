//go:build !wasm

package jsonenc

// SetCompact makes Marshal use the compact encoder in native tests too.
func SetCompact(on bool) { forceCompact = on }

// Encode is the compact encoder.
var Encode = encode
