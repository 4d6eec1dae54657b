package property

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/upkg/upkg/internal/binread"
	"github.com/upkg/upkg/ue"
)

// structValue reads a StructProperty value.
func (d *decoder) structValue(r *binread.Reader, t *Type, m mode, tag *Tag) any {
	name := t.Struct
	size := int64(-1)
	if m == mTag && tag != nil {
		size = int64(tag.Size)
	}
	nf, known := t.nativeOf()
	if tag != nil && tag.Flags != 0 && d.ctx.ue5(verUE5PropertyTagCompleteTypeName) {
		// UE5.4+ tags say whether the struct was written natively.
		if tag.Flags&TagHasBinaryOrNativeSerialize == 0 {
			known = false
		} else if !known {
			// A native serializer often writes the tagged properties
			// (FConstraintInstance, FPoseDataContainer): read so when
			// they fill the value.
			start := r.Offset()
			if sv, ok := d.tryTaggedStruct(r, name); ok && size >= 0 && r.Offset()-start == size {
				return sv
			}
			r.ClearErr()
			r.SeekTo(start, "StructProperty")
			d.countNative(name)
			return d.rawStruct(r, name, "native struct without a decoder", size)
		}
	}
	if d.ctx.Unversioned {
		if known {
			return d.native(r, name, nf, -1)
		}
		return d.unversionedStruct(r, name)
	}
	if known {
		if size < 0 {
			return d.native(r, name, nf, -1)
		}
		// The tag's size checks the native layout; a struct some versions
		// wrote with tagged properties is read that way instead.
		start := r.Offset()
		v := d.native(r, name, nf, size)
		if r.Err() == nil && r.Offset()-start == size {
			return v
		}
		end, err := r.Offset(), r.Err()
		r.ClearErr()
		r.SeekTo(start, "StructProperty")
		if sv, ok := d.tryTaggedStruct(r, name); ok {
			return sv
		}
		// Neither layout fits: report the native reading.
		r.ClearErr()
		r.SeekTo(end, "StructProperty")
		if err != nil {
			r.Fail("StructProperty", err)
		}
		return v
	}
	if size >= 0 {
		start := r.Offset()
		if sv, ok := d.tryTaggedStruct(r, name); ok {
			return sv
		}
		r.SeekTo(start, "StructProperty")
		d.countNative(name)
		return d.rawStruct(r, name, "native struct without a decoder", size)
	}
	props, _ := d.tagged(r)
	return d.newStruct(Struct{Type: name, Properties: props})
}

// newStruct returns a struct value from the decoder's slab; a lite decode
// that does not keep the value gets a stand-in nobody reads.
func (d *decoder) newStruct(v Struct) *Struct {
	if d.bare() {
		return &d.bareStruct
	}
	s := d.structSlab.new()
	*s = v
	return s
}

func (d *decoder) countNative(name string) {
	if d.rawNative == nil {
		d.rawNative = map[string]int{}
	}
	d.rawNative[name]++
}

func (d *decoder) native(r *binread.Reader, name string, nf nativeFunc, size int64) any {
	v := nf(d, r, size)
	if f, ok := v.(Fields); ok {
		return d.newStruct(Struct{Type: name, Fields: f})
	}
	return d.newStruct(Struct{Type: name, Value: v})
}

// tryTaggedStruct reads a tagged struct if the data is one, without
// recording issues when it is not. ok is false when the bytes did not read
// cleanly as a property stream.
func (d *decoder) tryTaggedStruct(r *binread.Reader, name string) (*Struct, bool) {
	key := [2]int64{r.Abs(), r.Size() - r.Offset()}
	if d.notTagged[key] {
		return nil, false
	}
	mark := len(d.issues)
	d.spec++
	props, done := d.tagged(r)
	d.spec--
	if !done || r.Err() != nil || len(d.issues) > mark {
		d.issues = d.issues[:mark]
		if errors.Is(r.Err(), errBudget) {
			return nil, false // keep the error: the decode is over
		}
		r.ClearErr()
		if d.notTagged == nil {
			d.notTagged = map[[2]int64]bool{}
		}
		d.notTagged[key] = true
		return nil, false
	}
	return d.newStruct(Struct{Type: name, Properties: props}), true
}

// taggedElemStruct reads a struct element of an array, set or map in tagged
// data, where elements carry no size. n is the number of elements left
// including this one. When the struct can be neither decoded natively nor
// as a property stream, the remaining bytes are kept raw and all is true.
func (d *decoder) taggedElemStruct(r *binread.Reader, t *Type, n int) (v any, all bool) {
	if nf, ok := t.nativeOf(); ok {
		return d.native(r, t.Struct, nf, -1), false
	}
	start := r.Offset()
	if sv, ok := d.tryTaggedStruct(r, t.Struct); ok {
		return sv, false
	}
	r.SeekTo(start, "StructProperty")
	d.countNative(t.Struct)
	rest := r.Remaining()
	reason := "native struct without a decoder"
	if t.Struct == "" {
		reason = "struct of unrecorded type (tagged maps and sets before UE5.4 do not name it)"
	}
	return d.rawStruct(r, t.Struct, reason, rest), true
}

// rawStruct reads the next size bytes of r as a raw struct value, as
// r.Bytes reads them; a lite decode that does not keep the value skips
// them (when they are there, the only case where Bytes succeeds) instead
// of copying them.
func (d *decoder) rawStruct(r *binread.Reader, name, reason string, size int64) any {
	if d.bare() && r.Err() == nil && size >= 0 && size <= r.Remaining() {
		r.Skip(size, "StructProperty")
		return &d.bareRaw
	}
	return &Raw{Struct: name, Reason: reason, Size: size, Data: r.Bytes(size, "StructProperty")}
}

// nativeFunc reads a natively serialized struct. size is the byte size when
// known (a top-level tag), else -1.
type nativeFunc func(d *decoder, r *binread.Reader, size int64) any

// Component kinds of fixed-layout natives.
const (
	cLWC = iota // float before UE5 large world coordinates, double after
	cF32
	cF64
	cI32
	cU32
	cI64
	cU64
	cU8
)

