//go:build wasm

package uasset

// chainsChecked: in the browser, whose WebAssembly modules have a size
// budget, cyclic chains are not looked for when reading (the page shows
// their objects' paths as cyclic, and never loops on them).
const chainsChecked = false
