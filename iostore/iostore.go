// Package iostore reads Unreal Engine IoStore containers: the .utoc table of
// contents and the .ucas data files beside it (including partitions
// NAME_s1.ucas …), for every TOC version from 4.25's Initial (1) to UE 5.8 /
// 6.0's ContainerEncryptionMethod (10).
//
// The format is defined by the engine's IoStore.h / IoStore.cpp
// (FIoStoreTocHeader, FIoStoreTocResource, FIoDirectoryIndexResource) and
// IoContainerHeader.h (FIoContainerHeader). [Open] reads the TOC eagerly
// except its compression block table, the bulk of a large TOC, and its chunk
// metas (hashes), which are read on first use; chunk data is read lazily with
// [File.ReadChunk] (stored blocks that follow each other in one read), streamed
// block by block with [File.OpenChunkStream], or read at any offset through a
// [ChunkReader] (one from [File.VerifyingChunkReader] also checks the hash of
// what it read). Reads decrypt (AES-256 ECB, or
// CTR with per-block IVs from TOC version 10), check block signatures of
// signed containers, decompress through the [compression] registry (Oodle
// included; a codec without a decoder reports an [UnsupportedError] naming
// the chunk) and verify the chunk hash:
// SHA-1 for UE 4.25–4.27, BLAKE3 (FIoHash) for UE5.
//
// The package store (container header) is [File.ContainerHeader], the
// global container's script objects [File.ScriptObjects]; the zen packages
// themselves are read by package zen.
//
// # Security
//
// The TOC is untrusted input. Every count is checked against the bytes of the
// TOC before anything is allocated, every index read from the directory index
// is bounds-checked, directory traversal refuses cycles, and a chunk's data is
// read only from compression blocks that exist, each at most 16 MiB
// uncompressed (the 24-bit field). Paths from the directory index that are
// not valid io/fs paths (".." elements, empty names) are listed but never
// served through [File.FS], so an extractor built on it cannot be steered
// outside its output folder.
package iostore

import (
	"errors"
	"fmt"
)

// FormatError reports a TOC or chunk that is malformed: what was wrong and
// where (the file and the byte offset).
type FormatError struct {
	File   string // file name, "" when reading from an io.ReaderAt
	Offset int64  // byte offset of the bad field, -1 when not applicable
	Msg    string
	Err    error // underlying cause, may be nil
}

func (e *FormatError) Error() string {
	s := "iostore: "
	if e.File != "" {
		s += e.File + ": "
	}
	s += e.Msg
	if e.Offset >= 0 {
		s += fmt.Sprintf(" (at offset 0x%x)", e.Offset)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *FormatError) Unwrap() error { return e.Err }

// UnsupportedError reports a valid container that uses something this
// package cannot read (an unknown TOC version, a compression method without
// decoder).
type UnsupportedError struct {
	File string
	What string
	Err  error
}

func (e *UnsupportedError) Error() string {
	s := "iostore: "
	if e.File != "" {
		s += e.File + ": "
	}
	s += "unsupported: " + e.What
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *UnsupportedError) Unwrap() error { return e.Err }

var (
	// ErrNotIoStore reports a file that does not start with the TOC magic.
	ErrNotIoStore = errors.New("iostore: not an IoStore .utoc (magic \"-==--==--==--==-\" missing)")
	// ErrNeedKey reports an encrypted container opened without an AES key.
	ErrNeedKey = errors.New("iostore: container is encrypted: an AES-256 key is needed (--aes-key)")
	// ErrWrongKey reports an AES key that does not decrypt the container:
	// the decrypted directory index does not validate.
	ErrWrongKey = errors.New("iostore: wrong AES key: the decrypted directory index is not valid")
	// ErrNoCas reports a read from a TOC whose .ucas file is absent (a
	// TOC-only copy of a game build).
	ErrNoCas = errors.New("iostore: no .ucas beside the .utoc: chunk data is not available")
	// ErrHash reports chunk data whose hash differs from the TOC's.
	ErrHash = errors.New("iostore: chunk hash mismatch")
	// ErrSignature reports a compression block whose SHA-1 differs from the
	// signed container's block signature (tampered or corrupt data).
	ErrSignature = errors.New("iostore: block signature mismatch")
	// ErrNotFound reports a chunk ID or path the container does not hold.
	ErrNotFound = errors.New("iostore: no such chunk")
)