// fixed makes a reader for a struct of n named numeric components, plus an
// optional trailing byte (Box's IsValid).
//
// Closure factories like this one are kept out of line: inlined into
// the natives map's init, every call site compiled its own copy of the
// closure (about 350 KB of the page's WebAssembly in all).
//
//go:noinline
func fixed(kind int, trailer string, names ...string) nativeFunc {
	return func(d *decoder, r *binread.Reader, size int64) any {
		k := kind
		if k == cLWC {
			k = cF32
			if d.ctx.lwc() {
				k = cF64
			}
			extra := int64(0)
			if trailer != "" {
				extra = 1
			}
			switch size {
			case int64(len(names))*4 + extra:
				k = cF32
			case int64(len(names))*8 + extra:
				k = cF64
			}
		}
		keep := !d.bare() // a lite decode only reads the components
		var fs Fields
		if keep {
			fs = Fields(d.fieldSlab.alloc(len(names) + 1))
		}
		for _, n := range names {
			if v := fixedComponent(r, k, n, keep); keep {
				fs = append(fs, Field{n, v})
			}
		}
		if trailer != "" {
			if b := r.U8(trailer) != 0; keep {
				fs = append(fs, Field{trailer, b})
			}
		}
		if !keep {
			return nil
		}
		return fs
	}
}

// fixedComponent reads one component of kind k for [fixed]; the value is
// nil when not kept.
func fixedComponent(r *binread.Reader, k int, n string, keep bool) any {
	var v any
	switch k {
	case cF32:
		f := r.F32(n)
		if keep {
			v = jsonFloat32(f)
		}
	case cF64:
		f := r.F64(n)
		if keep {
			v = jsonFloat(f)
		}
	case cI32:
		x := r.I32(n)
		if keep {
			v = int64(x)
		}
	case cU32:
		x := r.U32(n)
		if keep {
			v = uint64(x)
		}
	case cI64:
		x := r.I64(n)
		if keep {
			v = x
		}
	case cU64:
		x := r.U64(n)
		if keep {
			v = x
		}
	case cU8:
		x := r.U8(n)
		if keep {
			v = uint64(x)
		}
	}
	return v
}

// natives lists the structs that serialize themselves (a Serialize or
// operator<< the engine uses instead of their properties).
var natives map[string]nativeFunc

// fixedNatives are the natives read by [fixed]: name, component kind,
// trailing byte and component names. A table rather than fixed(...) calls
// in the natives map literal: each call compiled to its own setup code in
// init (about 20 KB of the page's WebAssembly).
var fixedNatives = []struct {
	name, trailer string
	kind          int
	names         string // space-separated
}{
	{"Vector", "", cLWC, "X Y Z"},
	{"Vector_NetQuantize", "", cLWC, "X Y Z"},
	{"Vector_NetQuantize10", "", cLWC, "X Y Z"},
	{"Vector_NetQuantize100", "", cLWC, "X Y Z"},
	{"Vector_NetQuantizeNormal", "", cLWC, "X Y Z"},
	{"Vector2D", "", cLWC, "X Y"},
	{"Vector4", "", cLWC, "X Y Z W"},
	{"Rotator", "", cLWC, "Pitch Yaw Roll"},
	{"Quat", "", cLWC, "X Y Z W"},
	{"Plane", "", cLWC, "X Y Z W"},
	{"Vector3f", "", cF32, "X Y Z"},
	{"Vector3d", "", cF64, "X Y Z"},
	{"Vector2f", "", cF32, "X Y"},
	{"DeprecateSlateVector2D", "", cF32, "X Y"},
	{"Vector4f", "", cF32, "X Y Z W"},
	{"Vector4d", "", cF64, "X Y Z W"},
	{"Rotator3f", "", cF32, "Pitch Yaw Roll"},
	{"Rotator3d", "", cF64, "Pitch Yaw Roll"},
	{"Quat4f", "", cF32, "X Y Z W"},
	{"Quat4d", "", cF64, "X Y Z W"},
	{"Plane4f", "", cF32, "X Y Z W"},
	{"Plane4d", "", cF64, "X Y Z W"},
	{"IntPoint", "", cI32, "X Y"},
	{"Int32Point", "", cI32, "X Y"},
	{"IntVector2", "", cI32, "X Y"},
	{"Int32Vector2", "", cI32, "X Y"},
	{"IntVector", "", cI32, "X Y Z"},
	{"Int32Vector", "", cI32, "X Y Z"},
	{"IntVector4", "", cI32, "X Y Z W"},
	{"Int32Vector4", "", cI32, "X Y Z W"},
	{"UintVector2", "", cU32, "X Y"},
	{"Uint32Point", "", cU32, "X Y"},
	{"UintVector", "", cU32, "X Y Z"},
	{"UintVector4", "", cU32, "X Y Z W"},
	{"Int64Point", "", cI64, "X Y"},
	{"Int64Vector2", "", cI64, "X Y"},
	{"Int64Vector", "", cI64, "X Y Z"},
	{"Int64Vector4", "", cI64, "X Y Z W"},
	{"UInt64Point", "", cU64, "X Y"},
	{"UInt64Vector2", "", cU64, "X Y"},
	{"UInt64Vector", "", cU64, "X Y Z"},
	{"UInt64Vector4", "", cU64, "X Y Z W"},
	{"Box", "IsValid", cLWC, "MinX MinY MinZ MaxX MaxY MaxZ"},
	{"Box3f", "IsValid", cF32, "MinX MinY MinZ MaxX MaxY MaxZ"},
	{"Box3d", "IsValid", cF64, "MinX MinY MinZ MaxX MaxY MaxZ"},
	{"Box2D", "IsValid", cLWC, "MinX MinY MaxX MaxY"},
	{"Box2f", "IsValid", cF32, "MinX MinY MaxX MaxY"},
	{"Sphere", "", cLWC, "X Y Z W"},
	{"Sphere3f", "", cF32, "X Y Z W"},
	{"Sphere3d", "", cF64, "X Y Z W"},
	{"TwoVectors", "", cLWC, "V1X V1Y V1Z V2X V2Y V2Z"},
	{"Matrix", "", cLWC, "M00 M01 M02 M03 M10 M11 M12 M13 M20 M21 M22 M23 M30 M31 M32 M33"},
	{"Matrix44f", "", cF32, "M00 M01 M02 M03 M10 M11 M12 M13 M20 M21 M22 M23 M30 M31 M32 M33"},
	{"Matrix44d", "", cF64, "M00 M01 M02 M03 M10 M11 M12 M13 M20 M21 M22 M23 M30 M31 M32 M33"},
	{"LinearColor", "", cF32, "R G B A"},
	{"Color", "", cU8, "B G R A"},
	{"FrameNumber", "", cI32, "Value"},
	{"NavAgentSelector", "", cU32, "PackedBits"},
	{"SimpleCurveKey", "", cF32, "Time Value"},
	{"MovieSceneSequenceID", "", cU32, "Value"},
	{"MovieSceneTrackIdentifier", "", cU32, "Value"},
	{"MovieSceneEvaluationKey", "", cU32, "SequenceID TrackIdentifier SectionIndex"},
}

