package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/upkg/upkg/internal/corpus"
	"github.com/upkg/upkg/internal/inspect"
)

// The browser tests drive Debian's Chromium headless against the page served
// by [Handler] on loopback, as `upkg serve` does. They skip when Chromium is
// missing, except under CI=true where that is a failure.

var (
	assetsOnce sync.Once
	assets     *Assets
	assetsErr  error

	browserOnce sync.Once
	browserCtx  context.Context
	browserStop func()
	browserDir  string
	browserErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if browserStop != nil {
		browserStop()
	}
	if browserDir != "" {
		os.RemoveAll(browserDir)
	}
	os.Exit(code)
}

func testAssets(t testing.TB) *Assets {
	t.Helper()
	assetsOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		assets, assetsErr = Build(ctx, BuildOptions{})
	})
	if assetsErr != nil {
		t.Fatal(assetsErr)
	}
	return assets
}

func chromiumPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("UPKG_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	msg := "chromium not found (apt-get install chromium)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; CI=true requires it")
	}
	t.Skip(msg)
	return ""
}

// artifacts is where screenshots go: $UPKG_ARTIFACTS, else a temp dir.
func artifacts(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("UPKG_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// page is one headless browser tab on the served page.
type page struct {
	t    testing.TB
	ctx  context.Context
	url  string
	dir  string
	shot int
}

func newPage(t testing.TB) *page {
	t.Helper()
	return newPageWith(t, nil)
}

// newPageWith is newPage with the page's handler wrapped by wrap (nil: none).
func newPageWith(t testing.TB, wrap func(http.Handler) http.Handler) *page {
	t.Helper()
	chrome := chromiumPath(t)
	h, err := Handler(testAssets(t))
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		h = wrap(h)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)

	// One browser for the package's tests (started by the first); each
	// test gets its own tab.
	browserOnce.Do(func() {
		dir, err := os.MkdirTemp("", "upkg-chromium-*")
		if err != nil {
			browserErr = err
			return
		}
		browserDir = dir
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(chrome),
			chromedp.Flag("headless", true),
			chromedp.Flag("no-sandbox", true),
			chromedp.Flag("disable-gpu", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("no-first-run", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.UserDataDir(dir),
			chromedp.WindowSize(1400, 900),
		}
		actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, bcancel := chromedp.NewContext(actx)
		browserStop = func() { bcancel(); acancel() }
		// The first run starts the browser; it must not carry a timeout.
		browserErr = chromedp.Do(bctx)
		browserCtx = bctx
	})
	if browserErr != nil {
		t.Fatal(browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	tctx, tcancel := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(tcancel)
	p := &page{t: t, ctx: tctx, url: srv.URL + "/", dir: artifacts(t)}
	p.do(chromedp.Navigate(p.url), chromedp.WaitVisible(chromedp.ID("drop-zone")))
	p.waitJS(`typeof window.upkgState === "object" && upkgState.ready === true`)
	return p
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

// js evaluates expr in the page and decodes its value.
func js[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// filter sets the visible table's filter box in one step and fires its input
// event. Typing key by key (chromedp.SendKeys) races the table's debounced
// re-render, which replaces row nodes between keystrokes.
func (p *page) filter(text string) {
	p.t.Helper()
	p.waitJS(`document.querySelector('.vt-tools input') !== null`)
	js[bool](p, fmt.Sprintf(`(() => { const i = document.querySelector('.vt-tools input'); i.value = %q; i.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, text))
}

// clickFirstRow clicks the first visible table row from inside the page, so
// a re-render between finding the row and clicking it cannot lose the node.
func (p *page) clickFirstRow() {
	p.t.Helper()
	p.waitJS(`document.querySelector('.vt-row') !== null`)
	js[bool](p, `(() => { document.querySelector('.vt-row').click(); return true; })()`)
}

func (p *page) waitJS(cond string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		p.t.Fatalf("waiting for %s: %v", cond, err)
	}
}

type counters struct{ Renders, Errors int }

func (p *page) counters() counters {
	return js[counters](p, `({Renders: upkgState.renders, Errors: upkgState.errors})`)
}

// drop gives files to the page's file input (what picking them does) and
// waits until the page shows a package or an error.
func (p *page) drop(paths ...string) (errored bool) {
	p.t.Helper()
	before := p.counters()
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), paths))
	p.waitJS(fmt.Sprintf(`upkgState.renders > %d || upkgState.errors > %d`, before.Renders, before.Errors))
	return p.counters().Errors > before.Errors
}

// tab switches to a tab and returns the count its label shows (-1 when none).
func (p *page) tab(id string) int {
	p.t.Helper()
	sel := chromedp.CSS(`#tabs button[data-tab="` + id + `"]`)
	p.do(chromedp.Click(sel))
	a, err := chromedp.Run(p.ctx, chromedp.AttributeValue(sel, "data-count"))
	if err != nil {
		p.t.Fatal(err)
	}
	if a.Value == "" {
		return -1
	}
	n, err := strconv.Atoi(a.Value)
	if err != nil {
		p.t.Fatalf("tab %s: count %q", id, a.Value)
	}
	return n
}

// screenshot saves the viewport as <test>-NN-name.png in the artifacts dir.
func (p *page) screenshot(name string) {
	p.t.Helper()
	p.do(chromedp.Sleep(150 * time.Millisecond))
	buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	p.shot++
	fn := filepath.Join(p.dir, fmt.Sprintf("%s-%02d-%s.png", strings.ReplaceAll(p.t.Name(), "/", "_"), p.shot, name))
	if err := os.WriteFile(fn, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", fn)
}

func (p *page) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

func TestBrowserLanding(t *testing.T) {
	p := newPage(t)
	p.screenshot("landing")
	if s := p.text("#drop-zone"); !strings.Contains(s, "Drop a .uasset file here, or click to select") || !strings.Contains(s, "processed locally in your browser") {
		t.Errorf("landing text = %q", s)
	}
	// A file no reader recognises shows the error panel; the page survives.
	bad := filepath.Join(t.TempDir(), "Broken.uasset")
	os.WriteFile(bad, []byte("this is not an unreal package at all, just text"), 0o644)
	if !p.drop(bad) {
		t.Fatal("broken file: no error shown")
	}
	if s := p.text("#error-text"); !strings.Contains(s, "Broken.uasset") {
		t.Errorf("error text = %q, want the file name", s)
	}
	p.screenshot("error")
}

// TestBrowserSample opens the built-in sample from the landing page.
func TestBrowserSample(t *testing.T) {
	p := newPage(t)
	want, err := inspect.OpenPackage(inspect.BytesInput(SampleName, map[string][]byte{SampleName: Sample()}), &inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := p.counters()
	p.do(chromedp.Click(chromedp.ID("sample-btn")))
	p.waitJS(fmt.Sprintf(`upkgState.renders > %d || upkgState.errors > %d`, before.Renders, before.Errors))
	if p.counters().Errors > before.Errors {
		t.Fatalf("sample: %s", p.text("#error-text"))
	}
	checkCounts(t, p, want)
	p.screenshot("sample-summary")
	p.tab("thumbs")
	p.waitJS(`document.querySelector('.thumb img') !== null && document.querySelector('.thumb img').complete`)
	if w := js[int](p, `document.querySelector('.thumb img').naturalWidth`); w != 64 {
		t.Errorf("sample thumbnail naturalWidth %d, want 64", w)
	}
	p.screenshot("sample-thumbnail")
	p.tab("props")
	p.screenshot("sample-props")

	// Dropping (a drop event with a DataTransfer, as a file manager sends)
	// takes the same path as picking.
	before = p.counters()
	p.do(chromedp.Evaluate[chromedp.Void](`(async () => {
		const b = await (await fetch('sample/upkgSample.uasset')).blob();
		const dt = new DataTransfer();
		dt.items.add(new File([b], 'Dropped.uasset'));
		document.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
		document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
	})()`, chromedp.EvalAwaitPromise))
	p.waitJS(fmt.Sprintf(`upkgState.renders > %d || upkgState.errors > %d`, before.Renders, before.Errors))
	if p.counters().Errors > before.Errors {
		t.Fatalf("dropped sample: %s", p.text("#error-text"))
	}
	if s := p.text("#files-bar"); !strings.Contains(s, "Dropped.uasset") {
		t.Errorf("files bar %q does not show the dropped file", s)
	}
	if js[bool](p, `!document.getElementById('drop-overlay').hidden`) {
		t.Error("drop overlay still shown after the drop")
	}
}

// expect opens a file the way the CLI does (upkg dump --json) for the counts
// the page must show.
func expect(t *testing.T, path string) *inspect.Package {
	t.Helper()
	in, err := inspect.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	p, err := inspect.OpenPackage(in, &inspect.Options{})
	if errors.Is(err, inspect.ErrUnknownFormat) {
		t.Skipf("no reader for %s in this build yet: %v", path, err)
	}
	if err != nil {
		t.Fatalf("upkg cannot read %s natively: %v", path, err)
	}
	return p
}

// checkCounts compares the counts in the tab labels with the native read.
func checkCounts(t *testing.T, pg *page, want *inspect.Package) {
	t.Helper()
	got := js[map[string]string](pg, `Object.fromEntries([...document.querySelectorAll('#tabs button')].map(b => [b.dataset.tab, b.dataset.count]))`)
	regTags := 0
	for _, o := range want.AssetRegistry {
		regTags += len(o.Tags)
	}
	for tab, n := range map[string]int{"names": len(want.Names), "imports": len(want.Imports), "exports": len(want.Exports), "thumbs": len(want.Thumbnails), "registry": regTags} {
		if got[tab] != strconv.Itoa(n) {
			t.Errorf("%s: tab %s shows %q, upkg dump has %d", want.Path, tab, got[tab], n)
		}
	}
}

func TestBrowserCorpus(t *testing.T) {
	dir := corpus.Dir(t)
	pg := newPage(t)

	// An uncooked UE5.7 Blueprint with thumbnails: every view.
	bp := filepath.Join(dir, "uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/WorldGen/BP_WorldChunk.uasset")
	want := expect(t, bp)
	if pg.drop(bp) {
		t.Fatalf("%s: error shown: %s", bp, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	pg.screenshot("summary")
	for _, tab := range []string{"names", "imports", "exports", "tree", "deps", "thumbs", "text", "registry", "bulk", "props", "hex", "model"} {
		pg.tab(tab)
		switch tab {
		case "hex":
			pg.waitJS(`document.querySelector('.hex .hr') !== null`)
		case "exports":
			pg.waitJS(`document.querySelector('.vt-row.asset') !== null`)
		}
		pg.screenshot(tab)
	}
	// The hex view of the asset export highlights its bytes.
	pg.tab("exports")
	pg.waitJS(`document.querySelector('.detail button') !== null`)
	pg.do(chromedp.Click(chromedp.CSS(`.detail button`)))
	pg.waitJS(`document.querySelector('.hex .first') !== null`)
	pg.screenshot("hex-export")

	// A UE5.7 asset with a PNG thumbnail: the image decodes.
	thumbPath := filepath.Join(dir, "uncooked/VictorAA1116+Procedural_Survival_UE5.7/Content/LevelPrototyping/Interactable/Door/Meshes/SM_Door.uasset")
	want = expect(t, thumbPath)
	if pg.drop(thumbPath) {
		t.Fatalf("%s: error shown: %s", thumbPath, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	pg.tab("thumbs")
	var decodable []inspect.Thumbnail
	for _, th := range want.Thumbnails {
		if th.Format == "png" || th.Format == "jpeg" {
			decodable = append(decodable, th)
		}
	}
	if len(decodable) == 0 {
		t.Fatal("test file has no PNG/JPEG thumbnail")
	}
	pg.waitJS(fmt.Sprintf(`document.querySelectorAll('.thumb img').length + document.querySelectorAll('.thumb .errbox').length >= %d`, len(decodable)))
	pg.waitJS(`[...document.querySelectorAll('.thumb img')].every(i => i.complete)`)
	widths := js[[]int](pg, `[...document.querySelectorAll('.thumb img')].map(i => i.naturalWidth)`)
	if len(widths) != len(decodable) {
		t.Errorf("%d thumbnails decoded, want %d (%s)", len(widths), len(decodable), pg.text(".thumbs"))
	}
	for i, w := range widths {
		if w <= 0 || w != decodable[i].Width {
			t.Errorf("thumbnail %d: naturalWidth %d, header says %d", i, w, decodable[i].Width)
		}
	}
	pg.screenshot("thumbnail-png")

	// A broken file: a clear error, and the next file still loads.
	bad := filepath.Join(t.TempDir(), "Truncated.uasset")
	b, err := os.ReadFile(bp)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(bad, b[:300], 0o644)
	if !pg.drop(bad) {
		t.Fatal("truncated file: no error shown")
	}
	if s := pg.text("#error-text"); !strings.Contains(s, "Truncated.uasset") || !strings.Contains(s, "offset") {
		t.Errorf("error text %q: want the file name and an offset", s)
	}
	pg.screenshot("error-truncated")

	// A cooked UE4 package with its .uexp.
	cooked := filepath.Join(dir, "cooked/AstroTechies+unrealmodding/unreal_asset/tests/assets/general/npc_onop/NPC_Onop_IO_Bech.uasset")
	want = expect(t, cooked)
	if pg.drop(cooked, strings.TrimSuffix(cooked, ".uasset")+".uexp") {
		t.Fatalf("%s: error shown: %s", cooked, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	pg.screenshot("cooked-summary")
	pg.tab("exports")
	pg.screenshot("cooked-exports")
	// The first export's bytes are in the .uexp: the hex view says so.
	pg.clickFirstRow()
	pg.waitJS(`document.querySelector('.detail button') !== null`)
	pg.do(chromedp.Click(chromedp.CSS(`.detail button`)))
	pg.waitJS(`document.querySelector('.hex .first') !== null`)
	if s := pg.text(".hex-info"); !strings.Contains(s, ".uexp") {
		t.Errorf("cooked export hex: %q, want the .uexp file", s)
	}
	pg.screenshot("cooked-hex")

	// A UT99 map (UE1 package version 68).
	ut := filepath.Join(dir, "legacy_ue123/elsheepo+ut99server/Maps/DM-Pyramid.unr")
	want = expect(t, ut)
	if pg.drop(ut) {
		t.Fatalf("%s: error shown: %s", ut, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	pg.screenshot("ut99-summary")
	// Tables render only the rows in view, and the filter narrows them.
	pg.tab("names")
	if n := js[int](pg, `document.querySelectorAll('.vt-row').length`); n == 0 || n >= len(want.Names) || n > 120 {
		t.Errorf("names table has %d row elements for %d names; want only the visible ones", n, len(want.Names))
	}
	pg.filter("Light")
	pg.waitJS(`/ of 715 rows/.test(document.querySelector('.vt-count').textContent)`)
	pg.screenshot("ut99-names-filtered")
	pg.tab("exports")
	pg.screenshot("ut99-exports")
	pg.tab("props")
	pg.waitJS(`document.querySelector('#view .tree, #view .errbox, #view .notice') !== null`)
	pg.screenshot("ut99-props")

	// A UT99 texture package: the Content tab shows its textures as images.
	utx := filepath.Join(dir, "legacy_ue123/nrempel+ut-server/Textures/Crypt.utx")
	want = expect(t, utx)
	if pg.drop(utx) {
		t.Fatalf("%s: error shown: %s", utx, pg.text("#error-text"))
	}
	checkCounts(t, pg, want)
	if n := pg.tab("content"); n <= 0 {
		t.Fatalf("content tab shows %d items", n)
	}
	pg.waitJS(`document.querySelector('.thumb img') !== null && document.querySelector('.thumb img').complete`)
	if w := js[int](pg, `document.querySelector('.thumb img').naturalWidth`); w <= 0 {
		t.Errorf("texture does not decode (naturalWidth %d)", w)
	}
	pg.screenshot("ut99-textures")
}

// TestBrowserTiming measures drop → first render of the largest uncooked
// corpus file (reported in the log; the goal is < 300 ms for 1 MB).
func TestBrowserTiming(t *testing.T) {
	dir := corpus.Dir(t)
	var largest string
	var size int64
	for _, e := range corpus.Manifest(t) {
		if strings.HasPrefix(e.RelPath, "uncooked/") && (strings.HasSuffix(e.RelPath, ".uasset") || strings.HasSuffix(e.RelPath, ".umap")) && e.Size > size {
			largest, size = e.RelPath, e.Size
		}
	}
	pg := newPage(t)
	// The page preloads the UE4/UE5 reader when idle after opening; a user
	// takes longer than that to drop a file. Its start-up is logged too.
	pg.waitPreload()
	t.Logf("UE4/UE5 reader preloaded: download and start %.1f ms after the page asked for it", js[float64](pg, `upkgState.modules.uasset.ms`))
	p := filepath.Join(dir, filepath.FromSlash(largest))
	want := expect(t, p)
	for i := range 5 {
		if pg.drop(p) {
			t.Fatalf("%s: %s", largest, pg.text("#error-text"))
		}
		pg.waitJS(fmt.Sprintf(`upkgState.timings.length > %d`, i))
	}
	checkCounts(t, pg, want)
	// A package over 1 MB: UT99's Engine.u (1.1 MB, thousands of names).
	// The first drop also downloads and starts the UE1–UE3 reader; the
	// second is the reading alone.
	big := filepath.Join(dir, "legacy_ue123/Deaod+UT99/System/Engine.u")
	for i := 5; i < 7; i++ {
		if pg.drop(big) {
			t.Fatalf("%s: %s", big, pg.text("#error-text"))
		}
		pg.waitJS(fmt.Sprintf(`upkgState.timings.length > %d`, i))
	}
	t.Logf("largest uncooked corpus file: %s (%d bytes)", largest, size)
	type timing struct {
		File   string  `json:"file"`
		Render float64 `json:"drop_to_render_ms"`
		Parse  float64 `json:"parse_ms"`
		Worker float64 `json:"total_ms"`
	}
	ts := js[[]timing](pg, `upkgState.timings`)
	for _, tm := range ts {
		t.Logf("%s: drop → first render %.1f ms (in the worker %.1f ms, of which parsing %.1f ms)", tm.File, tm.Render, tm.Worker, tm.Parse)
	}
}

// TestBrowserContainers opens an IoStore container (with the global
// container beside it) and a .pak, lists them, and opens a package inside.
func TestBrowserContainers(t *testing.T) {
	dir := corpus.Dir(t)
	pg := newPage(t)
	io := filepath.Join(dir, "iostore/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/IoStore/Tagged")
	utoc := filepath.Join(io, "Uncompressed/CUE4ParseFixtures-Minimal-Uncompressed-Windows.utoc")
	pak := filepath.Join(dir, "pak/FabianFG+CUE4Parse/CUE4Parse.Tests/Fixtures/UE5_8/LegacyPak/Tagged/Uncompressed/CUE4ParseFixtures-Legacy-Tagged-Uncompressed.pak")
	for _, tc := range []struct {
		name  string
		files []string
	}{
		{"utoc", []string{utoc, strings.TrimSuffix(utoc, ".utoc") + ".ucas", filepath.Join(io, "global.utoc"), filepath.Join(io, "global.ucas")}},
		{"pak", []string{pak}},
	} {
		c, err := inspect.OpenContainer(tc.files[0], &inspect.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.files[0], err)
		}
		entries := c.Entries()
		c.Close()
		// The first package inside that upkg reads natively, else the first
		// package (then the page must show the same error as the CLI).
		var inner string
		var want *inspect.Package
		var wantErr error
		for _, e := range entries {
			if !strings.HasSuffix(e.Path, ".uasset") && !strings.HasSuffix(e.Path, ".umap") {
				continue
			}
			in, err := inspect.OpenInput(tc.files[0]+inspect.ContainerSep+"/"+e.Path, &inspect.Options{})
			if err == nil {
				var p *inspect.Package
				p, err = inspect.OpenPackage(in, &inspect.Options{})
				if in.Close != nil {
					in.Close()
				}
				if err == nil {
					inner, want, wantErr = e.Path, p, nil
					break
				}
			}
			if inner == "" {
				inner, wantErr = e.Path, err
			}
		}
		if pg.drop(tc.files...) {
			t.Fatalf("%s: error shown: %s", tc.name, pg.text("#error-text"))
		}
		if n := js[string](pg, `document.querySelector('#tabs button[data-tab="container"]').dataset.count`); n != strconv.Itoa(len(entries)) {
			t.Errorf("%s: container tab shows %s entries, upkg ls has %d", tc.name, n, len(entries))
		}
		pg.screenshot(tc.name + "-listing")
		if inner == "" {
			t.Fatalf("%s: no package inside", tc.name)
		}
		// Open the package: type its name in the filter and click the row.
		before := pg.counters()
		pg.filter(inner)
		pg.waitJS(`document.querySelectorAll('.vt-row').length === 1`)
		pg.clickFirstRow()
		pg.waitJS(fmt.Sprintf(`upkgState.renders > %d || upkgState.errors > %d`, before.Renders, before.Errors))
		if wantErr != nil {
			// upkg cannot read it: the page shows the CLI's error and survives.
			msg := wantErr.Error()
			msg = msg[strings.LastIndex(msg, ": uasset:")+2:]
			if pg.counters().Errors == before.Errors || !strings.Contains(pg.text("#error-text"), msg) {
				t.Errorf("%s::%s: page shows %q, upkg says %q", tc.name, inner, pg.text("#error-text"), wantErr)
			}
			pg.screenshot(tc.name + "-package-error")
			continue
		}
		if pg.counters().Errors > before.Errors {
			t.Fatalf("%s::%s: error shown: %s", tc.name, inner, pg.text("#error-text"))
		}
		checkCounts(t, pg, want)
		pg.screenshot(tc.name + "-package")
		// Re-reading with the options shows the package again (it went
		// back to the listing).
		before = pg.counters()
		pg.do(chromedp.Click(chromedp.ID("settings-btn")), chromedp.Click(chromedp.ID("settings-apply")), chromedp.Click(chromedp.ID("settings-btn")))
		pg.waitJS(fmt.Sprintf(`upkgState.renders > %d + 1 || upkgState.errors > %d`, before.Renders, before.Errors))
		if pg.counters().Errors > before.Errors {
			t.Fatalf("%s::%s: re-read: %s", tc.name, inner, pg.text("#error-text"))
		}
		checkCounts(t, pg, want)
	}
}

// TestBrowserEncryptedPak drops a pak with an encrypted index: the page
// asks for the key; given under Reading options, the listing appears.
func TestBrowserEncryptedPak(t *testing.T) {
	dir := corpus.Dir(t)
	pak := filepath.Join(dir, "pak/trumank+repak/repak/tests/packs/pack_v11_compress_encrypt_encryptindex.pak")
	const key = "lNJbw660IOC+kU7cnVQ1oeqrXyhk4J6UAZrCBbcnp94="
	c, err := inspect.OpenContainer(pak, &inspect.Options{AESKey: key})
	if err != nil {
		t.Fatal(err)
	}
	entries := len(c.Entries())
	c.Close()
	pg := newPage(t)
	if !pg.drop(pak) {
		t.Fatal("encrypted pak without a key: no error shown")
	}
	if s := pg.text("#error-hint"); !strings.Contains(s, "Reading options") {
		t.Errorf("hint %q does not point to Reading options", s)
	}
	pg.screenshot("needs-key")
	before := pg.counters()
	pg.do(chromedp.Click(chromedp.ID("settings-btn")),
		chromedp.SendKeys(chromedp.ID("opt-aes"), key),
		chromedp.Click(chromedp.ID("settings-apply")))
	pg.waitJS(fmt.Sprintf(`upkgState.renders > %d || upkgState.errors > %d`, before.Renders, before.Errors))
	if pg.counters().Errors > before.Errors {
		t.Fatalf("with the key: %s", pg.text("#error-text"))
	}
	if n := js[string](pg, `document.querySelector('#tabs button[data-tab="container"]').dataset.count`); n != strconv.Itoa(entries) {
		t.Errorf("listing shows %s entries, want %d", n, entries)
	}
	// A PNG stored in the pak previews as an image (decrypted, inflated).
	pg.filter("test.png")
	pg.waitJS(`document.querySelectorAll('.vt-row').length === 1`)
	pg.clickFirstRow()
	pg.waitJS(`document.querySelector('.preview-img') !== null && document.querySelector('.preview-img').complete`)
	if w := js[int](pg, `document.querySelector('.preview-img').naturalWidth`); w <= 0 {
		t.Errorf("test.png from the pak does not decode")
	}
	pg.screenshot("with-key")
}

// TestBrowserManyFiles drops a folder's worth of packages: a list replaces
// the chips, the first package opens, and picking another opens it.
func TestBrowserManyFiles(t *testing.T) {
	dir := corpus.Path(t, "uassetapi/TestManyAssets/Clay/Engine/Content/EngineMaterials")
	paths, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	mains := 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".uasset") || strings.HasSuffix(p, ".umap") {
			mains++
		}
	}
	if mains < 13 {
		t.Fatalf("need 13+ packages in %s, found %d", dir, mains)
	}
	pg := newPage(t)
	if pg.drop(paths...) {
		t.Fatalf("first package: %s", pg.text("#error-text"))
	}
	if n := js[int](pg, `document.querySelectorAll('#files-bar select option').length`); n != mains {
		t.Errorf("list has %d entries, want %d", n, mains)
	}
	before := pg.counters()
	pg.do(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('#files-bar select'); s.selectedIndex = 5; s.dispatchEvent(new Event('change')); })()`))
	pg.waitJS(fmt.Sprintf(`upkgState.renders > %d || upkgState.errors > %d`, before.Renders, before.Errors))
	want := js[string](pg, `document.querySelector('#files-bar select').value`)
	if s := pg.text("#title-bar"); pg.counters().Errors == before.Errors && !strings.Contains(s, strings.TrimSuffix(want, ".uasset")) {
		t.Errorf("title %q after picking %s", s, want)
	}
	pg.screenshot("many-files")
}
