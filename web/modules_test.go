package web

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

// moduleLoads returns how many times each WebAssembly module was started
// and finished loading in the page.
func (p *page) moduleLoads() map[string][2]int {
	p.t.Helper()
	return js[map[string][2]int](p, `Object.fromEntries(Object.entries(upkgState.modules).map(([k, v]) => [k, [v.starts, v.loads]]))`)
}

// waitPreload waits for the module the page preloads when idle (the UE4/UE5
// package reader), so that tests can count the modules drops load after it.
func (p *page) waitPreload() {
	p.t.Helper()
	p.waitJS(`upkgState.modules.uasset !== undefined && upkgState.modules.uasset.loads === 1`)
}

// wantModules checks that exactly the named modules were loaded, once each.
func (p *page) wantModules(when string, names ...string) {
	p.t.Helper()
	got := p.moduleLoads()
	if len(got) != len(names) {
		p.t.Errorf("%s: modules loaded %v, want exactly %v", when, got, names)
	}
	for _, n := range names {
		if got[n] != [2]int{1, 1} {
			p.t.Errorf("%s: module %s started/loaded %v times, want once", when, n, got[n])
		}
	}
}

// TestBrowserModules drops a UT99 package, a UE5 .uasset, a loose zen
// package, then a .pak and a package inside it, in one page session: the
// page preloads only the UE4/UE5 reader, each drop loads only the module its
// files need, each module loads once and is
// reused, and the counts match the CLI's.
func TestBrowserModules(t *testing.T) {
	dir := corpus.Dir(t)
	pg := newPage(t)
	// The UE4/UE5 package reader is preloaded when the page is idle; the
	// others wait for a drop that needs them.
	pg.waitPreload()
	pg.wantModules("page start", "uasset")

	ut := filepath.Join(dir, "legacy_ue123/elsheepo+ut99server/Maps/DM-Pyramid.unr")
	want := expect(t, ut)
	if pg.drop(ut) {
		t.Fatalf("%s: error shown: %s", ut, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	pg.wantModules("after a UT99 map", "uasset", "legacy")

	bp := filepath.Join(dir, "uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/WorldGen/BP_WorldChunk.uasset")
	want = expect(t, bp)
	if pg.drop(bp) {
		t.Fatalf("%s: error shown: %s", bp, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	pg.tab("props")
	pg.waitJS(`document.querySelector('#view .tree, #view .errbox') !== null`)
	if s := pg.text("#view"); strings.Contains(s, "not available") {
		t.Errorf("UE5 properties: %q", s)
	}
	pg.wantModules("after a UE5 package", "legacy", "uasset")

	// A UT99 package again: the legacy module is reused.
	if pg.drop(ut) {
		t.Fatalf("%s again: error shown: %s", ut, pg.text("#error-text"))
	}
	pg.wantModules("after the UT99 map again", "legacy", "uasset")

	zen := filepath.Join(dir, "cooked/trumank+retoc/retoc/tests/UE4.27/BP_Aphid_Meat_Prop.uasset")
	want = expect(t, zen)
	if pg.drop(zen) {
		t.Fatalf("%s: error shown: %s", zen, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	pg.wantModules("after a loose zen package", "legacy", "uasset", "iostore")

	pak := filepath.Join(dir, "pak/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/LegacyPak/Tagged/Uncompressed/CUE4ParseFixtures-Legacy-Tagged-Uncompressed.pak")
	c, err := inspect.OpenContainer(pak, &inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	entries := c.Entries()
	c.Close()
	var inner string
	for _, e := range entries {
		if !strings.HasSuffix(e.Path, ".uasset") {
			continue
		}
		in, err := inspect.OpenInput(pak+inspect.ContainerSep+"/"+e.Path, &inspect.Options{})
		if err != nil {
			continue
		}
		want, err = inspect.OpenPackage(in, &inspect.Options{})
		if in.Close != nil {
			in.Close()
		}
		if err == nil {
			inner = e.Path
			break
		}
	}
	if inner == "" {
		t.Fatal("no readable package in the pak")
	}
	if pg.drop(pak) {
		t.Fatalf("%s: error shown: %s", pak, pg.text("#error-text"))
	}
	if n := js[string](pg, `document.querySelector('#tabs button[data-tab="container"]').dataset.count`); n != strconv.Itoa(len(entries)) {
		t.Errorf("pak: container tab shows %s entries, upkg ls has %d", n, len(entries))
	}
	pg.wantModules("after a .pak", "legacy", "uasset", "iostore", "pak")
	before := pg.counters()
	pg.filter(inner)
	pg.waitJS(`document.querySelectorAll('.vt-row').length === 1`)
	pg.clickFirstRow()
	pg.waitJS(fmt.Sprintf(`upkgState.renders > %d || upkgState.errors > %d`, before.Renders, before.Errors))
	if pg.counters().Errors > before.Errors {
		t.Fatalf("pak::%s: error shown: %s", inner, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	// Its hex view reads the bytes the pak module handed over.
	pg.tab("hex")
	pg.waitJS(`document.querySelector('.hex .hr') !== null`)
	pg.screenshot("pak-package-hex")
	pg.wantModules("after a package inside the .pak", "legacy", "uasset", "iostore", "pak")
}

// TestBrowserRouting checks the page's router (formatOf in app.js) against
// the Go openers' matching (inspect.MatchFormat) for the first bytes of
// every package and container in the corpus.
func TestBrowserRouting(t *testing.T) {
	dir := corpus.Dir(t)
	type file struct {
		Name string `json:"name"`
		Head string `json:"head"`
	}
	var files []file
	var want []string
	for _, e := range corpus.Manifest(t) {
		switch strings.ToLower(filepath.Ext(e.RelPath)) {
		case ".uexp", ".ubulk", ".uptnl", ".usmap", ".ucas", ".json", ".md", ".txt", ".gz", ".bin":
			continue
		}
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(e.RelPath)))
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 64)
		n, _ := f.ReadAt(head, 0)
		f.Close()
		head = head[:n]
		files = append(files, file{Name: filepath.Base(e.RelPath), Head: base64.StdEncoding.EncodeToString(head)})
		want = append(want, inspect.MatchFormat(head, e.RelPath))
	}
	// Synthetic heads: too short, text, each byte order of the tag.
	for _, h := range []struct {
		name string
		head []byte
	}{
		{"Empty.uasset", nil},
		{"Text.uasset", []byte("this is not an unreal package at all, just text; padding padding padding")},
		{"Short.uasset", []byte{0xC1, 0x83, 0x2A, 0x9E}},
		{"BE4.uasset", []byte{0x9E, 0x2A, 0x83, 0xC1, 0xFF, 0xFF, 0xFF, 0xF9, 0, 0, 0, 0}},
		{"BE3.upk", []byte{0x9E, 0x2A, 0x83, 0xC1, 0, 0, 0x03, 0x60, 0, 0, 0, 0}},
	} {
		files = append(files, file{Name: h.name, Head: base64.StdEncoding.EncodeToString(h.head)})
		want = append(want, inspect.MatchFormat(h.head, h.name))
	}
	pg := newPage(t)
	pg.waitPreload()
	b, err := json.Marshal(files)
	if err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(pg.ctx, chromedp.Evaluate[[]string](`(async (files) => {
		const out = [];
		for (const f of files) {
			const bin = Uint8Array.from(atob(f.head), (c) => c.charCodeAt(0));
			out.push((await formatOf(new File([bin], f.name))) || '');
		}
		return out;
	})(`+string(b)+`)`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(files) {
		t.Fatalf("%d answers for %d files", len(got), len(files))
	}
	for i := range files {
		if got[i] != want[i] {
			t.Errorf("%s: page routes it as %q, upkg opens it as %q", files[i].Name, got[i], want[i])
		}
	}
	t.Logf("%d files routed as the Go openers match them", len(files))
	// No module was needed to route (beyond the one preloaded).
	pg.wantModules("routing only", "uasset")

	// Only the second half of a package and mappings: nothing to open,
	// said without downloading a module.
	uexp := filepath.Join(dir, "cooked/AstroTechies+unrealmodding/unreal_asset/tests/assets/general/npc_onop/NPC_Onop_IO_Bech.uexp")
	usmap := filepath.Join(t.TempDir(), "Game.usmap")
	os.WriteFile(usmap, []byte("not read"), 0o644)
	if !pg.drop(uexp, usmap) {
		t.Error("a lone .uexp: no error shown")
	}
	if s := pg.text("#error-text"); !strings.Contains(s, "NPC_Onop_IO_Bech.uexp") {
		t.Errorf("lone .uexp: error text %q", s)
	}
	pg.wantModules("a lone .uexp", "uasset")
}

// slowWriter sends a response in small pieces with a pause between them,
// like a slow network.
type slowWriter struct {
	http.ResponseWriter
	chunk int
	pause time.Duration
}

func (w slowWriter) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		k := min(w.chunk, len(b))
		m, err := w.ResponseWriter.Write(b[:k])
		n += m
		if err != nil {
			return n, err
		}
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		time.Sleep(w.pause)
		b = b[k:]
	}
	return n, nil
}

// TestBrowserModuleProgress serves the modules slowly: while a dropped
// file's module downloads, the page shows which reader it is loading and
// how far along it is.
func TestBrowserModuleProgress(t *testing.T) {
	pg := newPageWith(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, ".wasm") {
				// About 3 s for the uasset module's 1.5 MB of gzip.
				w = slowWriter{w, 16 << 10, 30 * time.Millisecond}
			}
			h.ServeHTTP(w, r)
		})
	})
	before := pg.counters()
	pg.do(chromedp.Click(chromedp.ID("sample-btn")))
	pg.waitJS(`!document.getElementById('busy').hidden && /Downloading the UE4\/UE5 package reader/.test(document.getElementById('busy-text').textContent) && parseFloat(document.getElementById('busy-bar').style.width) > 0`)
	pg.screenshot("module-download")
	pg.waitJS(fmt.Sprintf(`upkgState.renders > %d || upkgState.errors > %d`, before.Renders, before.Errors))
	if pg.counters().Errors > before.Errors {
		t.Fatalf("sample: %s", pg.text("#error-text"))
	}
	pg.wantModules("after the sample", "uasset")
}
