package zen

import (
	"bytes"
	"errors"
	"fmt"
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
type ScriptObjects struct {
	Names   []Name         `json:"names"`
	Objects []ScriptObject `json:"objects"`
	byIndex map[ObjectIndex]int
	classes map[ObjectIndex]bool
}

// ParseScriptObjects reads a UE5 ScriptObjects chunk: the global name batch
// and TArray<FScriptObjectEntry>.
func ParseScriptObjects(data []byte) (*ScriptObjects, error) {
	r := binread.FromBytes(data)
	s := &ScriptObjects{Names: ReadNameBatch(r, "ScriptObjects.GlobalNames")}
	s.readEntries(r)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("zen: script objects: %w", err)
	}
	if r.Remaining() != 0 {
		return nil, fmt.Errorf("zen: script objects: %d bytes left over at offset 0x%x", r.Remaining(), r.Offset())
	}
	return s, s.resolve()
}

// ParseScriptObjectsUE4 reads the UE 4.26/4.27 global data: the global name
// batch in two parts and the initial load meta (TArray<FScriptObjectEntry>).
func ParseScriptObjectsUE4(names, hashes, initialLoadMeta []byte) (*ScriptObjects, error) {
	nm, err := ParseNameBatchParts(names, hashes)
	if err != nil {
		return nil, fmt.Errorf("zen: global names: %w", err)
	}
	s := &ScriptObjects{Names: nm}
	r := binread.FromBytes(initialLoadMeta)
	s.readEntries(r)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("zen: initial load meta: %w", err)
	}
	return s, s.resolve()
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

func (s *ScriptObjects) readEntries(r *binread.Reader) {
	n := r.Count("ScriptObjects.Num", scriptObjectSize)
	if r.Err() != nil {
		return
	}
	// Count checked that the n entries are there: read them in place
	// (no copy of the table).
	s.Objects = make([]ScriptObject, n)
	for i := range s.Objects {
		v := r.U32("ScriptObjectEntry.ObjectName.Index")
		// Field by field: the strings stay unset, and setting plain fields
		// needs no write barriers.
		o := &s.Objects[i]
		o.ObjectName = MappedName{Index: v & (1<<30 - 1), Type: NameType(v >> 30), Number: r.U32("ScriptObjectEntry.ObjectName.Number")}
		o.GlobalIndex = ObjectIndex(r.U64("ScriptObjectEntry.GlobalIndex"))
		o.OuterIndex = ObjectIndex(r.U64("ScriptObjectEntry.OuterIndex"))
		o.CDOClassIndex = ObjectIndex(r.U64("ScriptObjectEntry.CDOClassIndex"))
	}
	if r.Err() != nil {
		s.Objects = nil
	}
}

func (s *ScriptObjects) resolve() error {
	s.byIndex = make(map[ObjectIndex]int, len(s.Objects))
	for i := range s.Objects {
		o := &s.Objects[i]
		var ok bool
		if o.Name, ok = o.ObjectName.Resolve(s.Names); !ok {
			return fmt.Errorf("zen: script object %d: name index %d outside %d global names", i, o.ObjectName.Index, len(s.Names))
		}
		s.byIndex[o.GlobalIndex] = i
	}
	s.classes = map[ObjectIndex]bool{}
	m := s.newPathMemo()
	for i := range s.Objects {
		s.Objects[i].Path, _ = s.memoPath(&m, i, 0)
		if c := s.Objects[i].CDOClassIndex; !c.IsNull() {
			s.classes[c] = true
		}
	}
	return nil
}

// maxOuterDepth bounds outer chains (and so refuses cycles).
const maxOuterDepth = 64

// pathMemo keeps the paths resolve has built: objects share their outers,
// and joining every path from the root up again is quadratic in the depth.
// need[i] (0: not kept) is how many objects of i's outer chain, i included,
// have an outer: the path of i read at depth d is the kept one only when
// d+need[i]-1 stays within maxOuterDepth (deeper, the bound cuts the chain).
//
// A path is the outer's path, a separator and the name: "/Script/Engine.Actor",
// "/Script/Engine.Actor:Func", deeper with "."; "?/Name" when the outer is
// missing; the name alone past maxOuterDepth outers (so cycles end).
type pathMemo struct {
	// The kept path of object i is s.Objects[i].Path.
	need []int32
	// outer[i] is the index of object i's outer: outerNull when it has
	// none, outerMissing when no object has its outer index.
	outer []int32
}

const (
	outerNull    = -1
	outerMissing = -2
)

func (s *ScriptObjects) newPathMemo() pathMemo {
	n := len(s.Objects)
	m := pathMemo{need: make([]int32, n), outer: make([]int32, n)}
	for i := range s.Objects {
		x := s.Objects[i].OuterIndex
		if x.IsNull() {
			m.outer[i] = outerNull
		} else if j, ok := s.byIndex[x]; ok {
			m.outer[i] = int32(j)
		} else {
			m.outer[i] = outerMissing
		}
	}
	return m
}

// memoPath returns the path of object i reached at depth (outers followed so
// far) and i's need, or -1 when the depth bound cut the chain (then nothing
// is kept).
func (s *ScriptObjects) memoPath(m *pathMemo, i, depth int) (string, int32) {
	o := &s.Objects[i]
	j := m.outer[i]
	if j == outerNull {
		return o.Name, 0
	}
	if depth > maxOuterDepth {
		return o.Name, -1
	}
	if n := m.need[i]; n > 0 && depth+int(n)-1 <= maxOuterDepth {
		return o.Path, n
	}
	if j == outerMissing {
		p := "?/" + o.Name
		o.Path, m.need[i] = p, 1
		return p, 1
	}
	sep := "."
	if k := m.outer[j]; k >= 0 && m.outer[k] == outerNull {
		sep = ":"
	}
	outer, n := s.memoPath(m, int(j), depth+1)
	p := outer + sep + o.Name
	if n < 0 {
		return p, -1
	}
	o.Path, m.need[i] = p, n+1
	return p, n + 1
}

// Lookup returns the script object with global index x.
func (s *ScriptObjects) Lookup(x ObjectIndex) (*ScriptObject, bool) {
	if s == nil {
		return nil, false
	}
	i, ok := s.byIndex[x]
	if !ok {
		return nil, false
	}
	return &s.Objects[i], true
}

// IsClass reports whether x is a class: some class default object names
// it as its class.
func (s *ScriptObjects) IsClass(x ObjectIndex) bool { return s != nil && s.classes[x] }

// CheckHashes counts script objects whose global index is the hash of
// their path (FPackageObjectIndex::FromScriptPath), and returns the first
// mismatch.
func (s *ScriptObjects) CheckHashes() (ok int, err error) {
	for _, o := range s.Objects {
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
