package uasset

// AssetRegistryData is the package's asset registry section
// (UE::AssetRegistry::WritePackageData): the assets with their tags, and in
// editor packages since VER_UE4_ASSETREGISTRY_DEPENDENCYFLAGS (521) the
// dependency data the registry needs without loading the package.
type AssetRegistryData struct {
	// DependencyDataOffset is stored in editor packages since 521; -1 when absent.
	DependencyDataOffset int64                 `json:"dependency_data_offset"`
	Objects              []AssetRegistryObject `json:"objects"`

	// Dependency data (at DependencyDataOffset).
	HasDependencyData        bool              `json:"has_dependency_data"`
	ImportUsedInGame         BitArray          `json:"import_used_in_game"`
	SoftPackageUsedInGame    BitArray          `json:"soft_package_used_in_game"`
	ExtraPackageDependencies []PackageBuildDep `json:"extra_package_dependencies,omitempty"`
}

// AssetRegistryObject is one asset of the asset registry section.
type AssetRegistryObject struct {
	ObjectPath      String             `json:"object_path"`
	ObjectClassName String             `json:"object_class_name"`
	Tags            []AssetRegistryTag `json:"tags"`
}

// AssetRegistryTag is one key/value tag of an asset.
type AssetRegistryTag struct {
	Key   String `json:"key"`
	Value String `json:"value"`
}

// BitArray is TBitArray as serialized: a bit count and 32-bit words.
type BitArray struct {
	NumBits int32    `json:"num_bits"`
	Words   []uint32 `json:"words"`
}

// PackageBuildDep is one extra package build dependency (UE5
// ASSETREGISTRY_PACKAGEBUILDDEPENDENCIES, 1013): a package name and flags.
type PackageBuildDep struct {
	PackageName Name   `json:"package_name"`
	Flags       uint32 `json:"flags"`
}

// bitArrayFields names a BitArray's fields, joined once rather than per
// read (and per word).
type bitArrayFields struct{ name, numBits, words, word string }

func bitArrayFieldsOf(name string) bitArrayFields {
	return bitArrayFields{name, name + ".NumBits", name + ".Words", name + ".Word"}
}

var (
	importUsedInGameFields      = bitArrayFieldsOf("AssetRegistry.ImportUsedInGame")
	softPackageUsedInGameFields = bitArrayFieldsOf("AssetRegistry.SoftPackageUsedInGame")
)

func (b *BitArray) serialize(a archive, fl *bitArrayFields) {
	a.i32(fl.numBits, &b.NumBits)
	if b.NumBits < 0 {
		a.fail(fl.name, errNegativeCount)
		return
	}
	words := int((int64(b.NumBits) + 31) / 32)
	serializeN(a, fl.words, &b.Words, words, 4, func(a archive, w *uint32) { a.u32(fl.word, w) })
}

func (f *File) hasDependencyOffset() bool {
	return !f.Summary.FilterEditorOnly() && f.Versions.UE4 >= VerUE4AssetRegistryDependencyFlags
}

func (d *AssetRegistryData) serializeMain(a archive, withDepOffset bool) {
	if withDepOffset {
		a.i64("AssetRegistry.DependencyDataOffset", &d.DependencyDataOffset)
	}
	serializeSlice(a, "AssetRegistry.Objects", &d.Objects, 12, func(a archive, o *AssetRegistryObject) {
		a.str("AssetRegistry.ObjectPath", &o.ObjectPath)
		a.str("AssetRegistry.ObjectClassName", &o.ObjectClassName)
		serializeSlice(a, "AssetRegistry.Tags", &o.Tags, 8, func(a archive, t *AssetRegistryTag) {
			a.str("AssetRegistry.TagKey", &t.Key)
			a.str("AssetRegistry.TagValue", &t.Value)
		})
	})
}

func (d *AssetRegistryData) serializeDeps(a archive, v *Versions) {
	d.ImportUsedInGame.serialize(a, &importUsedInGameFields)
	d.SoftPackageUsedInGame.serialize(a, &softPackageUsedInGameFields)
	if v.UE5 >= VerUE5AssetRegistryPackageBuildDependencies {
		serializeSlice(a, "AssetRegistry.ExtraPackageDependencies", &d.ExtraPackageDependencies, 12, func(a archive, p *PackageBuildDep) {
			p.PackageName.serialize(a, "AssetRegistry.ExtraPackageDependency")
			a.u32("AssetRegistry.ExtraPackageDependencyFlags", &p.Flags)
		})
	}
}

func (f *File) readAssetRegistry() {
	d := &AssetRegistryData{DependencyDataOffset: -1}
	f.AssetRegistry = d
	withDep := f.hasDependencyOffset()
	off := int64(f.Summary.AssetRegistryDataOffset)
	err := f.readSection("asset registry", off, func(a archive) {
		shareText(a, f.nextBoundary(off)-off) // tags are many strings
		d.serializeMain(a, withDep)
	}, func() int { return len(d.Objects) })
	if err != nil || !withDep || d.DependencyDataOffset <= 0 {
		return
	}
	d.HasDependencyData = true
	f.readSection("asset registry dependencies", d.DependencyDataOffset, func(a archive) { d.serializeDeps(a, &f.Versions) },
		func() int { return len(d.ExtraPackageDependencies) })
}
