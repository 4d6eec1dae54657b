package legacy

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/upkg/upkg/compression"
)

// UE3 on PC and Xbox 360 compresses package chunks with LZO1X-1 (the
// miniLZO profile). The decoder below is written from the LZO1X stream
// format: an instruction byte selects a literal run or one of four match
// kinds (M1..M4) by its range, and the low two bits of the last offset byte
// carry 0–3 trailing literals. It is bounds-checked on every step and is
// registered as "LZO" in the compression registry.

func init() {
	compression.Register("LZO", decompressLZO)
}

var errLZO = errors.New("lzo: corrupt input")

// lzoState are the states of the LZO1X decoder (the labels of the
// reference decompressor).
type lzoState uint8

const (
	lzoLiteralRun   lzoState = iota // next byte starts a literal run or a match
	lzoFirstLiteral                 // just copied a long literal run
	lzoMatch                        // t holds a match instruction
	lzoMatchNext                    // copy t trailing literals, then a match
)

// decompressLZO expands an LZO1X stream into dst, which must be filled exactly.
func decompressLZO(dst, src []byte) error {
	var ip, op int
	in := func() (int, error) {
		if ip >= len(src) {
			return 0, fmt.Errorf("%w: input ends at %d", errLZO, ip)
		}
		ip++
		return int(src[ip-1]), nil
	}
	// runLength reads the zero-extended length of a long run.
	runLength := func(base int) (int, error) {
		n := 0
		for {
			if ip >= len(src) {
				return 0, fmt.Errorf("%w: input ends in a run length", errLZO)
			}
			if src[ip] != 0 {
				break
			}
			n += 255
			ip++
			if n > len(dst) {
				return 0, fmt.Errorf("%w: run longer than the output", errLZO)
			}
		}
		b, err := in()
		return n + base + b, err
	}
	literals := func(n int) error {
		if n > len(src)-ip || n > len(dst)-op {
			return fmt.Errorf("%w: literal run of %d at %d overruns", errLZO, n, ip)
		}
		if n <= 16 && len(src)-ip >= 16 && len(dst)-op >= 16 {
			// Short runs (most of them) in two words: the bytes past
			// the run are output still to be written.
			binary.LittleEndian.PutUint64(dst[op:], binary.LittleEndian.Uint64(src[ip:]))
			binary.LittleEndian.PutUint64(dst[op+8:], binary.LittleEndian.Uint64(src[ip+8:]))
		} else {
			copy(dst[op:], src[ip:ip+n])
		}
		ip += n
		op += n
		return nil
	}
	match := func(pos, n int) error {
		if pos < 0 || pos >= op || n > len(dst)-op {
			return fmt.Errorf("%w: match at distance %d of %d bytes at output %d", errLZO, op-pos, n, op)
		}
		if n <= 16 && op-pos >= 8 && len(dst)-op >= 16 {
			// Short matches (most of them) in two words, the second read
			// after the first is written (the distance is at least 8);
			// the bytes past the match are output still to be written.
			binary.LittleEndian.PutUint64(dst[op:], binary.LittleEndian.Uint64(dst[pos:]))
			binary.LittleEndian.PutUint64(dst[op+8:], binary.LittleEndian.Uint64(dst[pos+8:]))
		} else if pos+n <= op {
			copy(dst[op:op+n], dst[pos:])
		} else {
			for i := range n { // overlapping copies repeat bytes, so go byte by byte
				dst[op+i] = dst[pos+i]
			}
		}
		op += n
		return nil
	}

	var t int
	var err error
	state := lzoLiteralRun
	if len(src) > 0 && src[0] > 17 {
		ip = 1
		t = int(src[0]) - 17
		if t < 4 {
			state = lzoMatchNext
		} else {
			if err := literals(t); err != nil {
				return err
			}
			state = lzoFirstLiteral
		}
	}
	for {
		switch state {
		case lzoLiteralRun:
			if t, err = in(); err != nil {
				return err
			}
			if t >= 16 {
				state = lzoMatch
				continue
			}
			if t == 0 {
				if t, err = runLength(15); err != nil {
					return err
				}
			}
			if err := literals(t + 3); err != nil {
				return err
			}
			state = lzoFirstLiteral

		case lzoFirstLiteral:
			if t, err = in(); err != nil {
				return err
			}
			if t >= 16 {
				state = lzoMatch
				continue
			}
			b, err := in()
			if err != nil {
				return err
			}
			if err := match(op-(1+0x0800)-(t>>2)-(b<<2), 3); err != nil {
				return err
			}
			if state, t, err = lzoAfterMatch(src, ip); err != nil {
				return err
			}

		case lzoMatch:
			switch {
			case t >= 64: // M2: 3..8 bytes within 2 KiB
				b, err := in()
				if err != nil {
					return err
				}
				if err := match(op-1-((t>>2)&7)-(b<<3), (t>>5)+1); err != nil {
					return err
				}
			case t >= 32: // M3: up to 16 KiB back
				t &= 31
				if t == 0 {
					if t, err = runLength(31); err != nil {
						return err
					}
				}
				if ip+2 > len(src) {
					return fmt.Errorf("%w: input ends in an M3 offset", errLZO)
				}
				d := (int(src[ip]) | int(src[ip+1])<<8) >> 2
				ip += 2
				if err := match(op-1-d, t+2); err != nil {
					return err
				}
			case t >= 16: // M4: 16..48 KiB back, or the end marker
				pos := op - (t&8)<<11
				t &= 7
				if t == 0 {
					if t, err = runLength(7); err != nil {
						return err
					}
				}
				if ip+2 > len(src) {
					return fmt.Errorf("%w: input ends in an M4 offset", errLZO)
				}
				pos -= (int(src[ip]) | int(src[ip+1])<<8) >> 2
				ip += 2
				if pos == op {
					if op != len(dst) {
						return fmt.Errorf("%w: stream ends after %d of %d bytes", errLZO, op, len(dst))
					}
					return nil
				}
				if err := match(pos-0x4000, t+2); err != nil {
					return err
				}
			default: // M1: 2 bytes within 1 KiB, after a short literal run
				b, err := in()
				if err != nil {
					return err
				}
				if err := match(op-1-(t>>2)-(b<<2), 2); err != nil {
					return err
				}
			}
			if state, t, err = lzoAfterMatch(src, ip); err != nil {
				return err
			}

		case lzoMatchNext:
			if err := literals(t); err != nil {
				return err
			}
			if t, err = in(); err != nil {
				return err
			}
			state = lzoMatch
		}
	}
}

// lzoAfterMatch reads the trailing-literal count from the low bits of the
// byte two before ip.
func lzoAfterMatch(src []byte, ip int) (lzoState, int, error) {
	if ip < 2 {
		return 0, 0, errLZO
	}
	t := int(src[ip-2]) & 3
	if t == 0 {
		return lzoLiteralRun, 0, nil
	}
	return lzoMatchNext, t, nil
}
