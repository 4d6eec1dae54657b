// Package blake3 is a small portable implementation of the BLAKE3 hash
// (https://github.com/BLAKE3-team/BLAKE3-specs), enough for Unreal's FIoHash:
// the default hash mode, any input length, 32 bytes of output. FIoHash keeps
// the first 20 bytes.
//
// This file is the portable implementation, in pure Go (it must build for
// js/wasm), without SIMD: the rounds are unrolled, and whole chunks are
// compressed straight from the input without buffering. Inputs are hashed
// one chunk at a time; verify runs one container per core, which keeps the
// cores busy without a parallel tree.
//
// On amd64 (unless built with the purego tag), CPUs with AVX-512 hash 16
// chunks at once, and 16 parent nodes at once, with the kernels of
// hash_avx512_amd64.s, and CPUs with AVX2 8 at once with those of
// hash_avx2_amd64.s (both written by gen.go), driven by the tree code of
// wide_amd64.go; single blocks (an input's last chunk, lone parents) go
// through XMM-row assembly versions of the compression function. The
// tests check all of them against each other and against the official
// vectors.
package blake3

import (
	"encoding/binary"
	"math/bits"
)

const (
	blockLen = 64
	chunkLen = 1024

	flagChunkStart = 1 << 0
	flagChunkEnd   = 1 << 1
	flagParent     = 1 << 2
	flagRoot       = 1 << 3
)

// iv is the BLAKE3 IV (the SHA-256 initial hash words).
var iv = [8]uint32{
	0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
	0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
}

// The message word permutation applied between rounds is
// {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8}; compress has it
// resolved into each round's word indices.

