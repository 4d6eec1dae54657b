package uasset

// Ground rules for this file: when several releases read a cooked package's
// header alike, its export data can still tell them apart. Each probe reads
// one kind of evidence whose layout or naming changed in a known release
// (a custom or object version the engine table gives for every release) and
// rules out the candidates that cannot have written it. A probe that cannot
// read what it expects says nothing: structural evidence counts only when an
// export's bytes are consumed to the last one under some candidate's layout,
// and naming evidence only when it is read from a property tag or an import.
// Evidence that would rule out every candidate is dropped as a whole.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// The versions at which the probed layouts changed.
const (
	// FFrameworkObjectVersion::RemoveUField_Next: UField stops writing
	// Next and UStruct writes its Children as an array (4.18).
	fwRemoveUFieldNext = 29
	// FFrameworkObjectVersion::UserDefinedStructsStoreDefaultInstance:
	// UUserDefinedStruct::Serialize writes the default instance (4.19).
	fwUserDefinedStructsStoreDefaultInstance = 32
	// FCoreObjectVersion::FProperties: properties become FFields written
	// inside their UStruct (UStruct::ChildProperties); no UProperty
	// objects remain (4.25).
	coreFProperties = 4
	// FReleaseObjectVersion::PropertiesSerializeRepCondition:
	// UProperty::Serialize writes BlueprintReplicationCondition (4.23).
	relPropertiesSerializeRepCondition = 21
	// FSequencerObjectVersion::FloatToIntConversion: sequencer time moves
	// from float seconds to frame numbers; UMovieScene::PlaybackRange
	// becomes an FMovieSceneFrameRange (4.20).
	seqFloatToIntConversion = 7
	// VER_UE4_ADDED_SOFT_OBJECT_PATH: StringAssetReference is renamed
	// SoftObjectPath (4.18).
	verUE4AddedSoftObjectPath = 514
)

// Limits on the work the probes do for one package.
const (
	maxProbeExports   = 2048     // exports looked at
	maxProbeBytes     = 64 << 20 // export bytes read in all
	maxProbeTagDepth  = 8        // nested tagged structs followed
	maxProbeFieldNest = 16       // nested FField definitions (Map<Array<...>>)
	funcNet           = 0x40     // EFunctionFlags FUNC_Net: UFunction writes RepOffset
)

// layoutTraits are the release-dependent serialization choices the
// structural probes test.
type layoutTraits struct {
	ufieldNext   bool // UField::Next, one UStruct::Children index
	fproperties  bool // UStruct::ChildProperties, no UProperty exports
	repCondition bool // UProperty::BlueprintReplicationCondition
	udsDefaults  bool // UUserDefinedStruct default instance
}

func traitsOf(e Engine) layoutTraits {
	return layoutTraits{
		ufieldNext:   e.customVersion(ue.FrameworkObjectVersion) < fwRemoveUFieldNext,
		fproperties:  e.customVersion(ue.CoreObjectVersion) >= coreFProperties,
		repCondition: e.customVersion(ue.ReleaseObjectVersion) >= relPropertiesSerializeRepCondition,
		udsDefaults:  e.customVersion(ue.FrameworkObjectVersion) >= fwUserDefinedStructsStoreDefaultInstance,
	}
}

// describeFit names what the layouts that fit share and the layout of a
// release ruled out (other) lacks.
func describeFit(kind exportKind, fit []layoutTraits, other layoutTraits) string {
	var parts []string
	dim := func(get func(layoutTraits) bool, yes, no string) {
		if !kind.reads(get) {
			return
		}
		v := get(fit[0])
		for _, t := range fit[1:] {
			if get(t) != v {
				return
			}
		}
		if v == get(other) {
			return
		}
		if v {
			parts = append(parts, yes)
		} else {
			parts = append(parts, no)
		}
	}
	dim(func(t layoutTraits) bool { return t.fproperties },
		"with FProperty definitions inside the UStruct (FCoreObjectVersion FProperties, 4.25+)",
		"as written before FProperties (UProperty objects; FCoreObjectVersion < FProperties, before 4.25)")
	dim(func(t layoutTraits) bool { return t.ufieldNext },
		"with UField::Next (FFrameworkObjectVersion < RemoveUField_Next, before 4.18)",
		"without UField::Next (FFrameworkObjectVersion RemoveUField_Next, 4.18+)")
	dim(func(t layoutTraits) bool { return t.repCondition },
		"with BlueprintReplicationCondition (FReleaseObjectVersion PropertiesSerializeRepCondition, 4.23+)",
		"without BlueprintReplicationCondition (FReleaseObjectVersion < PropertiesSerializeRepCondition, before 4.23)")
	dim(func(t layoutTraits) bool { return t.udsDefaults },
		"with the struct's default instance (FFrameworkObjectVersion UserDefinedStructsStoreDefaultInstance, 4.19+)",
		"without the struct's default instance (FFrameworkObjectVersion < UserDefinedStructsStoreDefaultInstance, before 4.19)")
	return strings.Join(parts, ", ")
}

