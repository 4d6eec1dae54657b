package zen

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"

	"github.com/upkg/upkg/internal/binread"
)

// ObjectIndex is FPackageObjectIndex: a 2-bit kind and a 62-bit value.
type ObjectIndex uint64

// Kinds of an ObjectIndex (FPackageObjectIndex::EType).
const (
	KindExport        = 0
	KindScriptImport  = 1
	KindPackageImport = 2
	KindNull          = 3
)

// NullIndex is the null FPackageObjectIndex (all bits set).
const NullIndex ObjectIndex = ^ObjectIndex(0)

// Kind returns the index kind.
func (x ObjectIndex) Kind() int { return int(x >> 62) }

// IsNull reports whether x is null.
func (x ObjectIndex) IsNull() bool { return x.Kind() == KindNull }

// Value returns the 62-bit payload.
func (x ObjectIndex) Value() uint64 { return uint64(x) & (1<<62 - 1) }

// PackageImport splits a UE5 package import into the index of the imported
// package and of the imported public export hash.
func (x ObjectIndex) PackageImport() (pkg, hash uint32) {
	return uint32(x.Value() >> 32), uint32(x)
}

// MarshalText writes x in JSON as its String form ("export 3", "script
// 0x…", "package 0x…", "null"): as a number, a 64-bit index would lose its
// low bits to readers whose numbers are doubles (JavaScript, jq).
func (x ObjectIndex) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

func (x ObjectIndex) String() string {
	switch x.Kind() {
	case KindExport:
		return fmt.Sprintf("export %d", x.Value())
	case KindScriptImport:
		return fmt.Sprintf("script 0x%016x", x.Value())
	case KindPackageImport:
		return fmt.Sprintf("package 0x%016x", x.Value())
	}
	return "null"
}

// ScriptObject is FScriptObjectEntry.
type ScriptObject struct {
	ObjectName    MappedName  `json:"object_name"`
	GlobalIndex   ObjectIndex `json:"global_index"`
	OuterIndex    ObjectIndex `json:"outer_index"`
	CDOClassIndex ObjectIndex `json:"cdo_class_index"`
	// Name and Path are resolved against the global name map.
	Name string `json:"name"`
	Path string `json:"path"`
}

// scriptObjectSize is sizeof(FScriptObjectEntry).
const scriptObjectSize = 32

// ScriptObjects is the global script-object table of the global container
// (ScriptObjects chunk in UE5; LoaderGlobalNames, LoaderGlobalNameHashes and
// LoaderInitialLoadMeta in UE4) with the global name map.
//
// The table is read in place: an object's name and path are built when
// it is first asked for ([ScriptObjects.Lookup], [ScriptObjects.Object]),
// and a name's hash is checked when the name is ([ScriptObjects.Name]). A
// table is safe for concurrent use.
type ScriptObjects struct {
	names lazyNames
	// entries holds the TArray<FScriptObjectEntry>'s elements as stored.
	entries []byte
	// slots is an open-addressing table of the objects by global index:
	// object index + 1, 0 for a free slot. A global index x goes first to
	// slot (x^seed)*mul >> shift: multiply-shift hashing with a random odd
	// multiplier, so that no table can be crafted to collide.
	slots     []int32
	seed, mul uint64
	shift     uint8
	// classes has bit i set when object i is some class default object's
	// class; otherClasses holds such class indices of no object.
	classes      []uint64
	otherClasses map[ObjectIndex]bool

	mu sync.Mutex
	// objs[i] is object i once resolved; see memoPath. A map: a session
	// resolves a few hundred of the tens of thousands of objects.
	objs map[int]*scriptObject
}

// scriptObject is a resolved object with its pathMemo state.
type scriptObject struct {
	ScriptObject
	// need (0: path not kept) is how many objects of the object's outer
	// chain, itself included, have an outer: the kept Path read at depth d
	// is the object's path only when d+need-1 stays within maxOuterDepth
	// (deeper, the bound cuts the chain).
	need int32
	// done says Path is the object's own path (read at depth 0).
	done bool
}