// nativeTable fills natives. A table rather than a map literal: the
// entries that are functions are static data, where each map literal entry
// compiled to its own insertion code in init.
var nativeTable = []struct {
	name string
	fn   nativeFunc
}{
	{"NameCurveKey", func(d *decoder, r *binread.Reader, _ int64) any {
		return Fields{{"Time", f32(r, "NameCurveKey.Time")}, {"Value", d.name(r, "NameCurveKey.Value")}}
	}},
	{"NiagaraVariableBase", niagaraVariable("")},
	{"NiagaraDataChannelVariable", niagaraVariable("")},
	{"NiagaraVariable", niagaraVariable("VarData")},
	{"NiagaraVariableWithOffset", niagaraVariable("Offset")},
	{"FontData", fontData},
	{"ClothLODData", clothLODData},
	{"MovieSceneTimeWarpVariant", timeWarpVariant},
	{"MidiEvent", midiEvent},
	{"MovieSceneFloatChannel", movieSceneChannel(4)},
	{"MovieSceneDoubleChannel", movieSceneChannel(8)},
	{"MovieSceneFrameRange", func(d *decoder, r *binread.Reader, _ int64) any {
		if d.bare() && r.Remaining() >= 10 {
			r.Skip(10, "MovieSceneFrameRange") // the reads cannot fail
			return nil
		}
		return Fields{
			{"LowerBoundType", uint64(r.U8("MovieSceneFrameRange.LowerBound.Type"))},
			{"LowerBoundValue", int64(r.I32("MovieSceneFrameRange.LowerBound.Value"))},
			{"UpperBoundType", uint64(r.U8("MovieSceneFrameRange.UpperBound.Type"))},
			{"UpperBoundValue", int64(r.I32("MovieSceneFrameRange.UpperBound.Value"))},
		}
	}},
	{"Guid", func(d *decoder, r *binread.Reader, _ int64) any {
		if d.bare() && r.Remaining() >= 16 {
			r.Skip(16, "Guid") // the reads cannot fail
			return nil
		}
		return ue.ReadGuid(r, "Guid").String()
	}},
	{"DateTime", func(d *decoder, r *binread.Reader, _ int64) any {
		t := r.I64("DateTime.Ticks")
		return Fields{{"Ticks", t}, {"Time", ticksTime(t)}}
	}},
	{"Timespan", func(d *decoder, r *binread.Reader, _ int64) any {
		t := r.I64("Timespan.Ticks")
		return Fields{{"Ticks", t}, {"Duration", (time.Duration(t) * 100).String()}}
	}},
	{"SoftObjectPath", softPath},
	{"SoftClassPath", softPath},
	{"StringAssetReference", softPath},
	{"StringClassReference", softPath},
	{"GameplayTagContainer", func(d *decoder, r *binread.Reader, _ int64) any {
		n := r.Count("GameplayTagContainer.Count", 8)
		tags := make([]string, 0, n)
		for range n {
			tags = append(tags, d.name(r, "GameplayTagContainer.Tag"))
		}
		return Fields{{"GameplayTags", tags}}
	}},
	{"RichCurveKey", func(d *decoder, r *binread.Reader, _ int64) any {
		const size = 3 + 6*4
		if d.bare() && r.Remaining() >= size {
			r.Skip(size, "RichCurveKey") // the reads cannot fail
			return nil
		}
		return Fields{
			{"InterpMode", curveMode(0, r.U8("RichCurveKey.InterpMode"))},
			{"TangentMode", curveMode(1, r.U8("RichCurveKey.TangentMode"))},
			{"TangentWeightMode", curveMode(2, r.U8("RichCurveKey.TangentWeightMode"))},
			{"Time", jsonFloat32(r.F32("RichCurveKey.Time"))},
			{"Value", jsonFloat32(r.F32("RichCurveKey.Value"))},
			{"ArriveTangent", jsonFloat32(r.F32("RichCurveKey.ArriveTangent"))},
			{"ArriveTangentWeight", jsonFloat32(r.F32("RichCurveKey.ArriveTangentWeight"))},
			{"LeaveTangent", jsonFloat32(r.F32("RichCurveKey.LeaveTangent"))},
			{"LeaveTangentWeight", jsonFloat32(r.F32("RichCurveKey.LeaveTangentWeight"))},
		}
	}},
	{"PerPlatformInt", perPlatform(func(r *binread.Reader) any { return int64(r.I32("PerPlatformInt")) }, 4)},
	{"PerPlatformFloat", perPlatform(func(r *binread.Reader) any { return jsonFloat32(r.F32("PerPlatformFloat")) }, 4)},
	{"PerPlatformBool", perPlatform(func(r *binread.Reader) any { return r.U32("PerPlatformBool") != 0 }, 4)},
	{"PerPlatformFrameRate", perPlatform(frameRate, 8)},
	{"PerQualityLevelInt", perQuality(func(r *binread.Reader) any { return int64(r.I32("PerQualityLevelInt")) })},
	{"PerQualityLevelFloat", perQuality(func(r *binread.Reader) any { return jsonFloat32(r.F32("PerQualityLevelFloat")) })},
	{"FontCharacter", fontCharacter},
	{"KeyHandleMap", func(d *decoder, r *binread.Reader, _ int64) any { return Fields{} }},
	{"InstancedStruct", instancedStruct},
	{"ExpressionInput", expressionInput()},
	{"MaterialAttributesInput", expressionInput()},
	{"SubstrateMaterialInput", expressionInput()},
	{"StrataMaterialInput", expressionInput()},
	{"ScalarMaterialInput", expressionInput(constScalar)},
	{"ShadingModelMaterialInput", expressionInput(constU32)},
	{"VectorMaterialInput", expressionInput(constVec3f, constVec3d)},
	{"Vector2MaterialInput", expressionInput(constVec2f, constVec2d)},
	{"ColorMaterialInput", expressionInput(constColor, constLinearColor)},

	{"MovieSceneEvaluationFieldEntityTree", movieSceneEntityTree},
	{"MovieSceneSubSequenceTree", movieSceneSubSequenceTree},
	{"SkeletalMeshSamplingLODBuiltData", weightedRandomSampler},
	{"MovieSceneSequenceInstanceDataPtr", movieSceneInstanceDataPtr},
	{"MovieSceneEvalTemplatePtr", movieSceneInstanceDataPtr},
	{"MovieSceneTrackImplementationPtr", movieSceneInstanceDataPtr},
	{"MovieSceneSegment", movieSceneSegment},
	{"EdGraphPinType", edGraphPinType},
	{"SmartName", smartName},
	{"LevelSequenceObjectReferenceMap", levelSequenceObjectReferenceMap},
	{"MovieSceneEventParameters", movieSceneEventParameters},
	{"UniqueNetIdRepl", uniqueNetIdRepl},
}

