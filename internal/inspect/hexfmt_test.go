package inspect

import (
	"fmt"
	"testing"
)

func TestHexFormat(t *testing.T) {
	for _, v := range []uint64{0, 1, 0xabc, 0xffff, 0x1234_5678_9abc_def0, ^uint64(0)} {
		if got, want := hash64(v), fmt.Sprintf("%016x", v); got != want {
			t.Errorf("hash64(%x) = %s, want %s", v, got, want)
		}
		a, b := uint16(v), uint16(v>>16)
		if got, want := nameHashes16(a, b), fmt.Sprintf("%04x%04x", a, b); got != want {
			t.Errorf("nameHashes16(%x, %x) = %s, want %s", a, b, got, want)
		}
	}
}
