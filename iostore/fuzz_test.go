package iostore

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/ahead"
	"github.com/upkg/upkg/internal/alloctest"
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/readertest"
)

// seedTocs adds the small TOCs of the corpus (skipped when it is absent).
func seedTocs(f *testing.F) [][]byte {
	dir, ok := corpus.Find()
	if !ok {
		return nil
	}
	var out [][]byte
	for _, p := range []string{
		"iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/Patch/IoStore/CUE4ParseFixtures-PatchBase.utoc",
		"iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/IoStore/Tagged/global.utoc",
		"iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/IoStore/Tagged/Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc",
		"iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE6_0/IoStore/Tagged/OodleEncrypted/CUE4ParseFixtures-Minimal-OodleEncrypted-Windows.utoc",
		"iostore/GurnoorSan+Temple-of-Giants/global.utoc",
	} {
		b, err := os.ReadFile(dir + "/" + p)
		if err != nil {
			f.Fatalf("seed %s: %v", p, err)
		}
		out = append(out, b)
	}
	return out
}

// FuzzTOC parses arbitrary TOCs, lists them and reads every chunk from a
// small fake .ucas: nothing may panic, and what parses must be consistent.
func FuzzTOC(f *testing.F) {
	for _, b := range seedTocs(f) {
		f.Add(b)
	}
	for _, v := range []TocVersion{TocDirectoryIndex, TocPartitionSize, TocPerfectHash, TocLatest} {
		toc, _ := buildToc(v, "../../../", []synthFile{{"Content", "A.uasset", []byte("hello")}, {"", "B", []byte("world!")}})
		f.Add(toc)
	}
	// A chunk of several stored blocks (the reads that join them).
	big, _ := buildToc(TocLatest, "../../../", []synthFile{{"Content", "Big.uasset", bytes.Repeat([]byte{0x5A}, 0x100*4+0x20)}})
	f.Add(big)
	cas := bytes.Repeat([]byte{0x5A}, 1<<16)
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data)+len(cas), func() {
			// Half the inputs read their data in place (a partition in memory).
			var part io.ReaderAt = bytes.NewReader(cas)
			if len(data)%2 == 1 {
				part = binread.Mem(cas)
			}
			tf, err := NewReader(bytes.NewReader(data), int64(len(data)), WithAESKey([]byte(fixtureKey)), WithPartitions(func(int) (io.ReaderAt, int64, error) {
				return part, int64(len(cas)), nil
			}))
			if err != nil {
				return
			}
			if len(tf.ChunkIDs) != int(tf.Header.TocEntryCount) || len(tf.loadMetas()) != len(tf.ChunkIDs)*tf.metaSize && len(tf.ChunkIDs) > 0 {
				t.Fatalf("%d chunk IDs, %d metas for %d entries", len(tf.ChunkIDs), len(tf.metas), tf.Header.TocEntryCount)
			}
			for i := range tf.ChunkIDs {
				tf.Info(i)
				tf.PathOf(i)
				tf.LookupPerfectHash(tf.ChunkIDs[i])
				if tf.OffsetLength(i).Length < 1<<22 {
					verifyErr := tf.VerifyChunk(i)
					// Decoded ahead, the chunk reads and verifies as one
					// block after the other.
					want, readErr := tf.ReadChunk(i)
					got, gotErr, gotVerify := readAhead(tf, i)
					if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(readErr) || fmt.Sprint(gotVerify) != fmt.Sprint(verifyErr) {
						t.Fatalf("chunk %d: decoded ahead %d bytes, %v, %v; one by one %d bytes, %v, %v", i, len(got), gotErr, gotVerify, len(want), readErr, verifyErr)
					}
					// And so through a ChunkReader read in order (a
					// verifying one, which then verifies as
					// VerifyChunk does).
					var wantSteps []byte
					var stepsErr error
					if vr, err := tf.VerifyingChunkReader(i); err != nil {
						stepsErr = err
					} else {
						wantSteps, stepsErr = readertest.StepsAll(vr, vr.Size(), 40000)
						if got := vr.Verify(); fmt.Sprint(got) != fmt.Sprint(verifyErr) {
							t.Fatalf("chunk %d: VerifyingChunkReader %v, VerifyChunk %v", i, got, verifyErr)
						}
						vr.Close()
					}
					var gotSteps []byte
					var gotStepsErr error
					withAhead(func() { gotSteps, gotStepsErr = readInSteps(tf, i) })
					if !bytes.Equal(gotSteps, wantSteps) || fmt.Sprint(gotStepsErr) != fmt.Sprint(stepsErr) {
						t.Fatalf("chunk %d, ChunkReader in order: decoded ahead %d bytes, %v; one by one %d bytes, %v", i, len(gotSteps), gotStepsErr, len(wantSteps), stepsErr)
					}
					if got, ok := tf.ChunkInPlace(i); ok {
						if want, err := tf.ReadChunk(i); err != nil || !bytes.Equal(got, want) {
							t.Fatalf("chunk %d: in place %d bytes, read %d bytes, %v", i, len(got), len(want), err)
						}
					}
					// A chunk that reads whole reads alike through a
					// ChunkReader; any other may fail there, not panic.
					if want, err := tf.ReadChunk(i); err == nil {
						got := make([]byte, len(want))
						cr, err := tf.ChunkReader(i)
						if err != nil {
							t.Fatalf("chunk %d: read whole, ChunkReader: %v", i, err)
						}
						for off := 0; off < len(got); off += 0x55 {
							if _, err := cr.ReadAt(got[off:min(off+0x55, len(got))], int64(off)); err != nil {
								t.Fatalf("chunk %d: ReadAt at %d: %v", i, off, err)
							}
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("chunk %d: ChunkReader differs from ReadChunk", i)
						}
					} else if cr, err := tf.ChunkReader(i); err == nil {
						cr.ReadAt(make([]byte, min(cr.Size(), 1<<16)), 0)
					}
				}
			}
			if fsys, err := tf.FS(); err == nil {
				fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
					if !fs.ValidPath(p) {
						t.Fatalf("invalid path %q served", p)
					}
					return nil
				})
			}
			tf.ContainerHeader()
		})
	})
}

