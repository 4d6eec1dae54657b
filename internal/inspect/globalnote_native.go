//go:build !wasm

package inspect

// nativeGlobal: $UPKG_GLOBAL can name the global container (GlobalEnv),
// and a zen package read without one gets a verify note saying its script
// imports were not checked (scriptNote).
const nativeGlobal = true

// globalHint tells how to name the global container when none was found.
const globalHint = "name the game's with $" + GlobalEnv

// verifyNotes: verify lines say what was not checked (addNote).
const verifyNotes = true
