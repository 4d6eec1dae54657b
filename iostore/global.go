package iostore

import (
	"bytes"
	"fmt"
	"math"

	"github.com/upkg/upkg/zen"
)

// IsGlobal reports whether f is a global container (global.utoc): it holds
// the script objects (UE5) or the loader global names and meta (UE4).
func (f *File) IsGlobal() bool {
	if _, ok := f.FindChunk(0, 0, ChunkScriptObjects); ok && !UsesUE4ChunkTypes(f.Header.Version) {
		return true
	}
	_, ok := f.ChunkIndex(NewChunkID(0, 0, ChunkUE4LoaderInitialLoadMeta))
	return ok && UsesUE4ChunkTypes(f.Header.Version)
}

// ScriptObjects reads the global script-object table of a global
// container: the ScriptObjects chunk (UE5), or the LoaderGlobalNames,
// LoaderGlobalNameHashes and LoaderInitialLoadMeta chunks (UE4).
func (f *File) ScriptObjects() (*zen.ScriptObjects, error) { return f.ScriptObjectsCached(nil) }

// ScriptObjectsCached is [File.ScriptObjects] with a UE5 table parsed
// through c (nil: parsed afresh), so that containers with the same chunk
// share it.
func (f *File) ScriptObjectsCached(c *zen.ScriptObjectsCache) (*zen.ScriptObjects, error) {
	return f.scriptObjects(c, false)
}

// ScriptObjectsInPlace is [File.ScriptObjectsCached] that parses a UE5
// table in place when its chunk is stored whole, uncompressed and
// unencrypted, in a partition held in memory (see [File.ChunkInPlace]):
// the table then refers to f's memory, so f must stay open as long as the
// table is used (a caller may close f in a cleanup of the table).
func (f *File) ScriptObjectsInPlace(c *zen.ScriptObjectsCache) (*zen.ScriptObjects, error) {
	return f.scriptObjects(c, true)
}

func (f *File) scriptObjects(c *zen.ScriptObjectsCache, inPlace bool) (*zen.ScriptObjects, error) {
	if !UsesUE4ChunkTypes(f.Header.Version) {
		i, ok := f.FindChunk(0, 0, ChunkScriptObjects)
		if !ok {
			return nil, fmt.Errorf("%w: ScriptObjects chunk (not a global container)", ErrNotFound)
		}
		parse := zen.ParseScriptObjects
		if c != nil {
			// A copy of the last global container (test fixtures copy one
			// game's beside each variant): compared as it is read, with
			// no chunk-sized buffer.
			if s, ok := c.Cached(func(want []byte) bool { return f.chunkEquals(i, want) }); ok {
				return s, nil
			}
			parse = c.Parse
		}
		data, ok := []byte(nil), false
		if inPlace {
			data, ok = f.ChunkInPlace(i)
		}
		if !ok {
			var err error
			if data, err = f.ReadChunk(i); err != nil {
				return nil, err
			}
		}
		s, err := parse(data)
		if err != nil {
			return nil, f.chunkErr(i, err)
		}
		return s, nil
	}
	read := func(t ChunkType) ([]byte, error) {
		i, ok := f.ChunkIndex(NewChunkID(0, 0, t))
		if !ok {
			return nil, fmt.Errorf("%w: %s chunk (not a global container)", ErrNotFound, t.Name(f.Header.Version))
		}
		return f.ReadChunk(i)
	}
	names, err := read(ChunkUE4LoaderGlobalNames)
	if err != nil {
		return nil, err
	}
	hashes, err := read(ChunkUE4LoaderGlobalNameHashes)
	if err != nil {
		hashes = nil
	}
	meta, err := read(ChunkUE4LoaderInitialLoadMeta)
	if err != nil {
		return nil, err
	}
	return zen.ParseScriptObjectsUE4(names, hashes, meta)
}

// chunkEquals reports whether chunk i reads without error and holds
// exactly the bytes want.
func (f *File) chunkEquals(i int, want []byte) bool {
	ol := f.OffsetLength(i)
	if ol.Length != uint64(len(want)) || ol.Length == 0 {
		return false
	}
	same, pos := true, 0
	err := f.walkRange(ol.Offset, ol.Length, nil, func(p []byte) {
		if same && (len(p) > len(want)-pos || !bytes.Equal(p, want[pos:pos+len(p)])) {
			same = false
		}
		pos += len(p)
	})
	return err == nil && same && pos == len(want)
}

// ChunkInPlace returns the bytes of chunk i in place, as [File.ReadChunk]
// reads them, when they are one run of stored (uncompressed, unencrypted,
// unsigned) blocks in a partition held in memory ([binread.Mem], such as a
// mapped file); ok is false otherwise. The bytes are f's: they must not be
// modified, nor used once f is closed.
func (f *File) ChunkInPlace(i int) (data []byte, ok bool) {
	if i < 0 || i >= len(f.ChunkIDs) || f.loadBlocks() != nil {
		return nil, false
	}
	ol := f.OffsetLength(i)
	bs := uint64(f.Header.CompressionBlockSize)
	if ol.Length == 0 || bs == 0 || ol.Offset+ol.Length < ol.Offset {
		return nil, false
	}
	first, last := ol.Offset/bs, (ol.Offset+ol.Length-1)/bs
	if last >= uint64(f.NumBlocks()) {
		return nil, false
	}
	run := f.storedRun(int(first), int(last), ol.Offset%bs, ol.Length, math.MaxUint64)
	if run.blocks == 0 || run.n != ol.Length {
		return nil, false
	}
	return f.storedInMem(run)
}
