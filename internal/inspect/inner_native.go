//go:build !wasm

package inspect

// innerByName: a container path may be a package path, an object path, a
// suffix, ... (see resolveInner).
const innerByName = true