// ParseScriptObjects reads a UE5 ScriptObjects chunk: the global name batch
// and TArray<FScriptObjectEntry>. The table refers to data, which must not
// change afterwards.
func ParseScriptObjects(data []byte) (*ScriptObjects, error) {
	r := binread.FromBytes(data)
	s := &ScriptObjects{names: readLazyNames(r, data, "ScriptObjects.GlobalNames")}
	s.readEntries(r, data)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("zen: script objects: %w", err)
	}
	if r.Remaining() != 0 {
		return nil, fmt.Errorf("zen: script objects: %d bytes left over at offset 0x%x", r.Remaining(), r.Offset())
	}
	if err := s.index(); err != nil {
		return s, err
	}
	return s, s.checkPaths(len(data))
}

// checkPaths fails when the paths of the script objects would take more
// than 8 times the size bytes they were read from and 4 MiB in all: each
// is kept once made, and long names repeated down deep outer chains
// could make a small table's take gigabytes. (s.index has checked the
// name indices.)
func (s *ScriptObjects) checkPaths(size int) error {
	total, limit := int64(0), 8*int64(size)+4<<20
	// bound[i] is at least len of i's path (memoPath): the names of its
	// outers, separators, numbers, "?/"; 0 before it is known. Each
	// object's outer is looked up once.
	n := s.Len()
	bound := make([]int64, n)
	var chain []int
	for i := range n {
		chain = chain[:0]
		base := int64(0)
		for j := i; j >= 0; j = s.outer(j) {
			if bound[j] > 0 {
				base = bound[j]
				break
			}
			if len(chain) > maxOuterDepth+1 {
				break // (a cycle, or cut by memoPath)
			}
			chain = append(chain, j)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			j := chain[k]
			base += int64(s.names.maxLen(int(binary.LittleEndian.Uint32(s.entries[j*scriptObjectSize:])&(1<<30-1)))) + 14
			if bound[j] == 0 {
				bound[j] = base
			}
		}
		if total += bound[i]; total > limit {
			return fmt.Errorf("zen: script objects: the paths of its %d objects take more than %d bytes, 8 times its size and 4 MiB (long names repeated by deep outer chains?)", n, limit)
		}
	}
	return nil
}

// ParseScriptObjectsUE4 reads the UE 4.26/4.27 global data: the global name
// batch in two parts and the initial load meta (TArray<FScriptObjectEntry>).
func ParseScriptObjectsUE4(names, hashes, initialLoadMeta []byte) (*ScriptObjects, error) {
	nm, err := ParseNameBatchParts(names, hashes)
	if err != nil {
		return nil, fmt.Errorf("zen: global names: %w", err)
	}
	if nm == nil {
		nm = []Name{}
	}
	s := &ScriptObjects{names: lazyNames{eager: nm}}
	r := binread.FromBytes(initialLoadMeta)
	s.readEntries(r, initialLoadMeta)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("zen: initial load meta: %w", err)
	}
	if err := s.index(); err != nil {
		return s, err
	}
	return s, s.checkPaths(len(names) + len(initialLoadMeta))
}

// ScriptObjectsCache keeps the last table [ScriptObjectsCache.Parse]
// parsed with the chunk it came from, so that global containers holding
// the same chunk (copies of one game's global.utoc) share one table. It is
// safe for concurrent use; the tables it hands out must not be modified.
type ScriptObjectsCache struct {
	mu   sync.Mutex
	data []byte
	s    *ScriptObjects
}

// Parse is [ParseScriptObjects], or the table parsed last when data holds
// the same bytes. data must not change afterwards.
func (c *ScriptObjectsCache) Parse(data []byte) (*ScriptObjects, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s != nil && bytes.Equal(c.data, data) {
		return c.s, nil
	}
	s, err := ParseScriptObjects(data)
	if err != nil {
		return nil, err
	}
	c.data, c.s = data, s
	return s, nil
}

// Cached returns the table parsed last when same, called with the bytes
// it was parsed from (which it must not modify), reports that the chunk at
// hand holds them too: a caller can compare a chunk as it reads it, block
// by block, without holding a copy of it.
func (c *ScriptObjectsCache) Cached(same func(data []byte) bool) (*ScriptObjects, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s == nil || !same(c.data) {
		return nil, false
	}
	return c.s, true
}

// readEntries takes the entries in place (r reads data from its start).
func (s *ScriptObjects) readEntries(r *binread.Reader, data []byte) {
	n := r.Count("ScriptObjects.Num", scriptObjectSize)
	if r.Err() != nil {
		return
	}
	at := r.Offset()
	r.Skip(int64(n)*scriptObjectSize, "ScriptObjects")
	if r.Err() == nil {
		s.entries = data[at : at+int64(n)*scriptObjectSize]
	}
}

