package uasset

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"github.com/upkg/upkg/internal/binread"
)

// roundTrip writes v with ser, reads it back into a fresh value with the
// same serializer and checks both the value and the bytes.
func roundTrip[T any](t *testing.T, name string, v T, ser func(a archive, v *T)) {
	t.Helper()
	sv := newSaver(binary.LittleEndian, 0)
	ser(sv, &v)
	b := sv.w.Bytes()
	r := binread.FromBytes(b)
	var got T
	ser(loader{r}, &got)
	if err := r.Err(); err != nil {
		t.Fatalf("%s: read back: %v", name, err)
	}
	if r.Offset() != int64(len(b)) {
		t.Fatalf("%s: read %d of %d bytes", name, r.Offset(), len(b))
	}
	if !reflect.DeepEqual(got, v) {
		t.Fatalf("%s:\nhave %#v\nwant %#v", name, got, v)
	}
	sv2 := newSaver(binary.LittleEndian, 0)
	ser(sv2, &got)
	if !bytes.Equal(sv2.w.Bytes(), b) {
		t.Fatalf("%s: second write differs", name)
	}
	// Every prefix must fail cleanly.
	for n := 0; n < len(b); n++ {
		r := binread.FromBytes(b[:n])
		var x T
		ser(loader{r}, &x)
		if r.Err() == nil && n < len(b) {
			t.Fatalf("%s: prefix of %d bytes read without error", name, n)
		}
	}
}

func str(s string) String {
	if s == "" {
		return String{Enc: binread.StrEmpty}
	}
	for _, c := range s {
		if c >= 0x80 {
			return String{S: s, Enc: binread.StrUTF16}
		}
	}
	return String{S: s, Enc: binread.StrANSI}
}

