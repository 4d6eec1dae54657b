//go:build ignore

// gen.go writes hash_avx512_amd64.s, the 16-way AVX-512 kernels: each of
// the 16 lanes of a ZMM register carries one independent compression, with
// the message words transposed so that word j of all 16 lanes sits in one
// register. Run it with `go generate` in this directory.
package main

import (
	"bytes"
	"fmt"
	"os"
)

// msgSchedule is the BLAKE3 message permutation applied between rounds.
var msgSchedule = [16]int{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8}

type gen struct {
	b bytes.Buffer
	// free lists the physical Z registers not holding anything live.
	free []int
	// label numbers for local branch targets.
	label int
}

func (g *gen) p(format string, args ...any) {
	fmt.Fprintf(&g.b, "\t"+format+"\n", args...)
}

func (g *gen) raw(s string) { g.b.WriteString(s) }

func (g *gen) alloc() int {
	r := g.free[len(g.free)-1]
	g.free = g.free[:len(g.free)-1]
	return r
}

func (g *gen) release(r int) { g.free = append(g.free, r) }

// lanes is the kernel width being generated: 16 (ZMM registers) or 8
// (YMM registers, with AVX-512VL for the 16 extra registers and VPRORD).
var lanes = 16

// avx2 selects AVX2 code: 16 YMM registers, no VPRORD, no VSHUFI32X4.
var avx2 bool

func z(r int) string {
	if lanes == 8 {
		return fmt.Sprintf("Y%d", r)
	}
	return fmt.Sprintf("Z%d", r)
}

// loadRows loads the 64-byte block of each lane (lane r at base+r*stride)
// into fresh registers, zeroing the lanes at or beyond the lane count in
// CX, and returns the registers: with 16 lanes row r is lane r's block,
// with 8 lanes rows r and 8+r hold the low and high halves of lane r's.
// With lastLane, lane CX-1 is read at R9 instead.
func (g *gen) loadRows(kernel string, stride int, lastLane bool) [16]int {
	var rows [16]int
	for r := range 16 {
		rows[r] = g.alloc()
	}
	load := func(r int, dsts ...int) {
		g.label++
		zero := fmt.Sprintf("%s_zero%d", kernel, g.label)
		last := fmt.Sprintf("%s_last%d", kernel, g.label)
		done := fmt.Sprintf("%s_row%d", kernel, g.label)
		g.p("CMPQ CX, $%d", r+1)
		g.p("JLT %s", zero)
		if lastLane {
			g.p("JEQ %s", last)
		}
		for i, d := range dsts {
			g.p("VMOVDQU32 %d(SI), %s", r*stride+32*i, z(d))
		}
		g.p("JMP %s", done)
		if lastLane {
			g.raw(last + ":\n")
			for i, d := range dsts {
				g.p("VMOVDQU32 %d(R9), %s", 32*i, z(d))
			}
			g.p("JMP %s", done)
		}
		g.raw(zero + ":\n")
		for _, d := range dsts {
			g.p("VPXORD %s, %s, %s", z(d), z(d), z(d))
		}
		g.raw(done + ":\n")
	}
	if lanes == 16 {
		for r := range 16 {
			load(r, rows[r])
		}
	} else {
		for r := range 8 {
			load(r, rows[r], rows[8+r])
		}
	}
	return rows
}

// pairStep replaces registers a and b (a before b) by op1(a, b) and
// op2(a, b) using one spare register, and returns the registers now
// holding the two results.
func (g *gen) pairStep(a, b int, lo, hi string, imm1, imm2 string) (int, int) {
	t := g.alloc()
	if imm1 != "" {
		g.p("%s %s, %s, %s, %s", lo, imm1, z(b), z(a), z(t))
		g.p("%s %s, %s, %s, %s", hi, imm2, z(b), z(a), z(b))
	} else {
		g.p("%s %s, %s, %s", lo, z(b), z(a), z(t))
		g.p("%s %s, %s, %s", hi, z(b), z(a), z(b))
	}
	g.release(a)
	return t, b
}

// transpose turns 16 rows (lane r's message words in row r) into 16
// registers each holding one message word for all lanes; it returns the
// register of each word.
func (g *gen) transpose(rows [16]int) [16]int {
	if lanes == 8 {
		var m [16]int
		lo := g.transpose8([8]int(rows[:8]))
		hi := g.transpose8([8]int(rows[8:]))
		copy(m[:8], lo[:])
		copy(m[8:], hi[:])
		return m
	}
	// Dwords: A[r], A[r+1] from rows r, r+1.
	var a [16]int
	for r := 0; r < 16; r += 2 {
		a[r], a[r+1] = g.pairStep(rows[r], rows[r+1], "VPUNPCKLDQ", "VPUNPCKHDQ", "", "")
	}
	// Qwords: within each 128-bit lane, c[grp][o] holds word 4L+o of
	// rows 4grp..4grp+3 in lane L.
	var c [4][4]int
	for grp := range 4 {
		r := 4 * grp
		c[grp][0], c[grp][1] = g.pairStep(a[r], a[r+2], "VPUNPCKLQDQ", "VPUNPCKHQDQ", "", "")
		c[grp][2], c[grp][3] = g.pairStep(a[r+1], a[r+3], "VPUNPCKLQDQ", "VPUNPCKHQDQ", "", "")
	}
	// 128-bit lanes: a 4x4 transpose of lanes for each word offset o.
	var m [16]int
	for o := range 4 {
		d0, d1 := g.pairStep(c[0][o], c[1][o], "VSHUFI32X4", "VSHUFI32X4", "$0x88", "$0xDD")
		d2, d3 := g.pairStep(c[2][o], c[3][o], "VSHUFI32X4", "VSHUFI32X4", "$0x88", "$0xDD")
		// d0 = [c0.l0 c0.l2 c1.l0 c1.l2], d1 = [c0.l1 c0.l3 c1.l1 c1.l3],
		// d2, d3 likewise for c2, c3.
		e0, e1 := g.pairStep(d0, d2, "VSHUFI32X4", "VSHUFI32X4", "$0x88", "$0xDD")
		e2, e3 := g.pairStep(d1, d3, "VSHUFI32X4", "VSHUFI32X4", "$0x88", "$0xDD")
		m[o], m[8+o], m[4+o], m[12+o] = e0, e1, e2, e3
	}
	return m
}