// readAhead reads and verifies chunk i with every range decoded ahead
// (withAhead).
func readAhead(f *File, i int) (data []byte, err, verifyErr error) {
	withAhead(func() {
		data, err = f.ReadChunk(i)
		verifyErr = f.VerifyChunk(i)
	})
	return data, err, verifyErr
}

// withAhead runs do with every range decoded ahead (a few hundred bytes
// ahead), whatever its size and whatever else runs.
func withAhead(do func()) {
	oldShare, oldBytes, oldIdle := parallelMinShare, aheadBytes, ahead.IdleProcs
	parallelMinShare, aheadBytes = 1, 0x300
	ahead.IdleProcs = func(procs int) int { return procs - 1 }
	defer func() { parallelMinShare, aheadBytes, ahead.IdleProcs = oldShare, oldBytes, oldIdle }()
	do()
}

// FuzzDirectoryIndex parses arbitrary (decrypted) directory indexes.
func FuzzDirectoryIndex(f *testing.F) {
	for _, b := range seedTocs(f) {
		tf, err := NewReader(bytes.NewReader(b), int64(len(b)), WithAESKey([]byte(fixtureKey)))
		if err != nil || tf.Header.DirectoryIndexSize == 0 {
			continue
		}
		start := len(b) - len(tf.ChunkIDs)*metaSizeIoHash - int(tf.Header.DirectoryIndexSize)
		if tf.Header.ContainerFlags&FlagEncrypted == 0 && start > 0 {
			f.Add(b[start : start+int(tf.Header.DirectoryIndexSize)])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			d, err := parseDirectoryIndex(data, 0, 1000)
			if err != nil {
				return
			}
			for _, fe := range d.Files() {
				// Valid paths are valid io/fs paths; names with backslashes
				// are refused too (they would be separators on Windows).
				if fe.Valid && (!fs.ValidPath(fe.Path) || fe.Path == "." || strings.Contains(fe.Path, "\\")) {
					t.Fatalf("path %q: Valid = %v", fe.Path, fe.Valid)
				}
				if fe.Chunk < 0 || fe.Chunk >= 1000 {
					t.Fatalf("chunk %d out of range", fe.Chunk)
				}
			}
		})
	})
}

// FuzzContainerHeader parses arbitrary container headers of every version.
func FuzzContainerHeader(f *testing.F) {
	if dir, ok := corpus.Find(); ok {
		for _, p := range []string{"UE5.3/ContainerHeader_1.bin", "issues/issue18/header.bin"} {
			b, err := os.ReadFile(dir + "/iostore/trumank+retoc/retoc/tests/" + p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b[:min(len(b), 8192)])
		}
		// The container headers of the fixture containers, whole.
		for _, v := range []string{"UE5_8", "UE6_0"} {
			tf, err := Open(dir + "/iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/" + v + "/Patch/IoStore/CUE4ParseFixtures-PatchBase.utoc")
			if err != nil {
				f.Fatal(err)
			}
			if i, ok := tf.FindChunk(uint64(tf.Header.ContainerID), 0, ChunkContainerHeader); ok {
				if b, err := tf.ReadChunk(i); err == nil {
					f.Add(b)
				}
			}
			tf.Close()
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		alloctest.Check(t, len(data), func() {
			for _, v := range []TocVersion{0, TocDirectoryIndex, TocPartitionSize, TocLatest} {
				h, err := ParseContainerHeader(data, v)
				if err != nil {
					continue
				}
				if len(h.PackageIDs) != h.StoreEntries.Len() || len(h.OptionalSegmentPackageIDs) != h.OptionalSegmentStoreEntries.Len() {
					t.Fatalf("%d package IDs, %d store entries", len(h.PackageIDs), h.StoreEntries.Len())
				}
			}
		})
	})
}