// compressGeneric runs the compression function and returns the first 8 words of
// its output: the chaining value, or the first 32 bytes of root output
// (all this package produces). The seven rounds are unrolled with the message schedule (the
// permutation applied round after round) resolved in advance, and the
// state kept in locals; this file is generated in that shape for speed.
func compressGeneric(cv *[8]uint32, m *[16]uint32, counter uint64, n uint32, flags uint32) [8]uint32 {
	v0, v1, v2, v3, v4, v5, v6, v7 := cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7]
	v8, v9, v10, v11 := iv[0], iv[1], iv[2], iv[3]
	v12, v13, v14, v15 := uint32(counter), uint32(counter>>32), n, flags
	// Round 1.
	v0 += v4 + m[0]
	v12 = bits.RotateLeft32(v12^v0, -16)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -12)
	v0 += v4 + m[1]
	v12 = bits.RotateLeft32(v12^v0, -8)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -7)
	v1 += v5 + m[2]
	v13 = bits.RotateLeft32(v13^v1, -16)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -12)
	v1 += v5 + m[3]
	v13 = bits.RotateLeft32(v13^v1, -8)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -7)
	v2 += v6 + m[4]
	v14 = bits.RotateLeft32(v14^v2, -16)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -12)
	v2 += v6 + m[5]
	v14 = bits.RotateLeft32(v14^v2, -8)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -7)
	v3 += v7 + m[6]
	v15 = bits.RotateLeft32(v15^v3, -16)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -12)
	v3 += v7 + m[7]
	v15 = bits.RotateLeft32(v15^v3, -8)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -7)
	v0 += v5 + m[8]
	v15 = bits.RotateLeft32(v15^v0, -16)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -12)
	v0 += v5 + m[9]
	v15 = bits.RotateLeft32(v15^v0, -8)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -7)
	v1 += v6 + m[10]
	v12 = bits.RotateLeft32(v12^v1, -16)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -12)
	v1 += v6 + m[11]
	v12 = bits.RotateLeft32(v12^v1, -8)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -7)
	v2 += v7 + m[12]
	v13 = bits.RotateLeft32(v13^v2, -16)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -12)
	v2 += v7 + m[13]
	v13 = bits.RotateLeft32(v13^v2, -8)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -7)
	v3 += v4 + m[14]
	v14 = bits.RotateLeft32(v14^v3, -16)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -12)
	v3 += v4 + m[15]
	v14 = bits.RotateLeft32(v14^v3, -8)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -7)
	// Round 2.
	v0 += v4 + m[2]
	v12 = bits.RotateLeft32(v12^v0, -16)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -12)
	v0 += v4 + m[6]
	v12 = bits.RotateLeft32(v12^v0, -8)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -7)
	v1 += v5 + m[3]
	v13 = bits.RotateLeft32(v13^v1, -16)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -12)
	v1 += v5 + m[10]
	v13 = bits.RotateLeft32(v13^v1, -8)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -7)
	v2 += v6 + m[7]
	v14 = bits.RotateLeft32(v14^v2, -16)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -12)
	v2 += v6 + m[0]
	v14 = bits.RotateLeft32(v14^v2, -8)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -7)
	v3 += v7 + m[4]
	v15 = bits.RotateLeft32(v15^v3, -16)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -12)
	v3 += v7 + m[13]
	v15 = bits.RotateLeft32(v15^v3, -8)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -7)
	v0 += v5 + m[1]
	v15 = bits.RotateLeft32(v15^v0, -16)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -12)
	v0 += v5 + m[11]
	v15 = bits.RotateLeft32(v15^v0, -8)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -7)
	v1 += v6 + m[12]
	v12 = bits.RotateLeft32(v12^v1, -16)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -12)
	v1 += v6 + m[5]
	v12 = bits.RotateLeft32(v12^v1, -8)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -7)
	v2 += v7 + m[9]
	v13 = bits.RotateLeft32(v13^v2, -16)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -12)
	v2 += v7 + m[14]
	v13 = bits.RotateLeft32(v13^v2, -8)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -7)
	v3 += v4 + m[15]
	v14 = bits.RotateLeft32(v14^v3, -16)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -12)
	v3 += v4 + m[8]
	v14 = bits.RotateLeft32(v14^v3, -8)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -7)
	// Round 3.
	v0 += v4 + m[3]
	v12 = bits.RotateLeft32(v12^v0, -16)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -12)
	v0 += v4 + m[4]
	v12 = bits.RotateLeft32(v12^v0, -8)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -7)
	v1 += v5 + m[10]
	v13 = bits.RotateLeft32(v13^v1, -16)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -12)
	v1 += v5 + m[12]
	v13 = bits.RotateLeft32(v13^v1, -8)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -7)
	v2 += v6 + m[13]
	v14 = bits.RotateLeft32(v14^v2, -16)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -12)
	v2 += v6 + m[2]
	v14 = bits.RotateLeft32(v14^v2, -8)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -7)
	v3 += v7 + m[7]
	v15 = bits.RotateLeft32(v15^v3, -16)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -12)
	v3 += v7 + m[14]
	v15 = bits.RotateLeft32(v15^v3, -8)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -7)
	v0 += v5 + m[6]
	v15 = bits.RotateLeft32(v15^v0, -16)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -12)
	v0 += v5 + m[5]
	v15 = bits.RotateLeft32(v15^v0, -8)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -7)
	v1 += v6 + m[9]
	v12 = bits.RotateLeft32(v12^v1, -16)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -12)
	v1 += v6 + m[0]
	v12 = bits.RotateLeft32(v12^v1, -8)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -7)
	v2 += v7 + m[11]
	v13 = bits.RotateLeft32(v13^v2, -16)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -12)
	v2 += v7 + m[15]
	v13 = bits.RotateLeft32(v13^v2, -8)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -7)
	v3 += v4 + m[8]
	v14 = bits.RotateLeft32(v14^v3, -16)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -12)
	v3 += v4 + m[1]
	v14 = bits.RotateLeft32(v14^v3, -8)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -7)
	// Round 4.
	v0 += v4 + m[10]
	v12 = bits.RotateLeft32(v12^v0, -16)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -12)
	v0 += v4 + m[7]
	v12 = bits.RotateLeft32(v12^v0, -8)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -7)
	v1 += v5 + m[12]
	v13 = bits.RotateLeft32(v13^v1, -16)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -12)
	v1 += v5 + m[9]
	v13 = bits.RotateLeft32(v13^v1, -8)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -7)
	v2 += v6 + m[14]
	v14 = bits.RotateLeft32(v14^v2, -16)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -12)
	v2 += v6 + m[3]
	v14 = bits.RotateLeft32(v14^v2, -8)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -7)
	v3 += v7 + m[13]
	v15 = bits.RotateLeft32(v15^v3, -16)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -12)
	v3 += v7 + m[15]
	v15 = bits.RotateLeft32(v15^v3, -8)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -7)
	v0 += v5 + m[4]
	v15 = bits.RotateLeft32(v15^v0, -16)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -12)
	v0 += v5 + m[0]
	v15 = bits.RotateLeft32(v15^v0, -8)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -7)
	v1 += v6 + m[11]
	v12 = bits.RotateLeft32(v12^v1, -16)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -12)
	v1 += v6 + m[2]
	v12 = bits.RotateLeft32(v12^v1, -8)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -7)
	v2 += v7 + m[5]
	v13 = bits.RotateLeft32(v13^v2, -16)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -12)
	v2 += v7 + m[8]
	v13 = bits.RotateLeft32(v13^v2, -8)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -7)
	v3 += v4 + m[1]
	v14 = bits.RotateLeft32(v14^v3, -16)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -12)
	v3 += v4 + m[6]
	v14 = bits.RotateLeft32(v14^v3, -8)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -7)
	// Round 5.
	v0 += v4 + m[12]
	v12 = bits.RotateLeft32(v12^v0, -16)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -12)
	v0 += v4 + m[13]
	v12 = bits.RotateLeft32(v12^v0, -8)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -7)
	v1 += v5 + m[9]
	v13 = bits.RotateLeft32(v13^v1, -16)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -12)
	v1 += v5 + m[11]
	v13 = bits.RotateLeft32(v13^v1, -8)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -7)
	v2 += v6 + m[15]
	v14 = bits.RotateLeft32(v14^v2, -16)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -12)
	v2 += v6 + m[10]
	v14 = bits.RotateLeft32(v14^v2, -8)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -7)
	v3 += v7 + m[14]
	v15 = bits.RotateLeft32(v15^v3, -16)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -12)
	v3 += v7 + m[8]
	v15 = bits.RotateLeft32(v15^v3, -8)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -7)
	v0 += v5 + m[7]
	v15 = bits.RotateLeft32(v15^v0, -16)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -12)
	v0 += v5 + m[2]
	v15 = bits.RotateLeft32(v15^v0, -8)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -7)
	v1 += v6 + m[5]
	v12 = bits.RotateLeft32(v12^v1, -16)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -12)
	v1 += v6 + m[3]
	v12 = bits.RotateLeft32(v12^v1, -8)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -7)
	v2 += v7 + m[0]
	v13 = bits.RotateLeft32(v13^v2, -16)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -12)
	v2 += v7 + m[1]
	v13 = bits.RotateLeft32(v13^v2, -8)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -7)
	v3 += v4 + m[6]
	v14 = bits.RotateLeft32(v14^v3, -16)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -12)
	v3 += v4 + m[4]
	v14 = bits.RotateLeft32(v14^v3, -8)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -7)
	// Round 6.
	v0 += v4 + m[9]
	v12 = bits.RotateLeft32(v12^v0, -16)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -12)
	v0 += v4 + m[14]
	v12 = bits.RotateLeft32(v12^v0, -8)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -7)
	v1 += v5 + m[11]
	v13 = bits.RotateLeft32(v13^v1, -16)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -12)
	v1 += v5 + m[5]
	v13 = bits.RotateLeft32(v13^v1, -8)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -7)
	v2 += v6 + m[8]
	v14 = bits.RotateLeft32(v14^v2, -16)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -12)
	v2 += v6 + m[12]
	v14 = bits.RotateLeft32(v14^v2, -8)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -7)
	v3 += v7 + m[15]
	v15 = bits.RotateLeft32(v15^v3, -16)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -12)
	v3 += v7 + m[1]
	v15 = bits.RotateLeft32(v15^v3, -8)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -7)
	v0 += v5 + m[13]
	v15 = bits.RotateLeft32(v15^v0, -16)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -12)
	v0 += v5 + m[3]
	v15 = bits.RotateLeft32(v15^v0, -8)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -7)
	v1 += v6 + m[0]
	v12 = bits.RotateLeft32(v12^v1, -16)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -12)
	v1 += v6 + m[10]
	v12 = bits.RotateLeft32(v12^v1, -8)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -7)
	v2 += v7 + m[2]
	v13 = bits.RotateLeft32(v13^v2, -16)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -12)
	v2 += v7 + m[6]
	v13 = bits.RotateLeft32(v13^v2, -8)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -7)
	v3 += v4 + m[4]
	v14 = bits.RotateLeft32(v14^v3, -16)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -12)
	v3 += v4 + m[7]
	v14 = bits.RotateLeft32(v14^v3, -8)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -7)
	// Round 7.
	v0 += v4 + m[11]
	v12 = bits.RotateLeft32(v12^v0, -16)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -12)
	v0 += v4 + m[15]
	v12 = bits.RotateLeft32(v12^v0, -8)
	v8 += v12
	v4 = bits.RotateLeft32(v4^v8, -7)
	v1 += v5 + m[5]
	v13 = bits.RotateLeft32(v13^v1, -16)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -12)
	v1 += v5 + m[0]
	v13 = bits.RotateLeft32(v13^v1, -8)
	v9 += v13
	v5 = bits.RotateLeft32(v5^v9, -7)
	v2 += v6 + m[1]
	v14 = bits.RotateLeft32(v14^v2, -16)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -12)
	v2 += v6 + m[9]
	v14 = bits.RotateLeft32(v14^v2, -8)
	v10 += v14
	v6 = bits.RotateLeft32(v6^v10, -7)
	v3 += v7 + m[8]
	v15 = bits.RotateLeft32(v15^v3, -16)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -12)
	v3 += v7 + m[6]
	v15 = bits.RotateLeft32(v15^v3, -8)
	v11 += v15
	v7 = bits.RotateLeft32(v7^v11, -7)
	v0 += v5 + m[14]
	v15 = bits.RotateLeft32(v15^v0, -16)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -12)
	v0 += v5 + m[10]
	v15 = bits.RotateLeft32(v15^v0, -8)
	v10 += v15
	v5 = bits.RotateLeft32(v5^v10, -7)
	v1 += v6 + m[2]
	v12 = bits.RotateLeft32(v12^v1, -16)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -12)
	v1 += v6 + m[12]
	v12 = bits.RotateLeft32(v12^v1, -8)
	v11 += v12
	v6 = bits.RotateLeft32(v6^v11, -7)
	v2 += v7 + m[3]
	v13 = bits.RotateLeft32(v13^v2, -16)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -12)
	v2 += v7 + m[4]
	v13 = bits.RotateLeft32(v13^v2, -8)
	v8 += v13
	v7 = bits.RotateLeft32(v7^v8, -7)
	v3 += v4 + m[7]
	v14 = bits.RotateLeft32(v14^v3, -16)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -12)
	v3 += v4 + m[13]
	v14 = bits.RotateLeft32(v14^v3, -8)
	v9 += v14
	v4 = bits.RotateLeft32(v4^v9, -7)
	return [8]uint32{v0 ^ v8, v1 ^ v9, v2 ^ v10, v3 ^ v11, v4 ^ v12, v5 ^ v13, v6 ^ v14, v7 ^ v15}
}

