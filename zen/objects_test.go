package zen

import (
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-faster/city"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/internal/corpus"
)

func TestScriptObjectsRetoc(t *testing.T) {
	dir := corpus.Path(t, "iostore/trumank+retoc/retoc/tests")
	data, err := os.ReadFile(dir + "/UE5.3/ScriptObjects.bin")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseScriptObjects(data)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := s.CheckHashes()
	t.Logf("UE5.3: %d names, %d objects, %d hashes match (%v)", s.NumNames(), s.Len(), ok, err)
	if ok != s.Len() {
		t.Error(err)
	}
	for i := range s.NumNames() {
		if n := s.Name(i); !n.HashOK {
			t.Fatalf("name %q: hash %x does not match", n.Value, n.Hash)
		}
	}

	// The names read lazily are the ones the eager reader gives, and the
	// kept paths the plain ones.
	eager := ReadNameBatch(binread.FromBytes(data), "names")
	if len(eager) != s.NumNames() {
		t.Fatalf("%d names, want %d", s.NumNames(), len(eager))
	}
	for i, n := range eager {
		if s.Name(i) != n {
			t.Fatalf("name %d: have %+v, want %+v", i, s.Name(i), n)
		}
	}
	classes := map[ObjectIndex]bool{}
	for i := range s.Len() {
		if c := s.entry(i).CDOClassIndex; !c.IsNull() {
			classes[c] = true
		}
	}
	for i := range s.Len() {
		o := s.Object(i)
		if want := plainPath(s, i, 0); o.Path != want {
			t.Fatalf("object %d: path %q, want %q", i, o.Path, want)
		}
		if s.IsClass(o.GlobalIndex) != classes[o.GlobalIndex] {
			t.Fatalf("object %d (%s): IsClass %v", i, o.Path, !classes[o.GlobalIndex])
		}
	}

	names, _ := os.ReadFile(dir + "/UE4.27/LoaderGlobalNames_1.bin")
	hashes, _ := os.ReadFile(dir + "/UE4.27/LoaderGlobalNameHashes_1.bin")
	meta, _ := os.ReadFile(dir + "/UE4.27/LoaderInitialLoadMeta_1.bin")
	s4, err := ParseScriptObjectsUE4(names, hashes, meta)
	if err != nil {
		t.Fatal(err)
	}
	ok, err = s4.CheckHashes()
	t.Logf("UE4.27: %d names, %d objects, %d hashes match (%v)", s4.NumNames(), s4.Len(), ok, err)
	if ok != s4.Len() {
		t.Error(err)
	}
	bad := 0
	for i := range s4.NumNames() {
		if !s4.Name(i).HashOK {
			bad++
		}
	}
	if bad != 0 {
		t.Errorf("UE4.27: %d global name hashes do not match", bad)
	}
}

// plainPath is the path of object i built without the memo, the way the
// paths are defined.
func plainPath(s *ScriptObjects, i, depth int) string {
	o := s.entry(i)
	name := s.names.resolve(o.ObjectName)
	if o.OuterIndex.IsNull() || depth > maxOuterDepth {
		return name
	}
	j, ok := s.find(o.OuterIndex)
	if !ok {
		return "?/" + name
	}
	sep := "."
	if oo := s.entry(j).OuterIndex; !oo.IsNull() {
		if k, ok := s.find(oo); ok && s.entry(k).OuterIndex.IsNull() {
			sep = ":"
		}
	}
	return plainPath(s, j, depth+1) + sep + name
}

