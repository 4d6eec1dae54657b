//go:build wasm

package inspect

// bulkCheckBuilt: the page, whose WebAssembly modules have a size budget
// and whose packages come without their bulk data files, does not check
// them (see checkBulkFiles).
const bulkCheckBuilt = false
