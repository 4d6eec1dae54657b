//go:build linux

package mapfile

import (
	"io"
	"sync"
	"syscall"
	"unsafe"
)

// Unmapping a file costs more than mapping it: the kernel must make every
// thread of the process forget the pages (a TLB shootdown, an interrupt
// to each other processor, slow in virtual machines). On Linux, files of
// up to arenaMaxFile bytes are therefore mapped one after another into one
// of two reserved address ranges, and a range is given back in one call,
// once it is full and every file in it closed: one shootdown for dozens of
// files. (Whole-corpus verify, 2-core VM: ~190 unmaps per pass were ~3%
// of its CPU; now ~10, and the pass takes 3-6% less CPU.) The pages of
// files closed but not yet given back count in the process's RSS: at most
// the two ranges, 2*arenaSize bytes (verify's memory limit leaves room).
//
// Mapping a file into a reservation splits it and clears what it
// replaces, close to half of the kernel's time in each such mmap call
// (profiled). Giving the range back unreserved and mapping files into
// the hole with MAP_FIXED_NOREPLACE avoids that but does not work: the
// kernel puts the next unrelated mapping into the freed hole (measured:
// 88 of 329 mappings per corpus pass refused, and 106 unmaps instead of
// 10).
const (
	arenaSize    = 8 << 20
	arenaMaxFile = 2 << 20
)

// arena is a reserved address range (PROT_NONE) that files are mapped
// into at increasing offsets.
type arena struct {
	mem  []byte // the whole range
	next int    // where the next file goes (page aligned)
	live int    // files mapped and not yet closed
	full bool   // takes no more files; reset when live drops to 0
}

// arenaSet is the two arenas: files go into cur until it is full.
type arenaSet struct {
	mu  sync.Mutex
	a   [2]*arena
	cur int
	bad bool // reserving failed once: map files on their own
}

var arenas arenaSet

// arenaMap maps the size bytes of fd read-only into an arena. ok is false
// when the file is too big for one, or no arena has room, or mapping
// there failed: then the caller maps the file on its own.
func arenaMap(fd int, size int64) (b []byte, c io.Closer, ok bool) {
	if size > arenaMaxFile || size <= 0 {
		return nil, nil, false
	}
	n := int(size)
	span := (n + pageSize - 1) &^ (pageSize - 1)
	arenas.mu.Lock()
	defer arenas.mu.Unlock()
	a := arenas.current(span)
	if a == nil {
		return nil, nil, false
	}
	at := a.mem[a.next : a.next+span : a.next+span]
	// MAP_FIXED replaces what is at the address: here always a part of
	// the arena's own reservation no file has used since it was reset.
	_, _, errno := syscall.Syscall6(sysMmap, uintptr(unsafe.Pointer(&at[0])), uintptr(n),
		syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_FIXED, uintptr(fd), 0)
	if errno != 0 {
		return nil, nil, false
	}
	a.next += span
	a.live++
	return at[:n:n], &arenaFile{a: a}, true
}

// current returns the arena a file of span bytes goes into (nil: none has
// room, or arenas cannot be reserved). The caller holds arenas.mu.
func (s *arenaSet) current(span int) *arena {
	if s.bad {
		return nil
	}
	a := s.at(s.cur)
	if a == nil {
		return nil
	}
	if a.next+span <= len(a.mem) {
		return a
	}
	// Full: it is reset when its last file closes; files go to the other.
	a.full = true
	if a.live == 0 {
		a.reset()
	}
	s.cur ^= 1
	b := s.at(s.cur)
	if b == nil {
		return nil
	}
	if b.full || b.next+span > len(b.mem) {
		return nil // still holds open files: this one is mapped on its own
	}
	return b
}

// at returns arena i, reserving it first (nil, and s.bad set, when that
// fails). The caller holds arenas.mu.
func (s *arenaSet) at(i int) *arena {
	if s.a[i] == nil {
		if s.a[i] = newArena(); s.a[i] == nil {
			s.bad = true
		}
	}
	return s.a[i]
}

func newArena() *arena {
	mem, err := syscall.Mmap(-1, 0, arenaSize, syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	return &arena{mem: mem}
}

// reset gives the arena's file mappings back in one call, replacing them
// with a fresh reservation. The caller holds arenas.mu.
func (a *arena) reset() {
	_, _, errno := syscall.Syscall6(sysMmap, uintptr(unsafe.Pointer(&a.mem[0])), uintptr(len(a.mem)),
		syscall.PROT_NONE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE|syscall.MAP_FIXED, ^uintptr(0), 0)
	if errno != 0 {
		// The files stay mapped; the range takes no more (nothing is
		// ever mapped over them) until a later reset succeeds.
		a.next, a.full = len(a.mem), true
		return
	}
	a.next, a.full = 0, false
}

// arenaFile closes a file mapped into an arena, once.
type arenaFile struct {
	once sync.Once
	a    *arena
}

func (f *arenaFile) Close() error {
	f.once.Do(func() {
		arenas.mu.Lock()
		defer arenas.mu.Unlock()
		f.a.live--
		if f.a.full && f.a.live == 0 {
			f.a.reset()
		}
	})
	return nil
}

var pageSize = syscall.Getpagesize()