// evidence collects why candidates were ruled out.
type evidence struct {
	cands []Engine
	// out maps a ruled-out release to the reason (the first found).
	out map[string]string
	// applied marks the rules applied already (see rule).
	applied [numRules]bool
	// outLog and ruleLog list, in order, the releases ruled out and the
	// rules applied, so that undo can take back what a probe found in a
	// stream that turned out not to read exactly.
	outLog  []string
	ruleLog []rule
}

// evidenceMark is a point in the evidence's history to undo to.
type evidenceMark struct{ out, rules int }

func (ev *evidence) mark() evidenceMark {
	return evidenceMark{len(ev.outLog), len(ev.ruleLog)}
}

// undo takes back the evidence found since m: ev is as it was then.
func (ev *evidence) undo(m evidenceMark) {
	for _, n := range ev.outLog[m.out:] {
		delete(ev.out, n)
	}
	for _, r := range ev.ruleLog[m.rules:] {
		ev.applied[r] = false
	}
	ev.outLog, ev.ruleLog = ev.outLog[:m.out], ev.ruleLog[:m.rules]
}

// rule names a naming or value rule: one predicate on releases. Applied
// a second time a rule rules out nobody new (the releases failing it are
// out already, and ruleOut keeps the first reason), so each is applied
// once per package: a data table repeating the same evidence in every
// row costs one application, not one per row.
type rule uint8

const (
	ruleSoftObjectPathName rule = iota
	ruleStringAssetReferenceName
	ruleFrameRangeName
	ruleFloatRange
	ruleTextWithoutCultureInvariant
	ruleTextCultureInvariant
	ruleSmartNameUIDAndGUID
	ruleSmartNameGUID
	ruleSoftPathString
	ruleSoftPathName
	ruleBookmarkArray
	ruleTriangleSortSettings
	ruleClothingModule
	numRules
)

// first reports whether rule r is yet to be applied, and marks it applied:
// the caller applies it now.
func (ev *evidence) first(r rule) bool {
	if ev.applied[r] {
		return false
	}
	ev.applied[r] = true
	ev.ruleLog = append(ev.ruleLog, r)
	return true
}

// allOut reports whether every release in es is ruled out already.
func (ev *evidence) allOut(es []Engine) bool {
	for _, e := range es {
		if _, done := ev.out[e.Name]; !done {
			return false
		}
	}
	return true
}

func (ev *evidence) ruleOut(name, why string) {
	if _, done := ev.out[name]; !done {
		ev.out[name] = why
		ev.outLog = append(ev.outLog, name)
	}
}

