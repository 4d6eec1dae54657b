// Package oodle decodes blocks compressed with RAD Game Tools' Oodle Data
// compression as Unreal Engine containers store them (pak, IoStore, Mass
// Effect Legendary Edition packages, .usmap mappings). It is a clean-room
// pure-Go decoder of the Kraken, Mermaid/Selkie and Leviathan codecs,
// written from the format as documented by the reverse-engineered "ooz"
// project. The legacy LZNA and BitKnit codecs are recognised and reported
// as unsupported.
//
// An Oodle block is a sequence of quanta of up to 256 KiB of output each.
// A two-byte block header (codec, flags) opens every 256 KiB; each quantum
// has a header (compressed size, or a memset byte). A quantum then holds
// one or two chunks of up to 128 KiB, each either entropy-only or an LZ
// chunk made of entropy-coded byte arrays (literals, commands, offsets,
// lengths) that a copy loop turns into output; earlier output of the block
// is the match window. Entropy-coded arrays are stored raw, Huffman coded
// (one or two triples of interleaved bit streams), tANS coded, run-length
// coded, or split recursively (including multi-arrays).
package oodle

import (
	"errors"
	"fmt"
)

// Codec identifies an Oodle compressor, as stored in the second byte of a
// block header.
type Codec int

// Codec values as Oodle stores them.
const (
	LZNA      Codec = 5
	Kraken    Codec = 6
	Mermaid   Codec = 10
	BitKnit   Codec = 11
	Leviathan Codec = 12
)

func (c Codec) String() string {
	switch c {
	case LZNA:
		return "LZNA"
	case Kraken:
		return "Kraken"
	case Mermaid:
		return "Mermaid/Selkie"
	case BitKnit:
		return "BitKnit"
	case Leviathan:
		return "Leviathan"
	}
	return fmt.Sprintf("codec %d", int(c))
}

// ErrCorrupt is wrapped by every error that reports malformed input.
var ErrCorrupt = errCorrupt

// Error reports malformed compressed data: what was wrong and where (the
// offset in the compressed block of the quantum being decoded, and the
// output offset it was to fill).
type Error struct {
	Offset    int // offset in the compressed block
	OutOffset int // offset in the decompressed output
	Reason    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("oodle: corrupt block at compressed offset %d (output offset %d): %s", e.Offset, e.OutOffset, e.Reason)
}

// Unwrap lets errors.Is(err, ErrCorrupt) match.
func (e *Error) Unwrap() error { return errCorrupt }

// UnsupportedError reports a block compressed with an Oodle codec this
// package does not decode.
type UnsupportedError struct {
	Codec  Codec
	Offset int // offset of the block header in the compressed block
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("oodle: %s-compressed block (codec %d at compressed offset %d): codec not supported (Kraken, Mermaid/Selkie and Leviathan are)", e.Codec, int(e.Codec), e.Offset)
}

func fail(off, out int, err error) error {
	var se *streamError
	if errors.As(err, &se) {
		return &Error{Offset: off, OutOffset: out, Reason: se.what}
	}
	return &Error{Offset: off, OutOffset: out, Reason: err.Error()}
}

// Decompress decodes the Oodle block src into dst, whose length must be the
// exact decompressed size. It fills all of dst or returns an error
// (*Error for malformed data, *UnsupportedError for a codec other than
// Kraken, Mermaid/Selkie and Leviathan). Bytes after the end of the stream are ignored.
func Decompress(dst, src []byte) error {
	d := decoders.Get().(*decoder)
	defer decoders.Put(d)
	p, out := 0, 0
	var codec Codec
	var uncompressed, checksums bool
	for out < len(dst) {
		if out&0x3FFFF == 0 {
			if len(src)-p < 2 {
				return fail(p, out, corrupt("truncated block header"))
			}
			b := src[p]
			if b&0xF != 0xC || (b>>4)&3 != 0 {
				return fail(p, out, corrupt(fmt.Sprintf("bad block header byte 0x%02X", b)))
			}
			uncompressed = b>>6&1 == 1
			codec = Codec(src[p+1] & 0x7F)
			checksums = src[p+1]>>7 == 1
			if codec != Kraken && codec != Leviathan && codec != Mermaid {
				switch codec {
				case LZNA, BitKnit:
					return &UnsupportedError{Codec: codec, Offset: p}
				}
				return fail(p, out, corrupt(fmt.Sprintf("unknown codec %d", int(codec))))
			}
			p += 2
		}
		n := len(dst) - out
		if n > 0x40000 {
			n = 0x40000
		}
		if uncompressed {
			if len(src)-p < n {
				return fail(p, out, corrupt("truncated stored quantum"))
			}
			copy(dst[out:], src[p:p+n])
			p += n
			out += n
			continue
		}
		if len(src)-p < 3 {
			return fail(p, out, corrupt("truncated quantum header"))
		}
		qoff := p
		v := int(src[p])<<16 | int(src[p+1])<<8 | int(src[p+2])
		size := v & 0x3FFFF
		if size == 0x3FFFF {
			if v>>18 != 1 || len(src)-p < 4 {
				return fail(p, out, corrupt("bad special quantum header"))
			}
			c := src[p+3]
			for i := out; i < out+n; i++ {
				dst[i] = c
			}
			p += 4
			out += n
			continue
		}
		size++
		p += 3
		if checksums {
			// A 24-bit checksum of the compressed quantum follows; its
			// algorithm is not documented, so it is skipped, not checked.
			if len(src)-p < 3 {
				return fail(p, out, corrupt("truncated quantum checksum"))
			}
			p += 3
		}
		if len(src)-p < size {
			return fail(qoff, out, corrupt(fmt.Sprintf("quantum of %d bytes runs past the %d-byte block", size, len(src))))
		}
		if size > n {
			return fail(qoff, out, corrupt("quantum larger than its output"))
		}
		if size == n {
			copy(dst[out:], src[p:p+n])
		} else {
			lz := (*decoder).krakenChunk
			switch codec {
			case Leviathan:
				lz = (*decoder).leviathanChunk
			case Mermaid:
				lz = (*decoder).mermaidChunk
			}
			used, err := d.decodeQuantum(src[p:p+size], dst, out, out+n, lz)
			if err != nil {
				return fail(qoff, out, err)
			}
			if used != size {
				return fail(qoff, out, corrupt("quantum size mismatch"))
			}
		}
		p += size
		out += n
	}
	return nil
}