func init() {
	natives = make(map[string]nativeFunc, len(nativeTable)+len(fixedNatives))
	for _, n := range nativeTable {
		natives[n.name] = n.fn
	}
	for _, f := range fixedNatives {
		natives[f.name] = fixed(f.kind, f.trailer, strings.Fields(f.names)...)
	}
}

// richCurveModes name RichCurveKey's three mode bytes, as the engine's
// enums do (ERichCurveInterpMode in Curves/RealCurve.h,
// ERichCurveTangentMode and ERichCurveTangentWeightMode in
// Curves/RichCurve.h; RCTM_SmartAuto is new in 5.3).
var richCurveModes = [3]struct {
	enum  string
	names []string
}{
	{"ERichCurveInterpMode", []string{"RCIM_Linear", "RCIM_Constant", "RCIM_Cubic", "RCIM_None"}},
	{"ERichCurveTangentMode", []string{"RCTM_Auto", "RCTM_User", "RCTM_Break", "RCTM_None", "RCTM_SmartAuto"}},
	{"ERichCurveTangentWeightMode", []string{"RCTWM_WeightedNone", "RCTWM_WeightedArrive", "RCTWM_WeightedLeave", "RCTWM_WeightedBoth"}},
}

// curveMode is mode byte b of RichCurveKey (k indexes richCurveModes) as
// its enum's name; a value the enum does not have stays a number.
func curveMode(k int, b uint8) any {
	if m := &richCurveModes[k]; int(b) < len(m.names) {
		return Enum{Enum: m.enum, Value: m.names[b]}
	}
	return uint64(b)
}

// ticksTime renders FDateTime ticks (100 ns units since 0001-01-01 00:00,
// proleptic Gregorian calendar, no zone) as RFC 3339 in UTC with the
// fraction's trailing zeros dropped, as package time's RFC3339Nano layout
// does; "" outside FDateTime's range. It is written out rather than made
// with time.Time.AddDate and Format: 1.6 KB less WebAssembly in the uasset
// module, which was 0.5 KB under its budget before (time.Time.String stays
// linked through os.FileInfo).
func ticksTime(t int64) string {
	const maxTicks = 3155378975999999999 // 9999-12-31 23:59:59.9999999
	if t < 0 || t > maxTicks {
		return ""
	}
	const ticksPerDay, ticksPerSecond = 864000000000, 10000000
	days, rem := t/ticksPerDay, t%ticksPerDay
	y, m, d := civilDate(days)
	sec, frac := rem/ticksPerSecond, rem%ticksPerSecond
	b := make([]byte, 0, len("9999-12-31T23:59:59.9999999Z"))
	b = appendDigits(b, y, 4)
	b = append(b, '-')
	b = appendDigits(b, m, 2)
	b = append(b, '-')
	b = appendDigits(b, d, 2)
	b = append(b, 'T')
	b = appendDigits(b, sec/3600, 2)
	b = append(b, ':')
	b = appendDigits(b, sec/60%60, 2)
	b = append(b, ':')
	b = appendDigits(b, sec%60, 2)
	if frac != 0 {
		n := 7
		for frac%10 == 0 {
			frac /= 10
			n--
		}
		b = append(b, '.')
		b = appendDigits(b, frac, n)
	}
	return string(append(b, 'Z'))
}

// civilDate returns the year, month and day of the proleptic Gregorian
// calendar days after 0001-01-01 (days >= 0), counting in 400-year eras
// of 146097 days from a year that starts on 1 March, so that a leap day
// ends its year (Howard Hinnant's civil_from_days).
func civilDate(days int64) (y, m, d int64) {
	z := days + 306 // days from 0000-03-01
	era := z / 146097
	doe := z - era*146097                                  // day of the era, 0-146096
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // year of the era, 0-399
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // day of the year from 1 March, 0-365
	mp := (5*doy + 2) / 153                                // month from March, 0-11
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = era*400 + yoe
	if m <= 2 {
		y++
	}
	return y, m, d
}

// appendDigits appends v (>= 0) in decimal, zero-padded to width digits.
func appendDigits(b []byte, v int64, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for v > 0 || width > 0 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		width--
	}
	return append(b, buf[i:]...)
}

func softPath(d *decoder, r *binread.Reader, _ int64) any { return d.softObjectPath(r) }

func frameRate(r *binread.Reader) any {
	return Fields{{"Numerator", int64(r.I32("FrameRate.Numerator"))}, {"Denominator", int64(r.I32("FrameRate.Denominator"))}}
}

// perPlatform reads FPerPlatformInt/Float/Bool/FrameRate: bCooked, the
// default, and for uncooked data the per-platform overrides.
//
//go:noinline
func perPlatform(val func(*binread.Reader) any, size int64) nativeFunc {
	return func(d *decoder, r *binread.Reader, _ int64) any {
		cooked := r.U32("PerPlatform.bCooked") != 0
		fs := Fields{{"Cooked", cooked}, {"Default", val(r)}}
		if !cooked {
			n := r.Count("PerPlatform.PerPlatform", 8+size)
			m := make([]MapEntry, 0, n)
			for range n {
				k := d.name(r, "PerPlatform.Platform")
				m = append(m, MapEntry{k, val(r)})
			}
			fs = append(fs, Field{"PerPlatform", m})
		}
		return fs
	}
}

// perQuality reads FPerQualityLevelInt/Float: bCooked, the default and the
// per-quality-level overrides (keyed by int32).
//
//go:noinline
func perQuality(val func(*binread.Reader) any) nativeFunc {
	return func(d *decoder, r *binread.Reader, _ int64) any {
		cooked := r.U32("PerQualityLevel.bCooked") != 0
		fs := Fields{{"Cooked", cooked}, {"Default", val(r)}}
		n := r.Count("PerQualityLevel.PerQuality", 8)
		m := make([]MapEntry, 0, n)
		for range n {
			k := int64(r.I32("PerQualityLevel.Level"))
			m = append(m, MapEntry{k, val(r)})
		}
		return append(fs, Field{"PerQuality", m})
	}
}

// propsStruct reads a struct serialized by its properties inside a native
// struct (tagged or unversioned, as the package stores properties).
func (d *decoder) propsStruct(r *binread.Reader, name string) *Struct {
	if d.ctx.Unversioned {
		return d.newStruct(Struct{Type: name, Properties: d.unversioned(r, name)})
	}
	props, done := d.tagged(r)
	if !done && r.Err() == nil {
		r.Failf(name, "property stream did not end")
	}
	return d.newStruct(Struct{Type: name, Properties: props})
}

