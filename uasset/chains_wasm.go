//go:build wasm

package uasset

// chainsChecked: in the browser, whose WebAssembly modules have a size
// budget, cyclic chains are not looked for when reading (the page shows
// their objects' paths as cyclic, and never loops on them).
const chainsChecked = false

// utf8SubPathsBuilt: in the browser, a non-ASCII sub-path of a 5.6+
// package's soft object paths shows one character per byte (rare: the
// engine's sub-paths are object names).
const utf8SubPathsBuilt = false