// Len returns the number of script objects.
func (s *ScriptObjects) Len() int { return len(s.entries) / scriptObjectSize }

// NumNames returns the number of global names.
func (s *ScriptObjects) NumNames() int { return s.names.len() }

// Name returns global name i (0 <= i < NumNames), its hash checked.
func (s *ScriptObjects) Name(i int) Name { return s.names.name(i) }

// entry is object i as stored (Name and Path unset).
func (s *ScriptObjects) entry(i int) ScriptObject {
	e := s.entries[i*scriptObjectSize : (i+1)*scriptObjectSize]
	v := binary.LittleEndian.Uint32(e)
	return ScriptObject{
		ObjectName:    MappedName{Index: v & (1<<30 - 1), Type: NameType(v >> 30), Number: binary.LittleEndian.Uint32(e[4:])},
		GlobalIndex:   ObjectIndex(binary.LittleEndian.Uint64(e[8:])),
		OuterIndex:    ObjectIndex(binary.LittleEndian.Uint64(e[16:])),
		CDOClassIndex: ObjectIndex(binary.LittleEndian.Uint64(e[24:])),
	}
}

func (s *ScriptObjects) globalIndex(i int) ObjectIndex {
	return ObjectIndex(binary.LittleEndian.Uint64(s.entries[i*scriptObjectSize+8:]))
}

func (s *ScriptObjects) outerIndex(i int) ObjectIndex {
	return ObjectIndex(binary.LittleEndian.Uint64(s.entries[i*scriptObjectSize+16:]))
}

// index checks the name of every object and builds the lookup table and
// the class set.
func (s *ScriptObjects) index() error {
	n := s.Len()
	names := s.names.len()
	for i := range n {
		if x := binary.LittleEndian.Uint32(s.entries[i*scriptObjectSize:]) & (1<<30 - 1); int64(x) >= int64(names) {
			return fmt.Errorf("zen: script object %d: name index %d outside %d global names", i, x, names)
		}
	}
	size, bits := 16, uint8(4)
	for size < 2*n {
		size *= 2
		bits++
	}
	s.slots = make([]int32, size)
	// Written before it is read: a fresh page first read maps the zero
	// page, and the write after it faults again (with a TLB flush).
	clear(s.slots)
	seed := maphash.MakeSeed()
	s.seed = maphash.Comparable(seed, uint64(0))
	s.mul = maphash.Comparable(seed, uint64(1)) | 1
	s.shift = 64 - bits
	mask := uint64(size - 1)
	for i := range n {
		x := s.globalIndex(i)
		h := s.slot(x)
		for {
			v := s.slots[h]
			if v == 0 || s.globalIndex(int(v-1)) == x {
				// The last object with an index wins.
				s.slots[h] = int32(i + 1)
				break
			}
			h = (h + 1) & mask
		}
	}
	s.classes = make([]uint64, (n+63)/64)
	for i := range n {
		c := ObjectIndex(binary.LittleEndian.Uint64(s.entries[i*scriptObjectSize+24:]))
		if c.IsNull() {
			continue
		}
		if j, ok := s.find(c); ok {
			s.classes[j/64] |= 1 << (j % 64)
		} else {
			if s.otherClasses == nil {
				s.otherClasses = map[ObjectIndex]bool{}
			}
			s.otherClasses[c] = true
		}
	}
	return nil
}

// slot returns the first slot of global index x.
func (s *ScriptObjects) slot(x ObjectIndex) uint64 {
	return ((uint64(x) ^ s.seed) * s.mul) >> s.shift
}

// find returns the index of the (last) object with global index x.
func (s *ScriptObjects) find(x ObjectIndex) (int, bool) {
	if len(s.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(s.slots) - 1)
	for h := s.slot(x); ; h = (h + 1) & mask {
		v := s.slots[h]
		if v == 0 {
			return 0, false
		}
		if s.globalIndex(int(v-1)) == x {
			return int(v - 1), true
		}
	}
}

// maxOuterDepth bounds outer chains (and so refuses cycles).
const maxOuterDepth = 64

const (
	outerNull    = -1
	outerMissing = -2
)

// outer returns the index of object i's outer: outerNull when it has
// none, outerMissing when no object has its outer index.
func (s *ScriptObjects) outer(i int) int {
	x := s.outerIndex(i)
	if x.IsNull() {
		return outerNull
	}
	if j, ok := s.find(x); ok {
		return j
	}
	return outerMissing
}

