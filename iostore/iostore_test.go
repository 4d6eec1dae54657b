package iostore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/iostoretest"
)

const fixtureKey = "CUE4ParseFixtureAESKey0123456789"

func fixtures(t testing.TB, engine, mode, variant string) string {
	t.Helper()
	dir := corpus.Path(t, "iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures", engine, "IoStore", mode, variant)
	return filepath.Join(dir, "CUE4ParseFixtures-Minimal-"+variant+"-Windows.utoc")
}

// fileTests is the header of every .utoc in the corpus.
var fileTests = []struct {
	path       string
	version    TocVersion
	entries    int
	files      int
	partitions uint32
	flags      ContainerFlags
	methods    string
	seeds      int
}{
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc", 8, 112, 111, 1, FlagCompressed | FlagIndexed, "None,Zlib", 56},
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc", 8, 112, 111, 1, FlagIndexed, "None", 56},
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Tagged/OodlePartitioned/CUE4ParseFixtures-Minimal-OodlePartitioned-Windows.utoc", 8, 112, 111, 5, FlagCompressed | FlagIndexed, "None,Oodle", 56},
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Tagged/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc", 8, 112, 111, 1, FlagCompressed | FlagEncrypted | FlagIndexed, "None,Oodle", 56},
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Unversioned/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc", 8, 112, 111, 1, FlagCompressed | FlagIndexed, "None,Zlib", 56},
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Tagged/global.utoc", 8, 1, 0, 1, 0, "None", 1},
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Patch/IoStore/CUE4ParseFixtures-PatchBase_0_P.utoc", 8, 2, 1, 1, FlagIndexed, "None", 1},
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/IoStore/Tagged/Zlib/CUE4ParseFixtures-Minimal-Zlib-Windows.utoc", 10, 112, 111, 1, FlagCompressed | FlagIndexed, "None,Zlib", 56},
	{"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/IoStore/Tagged/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc", 10, 112, 111, 1, FlagCompressed | FlagEncrypted | FlagIndexed, "None,Oodle", 56},
	{"GAMEWayOfTheNinja+wayoftheninja.github.io/WayOfTheNinja-Windows.utoc", 8, 5370, 3818, 1, FlagCompressed | FlagIndexed, "None,Oodle", -1},
	{"GurnoorSan+Temple-of-Giants/Colliderproject-Windows.utoc", 5, 1803, 1261, 1, FlagCompressed | FlagIndexed, "None,Oodle", -1},
	{"GurnoorSan+Temple-of-Giants/global.utoc", 5, 1, 0, 1, 0, "None", 1},
	{"HassonKP+ToonTanks/Content/Paks/ToonTanks-Windows.utoc", 5, 724, 325, 1, FlagCompressed | FlagIndexed, "None,Oodle", -1},
	{"MiroslavTodorov01+Simple_Shooter_Game/Content/Paks/SimpleShooter-Windows.utoc", 5, 3784, 2584, 1, FlagCompressed | FlagIndexed, "None,Oodle", -1},
	{"UHooria+AWS-SDK-Chunk/global.utoc", 6, 1, 0, 1, 0, "None", 1},
	{"deividunreal+3dmirageteste/MODEL_3D-Android_ASTC.utoc", 5, 573, 364, 1, FlagCompressed | FlagIndexed, "None,Oodle", -1},
}

