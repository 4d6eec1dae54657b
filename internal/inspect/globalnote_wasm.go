//go:build wasm

package inspect

// nativeGlobal: in the browser there is no environment, and the
// WebAssembly modules have a size budget: the global container is the one
// dropped beside the package, and a package read without it has its
// warning only (see globalnote_native.go).
const nativeGlobal = false

// globalHint says why no global container was found: the page reads the
// files dropped on it, and finds none for a loose package.
const globalHint = "a loose package opened in the page has none"

// verifyNotes: the page shows no verify lines, so their notes are left
// out of its WebAssembly (see addNote).
const verifyNotes = false
