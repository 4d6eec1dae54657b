//go:build (!upkg_only || upkg_iostore) && !wasm

package inspect

import "github.com/upkg/upkg/iostore"

// verifyAfterRead: verify checks the hash of a package chunk over
// zenWholeMax after the package's checks read it (readPackageChunkLazy).
const verifyAfterRead = true

// readPackageChunkLazy is readPackageChunk for verify, whose package
// checks read a chunk bigger than zenWholeMax before its hash is checked:
// it gives the chunk as a VerifyingChunkReader (body), for the caller to
// Verify once the package's checks read it, so that the chunk is decoded
// once rather than twice.
func readPackageChunkLazy(f *iostore.File, i int, buf []byte) (data []byte, body *iostore.ChunkReader, err error) {
	if int64(f.OffsetLength(i).Length) <= zenWholeMax {
		return readPackageChunk(f, i, buf)
	}
	body, err = f.VerifyingChunkReader(i)
	return nil, body, err
}
