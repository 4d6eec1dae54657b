package pak

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/pak/paktest"
)

// TestLyingBlockSize gives a pak whose compressed entry, one zlib block of
// a few hundred bytes, claims to expand to 60 MiB (under the 64 MiB block
// limit): the index is refused naming the entry, and nothing near the
// claim is allocated (reading it used to make a 60 MiB buffer first).
func TestLyingBlockSize(t *testing.T) {
	const size, claim = 0x12345, 60 << 20
	b, err := paktest.Build(paktest.Options{Version: 8, Mount: "../../../"}, []paktest.File{
		{Path: "Game/A.bin", Data: make([]byte, size), Compress: true, BlockSize: size},
	})
	if err != nil {
		t.Fatal(err)
	}
	// The size is in the entry's header before its data and in the
	// index, and so is the block size (4 bytes, then zeros).
	var from, to [8]byte
	binary.LittleEndian.PutUint64(from[:], size)
	binary.LittleEndian.PutUint64(to[:], claim)
	if n := bytes.Count(b, from[:]); n != 3 {
		t.Fatalf("the uncompressed size is in the pak %d times, want 3", n)
	}
	foot, err := ReadFooter(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.ReplaceAll(b, from[:], to[:])
	// The index hash as a writer of such a pak would store it.
	sum := sha1.Sum(b[foot.IndexOffset : foot.IndexOffset+foot.IndexSize])
	if i := bytes.Index(b[foot.IndexOffset+foot.IndexSize:], foot.IndexHash[:]); i < 0 {
		t.Fatal("index hash not found in the footer")
	} else {
		copy(b[foot.IndexOffset+foot.IndexSize+int64(i):], sum[:])
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := NewReader(bytes.NewReader(b), int64(len(b)))
	if err == nil {
		for _, e := range r.All() {
			if _, err = e.DataInto(nil); err != nil {
				break
			}
		}
	}
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "Game/A.bin") {
		t.Errorf("error %v, want one naming the entry", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("%d bytes allocated", grew)
	}
}

// TestIndexHeaderMismatch edits a compressed entry's size in the index only
// (and re-signs the index, as a tool rewriting it would): reading the
// entry goes by its compression blocks and does not notice, but Verify
// compares the index with the entry header before the data, as UnrealPak
// -Test does, and fails naming the field. The unedited pak verifies.
func TestIndexHeaderMismatch(t *testing.T) {
	for _, v := range []int{3, 8, 11} {
		b, err := paktest.Build(paktest.Options{Version: v, Mount: "../../../"}, []paktest.File{
			{Path: "Game/A.txt", Data: paktest.TextLike(5000, 1), Compress: true},
			{Path: "Game/B.txt", Data: []byte("plain")},
		})
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.All() {
			if err := e.Verify(); err != nil {
				t.Fatalf("v%d: unedited %s: %v", v, e.Path, err)
			}
		}
		e := r.Entry(0)
		foot := r.Footer
		index := b[foot.IndexOffset : foot.IndexOffset+foot.IndexSize]
		var want [16]byte
		binary.LittleEndian.PutUint64(want[:], uint64(e.Offset))
		binary.LittleEndian.PutUint64(want[8:], uint64(e.CompressedSize))
		i := bytes.Index(index, want[:])
		if v >= 10 {
			// The encoded entry (after its flags word): offset,
			// uncompressed size and size, 32 bits each when small.
			binary.LittleEndian.PutUint32(want[:], uint32(e.Offset))
			binary.LittleEndian.PutUint32(want[4:], uint32(e.UncompressedSize))
			binary.LittleEndian.PutUint32(want[8:], uint32(e.CompressedSize))
			i = bytes.Index(index, want[:12])
		}
		if i < 0 {
			t.Fatalf("v%d: the entry's offset and size are not in the index", v)
		}
		if v >= 10 {
			binary.LittleEndian.PutUint32(index[i+8:], uint32(e.CompressedSize+1000))
		} else {
			binary.LittleEndian.PutUint64(index[i+8:], 1<<40)
		}
		sum := sha1.Sum(index)
		copy(b[foot.IndexOffset+foot.IndexSize+int64(bytes.Index(b[foot.IndexOffset+foot.IndexSize:], foot.IndexHash[:])):], sum[:])
		r, err = NewReader(bytes.NewReader(b), int64(len(b)))
		if v >= 10 && err != nil && strings.Contains(err.Error(), "Game/A.txt") {
			// An encoded entry's one block is its size: the index
			// checks on opening catch the edit already.
			continue
		}
		if err != nil {
			t.Fatalf("v%d: edited index refused on opening (%v): the test edits the wrong bytes", v, err)
		}
		err = r.Entry(0).Verify()
		if err == nil || !strings.Contains(err.Error(), "differs from the index: Size") || !strings.Contains(err.Error(), "Game/A.txt") {
			t.Errorf("v%d: Verify = %v, want the header and index sizes told apart", v, err)
		}
		if err := r.Entry(1).Verify(); err != nil {
			t.Errorf("v%d: the other entry: %v", v, err)
		}
	}
}

// TestSharedEntryOfManyBlocks points the 3,000 files of a v11 directory
// index at one encoded entry of 2,048 compression blocks (re-signing the
// directory index and the index): decoding each file's entry would make 6
// million blocks (100 MB) from 90 KB of index. Opening is refused, within
// alloctest's bound; the pak as built opens.
func TestSharedEntryOfManyBlocks(t *testing.T) {
	files := []paktest.File{{Path: "Game/Big.bin", Data: paktest.TextLike(2048*2048, 1), Compress: true, BlockSize: 2048}}
	for i := range 3000 {
		files = append(files, paktest.File{Path: fmt.Sprintf("Game/D/F%d.bin", i), Data: []byte{byte(i)}})
	}
	b, err := paktest.Build(paktest.Options{Version: 11, Mount: "../../../"}, files)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	f, fdi := r.Footer, r.FullDirectoryIndexRange
	oldFDIHash := sha1.Sum(b[fdi[0] : fdi[0]+fdi[1]])
	// Every file of the directory index at location 0 (Big.bin's entry).
	d := b[fdi[0] : fdi[0]+fdi[1]]
	at := 0
	u32 := func() int { v := int(int32(binary.LittleEndian.Uint32(d[at:]))); at += 4; return v }
	str := func() { n := u32(); at += n }
	for range u32() {
		str()
		for range u32() {
			str()
			binary.LittleEndian.PutUint32(d[at:], 0)
			at += 4
		}
	}
	newFDIHash := sha1.Sum(d)
	index := b[f.IndexOffset : f.IndexOffset+f.IndexSize]
	k := bytes.Index(index, oldFDIHash[:])
	if k < 0 {
		t.Fatal("directory index hash not found in the index")
	}
	copy(index[k:], newFDIHash[:])
	sum := sha1.Sum(index)
	copy(b[f.IndexOffset+f.IndexSize+int64(bytes.Index(b[f.IndexOffset+f.IndexSize:], f.IndexHash[:])):], sum[:])
	alloctest.Check(t, len(b), func() {
		_, err = NewReader(bytes.NewReader(b), int64(len(b)))
	})
	if err == nil || !strings.Contains(err.Error(), "many files sharing an entry of many blocks") {
		t.Errorf("opened: %v", err)
	}
}

// TestDataSize: the data the entries point at adds up to the pak's data
// when each has its own, and counts shared bytes once per entry.
func TestDataSize(t *testing.T) {
	data := paktest.TextLike(64<<10, 3)
	for _, v := range []int{3, 8, 11} {
		for _, shared := range []bool{false, true} {
			var files []paktest.File
			for i := range 50 {
				files = append(files, paktest.File{Path: fmt.Sprintf("Game/F%d.bin", i), Data: data, Compress: i%2 == 1, SharedData: shared})
			}
			b, err := paktest.Build(paktest.Options{Version: v, Mount: "../../../"}, files)
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewReader(bytes.NewReader(b), int64(len(b)))
			if err != nil {
				t.Fatal(err)
			}
			var sum int64
			for _, e := range r.All() {
				sum += e.CompressedSize
			}
			if got := r.DataSize(); got != sum || shared != (got > r.Size()) {
				t.Errorf("version %d, shared %v: DataSize %d, entries' sizes %d, pak %d bytes", v, shared, got, sum, r.Size())
			}
		}
	}
}
