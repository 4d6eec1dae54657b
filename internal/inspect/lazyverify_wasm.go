//go:build (!upkg_only || upkg_iostore) && wasm

package inspect

// verifyAfterRead: in the browser, whose WebAssembly module has a size
// budget, a big package chunk is verified before it is read, as other
// commands read it (readPackageChunk).
const verifyAfterRead = false

// readPackageChunkLazy is readPackageChunk here.
var readPackageChunkLazy = readPackageChunk
