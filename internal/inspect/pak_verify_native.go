//go:build (!upkg_only || upkg_pak) && !wasm

package inspect

// `upkg verify` checks .pak files; the page verifies nothing, and its
// WebAssembly modules leave the verifier out (its size budget is tight).
func init() { RegisterVerifier(verifyPak) }