func TestFiles(t *testing.T) {
	for _, tt := range fileTests {
		f, err := Open(corpus.Path(t, "iostore", tt.path), WithAESKey([]byte(fixtureKey)))
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		files := 0
		if f.DirectoryIndex != nil {
			files = f.DirectoryIndex.NumFiles()
		}
		h := f.Header
		got := fmt.Sprint(h.Version, len(f.ChunkIDs), files, h.PartitionCount, h.ContainerFlags, strings.Join(f.CompressionMethods, ","))
		want := fmt.Sprint(tt.version, tt.entries, tt.files, tt.partitions, tt.flags, tt.methods)
		if got != want {
			t.Errorf("%s:\nhave %s\nwant %s", tt.path, got, want)
		}
		if tt.seeds >= 0 && len(f.PerfectHashSeeds) != tt.seeds {
			t.Errorf("%s: %d perfect hash seeds, want %d", tt.path, len(f.PerfectHashSeeds), tt.seeds)
		}
		// Every chunk is found through the perfect hash, as the engine finds it.
		if len(f.PerfectHashSeeds) > 0 {
			for i, id := range f.ChunkIDs {
				if j, ok := f.LookupPerfectHash(id); !ok || j != i {
					t.Errorf("%s: chunk %d (%s): perfect hash gives %d, %v", tt.path, i, id, j, ok)
					break
				}
			}
		}
		// Every file points at a chunk, and no chunk twice.
		if f.DirectoryIndex != nil {
			seen := map[int]bool{}
			for _, fe := range f.DirectoryIndex.Files() {
				if seen[fe.Chunk] || !fe.Valid {
					t.Errorf("%s: file %q (chunk %d) duplicate or invalid", tt.path, fe.Path, fe.Chunk)
				}
				seen[fe.Chunk] = true
			}
		}
		f.Close()
	}
}

// TestChunkHashes reads every chunk of every container whose data is in the
// corpus and compares its hash (SHA-1 or BLAKE3) with the TOC's; Oodle
// chunks decode through the registry like the others.
// eachCorpusContainer calls fn with every corpus container that has its
// data (.ucas) beside it, opened with the fixtures' key.
func eachCorpusContainer(t *testing.T, fn func(f *File)) {
	for _, p := range corpus.Files(t, "iostore", ".utoc") {
		f, err := Open(p, WithAESKey([]byte(fixtureKey)))
		if err != nil {
			t.Fatal(err)
		}
		if f.HasData() {
			fn(f)
		}
		f.Close()
	}
}

func TestChunkHashes(t *testing.T) {
	ok := 0
	eachCorpusContainer(t, func(f *File) {
		for i := range f.ChunkIDs {
			if err := f.VerifyChunk(i); err != nil {
				t.Errorf("%s: %v", f.Name, err)
			} else {
				ok++
			}
		}
	})
	t.Logf("%d chunk hashes verified", ok)
	if ok < 1695 {
		t.Errorf("only %d chunks verified", ok)
	}
}

// TestZlibMatchesUncompressed reads every file of the Zlib and uncompressed
// fixture variants and compares them byte for byte.
func TestZlibMatchesUncompressed(t *testing.T) {
	for _, engine := range []string{"UE5_8", "UE6_0"} {
		z, err := Open(fixtures(t, engine, "Tagged", "Zlib"))
		if err != nil {
			t.Fatal(err)
		}
		u, err := Open(fixtures(t, engine, "Tagged", "Uncompressed"))
		if err != nil {
			t.Fatal(err)
		}
		zf, _ := z.FS()
		uf, _ := u.FS()
		same := 0
		for _, fe := range z.DirectoryIndex.Files() {
			a, err := zf.ReadFile(fe.Path)
			if err != nil {
				t.Fatal(err)
			}
			b, err := uf.ReadFile(fe.Path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s %s: Zlib and uncompressed differ", engine, fe.Path)
			}
			same++
		}
		if same != 111 {
			t.Errorf("%s: %d files compared", engine, same)
		}
		z.Close()
		u.Close()
	}
}

