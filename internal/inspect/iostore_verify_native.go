//go:build (!upkg_only || upkg_iostore) && !wasm

package inspect

// `upkg verify` checks .utoc files; the page verifies nothing, and its
// WebAssembly modules leave the verifier out (its size budget is tight).
func init() { RegisterVerifier(verifyUtoc) }