// narrowByEvidence reads the export data of f (one reading of a package that
// the releases named in cands read alike) and returns the candidates its
// evidence allows, with a note on what ruled the others out. When the
// evidence says nothing, or would rule out every candidate, cands come back
// unchanged.
func (f *File) narrowByEvidence(cands []string) (kept []string, why string) {
	if len(cands) < 2 || !f.Summary.FilterEditorOnly() {
		return cands, ""
	}
	ev := &evidence{out: map[string]string{}}
	for _, n := range cands {
		if es := engineStaticOf(n); es != nil { // cands are names from the table
			ev.cands = append(ev.cands, engines[es.index])
		}
	}
	p := &prober{f: f}
	p.probeImports(ev)
	p.probeImportNames(ev)
	p.probeNameHashes(ev)
	if !f.Summary.UnversionedProperties() {
		p.probeExports(ev)
	}
	if len(ev.out) == 0 {
		return cands, ""
	}
	for _, n := range cands {
		if _, gone := ev.out[n]; !gone {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return cands, "the export data's evidence contradicts itself; not used"
	}
	// Group the ruled-out releases by reason, in release order.
	var reasons []string
	byReason := map[string][]string{}
	for _, n := range cands {
		r, gone := ev.out[n]
		if !gone {
			continue
		}
		if _, seen := byReason[r]; !seen {
			reasons = append(reasons, r)
		}
		byReason[r] = append(byReason[r], n)
	}
	var parts []string
	for _, r := range reasons {
		parts = append(parts, "ruled out "+describeRange(byReason[r])+": "+r)
	}
	return kept, strings.Join(parts, "; ")
}

// describeRange renders releases as "4.16–4.24" when they are consecutive
// in the engine table, else as a list.
func describeRange(names []string) string {
	if len(names) > 2 {
		first, last := engineIndex(names[0]), engineIndex(names[len(names)-1])
		if first >= 0 && last-first == len(names)-1 {
			return names[0] + "–" + names[len(names)-1]
		}
	}
	return describeCandidates(names)
}

// prober reads evidence from one package.
type prober struct {
	f     *File
	bytes int64
}

// probeImports looks at the objects the package imports from
// /Script/CoreUObject: their names are the cooking engine's own.
func (p *prober) probeImports(ev *evidence) {
	f := p.f
	for i := range f.Imports {
		im := &f.Imports[i]
		pkg, _ := f.NameBase(im.ClassPackage)
		if pkg != "/Script/CoreUObject" {
			continue
		}
		name, _ := f.NameBase(im.ObjectName)
		class, _ := f.NameBase(im.ClassName)
		if class == "ScriptStruct" {
			p.structName(ev, name, &place{name: fmt.Sprintf("import %d /Script/CoreUObject.%s", i+1, name)})
		}
	}
}

// structName applies the rules on struct names: a name the engine renamed
// or introduced in a known release.
func (p *prober) structName(ev *evidence, name string, where *place) {
	switch name {
	case "SoftObjectPath", "SoftClassPath":
		if ev.first(ruleSoftObjectPathName) {
			ev.require(func(e Engine) bool { return e.UE4 >= verUE4AddedSoftObjectPath },
				where, " names the struct "+name+" (StringAssetReference before VER_UE4_ADDED_SOFT_OBJECT_PATH, 4.18)")
		}
	case "StringAssetReference", "StringClassReference":
		if ev.first(ruleStringAssetReferenceName) {
			ev.require(func(e Engine) bool { return e.UE4 < verUE4AddedSoftObjectPath },
				where, " names the struct "+name+" (renamed SoftObjectPath by VER_UE4_ADDED_SOFT_OBJECT_PATH, 4.18)")
		}
	case "MovieSceneFrameRange":
		if ev.first(ruleFrameRangeName) {
			ev.require(func(e Engine) bool { return e.customVersion(ue.SequencerObjectVersion) >= seqFloatToIntConversion },
				where, " names the struct MovieSceneFrameRange (frame-number sequencer ranges, FSequencerObjectVersion FloatToIntConversion, 4.20+)")
		}
	}
}

// probeExports reads the export data: property tags everywhere, and the
// native layout of UStruct and UProperty exports.
func (p *prober) probeExports(ev *evidence) {
	f := p.f
	// The distinct layouts of the candidates, and who has which.
	var traits []layoutTraits
	who := map[layoutTraits][]Engine{}
	for _, e := range ev.cands {
		var t layoutTraits
		if es := engineStaticOf(e.Name); es != nil {
			t = es.traits
		} else {
			t = traitsOf(e)
		}
		if _, ok := who[t]; !ok {
			traits = append(traits, t)
		}
		who[t] = append(who[t], e)
	}
	for i := range f.Exports {
		if i >= maxProbeExports || p.bytes >= maxProbeBytes {
			break
		}
		ex := &f.Exports[i]
		if ex.SerialSize <= 0 || ex.SerialSize > maxProbeBytes-p.bytes {
			continue
		}
		data, err := ex.Data()
		if err != nil {
			continue
		}
		p.bytes += int64(len(data))
		class := f.ClassName(PackageIndex(i + 1))
		what := &place{f: f, export: i + 1, name: class}
		r := binread.FromBytes(data)
		var st tagStats
		if !p.tags(r, ev, what, class, 0, &st) {
			continue
		}
		kind := p.exportKind(ex)
		isTable := kind == kindOther && strings.HasSuffix(class, "DataTable")
		if (kind == kindOther && !isTable) || ex.ObjectFlags&RF_ClassDefaultObject != 0 {
			continue
		}
		// UObject::Serialize ends with the object's GUID flag.
		switch r.U32("bHasGuid") {
		case 0:
		case 1:
			r.Skip(16, "Guid")
		default:
			continue
		}
		if r.Err() != nil {
			continue
		}
		if isTable {
			p.dataTableRows(r, ev, what)
			continue
		}
		start := r.Offset()
		var fit []layoutTraits
		for _, t := range traits {
			if p.fits(data, start, kind, class, t, st.udsUpToDate) {
				fit = append(fit, t)
			}
		}
		if len(fit) == 0 || len(fit) == len(traits) {
			continue // unknown data, or no difference
		}
		for _, t := range traits {
			if containsTraits(fit, t) || ev.allOut(who[t]) {
				continue // ruleOut keeps the first reason only
			}
			why := what.String() + " reads exactly only " + describeFit(kind, fit, t)
			for _, e := range who[t] {
				ev.ruleOut(e.Name, why)
			}
		}
	}
}

func containsTraits(list []layoutTraits, t layoutTraits) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}

