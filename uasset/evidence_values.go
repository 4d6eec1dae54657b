package uasset

// Ground rules for this file: these probes read single property values
// whose native layout a known custom or object version changed, and rule
// out the candidates whose layout does not consume the tagged value's Size
// exactly. A value that does not read exactly under either layout says
// nothing. The thresholds are the enum values of the engine's version
// headers; which release writes which value comes from the engine table
// (customversions_table.go, engines).

import (
	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

const (
	// FEditorObjectVersion::CultureInvariantTextSerializationKeyStability:
	// an FText without history (ETextHistoryType::None) writes
	// bHasCultureInvariantString and, when set, the string (4.23). Read
	// so by CUE4Parse FTextHistory.None and UAssetAPI TextPropertyData.
	edCultureInvariantTextSerializationKeyStability = 32
	// FAnimPhysObjectVersion::RemoveUIDFromSmartNameSerialize: FSmartName
	// stops writing its uint16 UID (4.17).
	apRemoveUIDFromSmartNameSerialize = 5
	// FAnimPhysObjectVersion::SmartNameRefactorForDeterministicCooking:
	// FSmartName stops writing its FGuid (4.18). FSmartName::Serialize as
	// read by UAssetAPI SmartNameProperty and CUE4Parse FSmartName.
	apSmartNameRefactorForDeterministicCooking = 10

	textHistoryNone = -1 // ETextHistoryType::None
)

// require rules out the candidates for which ok is false, for the reason
// where (may be nil) followed by why. Candidates ruled out already are
// skipped (ruleOut keeps the first reason), and the reason is rendered
// only when it rules out one.
func (ev *evidence) require(ok func(Engine) bool, where *place, why string) {
	reason, made := "", false
	for _, e := range ev.cands {
		if _, done := ev.out[e.Name]; done || ok(e) {
			continue
		}
		if !made {
			reason, made = where.String()+why, true
		}
		ev.out[e.Name] = reason
		ev.outLog = append(ev.outLog, e.Name)
	}
}

// valueEvidence applies the value-layout rules to one tagged property
// value of size bytes at off.
func (p *prober) valueEvidence(r *binread.Reader, ev *evidence, where *place, typ, structName string, off, size int64) {
	switch {
	case typ == "TextProperty":
		p.textValue(r, ev, where, off, size)
	case typ == "StructProperty" && structName == "SmartName":
		p.smartName(r, ev, where, off, size)
	case typ == "SoftObjectProperty" || typ == "SoftClassProperty" || typ == "AssetObjectProperty" || typ == "AssetClassProperty":
		p.softObjectPath(r, ev, where, off, size)
	}
}

// textValue reads an FText value: Flags, HistoryType and, for a text
// without history, what CultureInvariantTextSerializationKeyStability
// added.
func (p *prober) textValue(r *binread.Reader, ev *evidence, where *place, off, size int64) {
	var b binread.Reader
	r.SectionInto(&b, off, size, "Text")
	if b.Err() != nil {
		return
	}
	b.U32("Flags")
	if b.I8("HistoryType") != textHistoryNone || b.Err() != nil {
		return
	}
	if b.Remaining() == 0 {
		if ev.first(ruleTextWithoutCultureInvariant) {
			ev.require(func(e Engine) bool {
				return e.customVersion(ue.EditorObjectVersion) < edCultureInvariantTextSerializationKeyStability
			}, where, " is a text without history and without bHasCultureInvariantString (FEditorObjectVersion < CultureInvariantTextSerializationKeyStability, before 4.23)")
		}
		return
	}
	if ev.applied[ruleTextCultureInvariant] {
		return // what follows can only apply it again
	}
	switch b.U32("bHasCultureInvariantString") {
	case 0:
	case 1:
		b.SkipFString("CultureInvariantString")
	default:
		return
	}
	if b.Err() != nil || b.Remaining() != 0 {
		return
	}
	if ev.first(ruleTextCultureInvariant) {
		ev.require(func(e Engine) bool {
			return e.customVersion(ue.EditorObjectVersion) >= edCultureInvariantTextSerializationKeyStability
		}, where, " is a text without history that writes bHasCultureInvariantString (FEditorObjectVersion CultureInvariantTextSerializationKeyStability, 4.23+)")
	}
}

// smartName reads an FSmartName value: its DisplayName, then the UID and
// the GUID the release still writes; the size tells which.
func (p *prober) smartName(r *binread.Reader, ev *evidence, where *place, off, size int64) {
	var b binread.Reader
	r.SectionInto(&b, off, size, "SmartName")
	if b.Err() != nil {
		return
	}
	p.name(&b) // DisplayName
	if b.Err() != nil {
		return
	}
	ap := func(e Engine) int32 { return e.customVersion(ue.AnimPhysObjectVersion) }
	switch size {
	case 8 + 2 + 16:
		if ev.first(ruleSmartNameUIDAndGUID) {
			ev.require(func(e Engine) bool { return ap(e) < apRemoveUIDFromSmartNameSerialize },
				where, " is a SmartName with UID and GUID (FAnimPhysObjectVersion < RemoveUIDFromSmartNameSerialize, before 4.17)")
		}
	case 8 + 16:
		if ev.first(ruleSmartNameGUID) {
			ev.require(func(e Engine) bool {
				return ap(e) >= apRemoveUIDFromSmartNameSerialize && ap(e) < apSmartNameRefactorForDeterministicCooking
			}, where, " is a SmartName with a GUID but no UID (FAnimPhysObjectVersion RemoveUIDFromSmartNameSerialize, before SmartNameRefactorForDeterministicCooking: 4.17)")
		}
	}
	// A SmartName of its name alone (8 bytes) says nothing: MidAir's
	// montage (corpus, 4.17 by its UField::Next layout) writes one, so
	// licensee builds took the change before 4.18 did.

}

// softObjectPath reads a soft object reference: an FString path before
// VER_UE4_ADDED_SOFT_OBJECT_PATH, an FName and a sub-path FString since
// (FSoftObjectPath::SerializePath; UAssetAPI SoftObjectPropertyData).
func (p *prober) softObjectPath(r *binread.Reader, ev *evidence, where *place, off, size int64) {
	if ev.applied[ruleSoftPathString] && ev.applied[ruleSoftPathName] {
		return // what follows can only apply them again
	}
	var old, cur binread.Reader
	r.SectionInto(&old, off, size, "SoftObjectPath")
	if old.Err() != nil {
		return
	}
	old.SkipFString("Path")
	oldFits := old.Err() == nil && old.Remaining() == 0
	r.SectionInto(&cur, off, size, "SoftObjectPath")
	p.name(&cur) // AssetPathName
	cur.SkipFString("SubPathString")
	curFits := cur.Err() == nil && cur.Remaining() == 0
	switch {
	case oldFits && !curFits:
		if ev.first(ruleSoftPathString) {
			ev.require(func(e Engine) bool { return e.UE4 < verUE4AddedSoftObjectPath },
				where, " is a soft object path written as one string (before VER_UE4_ADDED_SOFT_OBJECT_PATH, 4.18)")
		}
	case curFits && !oldFits:
		if ev.first(ruleSoftPathName) {
			ev.require(func(e Engine) bool { return e.UE4 >= verUE4AddedSoftObjectPath },
				where, " is a soft object path written as a name and a string (VER_UE4_ADDED_SOFT_OBJECT_PATH, 4.18+)")
		}
	}
}

// dataTableRows reads what UDataTable::Serialize writes after the UObject
// part: the row count, then each row's name and tagged struct. The rows'
// values count as evidence only when the rows fill the export exactly.
func (p *prober) dataTableRows(r *binread.Reader, ev *evidence, what *place) {
	n := r.Count("NumRows", 16) // FName and a None terminator at least
	if r.Err() != nil {
		return
	}
	// As in nested: the evidence counts only when all rows read.
	m := ev.mark()
	for range n {
		row := p.name(r)
		var st tagStats
		where := &place{up: what, sep: " row ", name: row}
		if r.Err() != nil || !p.tags(r, ev, where, "", 0, &st) {
			ev.undo(m)
			return
		}
	}
	if r.Err() != nil || r.Remaining() != 0 {
		ev.undo(m)
	}
}
