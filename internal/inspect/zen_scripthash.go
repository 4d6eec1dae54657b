//go:build !upkg_only || upkg_iostore

package inspect

import (
	"strings"

	"github.com/go-faster/city"
	"github.com/upkg/upkg/zen"
)

// scriptGuess names imports by their path hashes: the script imports of a
// package read without its global container (the candidates are the
// engine's common script packages and the package's own /Script/ names)
// or the package imports of a 4.26/4.27 zen package (its /Game/... names),
// each alone and joined with every plain name of the name map (as the
// object and as its class default object). There
// can be tens of thousands of candidates, so they are hashed without
// building their paths, and only until the hashes the package's import map
// asks for are all found.
type scriptGuess struct {
	pkgs []string // candidate script packages ("/Script/Engine")
	objs []string // candidate object names ("StaticMesh")
	// pkgKeys and objKeys are the hash input of each candidate: lower-case,
	// '.' and ':' turned into '/', as UTF-16LE; nil when the name is not
	// ASCII (those go through zen.ScriptObjectHash).
	pkgKeys, objKeys [][]byte

	want  map[uint64]bool   // the package's script imports not yet found
	found map[uint64]string // hash → path
	// wantBits has bit h%64 set for every hash h want held: most
	// candidates are told apart from want by it, without a map lookup.
	wantBits uint64
	// The scan for want goes as far as a lookup needs: it stopped before
	// candidate atObj of package atPkg (-1: the package alone; 2j and
	// 2j+1: object j and its class default object). scanned is set once
	// every candidate has been hashed for want.
	atPkg, atObj int
	scanned      bool
	buf          []byte
}

// newScriptGuess prepares the candidates of p's script imports; nothing is
// hashed yet.
func newScriptGuess(p *zen.Package) *scriptGuess {
	pkgs := append([]string(nil), commonScriptPackages...)
	for _, n := range p.Names {
		if strings.HasPrefix(n.Value, "/Script/") {
			pkgs = append(pkgs, n.Value)
		}
	}
	return newPathGuess(p, pkgs, zen.KindScriptImport)
}

// newPackageImportGuess prepares the candidates of the package imports of
// a 4.26/4.27 zen package, whose index is the hash of the object's path
// (what script imports' is): the package paths of its name map
// ("/Game/A/B") with its plain names. A loose package, without the
// container that would name them, names most of its imports this way.
func newPackageImportGuess(p *zen.Package) *scriptGuess {
	var pkgs []string
	for _, n := range p.Names {
		if strings.HasPrefix(n.Value, "/") && !strings.HasPrefix(n.Value, "/Script/") {
			pkgs = append(pkgs, n.Value)
		}
	}
	return newPathGuess(p, pkgs, zen.KindPackageImport)
}

// newPathGuess prepares the candidates pkgs, each alone and joined with the
// plain names of p's name map, for p's imports of kind.
func newPathGuess(p *zen.Package, pkgs []string, kind int) *scriptGuess {
	g := &scriptGuess{pkgs: pkgs, found: map[uint64]string{}, want: map[uint64]bool{}, atObj: -1}
	for _, n := range p.Names {
		if !strings.Contains(n.Value, "/") {
			g.objs = append(g.objs, n.Value)
		}
	}
	for _, x := range p.ImportMap {
		if x.Kind() == kind {
			g.want[x.Value()] = true
			g.wantBits |= 1 << (x.Value() % 64)
		}
	}
	g.pkgKeys = make([][]byte, len(g.pkgs))
	for i, s := range g.pkgs {
		g.pkgKeys[i] = scriptHashKey(nil, s)
	}
	g.objKeys = make([][]byte, len(g.objs))
	for i, s := range g.objs {
		g.objKeys[i] = scriptHashKey(nil, s)
	}
	return g
}

// scriptHashKey appends the hash input of s (see scriptGuess.pkgKeys) to
// dst, or returns nil when s is not ASCII.
func scriptHashKey(dst []byte, s string) []byte {
	if dst == nil {
		dst = make([]byte, 0, 2*len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return nil
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == '.' || c == ':':
			c = '/'
		}
		dst = append(dst, c, 0)
	}
	return dst
}