func TestSectionRoundTrips(t *testing.T) {
	t.Run("searchable names", func(t *testing.T) {
		v := []SearchableNames{{Object: 2, Names: []Name{{1, 0}, {3, 2}}}, {Object: -1, Names: []Name{{4, 0}}}}
		roundTrip(t, "SearchableNames", v, func(a archive, v *[]SearchableNames) {
			serializeSlice(a, "SearchableNames", v, 8, func(a archive, e *SearchableNames) { e.serialize(a) })
		})
	})
	t.Run("import type hierarchies", func(t *testing.T) {
		v := []ImportTypeHierarchy{{Import: -3, SuperTypes: []TypeResource{{Name{1, 0}, Name{2, 0}, Name{3, 0}, Name{4, 0}}}}}
		roundTrip(t, "ImportTypeHierarchies", v, func(a archive, v *[]ImportTypeHierarchy) {
			serializeSlice(a, "ImportTypeHierarchies", v, 8, func(a archive, h *ImportTypeHierarchy) { h.serialize(a) })
		})
	})
	t.Run("gatherable text", func(t *testing.T) {
		nested := &LocMetadataObject{Values: []LocMetadataEntry{{Key: str("inner"), Value: LocMetadataValue{Type: locMetaBoolean, Bool: true}}}}
		v := GatherableTextData{
			NamespaceName: str("UI"), SourceString: str("Héllo wörld"),
			SourceStringMetaData: LocMetadataObject{Values: []LocMetadataEntry{
				{Key: str("a"), Value: LocMetadataValue{Type: locMetaString, String: str("b")}},
				{Key: str("arr"), Value: LocMetadataValue{Type: locMetaArray, Array: []LocMetadataValue{{Type: locMetaNone}, {Type: locMetaObject, Object: nested}}}},
			}},
			SourceSiteContexts: []TextSourceSiteContext{{KeyName: str("K"), SiteDescription: str("/Game/X.X"), IsEditorOnly: true, InfoMetaData: LocMetadataObject{Values: []LocMetadataEntry{}}, KeyMetaData: LocMetadataObject{Values: []LocMetadataEntry{}}}},
		}
		roundTrip(t, "GatherableTextData", v, func(a archive, v *GatherableTextData) { v.serialize(a, 0) })
	})
	t.Run("data resources v1", func(t *testing.T) {
		v := DataResources{Version: 1, Resources: []ObjectDataResource{{Flags: 1, SerialOffset: 100, DuplicateSerialOffset: -1, SerialSize: 50, RawSize: 60, OuterIndex: 1, LegacyBulkDataFlags: 0x10}}}
		roundTrip(t, "DataResources", v, func(a archive, v *DataResources) { v.serialize(a) })
	})
	t.Run("data resources v2", func(t *testing.T) {
		v := DataResources{Version: 2, Resources: []ObjectDataResource{{Flags: 1, CookedIndex: 3, SerialOffset: 100, DuplicateSerialOffset: -1, SerialSize: 50, RawSize: 60, OuterIndex: 1}}}
		roundTrip(t, "DataResources", v, func(a archive, v *DataResources) { v.serialize(a) })
	})
	t.Run("metadata", func(t *testing.T) {
		v := MetaData{ObjectMetaData: []ObjectMetaData{{SoftObjectPathIndex: 1, Values: []MetaDataPair{{Key: Name{2, 0}, Value: str("true")}}}}, RootMetaData: []MetaDataPair{{Key: Name{3, 0}, Value: str("x")}}}
		roundTrip(t, "MetaData", v, func(a archive, v *MetaData) { v.serialize(a) })
	})
	t.Run("asset registry", func(t *testing.T) {
		v := AssetRegistryData{DependencyDataOffset: 77, Objects: []AssetRegistryObject{{ObjectPath: str("A"), ObjectClassName: str("Texture2D"), Tags: []AssetRegistryTag{{str("k"), str("v")}}}}}
		roundTrip(t, "AssetRegistry", v, func(a archive, v *AssetRegistryData) { v.serializeMain(a, true) })
		deps := AssetRegistryData{ImportUsedInGame: BitArray{NumBits: 33, Words: []uint32{1, 1}}, SoftPackageUsedInGame: BitArray{NumBits: 0, Words: []uint32{}}, ExtraPackageDependencies: []PackageBuildDep{{Name{1, 0}, 2}}}
		ver := Versions{UE4: 522, UE5: 1013}
		roundTrip(t, "AssetRegistryDeps", deps, func(a archive, v *AssetRegistryData) { v.serializeDeps(a, &ver) })
	})
	t.Run("verse cells", func(t *testing.T) {
		imps := []CellImport{{PackageIndex: -2, VersePath: "/Verse.org/Simulation/creative_device"}, {PackageIndex: -1}}
		roundTrip(t, "CellImports", imps, func(a archive, v *[]CellImport) {
			serializeN(a, "CellImports", v, 2, cellImportMinSize, func(a archive, c *CellImport) { c.serialize(a) })
		})
		exps := []CellExport{{CppClassInfo: Name{3, 0}, VersePath: "(/x:)y", SerialOffset: 4096, SerialLayoutSize: 16, SerialSize: 64, FirstExportDependency: -1}}
		roundTrip(t, "CellExports", exps, func(a archive, v *[]CellExport) {
			serializeN(a, "CellExports", v, 1, cellExportMinSize, func(a archive, c *CellExport) { c.serialize(a) })
		})
	})
	t.Run("custom versions", func(t *testing.T) {
		for _, f := range []customVersionFormat{cvfEnums, cvfGuids, cvfOptimized} {
			v := CustomVersion{Key: CustomVersionKeyMust("EditorObjectVersion"), Version: 40}
			if f == cvfEnums {
				v.Key = [4]uint32{0, 0, 0, 7}
			}
			if f == cvfGuids {
				v.FriendlyName = str("Dev-Editor")
			}
			roundTrip(t, "CustomVersion", v, func(a archive, v *CustomVersion) { v.serialize(a, f) })
		}
	})
}

func CustomVersionKeyMust(name string) [4]uint32 {
	k, ok := CustomVersionKey(name)
	if !ok {
		panic(name)
	}
	return k
}

