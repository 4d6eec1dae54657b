package flate

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// Errors of the zlib and gzip framing, worded like compress/zlib's and
// compress/gzip's.
var (
	ErrZlibHeader     = errors.New("zlib: invalid header")
	ErrZlibDictionary = errors.New("zlib: invalid dictionary")
	ErrZlibChecksum   = errors.New("zlib: invalid checksum")
	ErrGzipHeader     = errors.New("gzip: invalid header")
	ErrGzipChecksum   = errors.New("gzip: invalid checksum")
)

// finish turns the result of decoding into dst the way reading exactly
// len(dst) bytes from a stream reader and then one more would: more output
// is [ErrTooLong], less is the error that stopped it, and what follows a
// full dst (trailer, checksum) is not looked at.
func finish(dst []byte, n int, err error) error {
	switch {
	case err == ErrTooLong:
		return err
	case n == len(dst):
		return nil
	case err == errEOF || err == nil:
		return io.ErrUnexpectedEOF
	}
	return err
}

// ZlibDecompress decodes the zlib stream src into dst, which must be
// exactly the decompressed size. It reads the stream the way reading
// exactly len(dst) bytes through compress/zlib and then one more would,
// except that the Adler-32 checksum is verified whenever the stream ends
// with its trailer: a reader reports a wrong checksum only with the last
// bytes of the stream, which io.ReadFull drops once dst is full. A stream
// that goes on (or is corrupt) after len(dst) bytes, or whose trailer is
// cut off, is read like a reader would.
func ZlibDecompress(dst, src []byte) error {
	if len(src) < 2 {
		return io.ErrUnexpectedEOF
	}
	h := uint(src[0])<<8 | uint(src[1])
	if src[0]&0x0f != 8 || src[0]>>4 > 7 || h%31 != 0 {
		return ErrZlibHeader
	}
	start := 2
	if src[1]&0x20 != 0 {
		// A preset dictionary: readers are given none, which they accept
		// only as the dictionary whose Adler-32 (1) the stream names.
		if len(src) < 6 {
			return io.ErrUnexpectedEOF
		}
		if binary.BigEndian.Uint32(src[2:]) != 1 {
			return ErrZlibDictionary
		}
		start = 6
	}
	n, used, err := Inflate(dst, src[start:])
	if err == nil {
		// The stream ended: check its trailer, if it is there.
		t := src[start+used:]
		if len(t) >= 4 && adlerChecksum(dst[:n]) != binary.BigEndian.Uint32(t) {
			return ErrZlibChecksum
		}
	}
	return finish(dst, n, err)
}

// gzip header flags (RFC 1952 2.3.1).
const (
	gzFHCRC    = 1 << 1
	gzFEXTRA   = 1 << 2
	gzFNAME    = 1 << 3
	gzFCOMMENT = 1 << 4
)

// GzipDecompress decodes the gzip stream src (one or more members) into
// dst, which must be exactly the decompressed size; like
// [ZlibDecompress], trailers are not verified once dst is full.
func GzipDecompress(dst, src []byte) error {
	n := 0
	for first := true; ; first = false {
		body, err := gzipHeader(src)
		if err != nil {
			if !first && n == len(dst) {
				return nil // a reader stops looking once dst is full
			}
			return err
		}
		m, used, err := Inflate(dst[n:], body)
		if err != nil {
			return finish(dst, n+m, err)
		}
		// The member ended: a multistream reader checks its trailer
		// (CRC-32, size) and goes on with the next member.
		t := body[used:]
		if len(t) < 8 || crc32.ChecksumIEEE(dst[n:n+m]) != binary.LittleEndian.Uint32(t) || uint32(m) != binary.LittleEndian.Uint32(t[4:]) {
			switch {
			case n+m == len(dst):
				return nil
			case len(t) < 8:
				return io.ErrUnexpectedEOF
			}
			return ErrGzipChecksum
		}
		n += m
		src = t[8:]
		if len(src) == 0 {
			return finish(dst, n, nil)
		}
	}
}

// gzipHeader checks a gzip member header and returns what follows it.
func gzipHeader(src []byte) ([]byte, error) {
	if len(src) < 10 {
		if len(src) == 0 {
			return nil, ErrGzipHeader
		}
		return nil, io.ErrUnexpectedEOF
	}
	if src[0] != 0x1f || src[1] != 0x8b || src[2] != 8 {
		return nil, ErrGzipHeader
	}
	flg := src[3]
	p := 10
	if flg&gzFEXTRA != 0 {
		if len(src)-p < 2 {
			return nil, io.ErrUnexpectedEOF
		}
		xlen := int(src[p]) | int(src[p+1])<<8
		p += 2
		if len(src)-p < xlen {
			return nil, io.ErrUnexpectedEOF
		}
		p += xlen
	}
	for _, f := range []byte{gzFNAME, gzFCOMMENT} {
		if flg&f == 0 {
			continue
		}
		for {
			if p >= len(src) {
				return nil, io.ErrUnexpectedEOF
			}
			p++
			if src[p-1] == 0 {
				break
			}
		}
	}
	if flg&gzFHCRC != 0 {
		if len(src)-p < 2 {
			return nil, io.ErrUnexpectedEOF
		}
		if uint16(crc32.ChecksumIEEE(src[:p])) != uint16(src[p])|uint16(src[p+1])<<8 {
			return nil, ErrGzipHeader
		}
		p += 2
	}
	return src[p:], nil
}
