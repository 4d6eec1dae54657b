package legacy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/aeskey"
	"github.com/upkg/upkg/internal/corpus"
)

// TestRocketLeagueDecrypt re-encrypts the plain header of the corpus's
// decrypted Rocket League package with a test key into the encrypted file,
// then reads it back with that key: the tables must match the decrypted
// file's, and the zlib body chunks named by the decrypted chunk table must
// expand.
func TestRocketLeagueDecrypt(t *testing.T) {
	dir := corpus.Path(t, "legacy_ue123", "Martinii89+RL-UPKSuite", "Core.Test", "TestData")
	enc, err := os.ReadFile(filepath.Join(dir, "RocketPass_Premium_T_SF.upk"))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile(filepath.Join(dir, "RocketPass_Premium_T_SF_decrypted.upk"))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := NewFile(bytes.NewReader(plain), int64(len(plain)))
	if err != nil {
		t.Fatal(err)
	}
	s := ref.Summary
	encSize := (int(s.HeadersSize-s.RocketLeague.GarbageSize-s.NameOffset) + 15) &^ 15
	key := []byte("upkg-test-key-0123456789abcdefgh")
	c, err := aeskey.New(key)
	if err != nil {
		t.Fatal(err)
	}
	// The decrypted file holds the unpacked body where the chunk table was
	// (the body starts at DependsOffset), so the chunk table is rebuilt:
	// one chunk, the zlib chunk that follows the encrypted header.
	region := bytes.Clone(plain[s.NameOffset : int(s.NameOffset)+encSize])
	at := int(s.NameOffset) + encSize
	rel := bytes.Index(enc[at:], []byte{0xC1, 0x83, 0x2A, 0x9E})
	if rel < 0 {
		t.Fatal("no compressed chunk after the header")
	}
	chunkOff := at + rel
	body := plain[s.DependsOffset:]
	le := binary.LittleEndian
	ci := le.AppendUint32(nil, 1)
	ci = le.AppendUint64(ci, uint64(s.DependsOffset))
	ci = le.AppendUint32(ci, uint32(len(body)))
	ci = le.AppendUint64(ci, uint64(chunkOff))
	ci = le.AppendUint32(ci, uint32(len(enc)-chunkOff))
	copy(region[s.RocketLeague.CompressedChunkInfoOffset:], ci)
	if err := c.EncryptECB(region); err != nil {
		t.Fatal(err)
	}
	pkg := bytes.Clone(enc)
	copy(pkg[s.NameOffset:], region)

	_, err = NewFile(bytes.NewReader(pkg), int64(len(pkg)))
	var ee *EncryptedError
	if !errors.As(err, &ee) || ee.Scheme != rocketScheme {
		t.Fatalf("without a key: %v", err)
	}
	if _, err := NewFile(bytes.NewReader(pkg), int64(len(pkg)), WithAESKey([]byte("wrong-key-0123456789abcdefghijkl"))); !errors.As(err, &ee) {
		t.Fatalf("with a wrong key: %v", err)
	}
	f, err := NewFile(bytes.NewReader(pkg), int64(len(pkg)), WithAESKey(key))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Names) != len(ref.Names) || len(f.Imports) != len(ref.Imports) || len(f.Exports) != len(ref.Exports) {
		t.Fatalf("tables %d/%d/%d, want %d/%d/%d", len(f.Names), len(f.Imports), len(f.Exports), len(ref.Names), len(ref.Imports), len(ref.Exports))
	}
	got := make([]byte, len(body))
	if _, err := f.ReadAt(got, int64(s.DependsOffset)); err != nil || !bytes.Equal(got, body) {
		t.Errorf("body after decompression differs from the decrypted file (%v)", err)
	}
	for i := range f.Exports {
		if f.ExportPath(i) != ref.ExportPath(i) {
			t.Errorf("export %d: %s, want %s", i, f.ExportPath(i), ref.ExportPath(i))
		}
		if _, err := f.Object(i); err != nil && !errors.Is(err, ErrNoProperties) {
			t.Errorf("export %d: %v", i, err)
		}
	}
}