// object returns object i with its name; s.mu is held.
func (s *ScriptObjects) object(i int) *scriptObject {
	if o := s.objs[i]; o != nil {
		return o
	}
	if s.objs == nil {
		s.objs = map[int]*scriptObject{}
	}
	o := &scriptObject{ScriptObject: s.entry(i)}
	o.Name = s.names.resolve(o.ObjectName)
	if o.OuterIndex.IsNull() {
		o.Path, o.done = o.Name, true
	}
	s.objs[i] = o
	return o
}

// resolved returns object i with its name and path; s.mu is held. The
// fields of a resolved object are not written again.
func (s *ScriptObjects) resolved(i int) *ScriptObject {
	o := s.object(i)
	if !o.done {
		o.Path, _ = s.memoPath(i, 0)
		o.done = true
	}
	return &o.ScriptObject
}

// memoPath returns the path of object i reached at depth (outers followed so
// far) and i's need, or -1 when the depth bound cut the chain (then nothing
// is kept). s.mu is held.
//
// Objects share their outers, and joining every path from the root up again
// is quadratic in the depth, so uncut paths are kept. A path is the outer's
// path, a separator and the name: "/Script/Engine.Actor",
// "/Script/Engine.Actor:Func", deeper with "."; "?/Name" when the outer is
// missing; the name alone past maxOuterDepth outers (so cycles end).
func (s *ScriptObjects) memoPath(i, depth int) (string, int32) {
	o := s.object(i)
	j := s.outer(i)
	if j == outerNull {
		return o.Name, 0
	}
	if depth > maxOuterDepth {
		return o.Name, -1
	}
	if n := o.need; n > 0 && depth+int(n)-1 <= maxOuterDepth {
		return o.Path, n
	}
	if j == outerMissing {
		p := "?/" + o.Name
		o.Path, o.need, o.done = p, 1, true
		return p, 1
	}
	sep := "."
	if k := s.outer(j); k >= 0 && s.outer(k) == outerNull {
		sep = ":"
	}
	outer, n := s.memoPath(j, depth+1)
	p := outer + sep + o.Name
	if n < 0 {
		return p, -1
	}
	o.Path, o.need, o.done = p, n+1, true
	return p, n + 1
}

// Object returns script object i (0 <= i < Len).
func (s *ScriptObjects) Object(i int) *ScriptObject {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resolved(i)
}

// Lookup returns the script object with global index x.
func (s *ScriptObjects) Lookup(x ObjectIndex) (*ScriptObject, bool) {
	if s == nil {
		return nil, false
	}
	i, ok := s.find(x)
	if !ok {
		return nil, false
	}
	s.mu.Lock()
	o := s.resolved(i)
	s.mu.Unlock()
	return o, true
}

// LookupClass is [ScriptObjects.Lookup] that also reports
// [ScriptObjects.IsClass] of x, finding x once.
func (s *ScriptObjects) LookupClass(x ObjectIndex) (o *ScriptObject, isClass, ok bool) {
	if s == nil {
		return nil, false, false
	}
	i, ok := s.find(x)
	if !ok {
		return nil, false, false
	}
	s.mu.Lock()
	o = s.resolved(i)
	s.mu.Unlock()
	return o, s.classes[i/64]&(1<<(i%64)) != 0, true
}

// IsClass reports whether x is a class: some class default object names
// it as its class.
func (s *ScriptObjects) IsClass(x ObjectIndex) bool {
	if s == nil {
		return false
	}
	if i, ok := s.find(x); ok {
		return s.classes[i/64]&(1<<(i%64)) != 0
	}
	return s.otherClasses[x]
}

// CheckHashes counts script objects whose global index is the hash of
// their path (FPackageObjectIndex::FromScriptPath), and returns the first
// mismatch.
func (s *ScriptObjects) CheckHashes() (ok int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.Len() {
		o := s.resolved(i)
		if ObjectIndex(uint64(KindScriptImport)<<62|ScriptObjectHash(o.Path)) == o.GlobalIndex {
			ok++
		} else if err == nil {
			err = fmt.Errorf("zen: script object %q: global index %s, hash of its path 0x%016x", o.Path, o.GlobalIndex, ScriptObjectHash(o.Path))
		}
	}
	return ok, err
}

// ErrNoGlobal reports a package whose script imports cannot be named
// because no global container was found.
var ErrNoGlobal = errors.New("zen: no global container (global.utoc) to resolve script imports")