// quads runs the dword and qword steps of a transpose on 4 rows of 4-dword
// lanes: c[o] then holds in each 128-bit lane L word 4L+o of the 4 rows.
func (g *gen) quads(r [4]int) (c [4]int) {
	a0, a1 := g.pairStep(r[0], r[1], "VPUNPCKLDQ", "VPUNPCKHDQ", "", "")
	a2, a3 := g.pairStep(r[2], r[3], "VPUNPCKLDQ", "VPUNPCKHDQ", "", "")
	c[0], c[1] = g.pairStep(a0, a2, "VPUNPCKLQDQ", "VPUNPCKHQDQ", "", "")
	c[2], c[3] = g.pairStep(a1, a3, "VPUNPCKLQDQ", "VPUNPCKHQDQ", "", "")
	return c
}

// transpose8 turns 8 YMM rows of 8 words into 8 registers each holding one
// word of all 8 rows.
func (g *gen) transpose8(rows [8]int) (m [8]int) {
	c0 := g.quads([4]int(rows[:4]))
	c1 := g.quads([4]int(rows[4:]))
	for o := range 4 {
		// Word o: the low lanes of c0[o] and c1[o]; word 4+o: the high.
		if avx2 {
			m[o], m[4+o] = g.pairStep(c0[o], c1[o], "VPERM2I128", "VPERM2I128", "$0x20", "$0x31")
		} else {
			m[o], m[4+o] = g.pairStep(c0[o], c1[o], "VSHUFI32X4", "VSHUFI32X4", "$0x00", "$0x03")
		}
	}
	return m
}

// rounds emits the seven rounds on state registers v with message word
// registers m.
func (g *gen) rounds(v [16]int, m [16]int) {
	s := [16]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	for round := range 7 {
		g.p("// Round %d.", round+1)
		g.half(v, [4][4]int{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}, m, s[0:8])
		g.half(v, [4][4]int{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}}, m, s[8:16])
		var next [16]int
		for i := range 16 {
			next[i] = s[msgSchedule[i]]
		}
		s = next
	}
}

// half emits four G functions side by side, step by step.
func (g *gen) half(v [16]int, cols [4][4]int, m [16]int, s []int) {
	step := func(f func(a, b, c, d, mx, my int)) {
		for i, col := range cols {
			f(v[col[0]], v[col[1]], v[col[2]], v[col[3]], m[s[2*i]], m[s[2*i+1]])
		}
	}
	step(func(a, b, c, d, mx, my int) { g.p("VPADDD %s, %s, %s", z(b), z(a), z(a)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPADDD %s, %s, %s", z(mx), z(a), z(a)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPXORD %s, %s, %s", z(a), z(d), z(d)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPRORD $16, %s, %s", z(d), z(d)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPADDD %s, %s, %s", z(d), z(c), z(c)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPXORD %s, %s, %s", z(c), z(b), z(b)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPRORD $12, %s, %s", z(b), z(b)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPADDD %s, %s, %s", z(b), z(a), z(a)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPADDD %s, %s, %s", z(my), z(a), z(a)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPXORD %s, %s, %s", z(a), z(d), z(d)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPRORD $8, %s, %s", z(d), z(d)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPADDD %s, %s, %s", z(d), z(c), z(c)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPXORD %s, %s, %s", z(c), z(b), z(b)) })
	step(func(a, b, c, d, mx, my int) { g.p("VPRORD $7, %s, %s", z(b), z(b)) })
}

// block emits one compression of the 16 lanes: the rows at SI (lane r at
// r*stride), chaining values in Z0-Z7 (updated in place). counter and
// flags emit the loads of v12, v13 and v15.
//
// With lastLane (chunks only), lane CX-1 is the last chunk of its input,
// read at R9 (advanced like SI) and ending with block R10: at that block
// its length and flags are the arguments bl and lastFlags (opmask K1
// selects the lane), and the chaining values are saved at frLast for the
// end, its later blocks being garbage.
func (g *gen) block(kernel string, stride, prefetch int, lastLane bool, counter func(v12, v13 int), flags func(v15 int)) {
	g.free = g.free[:0]
	for r := 31; r >= 8; r-- {
		g.free = append(g.free, r)
	}
	rows := g.loadRows(kernel, stride, lastLane)
	if prefetch > 0 {
		// Later blocks of each lane, ahead of use: the 16 lanes are 16
		// streams 1 KiB apart, more than the prefetchers follow well.
		for r := range lanes {
			g.p("PREFETCHT0 %d(SI)", r*stride+prefetch)
		}
	} else if prefetch < 0 {
		// The next call's input, one chunk per block: SI has advanced
		// 64 bytes per block, so chunk b of the next 16 is at
		// 16384+b*(1024-64) from SI.
		g.p("MOVQ BX, DX")
		g.p("IMULQ $960, DX")
		for r := range 16 {
			g.p("PREFETCHT0 %d(SI)(DX*1)", 16384+r*64)
		}
	}
	m := g.transpose(rows)
	var v [16]int
	for i := range 8 {
		v[i] = i
	}
	for i := 8; i < 16; i++ {
		v[i] = g.alloc()
	}
	for i := range 4 {
		g.p("VPBROADCASTD ·iv+%d(SB), %s", 4*i, z(v[8+i]))
	}
	counter(v[12], v[13])
	g.p("VPBROADCASTD ·blockLen64(SB), %s", z(v[14]))
	flags(v[15])
	if lastLane {
		g.label++
		skip := fmt.Sprintf("%s_notlast%d", kernel, g.label)
		g.p("CMPQ BX, R10")
		g.p("JNE %s", skip)
		g.p("VPBROADCASTD %d(SP), K1, %s", frLastArgs, z(v[14]))
		g.p("VPBROADCASTD %d(SP), K1, %s", frLastArgs+4, z(v[15]))
		g.raw(skip + ":\n")
	}
	g.rounds(v, m)
	for i := range 8 {
		g.p("VPXORD %s, %s, %s", z(v[8+i]), z(v[i]), z(v[i]))
	}
	if lastLane {
		g.label++
		skip := fmt.Sprintf("%s_notlast%d", kernel, g.label)
		g.p("CMPQ BX, R10")
		g.p("JNE %s", skip)
		for i := range 8 {
			g.p("VMOVDQU32 %s, %d(SP)", z(i), frLast+64*i)
		}
		g.raw(skip + ":\n")
	}
}

