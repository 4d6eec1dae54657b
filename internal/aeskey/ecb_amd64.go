//go:build amd64 && !purego

package aeskey

import (
	"encoding/binary"
	"sync"

	"github.com/upkg/upkg/internal/cpuid"
)

// crypto/aes decrypts one block per call, each waiting for the last round
// of the one before: 1.4 GB/s on the project's 2-core VM. ECB blocks are
// independent: decryptBlocks runs eight at a time through AES-NI, 7.0 GB/s
// there (BenchmarkDecryptECB), for the encrypted containers and packages
// of a game.

//go:noescape
func decryptBlocks(xk *[decKeyLen]byte, buf *byte, n int)

// hasAESNI reports the AES instructions (CPUID.1:ECX bit 25). It is asked
// on the first key, not at start: CPUID is slow in virtual machines.
var hasAESNI = sync.OnceValue(func() bool {
	_, _, ecx, _ := cpuid.CPUID(1, 0)
	return ecx&(1<<25) != 0
})

// newDecKey returns key's decryption schedule for decryptBlocks, or nil
// without AES-NI: the round keys of the equivalent inverse cipher
// (FIPS-197 5.3.5), which AESDEC takes, as bytes in the order of the
// state.
func newDecKey(key []byte) *[decKeyLen]byte {
	if !hasAESNI() {
		return nil
	}
	a := newAES256(key)
	xk := new([decKeyLen]byte)
	for i, w := range a.dec {
		binary.BigEndian.PutUint32(xk[4*i:], w)
	}
	return xk
}

// decryptECB decrypts whole blocks in place with xk.
func decryptECB(xk *[decKeyLen]byte, buf []byte) {
	if len(buf) >= BlockSize {
		decryptBlocks(xk, &buf[0], len(buf)/BlockSize)
	}
}
