package iostore

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

func TestSmoke(t *testing.T) {
	for _, p := range corpus.Files(t, "iostore", ".utoc") {
		var opts []Option
		if filepath.Base(filepath.Dir(p)) == "OodleEncrypted" {
			opts = append(opts, WithAESKey([]byte("CUE4ParseFixtureAESKey0123456789")))
		}
		f, err := Open(p, opts...)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		ok, bad, oodle := 0, 0, 0
		var firstErr error
		for i := range f.ChunkIDs {
			err := f.VerifyChunk(i)
			var ue *UnsupportedError
			switch {
			case err == nil:
				ok++
			case errors.As(err, &ue):
				oodle++
			default:
				bad++
				if firstErr == nil {
					firstErr = err
				}
			}
		}
		nfiles := 0
		mp := ""
		if f.DirectoryIndex != nil {
			nfiles = len(f.DirectoryIndex.Files)
			mp = f.DirectoryIndex.MountPoint
		}
		t.Logf("%s v%d entries=%d files=%d mount=%q dirErr=%v methods=%v ok=%d unsup=%d bad=%d trailing=%d first=%v", filepath.Base(p), f.Header.Version, len(f.ChunkIDs), nfiles, mp, f.DirectoryIndexErr, f.CompressionMethods, ok, oodle, bad, len(f.Trailing), firstErr)
		f.Close()
	}
}