// frLast is where the chunk kernels keep the last lane's chaining value,
// and frLastArgs their copy of the arguments bl and lastFlags.
const (
	frLast     = 128
	frLastArgs = 640
)

// storeCVs writes the chaining values in Z0-Z7 (word i of all lanes in
// Zi) to DI as 16 consecutive [8]uint32, lane by lane.
func (g *gen) storeCVs() {
	if lanes == 8 {
		g.free = g.free[:0]
		for r := 31; r >= 8; r-- {
			g.free = append(g.free, r)
		}
		c0 := g.quads([4]int{0, 1, 2, 3})
		c1 := g.quads([4]int{4, 5, 6, 7})
		for o := range 4 {
			// The chaining value of lane o: the low lanes of c0[o] and
			// c1[o]; of lane 4+o: their high lanes.
			for l := range 2 {
				t := g.alloc()
				g.p("VSHUFI32X4 $0x%02X, %s, %s, %s", 3*l, z(c1[o]), z(c0[o]), z(t))
				g.p("VMOVDQU32 %s, %d(DI)", z(t), 32*(4*l+o))
				g.release(t)
			}
		}
		return
	}
	// After the dword and qword steps, c[half][o] holds in 128-bit lane L
	// words 4half..4half+3 of the chaining value of lane 4L+o.
	g.free = g.free[:0]
	for r := 31; r >= 8; r-- {
		g.free = append(g.free, r)
	}
	var c [2][4]int
	for half := range 2 {
		r := 4 * half
		a0, a1 := g.pairStep(r, r+1, "VPUNPCKLDQ", "VPUNPCKHDQ", "", "")
		a2, a3 := g.pairStep(r+2, r+3, "VPUNPCKLDQ", "VPUNPCKHDQ", "", "")
		c[half][0], c[half][1] = g.pairStep(a0, a2, "VPUNPCKLQDQ", "VPUNPCKHQDQ", "", "")
		c[half][2], c[half][3] = g.pairStep(a1, a3, "VPUNPCKLQDQ", "VPUNPCKHQDQ", "", "")
	}
	for o := range 4 {
		for _, lanes := range [2][2]int{{0, 1}, {2, 3}} {
			// t = [lo(cv x), hi(cv x), lo(cv y), hi(cv y)] for the lanes
			// x = 4*lanes[0]+o and y = 4*lanes[1]+o.
			t := g.alloc()
			imm := lanes[0] | lanes[0]<<4 | lanes[1]<<2 | lanes[1]<<6
			// VSHUFI32X4 takes the two low lanes from its first source
			// (written last) and the two high ones from its second.
			g.p("VSHUFI32X4 $0x%02X, %s, %s, %s", imm, z(c[1][o]), z(c[0][o]), z(t))
			// Now t = [c0.lx, c0.ly, c1.lx, c1.ly]; reorder to
			// [c0.lx, c1.lx, c0.ly, c1.ly].
			g.p("VSHUFI32X4 $0xD8, %s, %s, %s", z(t), z(t), z(t))
			x, y := 4*lanes[0]+o, 4*lanes[1]+o
			g.p("VEXTRACTI64X4 $0, %s, %d(DI)", z(t), 32*x)
			g.p("VEXTRACTI64X4 $1, %s, %d(DI)", z(t), 32*y)
			g.release(t)
		}
	}
}