const largestToc = "iostore/GAMEWayOfTheNinja+wayoftheninja.github.io/WayOfTheNinja-Windows.utoc"

// BenchmarkOpenList opens the largest TOC of the corpus (5,370 entries) and
// lists every entry as `upkg ls` does: path, chunk ID and size.
func BenchmarkOpenList(b *testing.B) {
	benchOpen(b, false)
}

// BenchmarkOpenListLong adds what `upkg ls --long` shows: compressed size
// and method (from the compression block table) and the hash.
func BenchmarkOpenListLong(b *testing.B) {
	benchOpen(b, true)
}

// cpuNow returns process CPU time in ns where the platform tells it (see
// cpu_linux_test.go), else 0.
var cpuNow = func() int64 { return 0 }

func reportCPU(b *testing.B, start int64, entries int) {
	if c := cpuNow(); c > 0 && entries > 0 {
		b.ReportMetric(float64(c-start)/float64(b.N)/float64(entries)/1000, "cpu-µs/entry")
	}
}

// reportCPUThroughput reports MB per CPU second (see reportCPU).
func reportCPUThroughput(b *testing.B, start, bytes int64) {
	if c := cpuNow(); c > start {
		b.ReportMetric(float64(bytes)*float64(b.N)/(float64(c-start)/1e9)/1e6, "cpu-MB/s")
	}
}

func benchOpen(b *testing.B, long bool) {
	p := corpus.Path(b, largestToc)
	var entries int
	start := cpuNow()
	defer func() { reportCPU(b, start, entries) }()
	for b.Loop() {
		f, err := Open(p)
		if err != nil {
			b.Fatal(err)
		}
		var sum int64
		for i, id := range f.ChunkIDs {
			sum += int64(len(f.PathOf(i))) + int64(f.OffsetLength(i).Length) + int64(id.Type())
			if long {
				sum += f.Info(i).CompressedSize + int64(f.Hash(i)[0])
			}
		}
		entries = len(f.ChunkIDs)
		f.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(entries)/1000, "µs/entry")
}

// BenchmarkExtract reads every chunk of the Zlib and uncompressed fixtures:
// whole (ReadChunk), whole and hash-checked (ReadChunkVerified, what
// extract does), and streamed block by block with the hash check
// (OpenChunkStream, what cat does). BenchmarkHash gives the hashing alone.
func BenchmarkExtract(b *testing.B) {
	for _, variant := range []string{"Uncompressed", "Zlib"} {
		for _, mode := range []string{"Read", "Verified", "Stream"} {
			b.Run(variant+"/"+mode, func(b *testing.B) {
				f, err := Open(fixtures(b, "UE5_8", "Tagged", variant))
				if err != nil {
					b.Fatal(err)
				}
				defer f.Close()
				var total int64
				for i := range f.ChunkIDs {
					total += int64(f.OffsetLength(i).Length)
				}
				b.SetBytes(total)
				b.ReportAllocs()
				start := cpuNow()
				defer func() { reportCPUThroughput(b, start, total) }()
				for b.Loop() {
					for i := range f.ChunkIDs {
						switch mode {
						case "Read":
							_, err = f.ReadChunk(i)
						case "Verified":
							_, err = f.ReadChunkVerified(i)
						case "Stream":
							var r io.Reader
							if r, err = f.OpenChunkStream(i); err == nil {
								_, err = io.Copy(io.Discard, r)
							}
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}

// BenchmarkHash hashes the uncompressed fixture's chunks the way the TOC
// stores them (BLAKE3 for UE5), from memory: the verify cost on its own.
func BenchmarkHash(b *testing.B) {
	f, err := Open(fixtures(b, "UE5_8", "Tagged", "Uncompressed"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var chunks [][]byte
	var total int64
	for i := range f.ChunkIDs {
		d, err := f.ReadChunk(i)
		if err != nil {
			b.Fatal(err)
		}
		chunks = append(chunks, d)
		total += int64(len(d))
	}
	b.SetBytes(total)
	start := cpuNow()
	defer func() { reportCPUThroughput(b, start, total) }()
	for b.Loop() {
		for _, d := range chunks {
			f.HashChunk(d)
		}
	}
}

// BenchmarkParseInMemory parses the largest TOC from memory (no file I/O):
// the part of opening that is this package's own work.
func BenchmarkParseInMemory(b *testing.B) {
	data, err := os.ReadFile(corpus.Path(b, largestToc))
	if err != nil {
		b.Fatal(err)
	}
	var entries int
	start := cpuNow()
	defer func() { reportCPU(b, start, entries) }()
	for b.Loop() {
		f, err := NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			b.Fatal(err)
		}
		for i := range f.ChunkIDs {
			_ = f.PathOf(i)
		}
		entries = len(f.ChunkIDs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(entries)/1000, "µs/entry")
}