func TestEncryption(t *testing.T) {
	for _, engine := range []string{"UE5_8", "UE6_0"} {
		p := fixtures(t, engine, "Tagged", "OodleEncrypted")
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(f.DirectoryIndexErr, ErrNeedKey) {
			t.Errorf("%s without key: %v", engine, f.DirectoryIndexErr)
		}
		f.Close()
		f, err = Open(p, WithAESKey(bytes.Repeat([]byte{7}, 32)))
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(f.DirectoryIndexErr, ErrWrongKey) {
			t.Errorf("%s with a wrong key: %v", engine, f.DirectoryIndexErr)
		}
		f.Close()
		f, err = Open(p, WithAESKey([]byte(fixtureKey)))
		if err != nil || f.DirectoryIndexErr != nil {
			t.Fatal(err, f.DirectoryIndexErr)
		}
		plain, err := Open(fixtures(t, engine, "Tagged", "Oodle"))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := paths(f), paths(plain); a != b {
			t.Errorf("%s: encrypted and plain file lists differ", engine)
		}
		// The one uncompressed chunk (the container header) decrypts and
		// verifies.
		verified := 0
		for i := range f.ChunkIDs {
			if f.Info(i).Method == "None" {
				if err := f.VerifyChunk(i); err != nil {
					t.Errorf("%s: %v", engine, err)
				}
				verified++
			}
		}
		if verified == 0 {
			t.Errorf("%s: no uncompressed chunk to verify", engine)
		}
		f.Close()
		plain.Close()
	}
}

func paths(f *File) string {
	var s []string
	for _, fe := range f.DirectoryIndex.Files() {
		s = append(s, fe.Path)
	}
	sort.Strings(s)
	return strings.Join(s, "\n")
}