// compressBlocksGeneric compresses the whole blocks of p into cv, none of
// them the last of its chunk, the first with flags.
func compressBlocksGeneric(cv *[8]uint32, p []byte, counter uint64, flags uint32) {
	for ; len(p) >= blockLen; p = p[blockLen:] {
		m := words(p[:blockLen])
		*cv = compress(cv, &m, counter, blockLen, flags)
		flags = 0
	}
}

func words(b []byte) (m [16]uint32) {
	if len(b) == blockLen {
		for i := range m {
			m[i] = binary.LittleEndian.Uint32(b[4*i:])
		}
		return m
	}
	var buf [blockLen]byte
	copy(buf[:], b)
	for i := range m {
		m[i] = binary.LittleEndian.Uint32(buf[4*i:])
	}
	return m
}

// output is what is needed to produce either a chaining value or root bytes.
type output struct {
	cv      [8]uint32
	block   [16]uint32
	counter uint64
	n       uint32
	flags   uint32
}

func (o *output) chainingValue() (cv [8]uint32) {
	return compress(&o.cv, &o.block, o.counter, o.n, o.flags)
}

func (o *output) root() (out [32]byte) {
	s := compress(&o.cv, &o.block, 0, o.n, o.flags|flagRoot)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(out[4*i:], s[i])
	}
	return out
}