// trailerFile builds a package-shaped byte slice whose trailer starts at
// off, with one local payload, for the trailer tests.
func trailerFile(version int32, footerTag uint64) ([]byte, int64) {
	const off = 64
	t := PackageTrailer{Tag: trailerHeaderTag, Version: version, PayloadsDataLength: 16,
		Payloads: []TrailerPayload{{OffsetInFile: 0, CompressedSize: 16, RawSize: 16}}}
	sv := newSaver(binary.LittleEndian, off)
	t.serializeHeader(sv)
	hl := uint32(sv.w.Len())
	t.HeaderLength = hl
	sv = newSaver(binary.LittleEndian, off)
	t.serializeHeader(sv)
	b := make([]byte, off)
	b = append(b, sv.w.Bytes()...)
	b = append(b, bytes.Repeat([]byte{0xAB}, 16)...)
	b = binary.LittleEndian.AppendUint64(b, footerTag)
	b = binary.LittleEndian.AppendUint64(b, uint64(hl)+16+trailerFooterSize)
	b = binary.LittleEndian.AppendUint32(b, PackageFileTag)
	return b, off
}

func TestTrailer(t *testing.T) {
	for _, v := range []int32{0, 1, 2} {
		b, off := trailerFile(v, uint64(trailerFooterTag))
		f := &File{r: bytes.NewReader(b), size: int64(len(b))}
		f.Summary.PayloadTocOffset = off
		f.readTrailer()
		if err := f.SectionErrors(); err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if f.Trailer == nil || len(f.Trailer.Payloads) != 1 || f.Trailer.Footer.PackageTag != PackageFileTag {
			t.Fatalf("version %d: trailer %+v", v, f.Trailer)
		}
		if got := f.Sections[0].Size; got != int64(len(b))-off {
			t.Errorf("version %d: trailer size %d, want %d", v, got, int64(len(b))-off)
		}
	}
	b, off := trailerFile(2, 0x1234)
	f := &File{r: bytes.NewReader(b), size: int64(len(b))}
	f.Summary.PayloadTocOffset = off
	f.readTrailer()
	if err := f.SectionErrors(); err == nil || !strings.Contains(err.Error(), "footer tag") {
		t.Errorf("bad footer tag: err = %v", err)
	}
}

// TestTrailerLegacyAccessMode: a version 0 trailer's one access mode is
// each payload's; a referenced payload's offset lies in another file and
// is not checked against this one's payload bytes.
func TestTrailerLegacyAccessMode(t *testing.T) {
	const off = 64
	tr := PackageTrailer{Tag: trailerHeaderTag, Version: 0, PayloadsDataLength: 16, LegacyAccessMode: 1,
		Payloads: []TrailerPayload{{OffsetInFile: 4096, CompressedSize: 16, RawSize: 16}}}
	sv := newSaver(binary.LittleEndian, off)
	tr.serializeHeader(sv)
	tr.HeaderLength = uint32(sv.w.Len())
	sv = newSaver(binary.LittleEndian, off)
	tr.serializeHeader(sv)
	b := append(make([]byte, off), sv.w.Bytes()...)
	b = append(b, bytes.Repeat([]byte{0xAB}, 16)...)
	b = binary.LittleEndian.AppendUint64(b, uint64(trailerFooterTag))
	b = binary.LittleEndian.AppendUint64(b, uint64(tr.HeaderLength)+16+trailerFooterSize)
	b = binary.LittleEndian.AppendUint32(b, PackageFileTag)
	f := &File{r: bytes.NewReader(b), size: int64(len(b))}
	f.Summary.PayloadTocOffset = off
	f.readTrailer()
	if err := f.SectionErrors(); err != nil {
		t.Fatal(err)
	}
	if p := f.Trailer.Payloads[0]; p.AccessMode != 1 {
		t.Errorf("payload access mode %d, want the trailer's 1", p.AccessMode)
	}
}