func TestPartitioned(t *testing.T) {
	f, err := Open(fixtures(t, "UE5_8", "Tagged", "OodlePartitioned"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o, err := Open(fixtures(t, "UE5_8", "Tagged", "Oodle"))
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if paths(f) != paths(o) {
		t.Error("partitioned and single file lists differ")
	}
	used := map[int]int{}
	for i := range f.ChunkIDs {
		used[f.Info(i).Partition]++
	}
	if len(used) != int(f.Header.PartitionCount) {
		t.Errorf("chunks in %d partitions, header says %d: %v", len(used), f.Header.PartitionCount, used)
	}
	// Partition 0 holds the container header, uncompressed: it reads.
	h, err := f.ContainerHeader()
	if err != nil || len(h.PackageIDs) != 97 {
		t.Errorf("container header: %v", err)
	}
}

// TestTocOnly checks that the game builds whose .ucas is not in the corpus
// list completely and report the missing data clearly.
func TestTocOnly(t *testing.T) {
	for _, tt := range fileTests {
		if tt.seeds != -1 {
			continue
		}
		f, err := Open(corpus.Path(t, "iostore", tt.path))
		if err != nil {
			t.Fatal(err)
		}
		if f.HasData() {
			t.Errorf("%s: has data", tt.path)
		}
		fsys, err := f.FS()
		if err != nil {
			t.Fatal(err)
		}
		fe := f.DirectoryIndex.Files()[0]
		_, err = fsys.ReadFile(fe.Path)
		if !errors.Is(err, ErrNoCas) || !strings.Contains(err.Error(), ".ucas") {
			t.Errorf("%s: read error %v", tt.path, err)
		}
		f.Close()
	}
}

// TestTruncated checks that every prefix of real TOCs fails cleanly.
func TestTruncated(t *testing.T) {
	for _, p := range []string{
		"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Patch/IoStore/CUE4ParseFixtures-PatchBase.utoc",
		"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/IoStore/Tagged/global.utoc",
		"FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/IoStore/Tagged/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc",
		"HassonKP+ToonTanks/Content/Paks/ToonTanks-Windows.utoc",
	} {
		data, err := os.ReadFile(corpus.Path(t, "iostore", p))
		if err != nil {
			t.Fatal(err)
		}
		step := max(1, len(data)/2000)
		for n := 0; n < len(data); n += step {
			f, err := NewReader(bytes.NewReader(data[:n]), int64(n), WithAESKey([]byte(fixtureKey)))
			if err == nil && f.DirectoryIndexErr == nil {
				t.Errorf("%s: prefix of %d bytes parsed", p, n)
			}
		}
		if _, err := NewReader(bytes.NewReader(data), int64(len(data)), WithAESKey([]byte(fixtureKey))); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestCorruptChunkData flips bytes in the data of an uncompressed
// container: the hash check must catch it.
func TestCorruptChunkData(t *testing.T) {
	toc, err := os.ReadFile(fixtures(t, "UE5_8", "Tagged", "Uncompressed"))
	if err != nil {
		t.Fatal(err)
	}
	cas, err := os.ReadFile(strings.TrimSuffix(fixtures(t, "UE5_8", "Tagged", "Uncompressed"), ".utoc") + ".ucas")
	if err != nil {
		t.Fatal(err)
	}
	cas[len(cas)/2] ^= 0xFF
	f, err := NewReader(bytes.NewReader(toc), int64(len(toc)), WithPartitions(func(int) (io.ReaderAt, int64, error) {
		return bytes.NewReader(cas), int64(len(cas)), nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	bad, badStream := 0, 0
	for i := range f.ChunkIDs {
		if err := f.VerifyChunk(i); errors.Is(err, ErrHash) {
			bad++
		}
		s, _ := f.OpenChunkStream(i)
		if _, err := io.ReadAll(s); errors.Is(err, ErrHash) {
			badStream++
		}
	}
	if bad != 1 || badStream != 1 {
		t.Errorf("%d chunks (%d streamed) report a hash mismatch, want 1", bad, badStream)
	}
}

// TestStream reads every chunk of the Zlib fixture through the streaming
// reader and compares with ReadChunk; a corrupted byte fails at the end.
func TestStream(t *testing.T) {
	f, err := Open(fixtures(t, "UE6_0", "Tagged", "Zlib"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := range f.ChunkIDs {
		want, err := f.ReadChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		s, err := f.OpenChunkStream(i)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(s)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("chunk %d: %v, %d vs %d bytes", i, err, len(got), len(want))
		}
	}
}

// TestOverlappingChunks: chunks that each span all of a TOC's blocks (a
// crafted TOC whose checks would be quadratic) are refused as it is read;
// the chunks as written read, and so do copies whose entries point at the
// first's blocks (UE 5.8's deduplicated chunks).
func TestOverlappingChunks(t *testing.T) {
	data := bytes.Repeat([]byte{7}, 8<<10)
	chunks := make([]iostoretest.Chunk, 50)
	for i := range chunks {
		chunks[i] = iostoretest.Chunk{ID: iostoretest.ChunkID(uint64(i), 0, 2), Data: data}
	}
	toc, cas := iostoretest.BuildCompressed(uint8(TocLatest), 1, "../../../", chunks, 1<<10, "", nil)
	f, err := NewReader(bytes.NewReader(toc), int64(len(toc)), WithPartitions(func(int) (io.ReaderAt, int64, error) { return bytes.NewReader(cas), int64(len(cas)), nil }))
	if err != nil {
		t.Fatal(err)
	}
	// Every chunk over all the blocks: 50 chunks of 400 blocks.
	offLens := append([]byte(nil), f.offLens...)
	for i := range chunks {
		p := f.offLens[i*offsetLengthSize:]
		binary.BigEndian.PutUint64(p[2:], uint64(len(chunks)*len(data))) // length (bytes 5-9) and...
		copy(p[:5], []byte{0, 0, 0, 0, 0})                               // ...offset 0
	}
	if err := f.checkEntries(); err == nil || !strings.Contains(err.Error(), "chunks overlap") {
		t.Errorf("chunks spanning every block: %v", err)
	}
	copy(f.offLens, offLens)
	if err := f.checkEntries(); err != nil {
		t.Errorf("the chunks as written: %v", err)
	}
	// Chunks 1-10 as copies of chunk 0 (8 blocks each).
	for i := 1; i <= 10; i++ {
		copy(f.offLens[i*offsetLengthSize:(i+1)*offsetLengthSize], f.offLens[:offsetLengthSize])
	}
	if err := f.checkEntries(); err != nil {
		t.Errorf("deduplicated chunks: %v", err)
	}
}
