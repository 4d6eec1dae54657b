package legacy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
)

func l2Header(scheme string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune("Lineage2Ver" + scheme)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

// TestLineage2Schemes wraps the synthetic package in each Lineage II
// scheme: XOR schemes unwrap, the others fail naming the scheme.
func TestLineage2Schemes(t *testing.T) {
	pkg := synthPackage(synthNames, []int32{-1}, [][]byte{synthProps()})
	xor := func(key byte) []byte {
		out := make([]byte, len(pkg))
		for i, c := range pkg {
			out[i] = c ^ key
		}
		return out
	}
	trailer := make([]byte, l2TrailerSize)
	key121 := Lineage2Key121("Synth.utx")
	tests := []struct {
		scheme  string
		payload []byte
		err     string
	}{
		{"111", xor(0xAC), ""},
		{"121", xor(key121), ""},
		{"111", xor(0x11), "Lineage2Ver111"},
		{"413", xor(0), "Lineage2Ver413 (RSA + zlib)"},
		{"212", xor(0), "Lineage2Ver212 (Blowfish)"},
		{"999", xor(0), "Lineage2Ver999"},
	}
	for _, tt := range tests {
		t.Run(tt.scheme, func(t *testing.T) {
			b := append(append(l2Header(tt.scheme), tt.payload...), trailer...)
			f, err := NewFile(bytes.NewReader(b), int64(len(b)), WithName("Synth.utx"))
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Names) != len(synthNames) || !strings.HasPrefix(f.Wrapper, "Lineage2Ver"+tt.scheme) {
					t.Fatalf("names %d, wrapper %q", len(f.Names), f.Wrapper)
				}
				return
			}
			var ee *EncryptedError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want an EncryptedError naming %q", err, tt.err)
			}
		})
	}
}

// TestLineage2KeyFromName checks the scheme-121 key of the corpus file
// against its file name.
func TestLineage2KeyFromName(t *testing.T) {
	if k := Lineage2Key121("L2UI_edKith.utx"); k != 0xE3 {
		t.Fatalf("key 0x%02X, want 0xE3", k)
	}
}
