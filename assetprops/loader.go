package assetprops

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/upkg/upkg/uasset"
)

// FileLoader returns a Loader for packages stored beside the one at path
// (a file on disk, or wherever read finds it), whose long package name is
// packagePath: "/Game/Maps/Level1" read from ".../Content/Maps/Level1.umap"
// puts "/Game/Data/S_Row" at ".../Content/Data/S_Row.uasset". read may be
// nil (os.ReadFile; in the browser, no file is found). opts are passed to uasset.NewFile (the engine version
// of an unversioned package, say).
func FileLoader(path, packagePath string, read func(string) ([]byte, error), opts ...uasset.Option) Loader {
	if read == nil {
		read = readFile
	}
	// The mount: the first element of the package path ("/Game/") and the
	// folder it corresponds to.
	slash := filepath.ToSlash(path)
	ext := filepath.Ext(slash)
	rel := strings.TrimPrefix(packagePath, "/")
	mount, rest, ok := strings.Cut(rel, "/")
	root := ""
	if ok && strings.HasSuffix(strings.TrimSuffix(slash, ext), "/"+rest) {
		root = strings.TrimSuffix(strings.TrimSuffix(slash, ext), rest)
	}
	dir := slash[:strings.LastIndexByte(slash, '/')+1]
	return func(pkg string) (*uasset.File, error) {
		m, r, ok := strings.Cut(strings.TrimPrefix(pkg, "/"), "/")
		if !ok || strings.Contains(r, "..") {
			return nil, os.ErrNotExist
		}
		// The package's place under the mount, else (packages collected in
		// one folder, as test sets are) beside the first package.
		var bases []string
		if root != "" && m == mount {
			bases = append(bases, root+r)
		}
		bases = append(bases, dir+r[strings.LastIndexByte(r, '/')+1:])
		var data []byte
		var err error
		var base string
	find:
		for _, b := range bases {
			for _, e := range []string{".uasset", ".umap"} {
				if data, err = read(filepath.FromSlash(b + e)); err == nil {
					base = b
					break find
				}
			}
		}
		if err != nil {
			return nil, err
		}
		sib := func(e string) (io.ReaderAt, int64, error) {
			b, err := read(filepath.FromSlash(base + e))
			if err != nil {
				return nil, 0, err
			}
			return bytes.NewReader(b), int64(len(b)), nil
		}
		o := append([]uasset.Option{uasset.WithSibling(sib), uasset.WithPackageName(pkg)}, opts...)
		return uasset.NewFile(bytes.NewReader(data), int64(len(data)), o...)
	}
}