// Export kinds the structural probes read.
type exportKind int

const (
	kindOther exportKind = iota
	kindFunction
	kindClass
	kindScriptStruct
	kindUserDefinedStruct
	kindProperty // a UProperty object (before 4.25)
)

// reads reports whether the layout of exports of kind k depends on the
// trait get picks (probed with one trait set to each value).
func (k exportKind) reads(get func(layoutTraits) bool) bool {
	switch {
	case get(layoutTraits{repCondition: true}):
		return k == kindProperty
	case get(layoutTraits{udsDefaults: true}):
		return k == kindUserDefinedStruct
	}
	return true // UField::Next and FProperties shape every kind probed
}

func (p *prober) exportKind(ex *ObjectExport) exportKind {
	f := p.f
	class := f.ObjectName(ex.ClassIndex)
	switch {
	case class == "Function" || class == "DelegateFunction":
		return kindFunction
	case class == "Class" || strings.HasSuffix(class, "BlueprintGeneratedClass"):
		return kindClass
	case class == "ScriptStruct":
		return kindScriptStruct
	case class == "UserDefinedStruct":
		return kindUserDefinedStruct
	}
	if !ex.ClassIndex.IsImport() || !strings.HasSuffix(class, "Property") {
		return kindOther
	}
	if ex.ClassIndex.ToImport() >= len(f.Imports) {
		return kindOther
	}
	im := &f.Imports[ex.ClassIndex.ToImport()]
	pkg, _ := f.NameBase(im.ClassPackage)
	cc, _ := f.NameBase(im.ClassName)
	if pkg == "/Script/CoreUObject" && cc == "Class" {
		return kindProperty
	}
	return kindOther
}

// fits reports whether an export's data after its UObject part (at start)
// reads to its last byte under layout t.
func (p *prober) fits(data []byte, start int64, kind exportKind, class string, t layoutTraits, udsUpToDate bool) bool {
	r := binread.FromBytes(data)
	r.SeekTo(start, "")
	var ok bool
	if kind == kindProperty {
		ok = !t.fproperties && p.uproperty(r, class, t)
	} else {
		ok = p.ustruct(r, t) && p.structTail(r, kind, t, udsUpToDate)
	}
	return ok && r.Err() == nil && r.Remaining() == 0
}

// uproperty reads UProperty::Serialize after the UObject part. It reports
// false for property classes it does not know.
func (p *prober) uproperty(r *binread.Reader, class string, t layoutTraits) bool {
	if t.ufieldNext {
		p.index(r) // UField::Next
	}
	r.I32("ArrayDim")
	r.U64("PropertyFlags")
	p.name(r) // RepNotifyFunc
	if t.repCondition {
		r.U8("BlueprintReplicationCondition")
	}
	switch class {
	case "BoolProperty":
		r.Skip(2, "BoolProperty") // BoolSize, NativeBool
	case "ByteProperty", "StructProperty", "InterfaceProperty", "DelegateProperty",
		"MulticastDelegateProperty", "MulticastInlineDelegateProperty", "MulticastSparseDelegateProperty",
		"ObjectProperty", "WeakObjectProperty", "LazyObjectProperty", "SoftObjectProperty", "AssetObjectProperty",
		"ArrayProperty", "SetProperty":
		p.index(r) // Enum, Struct, InterfaceClass, SignatureFunction, PropertyClass, Inner, ElementProp
	case "ClassProperty", "SoftClassProperty", "AssetClassProperty", "MapProperty", "EnumProperty":
		p.index(r) // PropertyClass, KeyProp, Enum
		p.index(r) // MetaClass, ValueProp, UnderlyingProp
	case "IntProperty", "Int8Property", "Int16Property", "Int64Property", "UInt16Property", "UInt32Property",
		"UInt64Property", "FloatProperty", "DoubleProperty", "NameProperty", "StrProperty", "TextProperty":
	default:
		return false
	}
	return r.Err() == nil
}

