package uasset

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReadClass holds the header reader to what readClass assumes: the
// thresholds list every VerUE4…/VerUE5… constant, the reader compares UE4
// and UE5 with those constants only and asks no custom version but the
// world tile one, and releases of one class read every tagged corpus
// package alike (same error and stage, or the same sections, validate
// result and header rewrite).
func TestReadClass(t *testing.T) {
	src, err := os.ReadFile("const.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*(VerUE[45]\w*)\s*=\s*(\d+)`).FindAllStringSubmatch(string(src), -1) {
		v, _ := strconv.Atoi(m[2])
		list := readThresholdsUE4
		if strings.HasPrefix(m[1], "VerUE5") {
			list = readThresholdsUE5
		}
		if !slices.Contains(list, int32(v)) {
			t.Errorf("%s (%d) is not in the read thresholds", m[1], v)
		}
	}
	// The files read, validate and the serializers they run live in.
	readFiles := []string{"file.go", "summary.go", "names.go", "imports.go", "exports.go", "sections.go",
		"assetregistry.go", "worldtile.go", "objects.go", "thumbnails.go", "gatherable.go", "metadata.go",
		"dataresources.go", "cells.go", "trailer.go", "summarymemo.go", "tablememo.go", "namememo.go",
		"sectionmemo.go", "archive.go", "version.go", "write.go"} // and validate (infer.go), which asks no version
	cmpRe := regexp.MustCompile(`\b(UE4|UE5|ue4|ue5)\s*(>=|<=|<|>|==|!=)\s*([\w.]+)`)
	revRe := regexp.MustCompile(`([\w.]+)\s*(>=|<=|<|>|==|!=)\s*[\w.]*\b(UE4|UE5)\b`)
	for _, name := range readFiles {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "//")
			for _, m := range cmpRe.FindAllStringSubmatch(code, -1) {
				if !strings.HasPrefix(m[3], "VerUE") && !strings.HasPrefix(m[3], "t") { // t: readClassOf's loop
					t.Errorf("%s:%d compares %s with %s, not a VerUE constant", name, i+1, m[1], m[3])
				}
			}
			for _, m := range revRe.FindAllStringSubmatch(code, -1) {
				if !strings.HasPrefix(m[1], "VerUE") && !strings.HasSuffix(m[1], "FileVersionUE4") {
					t.Errorf("%s:%d compares %s with %s", name, i+1, m[1], m[3])
				}
			}
			if strings.Contains(code, "ustomVersion(") && !strings.Contains(code, "func ") &&
				!(name == "worldtile.go" && strings.Contains(code, "customVersion(fortniteMainBranchObjectVersion) >= fnmWorldCompositionTile3DOffset")) {
				t.Errorf("%s:%d asks a custom version: %s", name, i+1, strings.TrimSpace(code))
			}
		}
	}

	// Releases of one class with different layout keys.
	type pair struct{ a, b *engineStatic }
	var pairs []pair
	for i := range engines {
		for j := i + 1; j < len(engines); j++ {
			a, b := engineStaticOf(engines[i].Name), engineStaticOf(engines[j].Name)
			if a.key != b.key && a.class == b.class {
				pairs = append(pairs, pair{a, b})
			}
		}
	}
	if len(pairs) == 0 {
		t.Fatal("no two layouts share a read class")
	}
	compared := 0
	for _, dir := range []string{"cooked", "uassetapi", "uncooked"} {
		for _, p := range corpusPackages(t, dir) {
			if !hasTag(p) {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(data[:4]) == "ACE7" {
				continue
			}
			var o options
			if b, err := os.ReadFile(strings.TrimSuffix(p, filepath.Ext(p)) + ".uexp"); err == nil {
				o.uexp, o.uexpSize = bytes.NewReader(b), int64(len(b))
			}
			order := binary.ByteOrder(binary.LittleEndian)
			if binary.LittleEndian.Uint32(data) == PackageFileTagSwapped {
				order = binary.BigEndian
			}
			outcome := func(es *engineStatic) string {
				o := o // fresh memos
				f := newFile(bytes.NewReader(data), int64(len(data)), order, &o)
				f.strict, f.sumEngine = true, es.index
				if err := f.read(es.versions); err != nil {
					return fmt.Sprintf("read: stage %d: %v", f.progress, err)
				}
				var w strings.Builder
				fmt.Fprintf(&w, "sections %+v\nvalidate %v\n", f.Sections, f.validate())
				h, err := f.WriteHeader()
				fmt.Fprintf(&w, "header %x %v", h, err)
				return w.String()
			}
			for _, pr := range pairs {
				if a, b := outcome(pr.a), outcome(pr.b); a != b {
					t.Errorf("%s: %s and %s share a read class but read it differently:\n%.300s\n%.300s", p, engines[pr.a.index].Name, engines[pr.b.index].Name, a, b)
				}
				compared++
			}
		}
	}
	t.Logf("%d layout pairs, %d readings compared", len(pairs), compared)
}

// TestInferredWriteFollowsModel opens the unversioned corpus packages by
// inference and checks that the header rewrite follows the chosen File's
// own model (a chosen File that shares its read with another layout group
// is read again into itself: its serializers must not be bound to the
// group it was copied from).
func TestInferredWriteFollowsModel(t *testing.T) {
	n := 0
	for _, dir := range []string{"cooked", "uassetapi"} {
		for _, p := range corpusPackages(t, dir) {
			if !hasTag(p) {
				continue
			}
			f, err := openCorpus(t, p, "")
			if err != nil || f.Engine.Source != "detected" {
				continue
			}
			h1, err := f.WriteHeader()
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			off := f.summaryFieldOffset("PackageFileSummary.PackageFlags")
			f.Summary.PackageFlags ^= 0x10 // a bit no check reads back
			h2, err := f.WriteHeader()
			f.Summary.PackageFlags ^= 0x10
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if off < 0 || bytes.Equal(h1, h2) || !bytes.Equal(h1[:off], h2[:off]) {
				t.Errorf("%s (chose %s): the rewrite does not follow the model's PackageFlags", p, f.Engine.Version)
			}
			n++
		}
	}
	t.Logf("%d inferred packages rewritten", n)
}
