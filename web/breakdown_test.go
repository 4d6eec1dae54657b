package web

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestWASMBreakdown logs what each package costs in the page's WebAssembly:
// code bytes and function count per package, and the size of the data
// section (type descriptors, strings, tables and the runtime's per-function
// tables, about 380 bytes per function), then the largest functions. It
// builds the WebAssembly with its name section, so it runs only with
// UPKG_WASM_BREAKDOWN=1:
//
//	UPKG_WASM_BREAKDOWN=1 go test ./web -run WASMBreakdown -v
//
// UPKG_WASM_MODULE=NAME breaks down one of the page's modules (web.Modules)
// instead of the build with every format.
//
// UPKG_WASM_FUNCS=regexp limits the list of functions to matching names
// (for example 'init' or '^slices\.').
func TestWASMBreakdown(t *testing.T) {
	if os.Getenv("UPKG_WASM_BREAKDOWN") != "1" {
		t.Skip("set UPKG_WASM_BREAKDOWN=1")
	}
	src := findSource()
	if src == "" {
		t.Skip("no source checkout")
	}
	out := filepath.Join(t.TempDir(), "named.wasm")
	flags := []string{}
	for _, f := range wasmBuildFlags(out) {
		if f != "-ldflags=-s -w" {
			flags = append(flags, f)
		}
	}
	for _, m := range Modules {
		if m.Name == os.Getenv("UPKG_WASM_MODULE") {
			flags = append([]string{"-tags", strings.Join(moduleTags(m), ",")}, flags...)
		}
	}
	cmd := exec.Command(goTool(), append(append([]string{"build"}, flags...), "./wasm")...)
	cmd.Dir = src
	cmd.Env = wasmEnv()
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	funcs, sections, err := wasmFuncs(b)
	if err != nil {
		t.Fatal(err)
	}
	type pkg struct {
		name         string
		code, nfuncs int
	}
	byPkg := map[string]*pkg{}
	total := 0
	for _, f := range funcs {
		p := symbolPackage(f.name)
		if byPkg[p] == nil {
			byPkg[p] = &pkg{name: p}
		}
		byPkg[p].code += f.size
		byPkg[p].nfuncs++
		total += f.size
	}
	var list []*pkg
	for _, p := range byPkg {
		list = append(list, p)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].code > list[j].code })
	t.Logf("code section %d bytes in %d functions; data section %d bytes", sections[10], len(funcs), sections[11])
	for i, p := range list {
		if i == 50 {
			break
		}
		t.Logf("%9d bytes %5d funcs  %s", p.code, p.nfuncs, p.name)
	}
	sort.Slice(funcs, func(i, j int) bool { return funcs[i].size > funcs[j].size })
	match := func(string) bool { return true }
	if re := os.Getenv("UPKG_WASM_FUNCS"); re != "" {
		m, err := regexp.Compile(re)
		if err != nil {
			t.Fatal(err)
		}
		match = m.MatchString
	}
	t.Logf("largest functions:")
	shown, sum := 0, 0
	for _, f := range funcs {
		if !match(f.name) {
			continue
		}
		if shown < 60 {
			t.Logf("%9d bytes  %s", f.size, f.name)
		}
		shown++
		sum += f.size
	}
	t.Logf("%9d bytes in %d functions", sum, shown)
}

type wasmFunc struct {
	name string
	size int
}

// wasmFuncs reads the function bodies' sizes and names (name section) of a
// WebAssembly module, and the size of each section by id.
func wasmFuncs(b []byte) ([]wasmFunc, map[byte]int, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, nil, errors.New("not a WebAssembly module")
	}
	uleb := func(p *int) int {
		v, n := binary.Uvarint(b[*p:])
		if n <= 0 {
			*p = len(b)
			return 0
		}
		*p += n
		return int(v)
	}
	sections := map[byte]int{}
	var sizes []int
	imports := 0
	names := map[int]string{}
	for p := 8; p < len(b); {
		id := b[p]
		p++
		size := uleb(&p)
		end := p + size
		if end > len(b) {
			return nil, nil, fmt.Errorf("section %d overruns the file", id)
		}
		sections[id] += size
		q := p
		switch id {
		case 2: // imports: count the imported functions
			for n := uleb(&q); n > 0 && q < end; n-- {
				q += uleb(&q) // module
				q += uleb(&q) // name
				kind := b[q]
				q++
				if kind != 0 {
					return nil, nil, fmt.Errorf("import kind %d", kind)
				}
				uleb(&q)
				imports++
			}
		case 10: // code
			for n := uleb(&q); n > 0 && q < end; n-- {
				l := uleb(&q)
				sizes = append(sizes, l)
				q += l
			}
		case 0: // custom: the name section's function names
			l := uleb(&q)
			if string(b[q:q+l]) != "name" {
				break
			}
			q += l
			for q < end {
				sub := b[q]
				q++
				ssize := uleb(&q)
				next := q + ssize
				if sub == 1 {
					for n := uleb(&q); n > 0 && q < next; n-- {
						idx := uleb(&q)
						l := uleb(&q)
						names[idx] = string(b[q : q+l])
						q += l
					}
				}
				q = next
			}
		}
		p = end
	}
	funcs := make([]wasmFunc, len(sizes))
	for i, s := range sizes {
		funcs[i] = wasmFunc{names[imports+i], s}
	}
	return funcs, sections, nil
}

// symbolPackage returns the package of a name-section symbol, where Go
// writes import paths with '/' as '_' (github.com_upkg_upkg_property.f).
func symbolPackage(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if strings.HasPrefix(s, "type_.eq.") || strings.HasPrefix(s, "type:.eq.") {
		return "(type equality functions)"
	}
	off := 0
	for _, p := range []string{"github.com_", "golang.org_"} {
		if strings.HasPrefix(s, p) {
			off = len(p)
		}
	}
	if i := strings.IndexByte(s[off:], '.'); i >= 0 {
		return s[:off+i]
	}
	return s
}