// kernels emits hashChunks and hashParents for the current width.
func (g *gen) kernels() {
	n := lanes
	g.raw(fmt.Sprintf(`
// func hashChunks%[1]d(in *byte, n int, counter uint64, out *[%[1]d][8]uint32, last *byte, fb int, bl, lastFlags uint32)
TEXT ·hashChunks%[1]d(SB), NOSPLIT, $648-56
	MOVQ in+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+24(FP), DI
	MOVQ last+32(FP), R9
	MOVQ fb+40(FP), R10
	// K1 selects the last lane, n-1.
	MOVQ CX, R11
	DECQ CX
	MOVQ $1, AX
	SHLQ CX, AX
	MOVQ R11, CX
	KMOVW AX, K1
	MOVL bl+48(FP), AX
	MOVL AX, 640(SP)
	MOVL lastFlags+52(FP), AX
	MOVL AX, 644(SP)
	// Counter words: low = counter+lane (counter is a multiple of the
	// lane count, so this never carries), high = counter>>32.
	VPBROADCASTD counter+16(FP), %[2]s
	VPADDD ·laneIndex(SB), %[2]s, %[2]s
	VMOVDQU32 %[2]s, 0(SP)
	MOVQ counter+16(FP), AX
	SHRQ $32, AX
	MOVL AX, 64(SP)
	VPBROADCASTD 64(SP), %[2]s
	VMOVDQU32 %[2]s, 64(SP)
`, n, z(8)))
	for i := range 8 {
		g.p("VPBROADCASTD ·iv+%d(SB), %s", 4*i, z(i))
	}
	g.p("XORQ BX, BX")
	g.p("LEAQ ·chunkFlags(SB), R8")
	loop := fmt.Sprintf("chunks%d_loop", n)
	g.raw(loop + ":\n")
	g.block(fmt.Sprintf("chunks%d", n), 1024, chunkPrefetch, true,
		func(v12, v13 int) {
			g.p("VMOVDQU32 0(SP), %s", z(v12))
			g.p("VMOVDQU32 64(SP), %s", z(v13))
		},
		func(v15 int) { g.p("VPBROADCASTD (R8)(BX*4), %s", z(v15)) })
	g.p("ADDQ $64, SI")
	g.p("ADDQ $64, R9")
	g.p("INCQ BX")
	g.p("CMPQ BX, $16")
	g.p("JLT %s", loop)
	for i := range 8 {
		g.p("VMOVDQU32 %d(SP), K1, %s", frLast+64*i, z(i))
	}
	g.storeCVs()
	g.p("VZEROUPPER")
	g.p("RET")

	// Parents: one 64-byte block each (two chaining values) at
	// in+64*lane.
	g.raw(fmt.Sprintf(`
// func hashParents%[1]d(in *[%[2]d][8]uint32, n int, out *[%[1]d][8]uint32)
TEXT ·hashParents%[1]d(SB), NOSPLIT, $0-24
	MOVQ in+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI
`, n, 2*n))
	for i := range 8 {
		g.p("VPBROADCASTD ·iv+%d(SB), %s", 4*i, z(i))
	}
	g.block(fmt.Sprintf("parents%d", n), 64, 0, false,
		func(v12, v13 int) {
			g.p("VPXORD %s, %s, %s", z(v12), z(v12), z(v12))
			g.p("VPXORD %s, %s, %s", z(v13), z(v13), z(v13))
		},
		func(v15 int) { g.p("VPBROADCASTD ·parentFlag(SB), %s", z(v15)) })
	g.storeCVs()
	g.p("VZEROUPPER")
	g.p("RET")
}

// AVX2 frame layout of the 8-lane kernels (offsets from SP): the
// transposed message words, the chaining values between blocks, the
// counter words and the spilled state word v8.
// The chunk kernel adds the last lane's mask, its block length and flags
// (broadcast) and its saved chaining value.
const (
	frMsg    = 0
	frCV     = 512
	frCtr    = 768
	frV8     = 832
	frMask   = 864
	frBL     = 896
	frLF     = 928
	frLastCV = 960
	frSize   = 1216
)

// rot emits x = x rotated right by n, with Y8 as scratch for 12 and 7.
func (g *gen) rot(x string, n int) {
	switch n {
	case 16, 8:
		g.p("VPSHUFB ·rot%d(SB), %s, %s", n, x, x)
	default:
		g.p("VPSRLD $%d, %s, Y8", n, x)
		g.p("VPSLLD $%d, %s, %s", 32-n, x, x)
		g.p("VPOR Y8, %s, %s", x, x)
	}
}

// blockAVX2 emits one compression of 8 lanes: state in Y0-Y15 except v8,
// spilled at frV8 (Y8 is scratch), message words read from the frame.
//
// With lastLane, lane CX-1 is the last chunk of its input, as in block.
func (g *gen) blockAVX2(kernel string, stride int, lastLane bool, counter func(), flags func()) {
	// Load and transpose the low and high halves of the 8 blocks, the
	// message words going to the frame.
	for half := range 2 {
		g.free = g.free[:0]
		for r := 15; r >= 0; r-- {
			g.free = append(g.free, r)
		}
		var rows [8]int
		for r := range 8 {
			rows[r] = g.alloc()
		}
		for r := range 8 {
			g.label++
			zero := fmt.Sprintf("%s_zero%d", kernel, g.label)
			last := fmt.Sprintf("%s_last%d", kernel, g.label)
			done := fmt.Sprintf("%s_row%d", kernel, g.label)
			g.p("CMPQ CX, $%d", r+1)
			g.p("JLT %s", zero)
			if lastLane {
				g.p("JEQ %s", last)
			}
			g.p("VMOVDQU %d(SI), %s", r*stride+32*half, z(rows[r]))
			g.p("JMP %s", done)
			if lastLane {
				g.raw(last + ":\n")
				g.p("VMOVDQU %d(R9), %s", 32*half, z(rows[r]))
				g.p("JMP %s", done)
			}
			g.raw(zero + ":\n")
			g.p("VPXOR %s, %s, %s", z(rows[r]), z(rows[r]), z(rows[r]))
			g.raw(done + ":\n")
		}
		m := g.transpose8(rows)
		for j := range 8 {
			g.p("VMOVDQU %s, %d(SP)", z(m[j]), frMsg+32*(8*half+j))
		}
	}
	for i := range 8 {
		g.p("VMOVDQU %d(SP), Y%d", frCV+32*i, i)
	}
	g.p("VPBROADCASTD ·iv+0(SB), Y8")
	g.p("VMOVDQU Y8, %d(SP)", frV8)
	for i := 1; i < 4; i++ {
		g.p("VPBROADCASTD ·iv+%d(SB), Y%d", 4*i, 8+i)
	}
	counter()
	g.p("VPBROADCASTD ·blockLen64(SB), Y14")
	flags()
	if lastLane {
		g.label++
		skip := fmt.Sprintf("%s_notlast%d", kernel, g.label)
		g.p("CMPQ BX, R10")
		g.p("JNE %s", skip)
		g.p("VMOVDQU %d(SP), Y8", frMask)
		g.p("VPBLENDVB Y8, %d(SP), Y14, Y14", frBL)
		g.p("VPBLENDVB Y8, %d(SP), Y15, Y15", frLF)
		g.raw(skip + ":\n")
	}
	s := [16]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	for round := range 7 {
		g.p("// Round %d.", round+1)
		g.halfAVX2([4][4]int{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}, s[0:8])
		g.halfAVX2([4][4]int{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}}, s[8:16])
		var next [16]int
		for i := range 16 {
			next[i] = s[msgSchedule[i]]
		}
		s = next
	}
	g.p("VPXOR %d(SP), Y0, Y0", frV8)
	for i := 1; i < 8; i++ {
		g.p("VPXOR Y%d, Y%d, Y%d", 8+i, i, i)
	}
	for i := range 8 {
		g.p("VMOVDQU Y%d, %d(SP)", i, frCV+32*i)
	}
	if lastLane {
		g.label++
		skip := fmt.Sprintf("%s_notlast%d", kernel, g.label)
		g.p("CMPQ BX, R10")
		g.p("JNE %s", skip)
		for i := range 8 {
			g.p("VMOVDQU Y%d, %d(SP)", i, frLastCV+32*i)
		}
		g.raw(skip + ":\n")
	}
}

