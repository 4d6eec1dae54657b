package inspect

import (
	"os"
	"strings"
	"testing"

	"github.com/upkg/upkg/zen"
)

// TestScriptHashKey checks the allocation-free hash input against
// zen.ScriptObjectHash, including names it must leave to the slow path.
func TestScriptHashKey(t *testing.T) {
	for _, c := range []struct{ pk, o string }{
		{"/Script/Engine", "StaticMesh"},
		{"/Script/CoreUObject", "Default__Object"},
		{"/Script/My.Module", "Sub:Object"},
		{"/Script/Engine", "Überschall"},
		{"/Script/日本", "Actor"},
		{"/Script/X", ""},
	} {
		for _, def := range []bool{false, true} {
			path := scriptCandidate(c.pk, c.o, def)
			want := zen.ScriptObjectHash(path)
			g := &scriptGuess{pkgs: []string{c.pk}, objs: []string{c.o}, found: map[uint64]string{}}
			g.pkgKeys = [][]byte{scriptHashKey(nil, c.pk)}
			g.objKeys = [][]byte{scriptHashKey(nil, c.o)}
			got, ok := g.lookup(want)
			if !ok || !strings.EqualFold(got, path) {
				t.Errorf("%q: lookup(%x) = %q, %v", path, want, got, ok)
			}
		}
	}
}

// nameMapScriptHashes is the plain form of scriptGuess: every candidate's
// hash in one map.
func nameMapScriptHashes(p *zen.Package) map[uint64]string {
	pkgs := append([]string(nil), commonScriptPackages...)
	var objs []string
	for _, n := range p.Names {
		if strings.HasPrefix(n.Value, "/Script/") {
			pkgs = append(pkgs, n.Value)
		} else if !strings.Contains(n.Value, "/") {
			objs = append(objs, n.Value)
		}
	}
	m := map[uint64]string{}
	for _, pk := range pkgs {
		m[zen.ScriptObjectHash(pk)] = pk
		for _, o := range objs {
			for _, name := range []string{o, "Default__" + o} {
				path := pk + "." + name
				m[zen.ScriptObjectHash(path)] = path
			}
		}
	}
	return m
}

// TestScriptGuessCorpus compares scriptGuess with the full candidate map on
// retoc's zen samples: every script import, and a sample of other hashes.
func TestScriptGuessCorpus(t *testing.T) {
	for _, name := range retocZen(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := zen.Parse(data, zen.Options{Auto: true})
		if err != nil {
			continue
		}
		all := nameMapScriptHashes(p)
		g := newScriptGuess(p)
		for _, x := range p.ImportMap {
			if x.Kind() != zen.KindScriptImport {
				continue
			}
			want, wok := all[x.Value()]
			got, gok := g.lookup(x.Value())
			if want != got || wok != gok {
				t.Errorf("%s: import %x: got %q %v, want %q %v", name, x.Value(), got, gok, want, wok)
			}
		}
		i := 0
		for h, want := range all {
			if i++; i%401 != 0 {
				continue
			}
			if got, ok := g.lookup(h); !ok || got != want {
				t.Errorf("%s: hash %x: got %q %v, want %q", name, h, got, ok, want)
			}
		}
	}
}
