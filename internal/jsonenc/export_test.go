package jsonenc

// SetCompact makes Marshal use the compact encoder in native tests too (in
// wasm builds it always does).
func SetCompact(on bool) { setCompact(on) }

// Encode is the compact encoder.
var Encode = encode
