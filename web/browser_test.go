package web

import (
	"context"
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
)

// The browser tests drive Debian's Chromium headless against the page served
// by [Handler] on loopback, as `upkg serve` does. They skip when Chromium is
// missing, except under CI=true where that is a failure.

var (
	assetsOnce sync.Once
	assets     *Assets
	assetsErr  error
)

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
	chrome := chromiumPath(t)
	h, err := Handler(testAssets(t))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)

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
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 900),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); acancel() })
	// The first run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	tctx, tcancel := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(tcancel)
	p := &page{t: t, ctx: tctx, url: srv.URL + "/", dir: artifacts(t)}
	p.do(chromedp.Navigate(p.url), chromedp.WaitVisible(chromedp.ID("drop-zone")))
	p.waitJS(`typeof window.upkgState === "object"`)
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
