package uasset

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/corpus"
)

// sectionErr returns the error of the named section, or nil.
func sectionErr(f *File, name string) error {
	for _, s := range f.Sections {
		if s.Name == name {
			return s.Err
		}
	}
	return nil
}

// TestEndTag cuts the package tag off the end of an editor package and of
// a .uexp: both must report a "package tag" section error with the offset,
// and the intact files none.
func TestEndTag(t *testing.T) {
	uncooked := corpus.Path(t, "uncooked/xiaoheige+VRTemplateUE426/Content/VirtualRealityBP/Blueprints/MotionControllerHaptics.uasset")
	b, err := os.ReadFile(uncooked)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SectionErrors(); err != nil {
		t.Fatalf("intact: %v", err)
	}
	for _, cut := range []int{1, 2, 3, 4} {
		c := b[:len(b)-cut]
		f, err := NewFile(bytes.NewReader(c), int64(len(c)))
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		err = sectionErr(f, "package tag")
		if err == nil || !strings.Contains(err.Error(), "PackageFileTag at offset 0x") {
			t.Errorf("cut %d: package tag error = %v", cut, err)
		}
	}
	// Damaged rather than cut: the last byte changed.
	d := bytes.Clone(b)
	d[len(d)-1] ^= 0xFF
	if f, err := NewFile(bytes.NewReader(d), int64(len(d))); err != nil || sectionErr(f, "package tag") == nil {
		t.Errorf("damaged tag not reported (%v)", err)
	}

	cooked := corpus.Path(t, "cooked/LahkLeKey+UE5-EarlyAccess-1hTest-BatteryCollector/Saved/Cooked/Windows/Battery_Collector/Content/Blueprints/BatteryMan_GameMode_BP.uasset")
	hdr, err := os.ReadFile(cooked)
	if err != nil {
		t.Fatal(err)
	}
	uexp, err := os.ReadFile(strings.TrimSuffix(cooked, ".uasset") + ".uexp")
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{0, 4} {
		u := uexp[:len(uexp)-cut]
		f, err := NewFile(bytes.NewReader(hdr), int64(len(hdr)), WithEngine("5.0EA"), WithUexp(bytes.NewReader(u), int64(len(u))))
		if err != nil {
			t.Fatalf("uexp cut %d: %v", cut, err)
		}
		err = sectionErr(f, "package tag")
		if (err != nil) != (cut > 0) {
			t.Errorf("uexp cut %d: package tag error = %v", cut, err)
		}
	}
}

// TestEndTagConverted reads split packages rebuilt from IoStore by a
// converter, which writes no tag: BulkDataStartOffset at the end of the
// data and PackageSource 0 mark them, and they read without error.
func TestEndTagConverted(t *testing.T) {
	dir := corpus.Path(t, "uassetapi/TestUE5_7/FarFarWest/Content/Gamework")
	p := filepath.Join(dir, "S_ChatMessage.uasset")
	f, err := Open(p, WithEngine("5.7"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Summary.PackageSource != 0 || f.Summary.BulkDataStartOffset != int64(f.Summary.TotalHeaderSize)+f.uexpSize {
		t.Fatalf("not a converted package: PackageSource %d, BulkDataStartOffset %d", f.Summary.PackageSource, f.Summary.BulkDataStartOffset)
	}
	if err := f.SectionErrors(); err != nil {
		t.Error(err)
	}
}

// TestSummaryErrorOffsets checks that a summary value that cannot describe
// the file is reported at the offset of its field.
func TestSummaryErrorOffsets(t *testing.T) {
	p := corpus.Path(t, "uncooked/xiaoheige+VRTemplateUE426/Content/VirtualRealityBP/Blueprints/MotionControllerHaptics.uasset")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"PackageFileSummary.TotalHeaderSize", "PackageFileSummary.NameOffset", "PackageFileSummary.ImportCount"} {
		off := f.summaryFieldOffset(field)
		if off <= 0 {
			t.Fatalf("%s: offset %d", field, off)
		}
		c := bytes.Clone(b)
		copy(c[off:], []byte{0xFF, 0xFF, 0xFF, 0x7F})
		_, err := NewFile(bytes.NewReader(c), int64(len(c)))
		want := fmt.Sprintf("%s at offset 0x%x", field, off)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s = 0x7fffffff: error %v, want it to name %q", field, err, want)
		}
	}
}