// niagaraVariable reads FNiagaraVariableBase (a name and the
// NiagaraTypeDefinition struct) and, for FNiagaraVariable, the value bytes
// or, for FNiagaraVariableWithOffset, the offset.
//
//go:noinline
func niagaraVariable(extra string) nativeFunc {
	return func(d *decoder, r *binread.Reader, _ int64) any {
		if d.bare() {
			// The same reads, nothing kept.
			d.readNameRef(r, "NiagaraVariable.Name")
			d.propsStruct(r, "NiagaraTypeDefinition")
			switch extra {
			case "VarData":
				n := r.Count("NiagaraVariable.VarData", 1)
				r.Skip(int64(n), "NiagaraVariable.VarData") // the count was checked
			case "Offset":
				r.I32("NiagaraVariableWithOffset.Offset")
			}
			return nil
		}
		fs := Fields{{"Name", d.name(r, "NiagaraVariable.Name")}, {"TypeDef", d.propsStruct(r, "NiagaraTypeDefinition")}}
		switch extra {
		case "VarData":
			n := r.Count("NiagaraVariable.VarData", 1)
			fs = append(fs, Field{"VarData", fmt.Sprintf("%x", r.Bytes(int64(n), "NiagaraVariable.VarData"))})
		case "Offset":
			fs = append(fs, Field{"Offset", int64(r.I32("NiagaraVariableWithOffset.Offset"))})
		}
		return fs
	}
}

// fontData reads FFontData: property-serialized before FEditorObjectVersion
// AddedFontFaceAssets; then bIsCooked and, for cooked data, the font face
// asset (or, without one, the file name, hinting and loading policy) and the
// sub-face index.
func fontData(d *decoder, r *binread.Reader, _ int64) any {
	const editorAddedFontFaceAssets = 14
	if d.ctx.cvBelow(cvEditor, editorAddedFontFaceAssets) {
		return d.propsStruct(r, "FontData").Properties
	}
	cooked := r.U32("FontData.bIsCooked") != 0
	fs := Fields{{"Cooked", cooked}}
	if cooked {
		face := d.objectRef(r, "FontData.LocalFontFaceAsset")
		fs = append(fs, Field{"LocalFontFaceAsset", face})
		if face.Index == 0 {
			fs = append(fs, Field{"FontFilename", r.FString("FontData.FontFilename")},
				Field{"Hinting", uint64(r.U8("FontData.Hinting"))}, Field{"LoadingPolicy", uint64(r.U8("FontData.LoadingPolicy"))})
		}
		fs = append(fs, Field{"SubFaceIndex", int64(r.I32("FontData.SubFaceIndex"))})
	}
	return fs
}

// movieSceneChannel reads FMovieSceneFloatChannel / DoubleChannel as the
// engine serializes them completely: the extrapolations, the key times and
// values (bulk arrays with their element size; the values are kept raw),
// the default value, the tick resolution and, from
// FFortniteMainBranchObjectVersion SerializeFloatChannelShowCurve, bShowCurve.
// (Older data is property-serialized; the tag's size check then picks that.)
//
//go:noinline
func movieSceneChannel(valueSize int) nativeFunc {
	const fortniteSerializeFloatChannelShowCurve = 53
	return func(d *decoder, r *binread.Reader, _ int64) any {
		if d.bare() {
			return d.skipMovieSceneChannel(r, valueSize)
		}
		fs := Fields{{"PreInfinityExtrap", uint64(r.U8("MovieSceneChannel.PreInfinityExtrap"))},
			{"PostInfinityExtrap", uint64(r.U8("MovieSceneChannel.PostInfinityExtrap"))}}
		if es := r.I32("MovieSceneChannel.Times.ElementSize"); r.Err() == nil && es != 4 {
			r.Failf("MovieSceneChannel.Times.ElementSize", "element size %d, want 4", es)
			return nil
		}
		n := r.Count("MovieSceneChannel.Times", 4)
		times := make([]any, 0, n)
		for range n {
			times = append(times, int64(r.I32("MovieSceneChannel.Time")))
		}
		es := r.I32("MovieSceneChannel.Values.ElementSize")
		if r.Err() == nil && (es <= 0 || es > 64) {
			r.Failf("MovieSceneChannel.Values.ElementSize", "element size %d", es)
			return nil
		}
		vn := r.Count("MovieSceneChannel.Values", int64(max(es, 1)))
		vals := r.Bytes(int64(vn)*int64(es), "MovieSceneChannel.Values")
		fs = append(fs, Field{"Times", times}, Field{"Values", channelValues(vals, int(vn), int(es), valueSize)})
		if valueSize == 8 {
			fs = append(fs, Field{"DefaultValue", jsonFloat(r.F64("MovieSceneChannel.DefaultValue"))})
		} else {
			fs = append(fs, Field{"DefaultValue", f32(r, "MovieSceneChannel.DefaultValue")})
		}
		fs = append(fs, Field{"HasDefaultValue", r.U32("MovieSceneChannel.bHasDefaultValue") != 0}, Field{"TickResolution", frameRate(r)})
		if d.ctx.cvAtLeast(cvFortniteMain, fortniteSerializeFloatChannelShowCurve) {
			fs = append(fs, Field{"ShowCurve", r.U32("MovieSceneChannel.bShowCurve") != 0})
		}
		return fs
	}
}

// channelValues decodes the n key values of a float or double channel,
// stored as the engine holds them in memory (each es bytes):
// FMovieSceneFloatValue / FMovieSceneDoubleValue, the value (4 or 8 bytes,
// valueSize) then FMovieSceneTangentData (four floats and the weight mode,
// padded to 20 bytes), the interpolation and tangent modes and padding to
// 28 or 32 bytes. Values of another size stay raw.
func channelValues(vals []byte, n, es, valueSize int) any {
	if es != 20+valueSize+4 || len(vals) != n*es {
		return &Raw{Reason: fmt.Sprintf("%d key values of %d bytes", n, es), Size: int64(len(vals)), Data: vals}
	}
	f := func(b []byte) any { return jsonFloat32(math.Float32frombits(binary.LittleEndian.Uint32(b))) }
	out := make([]any, 0, n)
	for k := 0; k < len(vals); k += es {
		v := vals[k : k+es]
		var value any
		if valueSize == 8 {
			value = jsonFloat(math.Float64frombits(binary.LittleEndian.Uint64(v)))
		} else {
			value = f(v)
		}
		t := v[valueSize:]
		out = append(out, Fields{
			{"Value", value},
			{"Tangent", Fields{
				{"ArriveTangent", f(t)},
				{"LeaveTangent", f(t[4:])},
				{"ArriveTangentWeight", f(t[8:])},
				{"LeaveTangentWeight", f(t[12:])},
				{"TangentWeightMode", curveMode(2, t[16])},
			}},
			{"InterpMode", curveMode(0, t[20])},
			{"TangentMode", curveMode(1, t[21])},
		})
	}
	return out
}