// chunkState hashes one 1024-byte chunk, 64-byte block by block.
type chunkState struct {
	cv       [8]uint32
	counter  uint64
	buf      [blockLen]byte
	bufLen   int
	blocks   int // blocks compressed so far in this chunk
	inputLen int
}

func newChunkState(counter uint64) chunkState {
	return chunkState{cv: iv, counter: counter}
}

func (c *chunkState) startFlag() uint32 {
	if c.blocks == 0 {
		return flagChunkStart
	}
	return 0
}

func (c *chunkState) update(p []byte) {
	// Whole blocks straight from p, keeping at least one byte back: the
	// last block of a chunk is compressed only at output time.
	if c.bufLen == blockLen && len(p) > 0 {
		m := words(c.buf[:])
		c.cv = compress(&c.cv, &m, c.counter, blockLen, c.startFlag())
		c.blocks++
		c.bufLen = 0
	}
	if c.bufLen == 0 && len(p) > blockLen {
		k := (len(p) - 1) / blockLen
		compressBlocks(&c.cv, p[:k*blockLen], c.counter, c.startFlag())
		c.blocks += k
		c.inputLen += k * blockLen
		p = p[k*blockLen:]
	}
	for len(p) > 0 {
		if c.bufLen == blockLen {
			m := words(c.buf[:])
			c.cv = compress(&c.cv, &m, c.counter, blockLen, c.startFlag())
			c.blocks++
			c.bufLen = 0
		}
		n := copy(c.buf[c.bufLen:], p)
		c.bufLen += n
		c.inputLen += n
		p = p[n:]
	}
}

