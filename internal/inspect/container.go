package inspect

import (
	"io/fs"
	"strings"
	"sync"
)

// Container is an opened .utoc/.ucas or .pak, for `upkg ls`, `cat`,
// `extract` and the page's container view. It is an fs.FS over the files of
// its directory index (paths without the leading slash, mount point applied,
// e.g. "Game/Content/Maps/Level1.umap").
type Container interface {
	fs.FS
	// Format is "utoc" or "pak".
	Format() string
	// Entries lists everything stored, in container order, including chunks
	// that have no path (IoStore chunks outside the directory index).
	Entries() []ContainerEntry
	// Len and Entry are Entries one at a time, for callers that do not
	// keep them (ls of a container of hundreds of thousands of files):
	// Entry(i) is Entries()[i], for 0 <= i < Len().
	Len() int
	Entry(i int) ContainerEntry
	// Summary describes the container header for `upkg info` on a container.
	Summary() []Field
	// VerifyEntry checks the stored hash of entry i (reading and
	// decompressing its data). It returns nil when the hash matches or the
	// format stores none for it.
	VerifyEntry(i int) error
	Close() error
}

// EntryBrief is c.Entry(i) without what costs a read of its own (the hash
// of a .pak entry of version 10+, stored before its data; Hash is then
// empty): for callers that look at names and sizes.
func EntryBrief(c Container, i int) ContainerEntry {
	if b, ok := c.(interface{ entryBrief(i int) ContainerEntry }); ok {
		return b.entryBrief(i)
	}
	return c.Entry(i)
}

// ContainerEntry is one line of `upkg ls --long`.
type ContainerEntry struct {
	Path           string `json:"path,omitempty"` // "" for chunks without a directory entry
	ChunkID        string `json:"chunk_id,omitempty"`
	ChunkType      string `json:"chunk_type,omitempty"`
	Offset         int64  `json:"offset"`
	Size           int64  `json:"size"`            // uncompressed
	CompressedSize int64  `json:"compressed_size"` // as stored
	Compression    string `json:"compression,omitempty"`
	Encrypted      bool   `json:"encrypted,omitempty"`
	Hash           string `json:"hash,omitempty"` // hex as stored (SHA-1 or IoHash)
	Partition      int    `json:"partition,omitempty"`
}

// ContainerFormat opens one kind of container from a path on disk.
type ContainerFormat struct {
	Ext  string // ".utoc", ".pak"
	Open func(path string, opts *Options) (Container, error)
}

var (
	cmu              sync.RWMutex
	containerFormats []ContainerFormat
)

// RegisterContainerFormat adds a container kind for ls/cat/extract/verify.
func RegisterContainerFormat(f ContainerFormat) {
	cmu.Lock()
	containerFormats = append(containerFormats, f)
	cmu.Unlock()
}

// ContainerFormatFor returns the container kind for a path, by extension.
func ContainerFormatFor(path string) (ContainerFormat, bool) {
	cmu.RLock()
	defer cmu.RUnlock()
	for _, f := range containerFormats {
		if strings.HasSuffix(strings.ToLower(path), f.Ext) {
			return f, true
		}
	}
	return ContainerFormat{}, false
}

// EntriesDump is implemented by the Dump of a container (a [Package]'s
// Dump): its JSON holds one list of every entry, which a writer can stream
// one entry at a time instead of building it whole (a container of
// hundreds of thousands of files makes a list of hundreds of MB).
type EntriesDump interface {
	// DumpWith returns the dump with entries in place of the list.
	DumpWith(entries any) any
	// Len and Entry give the list's entries.
	Len() int
	Entry(i int) ContainerEntry
}
