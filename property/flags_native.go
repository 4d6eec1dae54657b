//go:build !wasm

package property

// flagEnumNames: a flags value no single enum name gives is named by its
// bits (flagNames).
const flagEnumNames = true
