package aeskey

import (
	"bytes"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	want := []byte("CUE4ParseFixtureAESKey0123456789")
	for _, tc := range []struct{ name, in string }{
		{"hex", "435545345061727365466978747572654145534b657930313233343536373839"},
		{"0x hex", "0x435545345061727365466978747572654145534B657930313233343536373839"},
		{"raw", "CUE4ParseFixtureAESKey0123456789"},
		{"base64", "Q1VFNFBhcnNlRml4dHVyZUFFU0tleTAxMjM0NTY3ODk="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("have %x, want %x", got, want)
			}
		})
	}
	if k, err := Parse("0x" + "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"); err != nil || k[1] != 0x11 {
		t.Fatalf("0x hex: %x %v", k, err)
	}
	for _, bad := range []string{"", "abc", "zz112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestCheckList(t *testing.T) {
	const hex = "435545345061727365466978747572654145534b657930313233343536373839"
	for _, ok := range []string{"", hex, hex + ",", "," + hex, hex + ", ,CUE4ParseFixtureAESKey0123456789"} {
		if err := CheckList(ok); err != nil {
			t.Errorf("CheckList(%q): %v", ok, err)
		}
	}
	for in, want := range map[string]string{
		"zzzz":           "aes key: want 32 bytes",
		"zzzz," + hex:    "key 1 of 2: aes key",
		hex + ",,abc,":   "key 2 of 2: aes key",
		" 0x" + hex[:62]: "got 64 characters",
	} {
		if err := CheckList(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckList(%q) = %v, want %q", in, err, want)
		}
	}
}