// ustruct reads UField and UStruct::Serialize.
func (p *prober) ustruct(r *binread.Reader, t layoutTraits) bool {
	if t.ufieldNext {
		p.index(r) // UField::Next
	}
	p.index(r) // SuperStruct
	if t.ufieldNext {
		p.index(r) // Children (the first)
	} else {
		n := r.Count("Children", 4)
		for range n {
			p.index(r)
		}
	}
	if t.fproperties {
		n := r.Count("ChildProperties", 8)
		for range n {
			if !p.ffield(r, 0) {
				return false
			}
		}
	}
	r.I32("BytecodeBufferSize")
	size := r.I32("SerializedScriptSize")
	if r.Err() != nil || size < 0 || int64(size) > r.Remaining() {
		return false
	}
	r.Skip(int64(size), "Script")
	return r.Err() == nil
}

// structTail reads what UFunction, UClass and UScriptStruct add to UStruct.
func (p *prober) structTail(r *binread.Reader, kind exportKind, t layoutTraits, udsUpToDate bool) bool {
	switch kind {
	case kindFunction:
		if r.U32("FunctionFlags")&funcNet != 0 {
			r.I16("RepOffset")
		}
		p.index(r) // EventGraphFunction
		r.I32("EventGraphCallOffset")
	case kindClass:
		n := r.Count("FuncMap", 12)
		for range n {
			p.name(r)
			p.index(r)
		}
		r.U32("ClassFlags")
		p.index(r) // ClassWithin
		p.name(r)  // ClassConfigName
		p.index(r) // ClassGeneratedBy
		n = r.Count("Interfaces", 12)
		for range n {
			p.index(r)
			r.I32("PointerOffset")
			r.U32("bImplementedByK2")
		}
		r.U32("bDeprecatedForceScriptOrder")
		p.name(r) // Dummy
		r.U32("bCooked")
		p.index(r) // ClassDefaultObject
	case kindScriptStruct:
		r.U32("StructFlags")
	case kindUserDefinedStruct:
		r.U32("StructFlags")
		if t.udsDefaults && udsUpToDate {
			// The default instance: the struct's tagged properties.
			var st tagStats
			return r.Err() == nil && p.tags(r, nil, nil, "", 0, &st)
		}
	}
	return r.Err() == nil
}

// errProbeRange fails a probe's reader at an index out of range. A probe's
// errors only stop it (they are never shown), so they carry no values: data
// read under a wrong guess fails often, and formatting each failure cost
// more than the reading.
var errProbeRange = errors.New("index out of range")

// index reads an FPackageIndex and fails the reader when it is out of range.
func (p *prober) index(r *binread.Reader) {
	v := r.I32("PackageIndex")
	if r.Err() == nil && (int64(v) < -int64(len(p.f.Imports)) || int64(v) > int64(len(p.f.Exports))) {
		r.Fail("PackageIndex", errProbeRange)
	}
}

// name reads an FName and returns its base; the reader fails when the
// index is out of range.
func (p *prober) name(r *binread.Reader) string {
	// Index and Number in one read (a probe's errors are never shown, so
	// which of the two ran out of bytes does not matter).
	v := r.U64("FName")
	if r.Err() != nil {
		return ""
	}
	i, n := int32(v), int32(v>>32)
	if r.BigEndian() {
		i, n = int32(v>>32), int32(v)
	}
	if i < 0 || int(i) >= len(p.f.Names) || n < 0 {
		r.Fail("FName", errProbeRange)
		return ""
	}
	return p.f.Names[i].Name.S
}

// ffield reads one FField definition (FProperty serialization, 4.25+):
// its class name, then the field.
func (p *prober) ffield(r *binread.Reader, depth int) bool {
	if depth > maxProbeFieldNest {
		return false
	}
	typ := p.name(r)
	if r.Err() != nil {
		return false
	}
	return p.ffieldBody(r, typ, depth)
}