// skipMovieSceneChannel is movieSceneChannel for a value that is not kept:
// the same reads, nothing built.
func (d *decoder) skipMovieSceneChannel(r *binread.Reader, valueSize int) any {
	const fortniteSerializeFloatChannelShowCurve = 53
	r.U8("MovieSceneChannel.PreInfinityExtrap")
	r.U8("MovieSceneChannel.PostInfinityExtrap")
	if es := r.I32("MovieSceneChannel.Times.ElementSize"); r.Err() == nil && es != 4 {
		r.Failf("MovieSceneChannel.Times.ElementSize", "element size %d, want 4", es)
		return nil
	}
	n := r.Count("MovieSceneChannel.Times", 4)
	r.Skip(int64(n)*4, "MovieSceneChannel.Time") // the count was checked
	es := r.I32("MovieSceneChannel.Values.ElementSize")
	if r.Err() == nil && (es <= 0 || es > 64) {
		r.Failf("MovieSceneChannel.Values.ElementSize", "element size %d", es)
		return nil
	}
	vn := r.Count("MovieSceneChannel.Values", int64(max(es, 1)))
	r.Skip(int64(vn)*int64(es), "MovieSceneChannel.Values") // the count was checked
	if valueSize == 8 {
		r.F64("MovieSceneChannel.DefaultValue")
	} else {
		r.F32("MovieSceneChannel.DefaultValue")
	}
	r.U32("MovieSceneChannel.bHasDefaultValue")
	r.I32("FrameRate.Numerator")
	r.I32("FrameRate.Denominator")
	if d.ctx.cvAtLeast(cvFortniteMain, fortniteSerializeFloatChannelShowCurve) {
		r.U32("MovieSceneChannel.bShowCurve")
	}
	return nil
}

// clothLODData reads FClothLODData: its properties, then the transition
// skinning data up and down, arrays of FMeshToMeshVertData (three Vector4f,
// four uint16 vertex indices, a float weight and padding: 64 bytes), kept
// raw with their counts.
func clothLODData(d *decoder, r *binread.Reader, _ int64) any {
	const vertDataSize = 64
	fs := Fields{{"Properties", d.propsStruct(r, "ClothLODData")}}
	for _, n := range []string{"TransitionUpSkinData", "TransitionDownSkinData"} {
		c := r.Count("ClothLODData."+n, vertDataSize)
		b := r.Bytes(int64(c)*vertDataSize, "ClothLODData."+n)
		fs = append(fs, Field{n, &Raw{Reason: fmt.Sprintf("%d FMeshToMeshVertData", c), Size: int64(len(b)), Data: b}})
	}
	return fs
}

// timeWarpVariantStructs names the payload struct of each
// EMovieSceneTimeWarpType from FixedTime on.
var timeWarpVariantStructs = [...]string{
	2: "MovieSceneTimeWarpFixedFrame", 3: "FrameRate", 4: "MovieSceneTimeWarpLoop",
	5: "MovieSceneTimeWarpClamp", 6: "MovieSceneTimeWarpLoopFloat", 7: "MovieSceneTimeWarpClampFloat",
}

// timeWarpVariant reads FMovieSceneTimeWarpVariant (UE5.5+): a literal
// play rate, or a type byte and its payload (an object for Custom, else a
// property-serialized struct).
func timeWarpVariant(d *decoder, r *binread.Reader, _ int64) any {
	if r.U32("MovieSceneTimeWarpVariant.bIsLiteral") != 0 {
		if d.bare() && r.Remaining() >= 8 {
			r.Skip(8, "MovieSceneTimeWarpVariant.PlayRate") // the read cannot fail
			return nil
		}
		return Fields{{"Type", "FixedPlayRate"}, {"PlayRate", jsonFloat(r.F64("MovieSceneTimeWarpVariant.PlayRate"))}}
	}
	t := r.U8("MovieSceneTimeWarpVariant.Type")
	switch t {
	case 0:
		return Fields{{"Type", "FixedPlayRate"}, {"PlayRate", jsonFloat(r.F64("MovieSceneTimeWarpVariant.PlayRate"))}}
	case 1:
		return Fields{{"Type", "Custom"}, {"Custom", d.objectRef(r, "MovieSceneTimeWarpVariant.Custom")}}
	}
	var name string
	if int(t) < len(timeWarpVariantStructs) {
		name = timeWarpVariantStructs[t]
	}
	if name == "" {
		r.Failf("MovieSceneTimeWarpVariant.Type", "unknown time warp type %d", t)
		return nil
	}
	return Fields{{"Type", name}, {"Variant", d.propsStruct(r, name)}}
}

// midiEvent reads Harmonix's FMidiEvent: the tick and an FMidiMsg, whose
// type byte (1 standard, 2 tempo, 4 time signature, 8 text, 16 runtime)
// selects the payload.
func midiEvent(d *decoder, r *binread.Reader, _ int64) any {
	fs := Fields{{"Tick", int64(r.I32("MidiEvent.Tick"))}}
	t := r.U8("MidiMsg.Type")
	switch t {
	case 1:
		fs = append(fs, Field{"Type", "Std"}, Field{"Status", uint64(r.U8("MidiMsg.Status"))},
			Field{"Data1", uint64(r.U8("MidiMsg.Data1"))}, Field{"Data2", uint64(r.U8("MidiMsg.Data2"))})
	case 2:
		fs = append(fs, Field{"Type", "Tempo"}, Field{"MicsPerQuarterNoteH", uint64(r.U8("MidiMsg.MicsPerQuarterNoteH"))},
			Field{"MicsPerQuarterNoteL", uint64(r.U16("MidiMsg.MicsPerQuarterNoteL"))})
	case 4:
		fs = append(fs, Field{"Type", "TimeSig"}, Field{"Numerator", uint64(r.U8("MidiMsg.Numerator"))},
			Field{"Denominator", uint64(r.U8("MidiMsg.Denominator"))})
	case 8:
		fs = append(fs, Field{"Type", "Text"}, Field{"TextType", uint64(r.U8("MidiMsg.TextType"))},
			Field{"TextIndex", uint64(r.U16("MidiMsg.TextIndex"))})
	case 16:
		fs = append(fs, Field{"Type", "Runtime"})
	default:
		r.Failf("MidiMsg.Type", "unknown MIDI message type %d", t)
	}
	return fs
}

// fontCharacterSize is the size of FFontCharacter.
const fontCharacterSize = 21

