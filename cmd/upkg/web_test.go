package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/upkg/upkg/web"
)

// TestWebCommand writes the static site and checks its files. It builds the
// WebAssembly with the go toolchain (cached in the user cache dir).
func TestWebCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly")
	}
	dir := t.TempDir()
	if code := run([]string{"web", "--out", dir}); code != 0 {
		t.Fatalf("upkg web --out: exit %d", code)
	}
	for _, f := range []string{"index.html", "app.js", "worker.js", "help.js", "style.css", "modules.json", "wasm_exec.js", "_headers", "sample/upkgSample.uasset"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !bytes.Contains(idx, []byte(`http-equiv="Content-Security-Policy" content="default-src 'none'`)) || bytes.Contains(idx, []byte("{{CSP}}")) {
		t.Errorf("index.html lacks the CSP meta tag")
	}
	for _, m := range web.Modules {
		w, _ := os.ReadFile(filepath.Join(dir, m.File()))
		if !bytes.HasPrefix(w, []byte("\x00asm")) {
			t.Errorf("%s is not WebAssembly", m.File())
		}
	}
}

// TestServeCommand starts upkg serve on a free loopback port, fetches the
// page and the WebAssembly with the CSP header, and stops it.
func TestServeCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd()
	var out syncBuffer
	root.SetOut(&out)
	root.SetErr(io.Discard)
	root.SetArgs([]string{"serve", "--no-open"})
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for deadline := time.Now().Add(3 * time.Minute); url == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		url = re.FindString(out.String())
	}
	if url == "" {
		t.Fatalf("no URL printed: %q", out.String())
	}
	for _, p := range []string{"", "upkg-uasset.wasm", "worker.js", "modules.json"} {
		resp, err := http.Get(url + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "connect-src 'self'") {
			t.Errorf("GET /%s: %s, CSP %q", p, resp.Status, resp.Header.Get("Content-Security-Policy"))
		}
	}
	resp, err := http.Post(url, "text/plain", strings.NewReader("x"))
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("POST: %s", resp.Status)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("serve did not stop")
	}
}
