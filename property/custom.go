package property

// This file handles classes whose Serialize writes its own data in place of
// UObject::Serialize: their exports carry no property stream at all (tagged
// or unversioned), so reading one there would mis-read the class's bytes.

import (
	"fmt"
	"math"
	"strings"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// readOwnSerialize fills o for an export of a class [ownSerializer] knows.
func (d *decoder) readOwnSerialize(r *binread.Reader, o *Object, ex Export, fn func(*decoder, *binread.Reader) any) {
	o.Notes = append(o.Notes, ex.Class+"::Serialize writes its own data in place of a property stream")
	o.PropertiesEnd = r.Offset()
	if fn != nil {
		o.ClassData = d.tryClassData(r, func(r *binread.Reader) any { return fn(d, r) })
	}
	if rest := r.Remaining(); rest > 0 {
		o.tail = Raw{Reason: d.tailReason(ex.Class), Size: rest, Data: r.Bytes(rest, "ClassData")}
		o.Tail = &o.tail
	}
	o.Complete = true
	o.finish(d)
}

var (
	// FControlRigObjectVersion.
	cvControlRig = ue.ControlRigObjectVersion
	// UE::NNE::ModelData::GUID (NNE model data versions).
	cvNNEModelData = ue.NNEModelDataVersion
)

// FControlRigObjectVersion values.
const (
	controlRigHierarchyCompressElements              = 33
	controlRigHierarchyCompactTransformSerialization = 35
)

// rigHierarchy reads the start of URigHierarchy's data: the serialization
// settings (FRigHierarchySerializationSettings, from
// RigHierarchyCompactTransformSerialization; a single compression flag from
// RigHierarchyCompressElements) and, when the elements are stored in a
// separate archive, that archive's name table and byte size. The elements
// themselves stay in the tail (inline) or in ElementsArchive.
func (d *decoder) rigHierarchy(r *binread.Reader) any {
	if d.ctx.cvBelow(cvControlRig, 0) {
		return nil // an editor package without the version: layout unknown
	}
	var fs Fields
	compressed := false
	switch {
	case d.ctx.cvAtLeast(cvControlRig, controlRigHierarchyCompactTransformSerialization):
		settings := Fields{{"ControlRigVersion", int64(r.I32("RigHierarchy.Settings.ControlRigVersion"))}}
		for _, n := range []string{"IsSerializingToPackage", "UseCompressedArchive", "StoreCompactTransforms",
			"SerializeLocalTransform", "SerializeGlobalTransform", "SerializeInitialTransform", "SerializeCurrentTransform"} {
			settings = append(settings, Field{n, r.Bool32("RigHierarchy.Settings." + n)})
		}
		settings = append(settings, Field{"SerializationPhase", uint64(r.U32("RigHierarchy.Settings.SerializationPhase"))})
		compressed, _ = settings[2].Value.(bool)
		fs = append(fs, Field{"SerializationSettings", settings})
	case d.ctx.cvAtLeast(cvControlRig, controlRigHierarchyCompressElements):
		compressed = r.Bool32("RigHierarchy.UseCompressedArchive")
		fs = append(fs, Field{"UseCompressedArchive", compressed})
	}
	if r.Err() != nil || !compressed {
		return fs
	}
	n := r.Count("RigHierarchy.UniqueNames", 8)
	names := make([]string, 0, n)
	for range n {
		names = append(names, d.name(r, "RigHierarchy.UniqueName"))
	}
	size := r.U32("RigHierarchy.UncompressedSize")
	stored := r.Bool32("RigHierarchy.StoreCompressedBytes")
	bn := r.Count("RigHierarchy.Bytes", 1)
	data := r.Bytes(int64(bn), "RigHierarchy.Bytes")
	if r.Err() != nil {
		return nil
	}
	if !stored && int64(size) != int64(bn) {
		r.Failf("RigHierarchy.Bytes", "uncompressed element archive of %d bytes, size says %d", bn, size)
		return nil
	}
	reason := "rig hierarchy elements (separate archive, not decoded)"
	if stored {
		reason = "rig hierarchy elements (Oodle-compressed archive, not decoded)"
	}
	fs = append(fs, Field{"UniqueNames", names}, Field{"UncompressedSize", uint64(size)},
		Field{"ElementsArchive", &Raw{Reason: reason, Size: int64(bn), Data: data}})
	return fs
}

// nneModelData reads UNNEModelData (NNE model data versions 0 to 5): the
// target runtimes, the source file's type and data, additional file data,
// runtime settings, the file id and the model data cooked per runtime. The
// blobs are listed with their sizes. Cooked packages from version 2 on write
// an empty copy of the editor fields first, which reads the same way.
func (d *decoder) nneModelData(r *binread.Reader) any {
	const latest = 5
	// The version, asked as the traced questions "at least n".
	var v int64
	switch {
	case d.ctx.cvAtLeast(cvNNEModelData, math.MaxInt32):
		v = latest // unversioned: the current layout
	case d.ctx.cvBelow(cvNNEModelData, 0) || d.ctx.cvAtLeast(cvNNEModelData, latest+1):
		return nil
	default:
		for v = latest; v > 0 && !d.ctx.cvAtLeast(cvNNEModelData, v); v-- {
		}
	}
	if v == 1 && !d.ctx.FilterEditorOnly {
		return nil // editor data with an AssetImportData reference first
	}
	blob := func(field string, wide bool) any {
		var n int64
		if wide {
			n = r.I64(field + ".Num")
		} else {
			n = int64(r.I32(field + ".Num"))
		}
		if n < 0 || n > r.Remaining() {
			r.Failf(field, "byte count %d with %d bytes left", n, r.Remaining())
			return nil
		}
		r.Skip(n, field)
		return &Raw{Reason: "binary data (not decoded)", Size: n}
	}
	blobMap := func(field string, wide bool) []MapEntry {
		n := r.Count(field, 8)
		out := make([]MapEntry, 0, n)
		for range n {
			k := r.FString(field + ".Key")
			out = append(out, MapEntry{k, blob(field+".Value", wide)})
			if r.Err() != nil {
				break
			}
		}
		return out
	}
	var fs Fields
	if v >= 2 {
		n := r.Count("NNEModelData.TargetRuntimes", 4)
		rts := make([]string, 0, n)
		for range n {
			rts = append(rts, r.FString("NNEModelData.TargetRuntime"))
		}
		fs = append(fs, Field{"TargetRuntimes", rts})
	}
	fs = append(fs, Field{"FileType", r.FString("NNEModelData.FileType")}, Field{"FileData", blob("NNEModelData.FileData", v >= 4)})
	if v >= 3 {
		fs = append(fs, Field{"AdditionalFileData", blobMap("NNEModelData.AdditionalFileData", v >= 4)})
	}
	if v >= 5 {
		fs = append(fs, Field{"RuntimeSettings", blobMap("NNEModelData.RuntimeSettings", true)})
	}
	fs = append(fs, Field{"FileId", ue.ReadGuid(r, "NNEModelData.FileId").String()})
	n := r.Count("NNEModelData.ModelData", 8)
	items := make([]MapEntry, 0, n)
	for range n {
		name := r.FString("NNEModelData.ModelData.Runtime")
		if v < 2 {
			items = append(items, MapEntry{name, blob("NNEModelData.ModelData.Data", false)})
		} else {
			align := r.U32("NNEModelData.ModelData.MemoryAlignment")
			size := r.U64("NNEModelData.ModelData.Size")
			if size > uint64(r.Remaining()) {
				r.Failf("NNEModelData.ModelData.Size", "model data of %d bytes with %d left", size, r.Remaining())
				return nil
			}
			r.Skip(int64(size), "NNEModelData.ModelData")
			items = append(items, MapEntry{name, Fields{{"MemoryAlignment", uint64(align)},
				{"Data", &Raw{Reason: fmt.Sprintf("model data for %s (not decoded)", name), Size: int64(size)}}}})
		}
		if r.Err() != nil {
			return nil
		}
	}
	return append(fs, Field{"ModelData", items})
}

// evalTreeNodeSize is the serialized size of FMovieSceneEvaluationTreeNode:
// the range (two bounds of a type byte and an int32 frame), the parent
// handle (two int32), the children and data entry handles.
const evalTreeNodeSize = 26

func evalTreeNode(r *binread.Reader) Fields {
	return Fields{
		{"Range", Fields{
			{"LowerBoundType", uint64(r.U8("EvaluationTreeNode.Range.LowerBound.Type"))},
			{"LowerBoundValue", int64(r.I32("EvaluationTreeNode.Range.LowerBound.Value"))},
			{"UpperBoundType", uint64(r.U8("EvaluationTreeNode.Range.UpperBound.Type"))},
			{"UpperBoundValue", int64(r.I32("EvaluationTreeNode.Range.UpperBound.Value"))},
		}},
		{"ParentChildrenHandle", int64(r.I32("EvaluationTreeNode.Parent.ChildrenHandle"))},
		{"ParentIndex", int64(r.I32("EvaluationTreeNode.Parent.Index"))},
		{"ChildrenID", int64(r.I32("EvaluationTreeNode.ChildrenID"))},
		{"DataID", int64(r.I32("EvaluationTreeNode.DataID"))},
	}
}

// evalTreeEntries reads TEvaluationTreeEntryContainer: the entries (start
// index, size, capacity) and the items, each read by item (at least
// itemSize bytes).
func evalTreeEntries(r *binread.Reader, field string, itemSize int64, item func() any) Fields {
	n := r.Count(field+".Entries", 12)
	entries := make([]any, 0, n)
	for range n {
		entries = append(entries, Fields{
			{"StartIndex", int64(r.I32(field + ".Entry.StartIndex"))},
			{"Size", int64(r.I32(field + ".Entry.Size"))},
			{"Capacity", int64(r.I32(field + ".Entry.Capacity"))},
		})
	}
	in := r.Count(field+".Items", itemSize)
	items := make([]any, 0, in)
	for range in {
		items = append(items, item())
		if r.Err() != nil {
			break
		}
	}
	return Fields{{"Entries", entries}, {"Items", items}}
}

// movieSceneEvaluationTree reads TMovieSceneEvaluationTree<T>: the root
// node, the child nodes and the data entries (items of itemSize bytes or
// more, read by item).
func movieSceneEvaluationTree(r *binread.Reader, itemSize int64, item func() any) Fields {
	root := evalTreeNode(r)
	children := evalTreeEntries(r, "EvaluationTree.ChildNodes", evalTreeNodeSize, func() any { return evalTreeNode(r) })
	data := evalTreeEntries(r, "EvaluationTree.Data", itemSize, item)
	return Fields{{"RootNode", root}, {"ChildNodes", children}, {"Data", data}}
}

// movieSceneEntityTree reads FMovieSceneEvaluationFieldEntityTree: an
// evaluation tree of entity and metadata indices.
func movieSceneEntityTree(d *decoder, r *binread.Reader, _ int64) any {
	return movieSceneEvaluationTree(r, 8, func() any {
		return Fields{{"EntityIndex", int64(r.I32("EntityAndMetaDataIndex.EntityIndex"))},
			{"MetaDataIndex", int64(r.I32("EntityAndMetaDataIndex.MetaDataIndex"))}}
	})
}

// Versions of the sub-sequence tree entry's warp counter.
const (
	releaseAddedSubSequenceEntryWarpCounter  = 42
	fortniteAddedSubSequenceEntryWarpCounter = 55
)

// movieSceneSubSequenceTree reads FMovieSceneSubSequenceTree: an evaluation
// tree of sub-sequence entries (sequence id, evaluation flags and, in
// packages that record FReleaseObjectVersion or
// FFortniteMainBranchObjectVersion AddedSubSequenceEntryWarpCounter and
// predate UE 5.5, which dropped it, the root-to-sequence warp counter
// struct). Packages that record neither version (and whose engine gives
// no assumed one) are read without it, the UE 5.5+ layout.
func movieSceneSubSequenceTree(d *decoder, r *binread.Reader, _ int64) any {
	warp := d.ctx.cvRecordedAtLeast(cvRelease, releaseAddedSubSequenceEntryWarpCounter) ||
		d.ctx.cvRecordedAtLeast(cvFortniteMain, fortniteAddedSubSequenceEntryWarpCounter)
	warp = warp && !d.ctx.ue5(verUE5AssetRegistryPackageBuildDependencies)
	return movieSceneEvaluationTree(r, 5, func() any {
		fs := Fields{{"SequenceID", uint64(r.U32("SubSequenceTreeEntry.SequenceID"))},
			{"Flags", uint64(r.U8("SubSequenceTreeEntry.Flags"))}}
		if warp {
			fs = append(fs, Field{"RootToSequenceWarpCounter", d.propsStruct(r, "MovieSceneWarpCounter")})
		}
		return fs
	})
}

// verUE5AssetRegistryPackageBuildDependencies is the first UE 5.5 package
// version (ASSETREGISTRY_PACKAGEBUILDDEPENDENCIES).
const verUE5AssetRegistryPackageBuildDependencies = 1013

// weightedRandomSampler reads FWeightedRandomSampler (the probability and
// alias tables, kept raw with their counts, and the total weight), the
// serialized form of FSkeletalMeshSamplingLODBuiltData.
func weightedRandomSampler(d *decoder, r *binread.Reader, _ int64) any {
	pn := r.Count("WeightedRandomSampler.Prob", 4)
	prob := r.Bytes(int64(pn)*4, "WeightedRandomSampler.Prob")
	an := r.Count("WeightedRandomSampler.Alias", 4)
	alias := r.Bytes(int64(an)*4, "WeightedRandomSampler.Alias")
	return Fields{
		{"Prob", &Raw{Reason: fmt.Sprintf("%d float probabilities", pn), Size: int64(len(prob)), Data: prob}},
		{"Alias", &Raw{Reason: fmt.Sprintf("%d int32 aliases", an), Size: int64(len(alias)), Data: alias}},
		{"TotalWeight", f32(r, "WeightedRandomSampler.TotalWeight")},
	}
}

// movieSceneInstanceDataPtr reads the Sequencer's polymorphic struct
// pointers (FMovieSceneSequenceInstanceDataPtr, FMovieSceneEvalTemplatePtr,
// FMovieSceneTrackImplementationPtr): the path of the struct type (empty
// for none) and the struct.
func movieSceneInstanceDataPtr(d *decoder, r *binread.Reader, _ int64) any {
	typ := r.FString("MovieSceneStructPtr.TypeName")
	fs := Fields{{"TypeName", typ}}
	if typ == "" || r.Err() != nil {
		return fs
	}
	name := lastPathElem(typ)
	d.push("<" + name + ">")
	v := d.structValue(r, &Type{Name: "StructProperty", Struct: name}, mElem, nil)
	d.pop()
	return append(fs, Field{"Data", v})
}

// ownSerializer returns the reader for the start of the data of a class
// whose Serialize does not call UObject::Serialize. Every Interchange node
// (UInterchangeBaseNode and its subclasses, the Interchange*Node and
// Interchange*FactoryNode classes) serializes only its attribute storage.
func ownSerializer(class string) (func(*decoder, *binread.Reader) any, bool) {
	switch class {
	case "RigHierarchy":
		// URigHierarchy::Serialize saves the hierarchy's elements itself.
		return (*decoder).rigHierarchy, true
	case "RigVM":
		// URigVM::Serialize writes the VM's byte code and memory layout.
		return (*decoder).rigVM, true
	case "NNEModelData":
		// UNNEModelData::Serialize writes the model's file and runtime data.
		return (*decoder).nneModelData, true
	}
	if strings.HasPrefix(class, "Interchange") && strings.HasSuffix(class, "Node") {
		return (*decoder).interchangeAttributes, true
	}
	return nil, false
}

// FInterchangeCustomVersion.
var cvInterchange = ue.InterchangeCustomVersion

// interchangeMultipleAllocationsFixed is FInterchangeCustomVersion
// MultipleAllocationsPerAttributeInStorageFixed: an attribute's offset and
// size become arrays.
const interchangeMultipleAllocationsFixed = 3

// interchangeAttributes reads UE::Interchange::FAttributeStorage: the
// fragmented memory cost, the defragmentation ratio, the allocation table
// (per attribute key its offsets and sizes in the storage, value type,
// property flags and hash) and the storage bytes, kept raw.
func (d *decoder) interchangeAttributes(r *binread.Reader) any {
	multi := d.ctx.cvRecordedAtLeast(cvInterchange, interchangeMultipleAllocationsFixed) ||
		(d.ctx.Unversioned && !d.ctx.cvRecorded(cvInterchange))
	fs := Fields{
		{"FragmentedMemoryCost", r.U64("AttributeStorage.FragmentedMemoryCost")},
		{"DefragRatio", f32(r, "AttributeStorage.DefragRatio")},
	}
	u64s := func(field string) []any {
		n := r.Count(field, 8)
		out := make([]any, 0, n)
		for range n {
			out = append(out, r.U64(field))
		}
		return out
	}
	n := r.Count("AttributeStorage.AllocationTable", 4+8+8+16)
	table := make([]MapEntry, 0, n)
	for range n {
		key := r.FString("AttributeStorage.Key")
		var off, size any
		if multi {
			off, size = u64s("AttributeStorage.Offsets"), u64s("AttributeStorage.Sizes")
		} else {
			off, size = r.U64("AttributeStorage.Offset"), r.U64("AttributeStorage.Size")
		}
		table = append(table, MapEntry{key, Fields{
			{"Offset", off}, {"Size", size},
			{"Type", int64(r.I32("AttributeStorage.Type"))},
			{"Property", uint64(r.U32("AttributeStorage.Property"))},
			{"Hash", ue.ReadGuid(r, "AttributeStorage.Hash").String()},
		}})
		if r.Err() != nil {
			return nil
		}
	}
	sn := r.I64("AttributeStorage.Storage.Num")
	if r.Err() == nil && (sn < 0 || sn > r.Remaining()) {
		r.Failf("AttributeStorage.Storage.Num", "%d bytes with %d left", sn, r.Remaining())
	}
	if r.Err() != nil {
		return nil
	}
	data := r.Bytes(sn, "AttributeStorage.Storage")
	return append(fs, Field{"AllocationTable", table},
		Field{"Storage", &Raw{Reason: "attribute values (decoded by the allocation table's types, not here)", Size: sn, Data: data}})
}

// FSequencerObjectVersion and its values.
var cvSequencer = ue.SequencerObjectVersion

const (
	sequencerEvaluationTree       = 5
	sequencerFloatToIntConversion = 7
)

// movieSceneSegment reads FMovieSceneSegment: the range (float bounds
// before FSequencerObjectVersion FloatToIntConversion, frame numbers
// after), from after EvaluationTree the segment identifier and
// bAllowEmpty, and the section evaluation data structs.
func movieSceneSegment(d *decoder, r *binread.Reader, _ int64) any {
	var rng Fields
	if d.ctx.cvBelow(cvSequencer, sequencerFloatToIntConversion) {
		rng = Fields{
			{"LowerBoundType", uint64(r.U8("MovieSceneSegment.Range.LowerBound.Type"))},
			{"LowerBoundValue", f32(r, "MovieSceneSegment.Range.LowerBound.Value")},
			{"UpperBoundType", uint64(r.U8("MovieSceneSegment.Range.UpperBound.Type"))},
			{"UpperBoundValue", f32(r, "MovieSceneSegment.Range.UpperBound.Value")},
		}
	} else {
		rng = Fields{
			{"LowerBoundType", uint64(r.U8("MovieSceneSegment.Range.LowerBound.Type"))},
			{"LowerBoundValue", int64(r.I32("MovieSceneSegment.Range.LowerBound.Value"))},
			{"UpperBoundType", uint64(r.U8("MovieSceneSegment.Range.UpperBound.Type"))},
			{"UpperBoundValue", int64(r.I32("MovieSceneSegment.Range.UpperBound.Value"))},
		}
	}
	fs := Fields{{"Range", rng}}
	if d.ctx.cvAtLeast(cvSequencer, sequencerEvaluationTree+1) {
		fs = append(fs, Field{"ID", int64(r.I32("MovieSceneSegment.ID"))}, Field{"AllowEmpty", r.Bool32("MovieSceneSegment.bAllowEmpty")})
	}
	n := r.Count("MovieSceneSegment.Impls", 1)
	impls := make([]any, 0, n)
	for range n {
		impls = append(impls, d.propsStruct(r, "SectionEvaluationData"))
		if r.Err() != nil {
			break
		}
	}
	return append(fs, Field{"Impls", impls})
}

// Versions of FEdGraphPinType.
var cvBlueprints = ue.BlueprintsObjectVersion

const (
	verUE4EdGraphPinTypeSerialization           = 324 // VER_UE4_EDGRAPHPINTYPE_SERIALIZATION
	verUE4MemberReferenceInPinType              = 355 // VER_UE4_MEMBERREFERENCE_IN_PINTYPE
	verUE4SerializePinTypeConst                 = 456 // VER_UE4_SERIALIZE_PINTYPE_CONST
	blueprintsAdvancedContainerSupport          = 6
	frameworkEdGraphPinContainerType            = 26
	releasePinTypeIncludesUObjectWrapperFlag    = 32
	ue5ReleaseSerializeFloatPinDefaultsAsSingle = 36
)

// pinCategories reads a pin's (or terminal's) category and subcategory:
// names from FFrameworkObjectVersion PinsStoreFName, strings before.
func (d *decoder) pinCategories(r *binread.Reader, field string) Fields {
	if d.ctx.cvAtLeast(cvFramework, frameworkPinsStoreFName) {
		return Fields{{"Category", d.name(r, field+".Category")}, {"SubCategory", d.name(r, field+".SubCategory")}}
	}
	return Fields{{"Category", r.FString(field + ".Category")}, {"SubCategory", r.FString(field + ".SubCategory")}}
}

// edGraphTerminalType reads FEdGraphTerminalType, a map pin's value type.
func (d *decoder) edGraphTerminalType(r *binread.Reader) Fields {
	fs := d.pinCategories(r, "EdGraphTerminalType")
	fs = append(fs, Field{"SubCategoryObject", d.objectRef(r, "EdGraphTerminalType.SubCategoryObject")},
		Field{"IsConst", r.Bool32("EdGraphTerminalType.bIsConst")},
		Field{"IsWeakPointer", r.Bool32("EdGraphTerminalType.bIsWeakPointer")})
	if d.ctx.cvAtLeast(cvRelease, releasePinTypeIncludesUObjectWrapperFlag) {
		fs = append(fs, Field{"IsUObjectWrapper", r.Bool32("EdGraphTerminalType.bIsUObjectWrapper")})
	}
	return fs
}

// edGraphPinType reads FEdGraphPinType (Blueprint pins and variables, from
// VER_UE4_EDGRAPHPINTYPE_SERIALIZATION): categories, the subcategory
// object, the container type (a byte from FFrameworkObjectVersion
// EdGraphPinContainerType; map/set/array flags before), the value type of
// maps, the reference and weak flags, the member reference, const, the
// UObject wrapper flag and, in editor data, the single-precision flag.
func edGraphPinType(d *decoder, r *binread.Reader, _ int64) any {
	if !d.ctx.ue4(verUE4EdGraphPinTypeSerialization) {
		return d.propsStruct(r, "EdGraphPinType").Properties
	}
	fs := d.pinCategories(r, "EdGraphPinType")
	fs = append(fs, Field{"SubCategoryObject", d.objectRef(r, "EdGraphPinType.SubCategoryObject")})
	if d.ctx.cvAtLeast(cvFramework, frameworkEdGraphPinContainerType) {
		ct := r.U8("EdGraphPinType.ContainerType")
		fs = append(fs, Field{"ContainerType", uint64(ct)})
		if ct == 3 { // EPinContainerType::Map
			fs = append(fs, Field{"ValueType", d.edGraphTerminalType(r)})
		}
	} else {
		if d.ctx.cvAtLeast(cvBlueprints, blueprintsAdvancedContainerSupport) {
			isMap := r.Bool32("EdGraphPinType.bIsMap")
			fs = append(fs, Field{"IsMap", isMap})
			if isMap {
				fs = append(fs, Field{"ValueType", d.edGraphTerminalType(r)})
			}
			fs = append(fs, Field{"IsSet", r.Bool32("EdGraphPinType.bIsSet")})
		}
		fs = append(fs, Field{"IsArray", r.Bool32("EdGraphPinType.bIsArray")})
	}
	fs = append(fs, Field{"IsReference", r.Bool32("EdGraphPinType.bIsReference")},
		Field{"IsWeakPointer", r.Bool32("EdGraphPinType.bIsWeakPointer")})
	if d.ctx.ue4(verUE4MemberReferenceInPinType) {
		fs = append(fs, Field{"MemberReference", Fields{
			{"MemberParent", d.objectRef(r, "SimpleMemberReference.MemberParent")},
			{"MemberName", d.name(r, "SimpleMemberReference.MemberName")},
			{"MemberGuid", ue.ReadGuid(r, "SimpleMemberReference.MemberGuid").String()},
		}})
	}
	if d.ctx.ue4(verUE4SerializePinTypeConst) {
		fs = append(fs, Field{"IsConst", r.Bool32("EdGraphPinType.bIsConst")})
	}
	if d.ctx.cvAtLeast(cvRelease, releasePinTypeIncludesUObjectWrapperFlag) {
		fs = append(fs, Field{"IsUObjectWrapper", r.Bool32("EdGraphPinType.bIsUObjectWrapper")})
	}
	if !d.ctx.FilterEditorOnly && d.ctx.cvAtLeast(cvUE5Release, ue5ReleaseSerializeFloatPinDefaultsAsSingle) {
		fs = append(fs, Field{"SerializeAsSinglePrecisionFloat", r.Bool32("EdGraphPinType.bSerializeAsSinglePrecisionFloat")})
	}
	return fs
}

// FAnimPhysObjectVersion and its values for FSmartName.
var cvAnimPhys = ue.AnimPhysObjectVersion

const (
	animPhysRemoveUIDFromSmartNameSerialize          = 5
	animPhysSmartNameRefactorForDeterministicCooking = 10
	releaseEventSectionParameterStringAssetRef       = 8
)

// smartName reads FSmartName: the display name, the UID before
// FAnimPhysObjectVersion RemoveUIDFromSmartNameSerialize and, in editor
// data before SmartNameRefactorForDeterministicCooking, a GUID.
func smartName(d *decoder, r *binread.Reader, _ int64) any {
	fs := Fields{{"DisplayName", d.name(r, "SmartName.DisplayName")}}
	if d.ctx.cvBelow(cvAnimPhys, animPhysRemoveUIDFromSmartNameSerialize) {
		fs = append(fs, Field{"UID", uint64(r.U16("SmartName.UID"))})
	}
	if !d.ctx.FilterEditorOnly && d.ctx.cvBelow(cvAnimPhys, animPhysSmartNameRefactorForDeterministicCooking) {
		fs = append(fs, Field{"Guid", ue.ReadGuid(r, "SmartName.Guid").String()})
	}
	return fs
}

// levelSequenceObjectReferenceMap reads FLevelSequenceObjectReferenceMap:
// object bindings (GUIDs) to legacy object references (an object id and a
// path within the context).
func levelSequenceObjectReferenceMap(d *decoder, r *binread.Reader, _ int64) any {
	n := r.Count("LevelSequenceObjectReferenceMap", 16+16+4)
	out := make([]MapEntry, 0, n)
	for range n {
		k := ue.ReadGuid(r, "LevelSequenceObjectReferenceMap.Key").String()
		out = append(out, MapEntry{k, Fields{
			{"ObjectId", ue.ReadGuid(r, "LevelSequenceObjectReference.ObjectId").String()},
			{"ObjectPath", r.FString("LevelSequenceObjectReference.ObjectPath")},
		}})
		if r.Err() != nil {
			break
		}
	}
	return Fields{{"Map", out}}
}

// movieSceneEventParameters reads FMovieSceneEventParameters: the payload's
// struct (an object reference before FReleaseObjectVersion
// EventSectionParameterStringAssetRef, a soft object path after) and the
// payload bytes, kept raw.
func movieSceneEventParameters(d *decoder, r *binread.Reader, _ int64) any {
	var fs Fields
	if d.ctx.cvBelow(cvRelease, releaseEventSectionParameterStringAssetRef) {
		fs = Fields{{"StructPtr", d.objectRef(r, "MovieSceneEventParameters.StructPtr")}}
	} else {
		fs = Fields{{"StructType", d.softObjectPath(r)}}
	}
	n := r.Count("MovieSceneEventParameters.StructBytes", 1)
	b := r.Bytes(int64(n), "MovieSceneEventParameters.StructBytes")
	return append(fs, Field{"StructBytes", &Raw{Reason: "event payload (the struct's serialized properties)", Size: int64(len(b)), Data: b}})
}

// uniqueNetIdRepl reads FUniqueNetIdRepl as packages store it: a size and,
// when positive, the online subsystem's type name and the id as a string.
// Older engines wrote the string alone; where the tag's size says so, that
// form is read.
func uniqueNetIdRepl(d *decoder, r *binread.Reader, tagSize int64) any {
	start := r.Offset()
	size := r.I32("UniqueNetIdRepl.Size")
	if size <= 0 || r.Err() != nil {
		return Fields{{"Valid", false}}
	}
	if tagSize >= 0 {
		at := r.Offset()
		c := r.FString("UniqueNetIdRepl.Contents")
		if r.Err() == nil && r.Offset()-start == tagSize {
			return Fields{{"Valid", true}, {"Contents", c}}
		}
		r.ClearErr()
		r.SeekTo(at, "UniqueNetIdRepl.Contents")
	}
	return Fields{{"Valid", true}, {"Type", d.name(r, "UniqueNetIdRepl.Type")}, {"Contents", r.FString("UniqueNetIdRepl.Contents")}}
}

var (
	// FRigVMObjectVersion.
	cvRigVM = ue.RigVMObjectVersion
	// FAnimObjectVersion.
	cvAnimObject = ue.AnimObjectVersion
)

// Versions of URigVM's data.
const (
	animStoreMarkerNamesOnSkeleton = 2
	rigVMAddedVMHashChecks         = 1
	rigVMNativizedFunctionAsCalls  = 26
)

// rigVM reads the start of URigVM's data in the layout of packages that
// record FRigVMObjectVersion: the cached VM hash (from AddedVMHashChecks),
// the canonical hash (from NativizedFunctionAsCallables), the external
// property path descriptions and the function names. The byte code,
// parameters and memory storage that follow stay in the tail. Packages
// before FAnimObjectVersion StoreMarkerNamesOnSkeleton store nothing.
func (d *decoder) rigVM(r *binread.Reader) any {
	recorded := d.ctx.cvRecorded(cvRigVM)
	if !recorded && !d.ctx.Unversioned {
		return nil // the older layout (UClass-based storage): kept raw
	}
	// Unversioned packages record nothing: the current layout.
	atLeast := func(v int64) bool { return !recorded || d.ctx.cvRecordedAtLeast(cvRigVM, v) }
	if d.ctx.cvRecorded(cvAnimObject) && !d.ctx.cvRecordedAtLeast(cvAnimObject, animStoreMarkerNamesOnSkeleton) {
		return Fields{}
	}
	var fs Fields
	if atLeast(rigVMAddedVMHashChecks) {
		fs = append(fs, Field{"CachedVMHash", uint64(r.U32("RigVM.CachedVMHash"))})
	}
	if atLeast(rigVMNativizedFunctionAsCalls) {
		fs = append(fs, Field{"CachedCanonicalVMHash", uint64(r.U32("RigVM.CachedCanonicalVMHash"))})
	}
	n := r.Count("RigVM.ExternalPropertyPathDescriptions", 12)
	descs := make([]any, 0, n)
	for range n {
		descs = append(descs, Fields{
			{"PropertyIndex", int64(r.I32("RigVMPropertyPathDescription.PropertyIndex"))},
			{"HeadCPPType", r.FString("RigVMPropertyPathDescription.HeadCPPType")},
			{"SegmentPath", r.FString("RigVMPropertyPathDescription.SegmentPath")},
		})
		if r.Err() != nil {
			return nil
		}
	}
	fn := r.Count("RigVM.FunctionNamesStorage", 8)
	names := make([]string, 0, fn)
	for range fn {
		names = append(names, d.name(r, "RigVM.FunctionName"))
	}
	return append(fs, Field{"ExternalPropertyPathDescriptions", descs}, Field{"FunctionNames", names})
}