func fontCharacter(d *decoder, r *binread.Reader, _ int64) any {
	if d.bare() && r.Remaining() >= fontCharacterSize {
		r.Skip(fontCharacterSize, "FontCharacter") // the reads cannot fail
		return nil
	}
	return Fields{
		{"StartU", int64(r.I32("FontCharacter.StartU"))},
		{"StartV", int64(r.I32("FontCharacter.StartV"))},
		{"USize", int64(r.I32("FontCharacter.USize"))},
		{"VSize", int64(r.I32("FontCharacter.VSize"))},
		{"TextureIndex", uint64(r.U8("FontCharacter.TextureIndex"))},
		{"VerticalOffset", int64(r.I32("FontCharacter.VerticalOffset"))},
	}
}

// expressionInput reads FExpressionInput (editor material inputs) and
// FMaterialInput<T> (the same plus UseConstant and the constant, when
// constants are given): [Expression], OutputIndex, InputName (an FName from
// FFrameworkObjectVersion PinsStoreFName, an FString before), Mask and
// MaskR..MaskA, and in cooked data before UE5.2 the ExpressionName. The
// layout moved between versions; when the tag's size is known the variant
// that fills it exactly is used (constants[0] is the default constant).
//
//go:noinline
func expressionInput(constants ...materialConstant) nativeFunc {
	return func(d *decoder, r *binread.Reader, size int64) any {
		keep := !d.bare() // a lite decode reads the same fields without keeping them
		def := exprLayout{expr: true, nameStr: d.ctx.cvIn(cvFramework, 0, frameworkPinsStoreFName, false),
			exprName: d.ctx.FilterEditorOnly && !d.ctx.ue5(verUE5AddSoftObjectPathList)}
		if len(constants) > 0 {
			def.constant = &constants[0]
		}
		if size < 0 {
			return d.exprInput(r, def, keep)
		}
		start := r.Offset()
		// The default layout first, then every variant in turn.
		if fs, ok := d.tryExprInput(r, start, size, def, keep); ok {
			return fs
		}
		for _, expr := range [2]bool{true, false} {
			for _, ns := range [2]bool{false, true} {
				for _, en := range [2]bool{false, true} {
					l := exprLayout{expr, ns, en, nil}
					if len(constants) == 0 {
						if fs, ok := d.tryExprInput(r, start, size, l, keep); ok {
							return fs
						}
					}
					for i := range constants {
						l.constant = &constants[i]
						if fs, ok := d.tryExprInput(r, start, size, l, keep); ok {
							return fs
						}
					}
				}
			}
		}
		r.SeekTo(start, "ExpressionInput")
		return d.exprInput(r, def, keep)
	}
}

// exprLayout is one layout of FExpressionInput (see expressionInput).
type exprLayout struct {
	expr, nameStr, exprName bool
	constant                *materialConstant
}

// materialConstant reads the constant of an FMaterialInput<T>, which takes
// size bytes.
type materialConstant struct {
	read func(*binread.Reader) any
	size int64
}

// tryExprInput reads layout l at start and reports whether it took exactly
// size bytes; otherwise the reader's error is cleared.
func (d *decoder) tryExprInput(r *binread.Reader, start, size int64, l exprLayout, keep bool) (any, bool) {
	r.SeekTo(start, "ExpressionInput")
	fs := d.exprInput(r, l, keep)
	if r.Err() == nil && r.Offset()-start == size {
		return fs, true
	}
	r.ClearErr()
	return nil, false
}

// exprMasks are the mask fields of FExpressionInput.
var exprMasks = [...]struct{ name, field string }{
	{"Mask", "ExpressionInput.Mask"}, {"MaskR", "ExpressionInput.MaskR"}, {"MaskG", "ExpressionInput.MaskG"},
	{"MaskB", "ExpressionInput.MaskB"}, {"MaskA", "ExpressionInput.MaskA"},
}

// exprInput reads FExpressionInput in layout l; when keep is false the
// fields are read and checked the same way but the value is nil.
func (d *decoder) exprInput(r *binread.Reader, l exprLayout, keep bool) any {
	if !keep {
		if l.expr {
			r.I32("ExpressionInput.Expression")
		}
		r.I32("ExpressionInput.OutputIndex")
		if l.nameStr {
			r.SkipFString("ExpressionInput.InputName")
		} else {
			d.readNameRef(r, "ExpressionInput.InputName")
		}
		for _, m := range exprMasks {
			r.I32(m.field)
		}
		if l.exprName {
			d.readNameRef(r, "ExpressionInput.ExpressionName")
		}
		if c := l.constant; c != nil {
			r.U32("MaterialInput.UseConstant")
			if r.Remaining() >= c.size {
				r.Skip(c.size, "MaterialInput.Constant") // the reads cannot fail
			} else {
				c.read(r)
			}
		}
		return nil
	}
	var fs Fields
	if l.expr {
		fs = append(fs, Field{"Expression", d.objectRef(r, "ExpressionInput.Expression")})
	}
	fs = append(fs, Field{"OutputIndex", int64(r.I32("ExpressionInput.OutputIndex"))})
	if l.nameStr {
		fs = append(fs, Field{"InputName", r.FString("ExpressionInput.InputName")})
	} else {
		fs = append(fs, Field{"InputName", d.name(r, "ExpressionInput.InputName")})
	}
	for _, m := range exprMasks {
		fs = append(fs, Field{m.name, int64(r.I32(m.field))})
	}
	if l.exprName {
		fs = append(fs, Field{"ExpressionName", d.name(r, "ExpressionInput.ExpressionName")})
	}
	if c := l.constant; c != nil {
		fs = append(fs, Field{"UseConstant", r.U32("MaterialInput.UseConstant") != 0})
		fs = append(fs, Field{"Constant", c.read(r)})
	}
	return fs
}

func f32(r *binread.Reader, n string) any { return jsonFloat32(r.F32(n)) }

// The constants of the FMaterialInput<T> types.
var (
	constScalar = materialConstant{func(r *binread.Reader) any { return f32(r, "Constant") }, 4}
	constU32    = materialConstant{func(r *binread.Reader) any { return uint64(r.U32("Constant")) }, 4}
	constVec3f  = materialConstant{func(r *binread.Reader) any {
		return Fields{{"X", f32(r, "X")}, {"Y", f32(r, "Y")}, {"Z", f32(r, "Z")}}
	}, 12}
	constVec3d = materialConstant{func(r *binread.Reader) any {
		return Fields{{"X", jsonFloat(r.F64("X"))}, {"Y", jsonFloat(r.F64("Y"))}, {"Z", jsonFloat(r.F64("Z"))}}
	}, 24}
	constVec2f = materialConstant{func(r *binread.Reader) any { return Fields{{"X", f32(r, "X")}, {"Y", f32(r, "Y")}} }, 8}
	constVec2d = materialConstant{func(r *binread.Reader) any {
		return Fields{{"X", jsonFloat(r.F64("X"))}, {"Y", jsonFloat(r.F64("Y"))}}
	}, 16}
	constColor = materialConstant{func(r *binread.Reader) any {
		return Fields{{"B", uint64(r.U8("B"))}, {"G", uint64(r.U8("G"))}, {"R", uint64(r.U8("R"))}, {"A", uint64(r.U8("A"))}}
	}, 4}
	constLinearColor = materialConstant{func(r *binread.Reader) any {
		return Fields{{"R", f32(r, "R")}, {"G", f32(r, "G")}, {"B", f32(r, "B")}, {"A", f32(r, "A")}}
	}, 16}
)

