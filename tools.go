//go:build tools

// This file pins the modules the project has chosen, so that go.mod stays
// stable while packages that use them are written in parallel. It is never
// built.
package upkg

import (
	_ "github.com/andybalholm/brotli"
	_ "github.com/chromedp/chromedp"
	_ "github.com/go-faster/city"
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/pierrec/lz4/v4"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/exp/mmap"
)