func (p *prober) ffieldBody(r *binread.Reader, typ string, depth int) bool {
	p.name(r)            // Name
	r.U32("Flags")       // EObjectFlags (cooked: no metadata follows)
	r.I32("ArrayDim")    //
	r.I32("ElementSize") //
	r.U64("PropertyFlags")
	r.U16("RepIndex")
	p.name(r) // RepNotifyFunc
	r.U8("BlueprintReplicationCondition")
	switch typ {
	case "BoolProperty":
		r.Skip(6, "BoolProperty") // FieldSize, ByteOffset, ByteMask, FieldMask, BoolSize, NativeBool
	case "ByteProperty", "StructProperty", "InterfaceProperty", "DelegateProperty",
		"MulticastDelegateProperty", "MulticastInlineDelegateProperty", "MulticastSparseDelegateProperty",
		"ObjectProperty", "WeakObjectProperty", "LazyObjectProperty", "SoftObjectProperty":
		p.index(r)
	case "ClassProperty", "SoftClassProperty":
		p.index(r)
		p.index(r)
	case "EnumProperty":
		p.index(r)
		return r.Err() == nil && p.ffield(r, depth+1)
	case "FieldPathProperty":
		p.name(r)
	case "ArrayProperty", "SetProperty":
		return r.Err() == nil && p.ffield(r, depth+1)
	case "MapProperty":
		return r.Err() == nil && p.ffield(r, depth+1) && p.ffield(r, depth+1)
	case "IntProperty", "Int8Property", "Int16Property", "Int64Property", "UInt16Property", "UInt32Property",
		"UInt64Property", "FloatProperty", "DoubleProperty", "NameProperty", "StrProperty", "TextProperty":
	default:
		return false
	}
	return r.Err() == nil
}

// tagStats is what a tagged property stream says that the structural
// probes need.
type tagStats struct {
	// udsUpToDate: no Status tag, or Status is UDSS_UpToDate (a
	// user-defined struct then writes its default instance).
	udsUpToDate bool
	sawStatus   bool
}

// tags reads a UE4 tagged property stream (FPropertyTag, with property
// GUIDs) up to its None terminator and applies the naming rules to what it
// finds (when ev is not nil). Struct values that are tagged streams
// themselves are followed when they read exactly. It reports whether the
// stream read.
func (p *prober) tags(r *binread.Reader, ev *evidence, what *place, class string, depth int, st *tagStats) bool {
	st.udsUpToDate = true
	for {
		name := p.name(r)
		if r.Err() != nil {
			return false
		}
		if name == "None" {
			return true
		}
		typ := p.name(r)
		sizeIndex := r.U64("Size") // Size and ArrayIndex, as in name
		size := int32(sizeIndex)
		if r.BigEndian() {
			size = int32(sizeIndex >> 32)
		}
		var structName, inner string
		switch typ {
		case "StructProperty":
			structName = p.name(r)
			r.Skip(16, "StructGuid")
		case "BoolProperty":
			r.U8("BoolVal")
		case "ByteProperty", "EnumProperty":
			p.name(r)
		case "ArrayProperty", "SetProperty":
			inner = p.name(r)
		case "MapProperty":
			inner = p.name(r)
			p.name(r)
		}
		if r.U8("HasPropertyGuid") != 0 {
			r.Skip(16, "PropertyGuid")
		}
		if r.Err() != nil || size < 0 || int64(size) > r.Remaining() {
			return false
		}
		valStart := r.Offset()
		if name == "Status" && (typ == "ByteProperty" || typ == "EnumProperty") {
			st.sawStatus = true
			switch size {
			case 1:
				st.udsUpToDate = r.U8("Status") == 0
			case 8:
				st.udsUpToDate = p.name(r) == "UDSS_UpToDate"
			}
			r.SeekTo(valStart, "Status")
		}
		if ev != nil {
			where := &place{up: what, sep: " property ", name: name}
			if depth == 0 {
				p.tagName(ev, where, class, name, typ)
			} else {
				p.structTagName(ev, where, class, name, typ)
			}
			p.valueEvidence(r, ev, where, typ, structName, valStart, int64(size))
			if structName != "" {
				p.structName(ev, structName, where)
				if class == "MovieScene" && (name == "PlaybackRange" || name == "SelectionRange") && structName == "FloatRange" && ev.first(ruleFloatRange) {
					ev.require(func(e Engine) bool { return e.customVersion(ue.SequencerObjectVersion) < seqFloatToIntConversion },
						where, " is a FloatRange (float-time sequencer, before FSequencerObjectVersion FloatToIntConversion, 4.20)")
				}
				if depth < maxProbeTagDepth {
					p.nested(r, ev, what, structName, valStart, int64(size), depth)
				}
			}
			if inner == "StructProperty" && depth < maxProbeTagDepth {
				p.innerStructs(r, ev, what, valStart, int64(size), depth)
			}
		}
		r.SeekTo(valStart+int64(size), "Value")
	}
}