// legacyInstancedStructHeader marks editor data written before
// FInstancedStructCustomVersion existed.
const legacyInstancedStructHeader = 0xABABABAB

// instancedStruct reads FInstancedStruct: (before its custom version: an
// optional legacy header and a version byte) the struct's package index, the
// serialized size, and the struct itself.
func instancedStruct(d *decoder, r *binread.Reader, _ int64) any {
	legacy := true
	if d.ctx.cvRecorded(cvInstancedStruct) {
		legacy = false
	} else if d.ctx.Unversioned {
		// Cooked packages record no custom versions; the version came
		// with UE5.3.
		legacy = !d.ctx.ue5(verUE5ScriptSerializationOffset)
	}
	if legacy {
		if b := rawBytes(r, 4); len(b) == 4 && uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24 == legacyInstancedStructHeader {
			r.Skip(4, "InstancedStruct.Header")
		}
		r.U8("InstancedStruct.Version")
	}
	st := d.objectRef(r, "InstancedStruct.Struct")
	size := r.I32("InstancedStruct.SerialSize")
	if r.Err() != nil {
		return nil
	}
	if size < 0 || int64(size) > r.Remaining() {
		r.Failf("InstancedStruct.SerialSize", "size %d, %d bytes left", size, r.Remaining())
		return nil
	}
	fs := Fields{{"StructType", st}}
	if st.Index == 0 || size == 0 {
		r.Skip(int64(size), "InstancedStruct.Data")
		return fs
	}
	name := lastPathElem(st.Path)
	sub := r.Section(r.Offset(), int64(size), "InstancedStruct.Data")
	d.push("<" + name + ">")
	v := d.structValue(sub, &Type{Name: "StructProperty", Struct: name}, mElem, nil)
	if sub.Err() != nil || sub.Offset() != int64(size) {
		if sub.Err() == nil {
			d.issue(sub.Abs(), "instanced struct %s used %d of its %d bytes", name, sub.Offset(), size)
		} else {
			d.issue(sub.Abs(), "instanced struct %s: %v", name, sub.Err())
		}
		v = &Raw{Struct: name, Reason: "instanced struct did not decode", Size: int64(size), Data: rawBytes(r, int64(size))}
	}
	d.pop()
	r.Skip(int64(size), "InstancedStruct.Data")
	return append(fs, Field{"Value", v})
}

func lastPathElem(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '.' || p[i] == '/' || p[i] == ':' {
			return p[i+1:]
		}
	}
	return p
}

// softObjectPath reads FSoftObjectPath in the layout of the package's version.
func (d *decoder) softObjectPath(r *binread.Reader) SoftObjectPath {
	if !d.ctx.ue4(verUE4AddedSoftObjectPath) {
		return SoftObjectPath{AssetPath: r.FString("SoftObjectPath")}
	}
	// UE5.1+ editor packages write an index into the package's soft object
	// path list instead of the path.
	if !d.ctx.FilterEditorOnly && d.ctx.ue5(verUE5AddSoftObjectPathList) && len(d.ctx.SoftObjectPaths) > 0 {
		start := r.Offset()
		i := r.I32("SoftObjectPath.Index")
		if r.Err() == nil && (i < 0 || int(i) >= len(d.ctx.SoftObjectPaths)) {
			r.FailAt(start, "SoftObjectPath.Index", fmt.Errorf("index %d outside the soft object path list of %d", i, len(d.ctx.SoftObjectPaths)))
			return SoftObjectPath{}
		}
		if r.Err() != nil {
			return SoftObjectPath{}
		}
		return d.ctx.SoftObjectPaths[i]
	}
	if d.bare() {
		// The same reads without the path, which is not kept.
		if d.ctx.ue5(verUE5SoftObjectPathRemoveAssetFNames) {
			d.readNameRef(r, "SoftObjectPath.PackageName")
			d.readNameRef(r, "SoftObjectPath.AssetName")
		} else {
			d.readNameRef(r, "SoftObjectPath.AssetPathName")
		}
		if d.ctx.cvRecordedAtLeast(cvFortniteMain, fortniteSoftObjectPathUtf8SubPaths) {
			sizedString(r, "SoftObjectPath.SubPathString")
		} else {
			r.SkipFString("SoftObjectPath.SubPathString")
		}
		return SoftObjectPath{}
	}
	var s SoftObjectPath
	if d.ctx.ue5(verUE5SoftObjectPathRemoveAssetFNames) {
		pkg := d.name(r, "SoftObjectPath.PackageName")
		asset := d.name(r, "SoftObjectPath.AssetName")
		if !d.spendText(r, "SoftObjectPath.AssetName", len(pkg)+1+len(asset)) {
			return SoftObjectPath{}
		}
		s.AssetPath = topLevelPath(pkg, asset)
	} else {
		s.AssetPath = d.name(r, "SoftObjectPath.AssetPathName")
	}
	// The sub-path became a UTF-8 string with FFortniteMainBranchObjectVersion
	// SoftObjectPathUtf8SubPaths; packages without custom versions keep the
	// FString form (an empty sub-path, the common case, reads alike).
	if d.ctx.cvRecordedAtLeast(cvFortniteMain, fortniteSoftObjectPathUtf8SubPaths) {
		s.SubPath = d.utf8String(r, "SoftObjectPath.SubPathString")
		if s.AssetPath == "None" {
			s.AssetPath = ""
		}
		return s
	}
	s.SubPath = r.FString("SoftObjectPath.SubPathString")
	if s.AssetPath == "None" {
		s.AssetPath = ""
	}
	return s
}

// ReadSoftObjectPath reads one FSoftObjectPath as ctx's package stores it
// inline (for the package's soft object path list).
func ReadSoftObjectPath(ctx *Context, r *binread.Reader) SoftObjectPath {
	c := *ctx
	c.SoftObjectPaths = nil
	d := newDecoder(&c)
	return d.softObjectPath(r)
}

func topLevelPath(pkg, asset string) string {
	if pkg == "None" || pkg == "" {
		return ""
	}
	if asset == "None" || asset == "" {
		return pkg
	}
	return pkg + "." + asset
}
