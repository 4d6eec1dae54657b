//go:build unix

package main

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/bigfiletest"
	"github.com/upkg/upkg/internal/inspect"
	"github.com/upkg/upkg/internal/mapfile"
)

// TestPropsBigExportMapped: props, dump and export read the packages they
// are given mapped, so an export too big to read whole (600 MiB, in a
// .uexp or a UE3 package) is decoded without a copy of its size in memory.
func TestPropsBigExportMapped(t *testing.T) {
	for _, tc := range bigfiletest.Cases {
		name := tc.Make(t, 600<<20)
		for _, cmd := range []func() error{
			func() error { return runProps(io.Discard, io.Discard, &inspect.Options{}, name, "", true) },
			func() error {
				return forEachPackage([]string{name}, &inspect.Options{Properties: true}, io.Discard, func(p *inspect.Package) error {
					return writeJSON(io.Discard, buildDump(p, true))
				})
			},
		} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := cmd()
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Errorf("%s: %v", tc.Name, err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("%s: allocated %d bytes", tc.Name, alloc)
			}
		}
	}
}

// TestPropsCutWhileMapped: a package file cut short while props reads its
// mapping fails that command with an error naming it, not with SIGBUS.
func TestPropsCutWhileMapped(t *testing.T) {
	for _, tc := range bigfiletest.Cases {
		name := tc.Make(t, 9<<20)
		cut := false
		opts := &inspect.Options{OpenWhole: bigfiletest.CutOnSlice(mapfile.OpenWhole, tc.Ext, &cut)}
		var out bytes.Buffer
		err := runProps(&out, io.Discard, opts, name, "", true)
		if !cut {
			t.Fatalf("%s: no slice of the %s file was asked for", tc.Name, tc.Ext)
		}
		if err == nil || !strings.Contains(err.Error(), name+": file changed while being read") {
			t.Errorf("%s: props of a file cut while mapped: %v", tc.Name, err)
		}
	}
}
