//go:build wasm

package property

// flagEnumNames: the page, whose WebAssembly modules have a size budget,
// shows a flags value no single enum name gives as its number.
const flagEnumNames = false
