//go:build (!upkg_only || upkg_iostore) && wasm

package inspect

// verifyAfterRead: in the browser, whose WebAssembly module has a size
// budget, a big package chunk is verified before it is read, as other
// commands read it (readPackageChunk).
const verifyAfterRead = false

// readPackageChunkLazy is readPackageChunk here.
var readPackageChunkLazy = readPackageChunk

// lateChunkHash is false here: the page checks a chunk before reading it
// (and leaves the late check out of the module).
func lateChunkHash(*Options) bool { return false }