// halfAVX2 emits four G functions side by side for blockAVX2.
func (g *gen) halfAVX2(cols [4][4]int, s []int) {
	step := func(f func(a, b, c, d, mx, my int)) {
		for i, col := range cols {
			f(col[0], col[1], col[2], col[3], s[2*i], s[2*i+1])
		}
	}
	y := func(r int) string { return fmt.Sprintf("Y%d", r) }
	msg := func(j int) string { return fmt.Sprintf("%d(SP)", frMsg+32*j) }
	for _, k := range [2]struct{ r1, r2 int }{{16, 12}, {8, 7}} {
		first := k.r1 == 16
		step(func(a, b, c, d, mx, my int) {
			if first {
				g.p("VPADDD %s, %s, %s", msg(mx), y(a), y(a))
			} else {
				g.p("VPADDD %s, %s, %s", msg(my), y(a), y(a))
			}
		})
		step(func(a, b, c, d, mx, my int) { g.p("VPADDD %s, %s, %s", y(b), y(a), y(a)) })
		step(func(a, b, c, d, mx, my int) { g.p("VPXOR %s, %s, %s", y(a), y(d), y(d)) })
		step(func(a, b, c, d, mx, my int) { g.rot(y(d), k.r1) })
		step(func(a, b, c, d, mx, my int) {
			if c == 8 {
				g.p("VPADDD %d(SP), %s, Y8", frV8, y(d))
				g.p("VMOVDQU Y8, %d(SP)", frV8)
				return
			}
			g.p("VPADDD %s, %s, %s", y(d), y(c), y(c))
		})
		// Y8 still holds v8 here for the G that has it.
		step(func(a, b, c, d, mx, my int) { g.p("VPXOR %s, %s, %s", y(c), y(b), y(b)) })
		step(func(a, b, c, d, mx, my int) { g.rot(y(b), k.r2) })
	}
}

