//go:build !wasm

package uasset

// chainsChecked: reading a package checks its outer, super and template
// chains for cycles (checkChains).
const chainsChecked = true

// utf8SubPathsBuilt: soft object paths' UTF-8 sub-paths (5.6+) read as
// text (utf8SubPaths).
const utf8SubPathsBuilt = true