// testScriptObjects makes a table of objs, each named by its Name.
func testScriptObjects(t *testing.T, objs []ScriptObject) *ScriptObjects {
	s := &ScriptObjects{names: lazyNames{eager: []Name{}}}
	for i, o := range objs {
		s.names.eager = append(s.names.eager, Name{Value: o.Name})
		s.entries = binary.LittleEndian.AppendUint32(s.entries, uint32(i))
		s.entries = binary.LittleEndian.AppendUint32(s.entries, 0)
		for _, x := range []ObjectIndex{o.GlobalIndex, o.OuterIndex, o.CDOClassIndex} {
			s.entries = binary.LittleEndian.AppendUint64(s.entries, uint64(x))
		}
	}
	if err := s.index(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestScriptObjectPathsMemo checks the kept paths against plainPath on
// chains that are short, missing an outer, deeper than maxOuterDepth and
// cyclic, each visited from the leaf first and from the root first.
func TestScriptObjectPathsMemo(t *testing.T) {
	for _, leafFirst := range []bool{false, true} {
		var objs []ScriptObject
		add := func(name string, outer ObjectIndex) ObjectIndex {
			x := ObjectIndex(uint64(KindScriptImport)<<62 | uint64(len(objs)+1))
			objs = append(objs, ScriptObject{Name: name, GlobalIndex: x, OuterIndex: outer})
			return x
		}
		chain := func(root ObjectIndex, n int, prefix string) {
			x := root
			for i := range n {
				x = add(fmt.Sprintf("%s%d", prefix, i), x)
			}
		}
		pkg := add("/Script/Engine", NullIndex)
		chain(pkg, 3, "short")
		chain(pkg, maxOuterDepth+5, "deep")
		chain(ObjectIndex(uint64(KindScriptImport)<<62|999), 2, "orphan")
		// A cycle of three: a -> b -> c -> a.
		base := len(objs)
		for i := range 3 {
			add(fmt.Sprintf("cyc%d", i), ObjectIndex(uint64(KindScriptImport)<<62|uint64(base+(i+1)%3+1)))
		}
		if leafFirst {
			slices.Reverse(objs)
		}
		s := testScriptObjects(t, objs)
		var want []string
		for i := range s.Len() {
			want = append(want, plainPath(s, i, 0))
		}
		for i := range s.Len() {
			if got := s.Object(i).Path; got != want[i] {
				t.Errorf("leafFirst=%v: object %d: have %q, want %q", leafFirst, i, got, want[i])
			}
			if o, ok := s.Lookup(objs[i].GlobalIndex); !ok || o.Path != want[i] || o.Name != objs[i].Name {
				t.Errorf("leafFirst=%v: Lookup(%s): have %v, %v", leafFirst, objs[i].GlobalIndex, o, ok)
			}
		}
	}
}

// TestScriptObjectsCache checks that the same chunk bytes (in another
// buffer) give the table parsed before, and other bytes a new one.
func TestScriptObjectsCache(t *testing.T) {
	dir := corpus.Path(t, "iostore/trumank+retoc/retoc/tests")
	data, err := os.ReadFile(dir + "/UE5.3/ScriptObjects.bin")
	if err != nil {
		t.Fatal(err)
	}
	var c ScriptObjectsCache
	a, err := c.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := c.Parse(slices.Clone(data)); err != nil || b != a {
		t.Errorf("same bytes: have %p, %v; want the table parsed before", b, err)
	}
	if _, err := c.Parse(data[:len(data)-1]); err == nil {
		t.Error("truncated chunk parsed")
	}
	if b, err := c.Parse(data); err != nil || b != a {
		t.Errorf("after a failed parse: have %p, %v; want the kept table", b, err)
	}
}

// TestPathHashesASCII checks the stack-built hashes of ASCII paths against
// the general (rune by rune) way.
func TestPathHashesASCII(t *testing.T) {
	ref := func(s string, slash bool) uint64 {
		p := []rune(strings.ToLower(s))
		for i, c := range p {
			if slash && (c == '.' || c == ':') {
				p[i] = '/'
			}
		}
		return city.Hash64(utf16LE(string(p)))
	}
	long := strings.Repeat("/Game/Long.Path:Sub", 20)
	for _, s := range []string{"", "/Script/Engine", "/Script/Engine.Actor:Func", "Asset/SubObject", "MiXeD.Case:Name", long} {
		if have, want := PackageID(s), ref(s, false); have != want {
			t.Errorf("PackageID(%q): have %x, want %x", s, have, want)
		}
		if have, want := PublicExportHash(s), ref(s, true); have != want {
			t.Errorf("PublicExportHash(%q): have %x, want %x", s, have, want)
		}
		if have, want := ScriptObjectHash(s), ref(s, true)&^(3<<62); have != want {
			t.Errorf("ScriptObjectHash(%q): have %x, want %x", s, have, want)
		}
	}
}

func BenchmarkParseScriptObjects(b *testing.B) {
	dir := corpus.Path(b, "iostore/trumank+retoc/retoc/tests")
	data, err := os.ReadFile(dir + "/UE5.3/ScriptObjects.bin")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseScriptObjects(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestASCIILowerInto checks the eight-bytes-at-a-time lowering against
// the byte-by-byte way, for every byte at every place of a word.
func TestASCIILowerInto(t *testing.T) {
	for c := range 256 {
		for n := 1; n <= 17; n++ {
			for at := 0; at < n; at++ {
				b := []byte(strings.Repeat("aZ_9", 5)[:n])
				b[at] = byte(c)
				s := string(b)
				lower, ascii := asciiLowerInto(nil, s)
				if ascii != binread.IsASCIIString(s) {
					t.Fatalf("%q: ascii %v", s, ascii)
				}
				if ascii && string(lower) != string(asciiLower(s)) {
					t.Fatalf("%q: have %q, want %q", s, lower, asciiLower(s))
				}
			}
		}
	}
}

// TestScriptObjectsConcurrent resolves one table from several goroutines
// (run with -race): lookups build names and paths under the table's lock.
func TestScriptObjectsConcurrent(t *testing.T) {
	dir := corpus.Path(t, "iostore/trumank+retoc/retoc/tests")
	data, err := os.ReadFile(dir + "/UE5.3/ScriptObjects.bin")
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseScriptObjects(data)
	if err != nil {
		t.Fatal(err)
	}
	paths := make([][]string, 4)
	var wg sync.WaitGroup
	for g := range paths {
		wg.Go(func() {
			for k := range s.Len() {
				i := (k*(g+1)*7919 + g) % s.Len()
				o, ok := s.Lookup(s.entry(i).GlobalIndex)
				if !ok {
					t.Errorf("object %d not found", i)
					return
				}
				paths[g] = append(paths[g], o.Path)
				s.IsClass(o.GlobalIndex)
			}
		})
	}
	wg.Wait()
	for k := range s.Len() {
		for g := range paths {
			i := (k*(g+1)*7919 + g) % s.Len()
			if o := s.Object(i); o.GlobalIndex == s.entry(i).GlobalIndex && len(paths[g]) > k {
				if j, _ := s.find(o.GlobalIndex); j == i && paths[g][k] != o.Path {
					t.Fatalf("object %d: %q, then %q", i, paths[g][k], o.Path)
				}
			}
		}
	}
}