// lookup returns the path whose script object hash is h.
func (g *scriptGuess) lookup(h uint64) (string, bool) {
	if g == nil {
		return "", false
	}
	if p, ok := g.found[h]; ok {
		return p, true
	}
	if g.want[h] {
		g.scanWant(h)
	} else {
		// A hash outside the import map (an imported package's class):
		// look for it alone.
		g.scan(map[uint64]bool{h: true})
	}
	p, ok := g.found[h]
	return p, ok
}

// scan hashes the candidates in order until every hash of want is found,
// recording those it finds (and removing them from want).
func (g *scriptGuess) scan(want map[uint64]bool) {
	for i, pk := range g.pkgs {
		if len(want) == 0 {
			return
		}
		pkKey := g.pkgKeys[i]
		var h uint64
		if pkKey != nil {
			h = city.Hash64(pkKey) &^ (3 << 62)
		} else {
			h = zen.ScriptObjectHash(pk)
		}
		if want[h] {
			g.record(want, h, pk)
		}
		for j, o := range g.objs {
			objKey := g.objKeys[j]
			for def := range 2 {
				if pkKey == nil || objKey == nil {
					path := scriptCandidate(pk, o, def == 1)
					if h := zen.ScriptObjectHash(path); want[h] {
						g.record(want, h, path)
					}
					continue
				}
				b := append(g.buf[:0], pkKey...)
				b = append(b, '/', 0)
				if def == 1 {
					b = append(b, "d\x00e\x00f\x00a\x00u\x00l\x00t\x00_\x00_\x00"...)
				}
				b = append(b, objKey...)
				g.buf = b
				if h := city.Hash64(b) &^ (3 << 62); want[h] {
					g.record(want, h, scriptCandidate(pk, o, def == 1))
				}
			}
		}
	}
}

// scanWant goes on with the scan for want from where it stopped, until
// target is found or every candidate is hashed. It finds for each hash of
// want what scan(want) finds: the first candidate with that hash.
func (g *scriptGuess) scanWant(target uint64) {
	for ; g.atPkg < len(g.pkgs); g.atPkg, g.atObj = g.atPkg+1, -1 {
		pk, pkKey := g.pkgs[g.atPkg], g.pkgKeys[g.atPkg]
		if g.atObj < 0 {
			if len(g.want) == 0 {
				break
			}
			g.atObj = 0
			var h uint64
			if pkKey != nil {
				h = city.Hash64(pkKey) &^ (3 << 62)
			} else {
				h = zen.ScriptObjectHash(pk)
			}
			if g.wantBits&(1<<(h%64)) != 0 && g.want[h] {
				g.record(g.want, h, pk)
				if h == target {
					return
				}
			}
		}
		for g.atObj < 2*len(g.objs) {
			j, def := g.atObj/2, g.atObj%2 == 1
			g.atObj++
			o, objKey := g.objs[j], g.objKeys[j]
			var h uint64
			if pkKey == nil || objKey == nil {
				h = zen.ScriptObjectHash(scriptCandidate(pk, o, def))
			} else {
				b := append(g.buf[:0], pkKey...)
				b = append(b, '/', 0)
				if def {
					b = append(b, "d\x00e\x00f\x00a\x00u\x00l\x00t\x00_\x00_\x00"...)
				}
				b = append(b, objKey...)
				g.buf = b
				h = city.Hash64(b) &^ (3 << 62)
			}
			if g.wantBits&(1<<(h%64)) != 0 && g.want[h] {
				g.record(g.want, h, scriptCandidate(pk, o, def))
				if h == target {
					return
				}
			}
		}
	}
	g.scanned = true
}

// record notes that path hashes to h, a hash scan was looking for.
func (g *scriptGuess) record(want map[uint64]bool, h uint64, path string) {
	if _, dup := g.found[h]; !dup {
		g.found[h] = path
	}
	delete(want, h)
}

// scriptCandidate is the path of object o (or of its class default object)
// in script package pk.
func scriptCandidate(pk, o string, def bool) string {
	if def {
		return pk + ".Default__" + o
	}
	return pk + "." + o
}
