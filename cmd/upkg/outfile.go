package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// Files upkg writes (extract, export, thumbnail) are written to a
// temporary file beside their name first and moved into place once
// complete: an interrupted run leaves no truncated file under a final name,
// and removes its temporary files when stopped by a signal (partialFiles).

// errEscapes is an entry whose path leads outside the output folder
// through a symbolic link already there (os.Root refuses it).
var errEscapes = errors.New("path escapes the output folder")

// rootErr words an error of os.Root while doing what: a path through a
// symbolic link that leaves the output folder is errEscapes; a file where
// a folder is needed is said so (not as "exists", which would suggest
// --force).
func rootErr(err error, doing string) error {
	switch {
	case strings.Contains(err.Error(), "path escapes from parent"):
		return errEscapes
	case errors.Is(err, fs.ErrExist), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s: a file in the output folder is where a folder of its path must be", doing)
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// folderOf returns the folder dir under root (made if missing) as a root
// of its own, with its closer: every step on a file in it is then one
// system call on one name (os.Root walks a longer path a folder at a
// time, for each call). dir "" is root itself.
func folderOf(root *os.Root, dir string) (*os.Root, func() error, error) {
	if dir == "" {
		return root, func() error { return nil }, nil
	}
	if err := root.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, rootErr(err, "making its folder")
	}
	sub, err := root.OpenRoot(dir)
	if err != nil {
		return nil, nil, rootErr(err, "opening its folder")
	}
	return sub, sub.Close, nil
}

// writeNew writes the file base in folder d with write, complete or not at
// all (see pendingFile): without overwrite an existing file is kept (the
// error is fs.ErrExist). beforePublish, when set, runs once the data is
// written, before the file takes its name.
func writeNew(d *os.Root, base string, overwrite bool, partials *partialFiles, write func(io.Writer) (int64, error), beforePublish func()) (int64, error) {
	f, pf, err := createPending(d, base, partials)
	if err != nil {
		return 0, err
	}
	n, err := write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		pf.abort()
		return 0, err
	}
	if beforePublish != nil {
		beforePublish()
	}
	return n, pf.publish(overwrite)
}

// writeBytes is a writeNew write function that writes data.
func writeBytes(data []byte) func(io.Writer) (int64, error) {
	return func(w io.Writer) (int64, error) {
		n, err := w.Write(data)
		return int64(n), err
	}
}

// pendingFile is a file being written under a temporary name in folder d,
// for base.
type pendingFile struct {
	d         *os.Root
	tmp, base string
	partials  *partialFiles
}

// createPending creates the temporary file for base in folder d and
// registers it in partials. Its name is this run's own (the process and a
// count): two runs writing into one folder never share, and never remove,
// each other's temporary files (a shared name let one run publish the
// other's half-written file). A long base keeps the name short, so that
// it stays within the file system's limit whatever base is.
func createPending(d *os.Root, base string, partials *partialFiles) (*os.File, *pendingFile, error) {
	var f *os.File
	var tmp string
	var err error
	for range 100 {
		id := strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(pendingSeq.Add(1), 10)
		if tmp = "." + base + "." + id + ".upkg-partial"; len(tmp) > maxPendingName {
			tmp = ".upkg-partial-" + id
		}
		f, err = d.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, nil, rootErr(err, "creating it")
	}
	partials.add(d, tmp)
	return f, &pendingFile{d: d, tmp: tmp, base: base, partials: partials}, nil
}

// pendingSeq numbers this run's temporary files.
var pendingSeq atomic.Uint64

// maxPendingName is the longest temporary name made from its file's name
// (file systems take 255 bytes).
const maxPendingName = 200

// abort removes the temporary file.
func (p *pendingFile) abort() {
	p.d.Remove(p.tmp)
	p.partials.done(p.d, p.tmp)
}

// publish moves the written file to its name. Without overwrite an
// existing file is never replaced: the move is a hard link, which fails
// when the name is taken (a rename after a check where links are not
// supported); the error is then fs.ErrExist.
func (p *pendingFile) publish(overwrite bool) error {
	defer p.partials.done(p.d, p.tmp)
	d, tmp, base := p.d, p.tmp, p.base
	var err error
	if overwrite {
		err = d.Rename(tmp, base)
	} else if err = d.Link(tmp, base); err == nil || errors.Is(err, fs.ErrExist) {
		d.Remove(tmp)
	} else if _, lerr := d.Lstat(base); lerr == nil {
		err = fs.ErrExist
	} else {
		err = d.Rename(tmp, base) // no hard links on this file system
	}
	if err == nil {
		return nil
	}
	d.Remove(tmp)
	if fi, lerr := d.Lstat(base); lerr == nil && fi.IsDir() {
		return errors.New("a folder of that name is in the output folder")
	}
	if errors.Is(err, fs.ErrExist) {
		return fs.ErrExist
	}
	return rootErr(err, "moving it into place")
}

// partialFiles are the temporary files being written (each a name
// in a folder's root), removed when the process is stopped by a signal.
type partialFiles struct {
	mu    sync.Mutex
	files map[partialFile]bool
}

type partialFile struct {
	dir  *os.Root
	name string
}

func (p *partialFiles) add(dir *os.Root, name string) {
	p.mu.Lock()
	if p.files == nil {
		p.files = map[partialFile]bool{}
	}
	p.files[partialFile{dir, name}] = true
	p.mu.Unlock()
}

func (p *partialFiles) done(dir *os.Root, name string) {
	p.mu.Lock()
	delete(p.files, partialFile{dir, name})
	p.mu.Unlock()
}

// removeOnSignal makes an interrupt, a termination or a closed output
// pipe remove the temporary files being written before the process ends
// (with the status a shell gives a process killed by that signal). stop
// restores the signals' default handling.
func (p *partialFiles) removeOnSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	quit := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			p.mu.Lock() // held to the end: no new file is started
			for f := range p.files {
				f.dir.Remove(f.name)
			}
			code := 1
			if s, ok := sig.(syscall.Signal); ok {
				code = 128 + int(s)
			}
			os.Exit(code)
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(quit)
	}
}