// nested follows a struct value that is itself a tagged stream, when it
// reads exactly to its end (a natively serialized struct does not).
//
// Not inlined: inlined into tags (the profile-guided build does), its
// reader is handed to tags recursively and moves to the heap, one
// allocation per struct value probed (7.6k per whole-corpus verify).
//
//go:noinline
func (p *prober) nested(r *binread.Reader, ev *evidence, what *place, structName string, off, size int64, depth int) {
	var b binread.Reader
	r.SectionInto(&b, off, size, "Struct")
	if b.Err() != nil {
		return
	}
	// What the stream says counts only when it reads exactly, to keep a
	// binary struct's bytes from passing for names: evidence found in a
	// stream that does not is taken back. (The evidence a stream gives
	// never changes how it reads.)
	m := ev.mark()
	var st tagStats
	if !p.tags(&b, ev, what, structName, depth+1, &st) || b.Remaining() != 0 {
		ev.undo(m)
	}
}

// innerStructs reads the inner tag UE4 writes before the elements of an
// array or set of structs, for its struct name.
func (p *prober) innerStructs(r *binread.Reader, ev *evidence, what *place, off, size int64, depth int) {
	var arr binread.Reader
	b := &arr
	r.SectionInto(b, off, size, "Array")
	if b.Err() != nil {
		return
	}
	n := b.I32("Count")
	if n <= 0 || b.Err() != nil {
		return
	}
	name := p.name(b)
	typ := p.name(b)
	elemSize := b.I32("Size")
	b.I32("ArrayIndex")
	if b.Err() != nil || typ != "StructProperty" || name == "" {
		return
	}
	structName := p.name(b)
	b.Skip(16, "StructGuid")
	if b.U8("HasPropertyGuid") != 0 {
		b.Skip(16, "PropertyGuid")
	}
	if b.Err() != nil || elemSize < 0 || int64(elemSize) != b.Remaining() {
		return
	}
	where := &place{up: what, sep: " array ", name: name}
	p.structName(ev, structName, where)
	p.structElements(b, ev, where, structName, int(n), depth)
}

// structElements follows the elements of an array of structs when every
// one is a tagged stream and together they fill the array to its end (the
// elements of a natively serialized struct do not).
func (p *prober) structElements(b *binread.Reader, ev *evidence, what *place, structName string, n, depth int) {
	if depth >= maxProbeTagDepth {
		return
	}
	// As in nested: the evidence counts only when all elements read.
	m := ev.mark()
	for range n {
		var st tagStats
		if !p.tags(b, ev, what, structName, depth+1, &st) {
			ev.undo(m)
			return
		}
	}
	if b.Err() != nil || b.Remaining() != 0 {
		ev.undo(m)
	}
}

// place names where in a package a piece of evidence lies ("export 3
// (Class BP_Hero_C) property Foo"). It is rendered only when a rule
// applies, so that reading the tags builds no text.
type place struct {
	up   *place // the place this one lies in, or nil
	sep  string // joins up and name (" property ", " array ", " row ")
	name string // for an export: its class
	// export is the 1-based index of the export a root place names in f
	// (0: the place is name alone).
	f      *File
	export int
}

func (pl *place) String() string {
	switch {
	case pl == nil:
		return ""
	case pl.export > 0:
		// Concatenated rather than formatted: nothing of pl goes into an
		// interface, so a place (and the places it lies in) can stay on
		// the stack of the probe that made it.
		return "export " + strconv.Itoa(pl.export) + " (" + pl.name + " " + pl.f.NameString(pl.f.Exports[pl.export-1].ObjectName) + ")"
	}
	return pl.up.String() + pl.sep + pl.name
}