func (c *chunkState) output() output {
	return output{cv: c.cv, block: words(c.buf[:c.bufLen]), counter: c.counter, n: uint32(c.bufLen), flags: c.startFlag() | flagChunkEnd}
}

func parentOutput(left, right [8]uint32) output {
	var m [16]uint32
	copy(m[:8], left[:])
	copy(m[8:], right[:])
	return output{cv: iv, block: m, n: blockLen, flags: flagParent}
}

// portable computes a BLAKE3 hash incrementally in pure Go. The zero value
// is not ready; use newPortable.
type portable struct {
	chunk chunkState
	stack [54][8]uint32 // enough for 2^64 bytes
	depth int
}

func newPortable() portable { return portable{chunk: newChunkState(0)} }

func (h *portable) pushChunk(cv [8]uint32, total uint64) {
	// Merge completed subtrees: one merge per trailing zero bit of the
	// number of chunks hashed so far.
	for total&1 == 0 {
		h.depth--
		o := parentOutput(h.stack[h.depth], cv)
		cv = o.chainingValue()
		total >>= 1
	}
	h.stack[h.depth] = cv
	h.depth++
}

// hashChunk returns the chaining value of a whole chunk that is not the
// last of the input (so not the root): its 16 blocks compressed straight
// from p, without the chunk state's buffering.
func hashChunk(p *[chunkLen]byte, counter uint64) [8]uint32 {
	cv := iv
	var m [16]uint32
	for b := 0; b < chunkLen/blockLen; b++ {
		blk := p[b*blockLen : (b+1)*blockLen : (b+1)*blockLen]
		for i := range m {
			m[i] = binary.LittleEndian.Uint32(blk[4*i:])
		}
		var flags uint32
		switch b {
		case 0:
			flags = flagChunkStart
		case chunkLen/blockLen - 1:
			flags = flagChunkEnd
		}
		cv = compress(&cv, &m, counter, blockLen, flags)
	}
	return cv
}

// Write adds p to the hash. It never fails.
func (h *portable) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if h.chunk.inputLen == chunkLen {
			o := h.chunk.output()
			total := h.chunk.counter + 1
			h.pushChunk(o.chainingValue(), total)
			h.chunk = newChunkState(total)
		}
		// Whole chunks with more input after them go straight through.
		for h.chunk.inputLen == 0 && len(p) > chunkLen {
			total := h.chunk.counter + 1
			h.pushChunk(hashChunk((*[chunkLen]byte)(p), h.chunk.counter), total)
			h.chunk = newChunkState(total)
			p = p[chunkLen:]
		}
		if len(p) == 0 {
			break
		}
		take := min(chunkLen-h.chunk.inputLen, len(p))
		h.chunk.update(p[:take])
		p = p[take:]
	}
	return n, nil
}

// Sum256 returns the 32-byte hash of everything written so far.
func (h *portable) Sum256() [32]byte {
	o := h.chunk.output()
	for i := h.depth - 1; i >= 0; i-- {
		o = parentOutput(h.stack[i], o.chainingValue())
	}
	return o.root()
}

// sumPortable returns the BLAKE3 hash of data, computed in pure Go.
func sumPortable(data []byte) [32]byte {
	h := newPortable()
	h.Write(data)
	return h.Sum256()
}
