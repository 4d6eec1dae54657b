//go:build amd64 && !purego

#include "textflag.h"

// ROUND8 runs the eight blocks in X0-X7 through one AESDEC (or, with
// op AESDECLAST, the last) round with the round key at off(AX).
#define ROUND8(op, off) \
	MOVOU off(AX), X8; \
	op X8, X0; \
	op X8, X1; \
	op X8, X2; \
	op X8, X3; \
	op X8, X4; \
	op X8, X5; \
	op X8, X6; \
	op X8, X7

// ROUND1 is ROUND8 for the one block in X0.
#define ROUND1(op, off) \
	MOVOU off(AX), X8; \
	op X8, X0

// func decryptBlocks(xk *[decKeyLen]byte, buf *byte, n int)
//
// decryptBlocks decrypts the n 16-byte blocks at buf in place with the
// AES-256 equivalent inverse cipher schedule xk (15 round keys). Eight
// blocks go through each round together, so that AESDEC's latency is
// spent on the other seven instead of waited for; the rest one by one.
TEXT ·decryptBlocks(SB), NOSPLIT, $0-24
	MOVQ xk+0(FP), AX
	MOVQ buf+8(FP), SI
	MOVQ n+16(FP), CX

eight:
	CMPQ CX, $8
	JB   one
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVOU 64(SI), X4
	MOVOU 80(SI), X5
	MOVOU 96(SI), X6
	MOVOU 112(SI), X7
	ROUND8(PXOR, 0)
	ROUND8(AESDEC, 16)
	ROUND8(AESDEC, 32)
	ROUND8(AESDEC, 48)
	ROUND8(AESDEC, 64)
	ROUND8(AESDEC, 80)
	ROUND8(AESDEC, 96)
	ROUND8(AESDEC, 112)
	ROUND8(AESDEC, 128)
	ROUND8(AESDEC, 144)
	ROUND8(AESDEC, 160)
	ROUND8(AESDEC, 176)
	ROUND8(AESDEC, 192)
	ROUND8(AESDEC, 208)
	ROUND8(AESDECLAST, 224)
	MOVOU X0, 0(SI)
	MOVOU X1, 16(SI)
	MOVOU X2, 32(SI)
	MOVOU X3, 48(SI)
	MOVOU X4, 64(SI)
	MOVOU X5, 80(SI)
	MOVOU X6, 96(SI)
	MOVOU X7, 112(SI)
	ADDQ $128, SI
	SUBQ $8, CX
	JMP  eight

one:
	TESTQ CX, CX
	JZ    done
	MOVOU 0(SI), X0
	ROUND1(PXOR, 0)
	ROUND1(AESDEC, 16)
	ROUND1(AESDEC, 32)
	ROUND1(AESDEC, 48)
	ROUND1(AESDEC, 64)
	ROUND1(AESDEC, 80)
	ROUND1(AESDEC, 96)
	ROUND1(AESDEC, 112)
	ROUND1(AESDEC, 128)
	ROUND1(AESDEC, 144)
	ROUND1(AESDEC, 160)
	ROUND1(AESDEC, 176)
	ROUND1(AESDEC, 192)
	ROUND1(AESDEC, 208)
	ROUND1(AESDECLAST, 224)
	MOVOU X0, 0(SI)
	ADDQ  $16, SI
	DECQ  CX
	JMP   one

done:
	RET
