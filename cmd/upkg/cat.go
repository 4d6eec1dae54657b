package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/upkg/upkg/internal/inspect"
)

func init() { register(newCatCmd) }

func newCatCmd(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "cat CONTAINER PATH",
		Short: "Write one file stored in a container to standard output",
		Long: `cat writes the data of one file of a .pak or .utoc container to standard output,
decompressed and decrypted, and fails (exit 1) when its stored hash does not
match (a file up to 64 MiB, as the index records its size, is checked before
any of it is written; a bigger one is checked as it is written). PATH is the
path ls prints (a leading "/" is optional) or a chunk id.`,
		Example: `  upkg cat Game-Windows.pak Game/Config/DefaultGame.ini
  upkg cat Game-Windows.utoc Game/Content/Maps/Level1.umap > Level1.umap`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCat(g.options(), args[0], args[1], cmd.OutOrStdout())
		},
	}
}

func runCat(opts *inspect.Options, container, name string, stdout io.Writer) error {
	c, err := openContainer(container, opts)
	if err != nil {
		return err
	}
	defer c.Close()
	rc, size, verify, err := openContainerFile(c, name)
	if err != nil {
		return fmt.Errorf("%s: %w", container, err)
	}
	defer rc.Close()
	fail := func(err error) error { return fmt.Errorf("%s%s%s: %w", container, inspect.ContainerSep, name, err) }
	// A file up to catWhole bytes is read and checked before any of it is
	// written: a damaged one leaves nothing in `upkg cat ... > file`. A
	// bigger one streams, and its check comes at the end; when its size
	// says so, only what the terminal check looks at is read first.
	limit := catWhole + 1
	switch {
	case size > catWhole:
		limit = binarySniff
	case size >= 0:
		limit = int(size) + 1 // (one more: a reader giving more streams the rest)
	}
	head, whole, err := readHead(rc, limit)
	if err != nil {
		return fail(err)
	}
	if whole && verify != nil {
		if err := verify(); err != nil {
			return fail(err)
		}
		verify = nil
	}
	if len(head) > 0 && isTerminal(stdout) && isBinary(head[0]) {
		// As curl does: binary bytes can leave a terminal unusable.
		return fail(errors.New("binary data, not written to the terminal: redirect it to a file (> FILE) or pipe it"))
	}
	for _, b := range head {
		if _, err := stdout.Write(b); err != nil {
			return fail(err)
		}
	}
	if !whole {
		if _, err := io.Copy(stdout, rc); err != nil {
			return fail(err)
		}
	}
	if verify != nil {
		if err := verify(); err != nil {
			return fail(err)
		}
	}
	return nil
}

// readHead reads up to limit bytes of r, in pieces of up to headPiece
// bytes (held as read: no buffer grown and copied, nothing allocated
// ahead of the bytes); whole reports that r ended before limit. The
// first piece holds what isBinary looks at, when r has that much. An
// error that comes with the bytes filling a piece is taken from the next
// read, which gives it again (as the container readers do).
func readHead(r io.Reader, limit int) (head [][]byte, whole bool, err error) {
	for limit > 0 {
		b := make([]byte, min(limit, headPiece))
		n, err := io.ReadFull(r, b)
		if n > 0 {
			head = append(head, b[:n])
		}
		limit -= n
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return head, true, nil
		}
		if err != nil {
			return head, false, err
		}
	}
	return head, false, nil
}

// headPiece is the size of the pieces readHead reads.
const headPiece = 1 << 20

// isBinary reports whether data looks like no text: a NUL byte in its
// first 8 KiB (what curl and diff test).
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0
}

// catWhole is the largest file cat checks before writing any of it.
const catWhole = 64 << 20

// binarySniff is what cat reads of a bigger file before writing it: what
// isBinary looks at.
const binarySniff = 8 << 10

// openContainerFile opens a file of c by its ls name and gives its size as
// the index records it (-1 when not known). When the returned reader does
// not check the hash itself, verify (non-nil) does it after.
func openContainerFile(c inspect.Container, name string) (rc io.ReadCloser, size int64, verify func() error, err error) {
	trimmed := strings.TrimPrefix(name, "/")
	if trimmed == "" {
		return nil, -1, nil, errors.New("no path given (list the files with `upkg ls`)")
	}
	// A stored path, then a chunk id (as ls prints it, in either case).
	for pass := range 2 {
		for i := range c.Len() {
			e := inspect.EntryBrief(c, i) // (no hash: openEntry uses none)
			if pass == 0 && e.Path != trimmed || pass == 1 && (e.ChunkID == "" || !strings.EqualFold(e.ChunkID, name)) {
				continue
			}
			if e.ChunkType == "deleted" {
				return nil, -1, nil, fmt.Errorf("%s is a delete record (no data)", name)
			}
			rc, verify, err := openEntry(c, i, e)
			return rc, e.Size, verify, err
		}
	}
	if ef, ok := c.(inspect.EntryFinder); ok {
		if i, ok := ef.FindEntry(name); ok {
			e := c.Entry(i)
			rc, verify, err := openEntry(c, i, e)
			return rc, e.Size, verify, err
		}
	}
	if f, err := c.Open(trimmed); err == nil {
		if st, err := f.Stat(); err == nil && !st.IsDir() {
			return f, st.Size(), nil, nil
		}
		f.Close()
		return nil, -1, nil, fmt.Errorf("%s is a directory", name)
	}
	return nil, -1, nil, fmt.Errorf("%s: %w (list the files with `upkg ls`)", name, fs.ErrNotExist)
}

// openEntry opens entry i, hash-checked while read when c supports it.
func openEntry(c inspect.Container, i int, e inspect.ContainerEntry) (io.ReadCloser, func() error, error) {
	if eo, ok := c.(inspect.EntryOpener); ok {
		rc, err := eo.EntryReader(i)
		return rc, nil, err
	}
	if e.Path == "" {
		return nil, nil, fmt.Errorf("chunk %s has no path and %s containers cannot open chunks by index", e.ChunkID, c.Format())
	}
	f, err := c.Open(e.Path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() error { return c.VerifyEntry(i) }, nil
}