// kernelsAVX2 emits hashChunks8AVX2 and hashParents8AVX2.
func (g *gen) kernelsAVX2() {
	for _, kind := range []string{"Chunks", "Parents"} {
		if kind == "Chunks" {
			g.raw(fmt.Sprintf(`
// func hashChunks8AVX2(in *byte, n int, counter uint64, out *[8][8]uint32, last *byte, fb int, bl, lastFlags uint32)
TEXT ·hashChunks8AVX2(SB), 0, $%[1]d-56
	MOVQ in+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+24(FP), DI
	MOVQ last+32(FP), R9
	MOVQ fb+40(FP), R10
	// The last lane's mask (lane n-1 all ones), length and flags.
	LEAQ -1(CX), AX
	MOVL AX, %[6]d(SP)
	VPBROADCASTD %[6]d(SP), Y0
	VPCMPEQD ·laneIndex(SB), Y0, Y0
	VMOVDQU Y0, %[6]d(SP)
	MOVL bl+48(FP), AX
	MOVL AX, %[7]d(SP)
	VPBROADCASTD %[7]d(SP), Y0
	VMOVDQU Y0, %[7]d(SP)
	MOVL lastFlags+52(FP), AX
	MOVL AX, %[8]d(SP)
	VPBROADCASTD %[8]d(SP), Y0
	VMOVDQU Y0, %[8]d(SP)
	// Counter words: low = counter+lane (counter is a multiple of 8, so
	// this never carries), high = counter>>32.
	VPBROADCASTD counter+16(FP), Y0
	VPADDD ·laneIndex(SB), Y0, Y0
	VMOVDQU Y0, %[2]d(SP)
	MOVQ counter+16(FP), AX
	SHRQ $32, AX
	MOVL AX, %[3]d(SP)
	VPBROADCASTD %[4]d(SP), Y0
	VMOVDQU Y0, %[5]d(SP)
	XORQ BX, BX
	LEAQ ·chunkFlags(SB), R8
`, frSize, frCtr, frCtr+32, frCtr+32, frCtr+32, frMask, frBL, frLF))
		} else {
			g.raw(fmt.Sprintf(`
// func hashParents8AVX2(in *[16][8]uint32, n int, out *[8][8]uint32)
TEXT ·hashParents8AVX2(SB), 0, $%d-24
	MOVQ in+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI
`, frSize))
		}
		for i := range 8 {
			g.p("VPBROADCASTD ·iv+%d(SB), Y0", 4*i)
			g.p("VMOVDQU Y0, %d(SP)", frCV+32*i)
		}
		if kind == "Chunks" {
			g.raw("chunks8avx2_loop:\n")
			g.blockAVX2("chunks8avx2", 1024, true,
				func() {
					g.p("VMOVDQU %d(SP), Y12", frCtr)
					g.p("VMOVDQU %d(SP), Y13", frCtr+32)
				},
				func() { g.p("VPBROADCASTD (R8)(BX*4), Y15") })
			g.p("ADDQ $64, SI")
			g.p("ADDQ $64, R9")
			g.p("INCQ BX")
			g.p("CMPQ BX, $16")
			g.p("JLT chunks8avx2_loop")
			g.p("VMOVDQU %d(SP), Y8", frMask)
			for i := range 8 {
				g.p("VPBLENDVB Y8, %d(SP), Y%d, Y%d", frLastCV+32*i, i, i)
			}
		} else {
			g.blockAVX2("parents8avx2", 64, false,
				func() {
					g.p("VPXOR Y12, Y12, Y12")
					g.p("VPXOR Y13, Y13, Y13")
				},
				func() { g.p("VPBROADCASTD ·parentFlag(SB), Y15") })
		}
		// The chaining values, word i of all lanes in Yi, out lane by lane.
		g.free = g.free[:0]
		for r := 15; r >= 8; r-- {
			g.free = append(g.free, r)
		}
		c0 := g.quads([4]int{0, 1, 2, 3})
		c1 := g.quads([4]int{4, 5, 6, 7})
		for o := range 4 {
			for l := range 2 {
				t := g.alloc()
				g.p("VPERM2I128 $0x%02X, %s, %s, %s", []int{0x20, 0x31}[l], z(c1[o]), z(c0[o]), z(t))
				g.p("VMOVDQU %s, %d(DI)", z(t), 32*(4*l+o))
				g.release(t)
			}
		}
		g.p("VZEROUPPER")
		g.p("RET")
	}
}

// compressAVX emits compressAVX2 and compressBlocksAVX2: compressAVX512
// and compressBlocksAVX512 with VEX instructions only, the rotations by
// VPSHUFB and shifts, and each message vector assembled with VPINSRD.
func (g *gen) compressAVX() {
	var idx [7][4][4]int
	s := [16]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	for r := range 7 {
		for v := range 4 {
			for i := range 4 {
				idx[r][v][i] = s[8*(v/2)+2*i+v%2]
			}
		}
		var next [16]int
		for i := range 16 {
			next[i] = s[msgSchedule[i]]
		}
		s = next
	}
	rot := func(x string, n int) {
		switch n {
		case 16, 8:
			g.p("VPSHUFB ·rot%d(SB), %s, %s", n, x, x)
		default:
			g.p("VPSRLD $%d, %s, X15", n, x)
			g.p("VPSLLD $%d, %s, %s", 32-n, x, x)
			g.p("VPOR X15, %s, %s", x, x)
		}
	}
	g3 := func(mx, my string) {
		g.p("VPADDD %s, X0, X0", mx)
		g.p("VPADDD X1, X0, X0")
		g.p("VPXOR X0, X3, X3")
		rot("X3", 16)
		g.p("VPADDD X3, X2, X2")
		g.p("VPXOR X2, X1, X1")
		rot("X1", 12)
		g.p("VPADDD %s, X0, X0", my)
		g.p("VPADDD X1, X0, X0")
		g.p("VPXOR X0, X3, X3")
		rot("X3", 8)
		g.p("VPADDD X3, X2, X2")
		g.p("VPXOR X2, X1, X1")
		rot("X1", 7)
	}
	rounds := func() {
		for r := range 7 {
			g.p("// Round %d.", r+1)
			for v := range 4 {
				g.p("VMOVDQU ·msgIndex+%d(SB), X10", 64*r+16*v)
				g.p("VPCMPEQD X11, X11, X11")
				g.p("VPGATHERDD X11, (BX)(X10*4), X%d", 6+v)
			}
			g3("X6", "X7")
			g.p("VPSHUFD $0x39, X1, X1")
			g.p("VPSHUFD $0x4E, X2, X2")
			g.p("VPSHUFD $0x93, X3, X3")
			g3("X8", "X9")
			g.p("VPSHUFD $0x93, X1, X1")
			g.p("VPSHUFD $0x4E, X2, X2")
			g.p("VPSHUFD $0x39, X3, X3")
		}
		g.p("VPXOR X2, X0, X0")
		g.p("VPXOR X3, X1, X1")
	}
	g.raw(`
// func compressAVX2(out, cv *[8]uint32, m *[16]uint32, counter uint64, n, flags uint32)
TEXT ·compressAVX2(SB), NOSPLIT, $0-40
	MOVQ cv+8(FP), AX
	MOVQ m+16(FP), BX
	MOVQ out+0(FP), DI
	VMOVDQU 0(AX), X0
	VMOVDQU 16(AX), X1
	VMOVDQU ·iv+0(SB), X2
	VMOVQ counter+24(FP), X3
	MOVL n+32(FP), CX
	VPINSRD $2, CX, X3, X3
	MOVL flags+36(FP), CX
	VPINSRD $3, CX, X3, X3
`)
	rounds()
	g.p("VMOVDQU X0, 0(DI)")
	g.p("VMOVDQU X1, 16(DI)")
	g.p("VZEROUPPER")
	g.p("RET")
	g.raw(`
// func compressBlocksAVX2(cv *[8]uint32, p *byte, nblocks int, counter uint64, flags uint32)
TEXT ·compressBlocksAVX2(SB), NOSPLIT, $16-36
	MOVQ cv+0(FP), DI
	MOVQ p+8(FP), BX
	MOVQ nblocks+16(FP), CX
	VMOVDQU 0(DI), X0
	VMOVDQU 16(DI), X1
	MOVQ counter+24(FP), AX
	MOVQ AX, 0(SP)
	MOVL $64, 8(SP)
	MOVL flags+32(FP), AX
	MOVL AX, 12(SP)
blocksavx2_loop:
	VMOVDQU ·iv+0(SB), X2
	VMOVDQU 0(SP), X3
	MOVL $0, 12(SP)
`)
	rounds()
	g.p("ADDQ $64, BX")
	g.p("DECQ CX")
	g.p("JNZ blocksavx2_loop")
	g.p("VMOVDQU X0, 0(DI)")
	g.p("VMOVDQU X1, 16(DI)")
	g.p("VZEROUPPER")
	g.p("RET")
}

