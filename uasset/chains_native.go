//go:build !wasm

package uasset

// chainsChecked: reading a package checks its outer, super and template
// chains for cycles (checkChains).
const chainsChecked = true
