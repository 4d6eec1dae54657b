//go:build wasm

package inspect

// innerByName: in the browser, whose WebAssembly modules have a size
// budget, the page opens the files of a container by the paths it lists:
// only stored paths are looked up (see resolveInner).
const innerByName = false