// chunkPrefetch is how far ahead of the block being hashed (in bytes) the
// chunk kernel prefetches each lane.
var chunkPrefetch = 256

// compress emits compressAVX512, one compression with the state in four
// XMM rows (AVX-512VL for the rotations), the message in Y4 and Y5, and
// each round's message vectors picked with VPERMI2D.
func (g *gen) compress() {
	// The word indices of each round's four message vectors: the
	// columns' first and second words, then the diagonals'.
	var idx [7][4][4]int
	s := [16]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	for r := range 7 {
		for v := range 4 {
			for i := range 4 {
				idx[r][v][i] = s[8*(v/2)+2*i+v%2]
			}
		}
		var next [16]int
		for i := range 16 {
			next[i] = s[msgSchedule[i]]
		}
		s = next
	}
	g.raw("\n// msgIndex holds the VPERMI2D indices of compressAVX512's message vectors.\n")
	for r := range 7 {
		for v := range 4 {
			for i := range 4 {
				g.raw(fmt.Sprintf("DATA ·msgIndex+%d(SB)/4, $%d\n", 64*r+16*v+4*i, idx[r][v][i]))
			}
		}
	}
	g.raw("GLOBL ·msgIndex(SB), RODATA|NOPTR, $448\n")
	g.raw(`
// func compressAVX512(out, cv *[8]uint32, m *[16]uint32, counter uint64, n, flags uint32)
TEXT ·compressAVX512(SB), NOSPLIT, $0-40
	MOVQ cv+8(FP), AX
	MOVQ m+16(FP), BX
	MOVQ out+0(FP), DI
	VMOVDQU 0(AX), X0
	VMOVDQU 16(AX), X1
	VMOVDQU ·iv+0(SB), X2
	VMOVQ counter+24(FP), X3
	MOVL n+32(FP), CX
	VPINSRD $2, CX, X3, X3
	MOVL flags+36(FP), CX
	VPINSRD $3, CX, X3, X3
	VMOVDQU 0(BX), Y4
	VMOVDQU 32(BX), Y5
`)
	g3 := func(mx, my string) {
		g.p("VPADDD %s, X0, X0", mx)
		g.p("VPADDD X1, X0, X0")
		g.p("VPXOR X0, X3, X3")
		g.p("VPRORD $16, X3, X3")
		g.p("VPADDD X3, X2, X2")
		g.p("VPXOR X2, X1, X1")
		g.p("VPRORD $12, X1, X1")
		g.p("VPADDD %s, X0, X0", my)
		g.p("VPADDD X1, X0, X0")
		g.p("VPXOR X0, X3, X3")
		g.p("VPRORD $8, X3, X3")
		g.p("VPADDD X3, X2, X2")
		g.p("VPXOR X2, X1, X1")
		g.p("VPRORD $7, X1, X1")
	}
	for r := range 7 {
		g.p("// Round %d.", r+1)
		for v := range 4 {
			g.p("VMOVDQU ·msgIndex+%d(SB), X%d", 64*r+16*v, 6+v)
			g.p("VPERMI2D Y5, Y4, Y%d", 6+v)
		}
		g3("X6", "X7")
		g.p("VPSHUFD $0x39, X1, X1")
		g.p("VPSHUFD $0x4E, X2, X2")
		g.p("VPSHUFD $0x93, X3, X3")
		g3("X8", "X9")
		g.p("VPSHUFD $0x93, X1, X1")
		g.p("VPSHUFD $0x4E, X2, X2")
		g.p("VPSHUFD $0x39, X3, X3")
	}
	g.p("VPXOR X2, X0, X0")
	g.p("VPXOR X3, X1, X1")
	g.p("VMOVDQU X0, 0(DI)")
	g.p("VMOVDQU X1, 16(DI)")
	g.p("VZEROUPPER")
	g.p("RET")

	// compressBlocksAVX512: the same rounds over whole blocks straight
	// from memory, the chaining value kept in X0 and X1 between them.
	g.raw(`
// func compressBlocksAVX512(cv *[8]uint32, p *byte, nblocks int, counter uint64, flags uint32)
TEXT ·compressBlocksAVX512(SB), NOSPLIT, $16-36
	MOVQ cv+0(FP), DI
	MOVQ p+8(FP), SI
	MOVQ nblocks+16(FP), CX
	VMOVDQU 0(DI), X0
	VMOVDQU 16(DI), X1
	// The row (counter, 64, flags) in 0(SP); flags is cleared after the
	// first block.
	MOVQ counter+24(FP), AX
	MOVQ AX, 0(SP)
	MOVL $64, 8(SP)
	MOVL flags+32(FP), AX
	MOVL AX, 12(SP)
blocks_loop:
	VMOVDQU ·iv+0(SB), X2
	VMOVDQU 0(SP), X3
	MOVL $0, 12(SP)
	VMOVDQU 0(SI), Y4
	VMOVDQU 32(SI), Y5
`)
	for r := range 7 {
		g.p("// Round %d.", r+1)
		for v := range 4 {
			g.p("VMOVDQU ·msgIndex+%d(SB), X%d", 64*r+16*v, 6+v)
			g.p("VPERMI2D Y5, Y4, Y%d", 6+v)
		}
		g3("X6", "X7")
		g.p("VPSHUFD $0x39, X1, X1")
		g.p("VPSHUFD $0x4E, X2, X2")
		g.p("VPSHUFD $0x93, X3, X3")
		g3("X8", "X9")
		g.p("VPSHUFD $0x93, X1, X1")
		g.p("VPSHUFD $0x4E, X2, X2")
		g.p("VPSHUFD $0x39, X3, X3")
	}
	g.p("VPXOR X2, X0, X0")
	g.p("VPXOR X3, X1, X1")
	g.p("ADDQ $64, SI")
	g.p("DECQ CX")
	g.p("JNZ blocks_loop")
	g.p("VMOVDQU X0, 0(DI)")
	g.p("VMOVDQU X1, 16(DI)")
	g.p("VZEROUPPER")
	g.p("RET")
}

func main() {
	if len(os.Args) > 1 {
		fmt.Sscan(os.Args[1], &chunkPrefetch)
	}
	g := &gen{}
	g.raw(`// Code generated by gen.go; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"

DATA ·blockLen64+0(SB)/4, $64
GLOBL ·blockLen64(SB), RODATA|NOPTR, $4

DATA ·parentFlag+0(SB)/4, $4
GLOBL ·parentFlag(SB), RODATA|NOPTR, $4

DATA ·laneIndex+0(SB)/4, $0
DATA ·laneIndex+4(SB)/4, $1
DATA ·laneIndex+8(SB)/4, $2
DATA ·laneIndex+12(SB)/4, $3
DATA ·laneIndex+16(SB)/4, $4
DATA ·laneIndex+20(SB)/4, $5
DATA ·laneIndex+24(SB)/4, $6
DATA ·laneIndex+28(SB)/4, $7
DATA ·laneIndex+32(SB)/4, $8
DATA ·laneIndex+36(SB)/4, $9
DATA ·laneIndex+40(SB)/4, $10
DATA ·laneIndex+44(SB)/4, $11
DATA ·laneIndex+48(SB)/4, $12
DATA ·laneIndex+52(SB)/4, $13
DATA ·laneIndex+56(SB)/4, $14
DATA ·laneIndex+60(SB)/4, $15
GLOBL ·laneIndex(SB), RODATA|NOPTR, $64

// chunkFlags is the flags word of each of a chunk's 16 blocks.
DATA ·chunkFlags+0(SB)/4, $1
DATA ·chunkFlags+4(SB)/4, $0
DATA ·chunkFlags+8(SB)/4, $0
DATA ·chunkFlags+12(SB)/4, $0
DATA ·chunkFlags+16(SB)/4, $0
DATA ·chunkFlags+20(SB)/4, $0
DATA ·chunkFlags+24(SB)/4, $0
DATA ·chunkFlags+28(SB)/4, $0
DATA ·chunkFlags+32(SB)/4, $0
DATA ·chunkFlags+36(SB)/4, $0
DATA ·chunkFlags+40(SB)/4, $0
DATA ·chunkFlags+44(SB)/4, $0
DATA ·chunkFlags+48(SB)/4, $0
DATA ·chunkFlags+52(SB)/4, $0
DATA ·chunkFlags+56(SB)/4, $0
DATA ·chunkFlags+60(SB)/4, $2
GLOBL ·chunkFlags(SB), RODATA|NOPTR, $64

`)
	for _, lanes = range []int{16, 8} {
		g.kernels()
	}
	g.compress()

	if err := os.WriteFile("hash_avx512_amd64.s", g.b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	g = &gen{}
	avx2, lanes = true, 8
	g.raw(`// Code generated by gen.go; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"

// rot16 and rot8 are the VPSHUFB masks rotating each dword right by 16
// and 8 bits.
DATA ·rot16+0(SB)/8, $0x0504070601000302
DATA ·rot16+8(SB)/8, $0x0D0C0F0E09080B0A
DATA ·rot16+16(SB)/8, $0x0504070601000302
DATA ·rot16+24(SB)/8, $0x0D0C0F0E09080B0A
GLOBL ·rot16(SB), RODATA|NOPTR, $32
DATA ·rot8+0(SB)/8, $0x0407060500030201
DATA ·rot8+8(SB)/8, $0x0C0F0E0D080B0A09
DATA ·rot8+16(SB)/8, $0x0407060500030201
DATA ·rot8+24(SB)/8, $0x0C0F0E0D080B0A09
GLOBL ·rot8(SB), RODATA|NOPTR, $32
`)
	g.kernelsAVX2()
	g.compressAVX()
	if err := os.WriteFile("hash_avx2_amd64.s", g.b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
