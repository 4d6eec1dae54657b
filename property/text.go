package property

import (
	"github.com/upkg/upkg/internal/binread"
)

// TextHistoryType is ETextHistoryType, the kind of FText.
type TextHistoryType int8

// The text history types, as serialized.
const (
	TextNone TextHistoryType = iota - 1
	TextBase
	TextNamedFormat
	TextOrderedFormat
	TextArgumentFormat
	TextAsNumber
	TextAsPercent
	TextAsCurrency
	TextAsDate
	TextAsTime
	TextAsDateTime
	TextTransform
	TextStringTableEntry
	TextGenerator
)

// textHistoryNames names the history types, indexed by type+1 (TextNone
// is -1).
var textHistoryNames = [...]string{
	TextNone + 1: "None", TextBase + 1: "Base", TextNamedFormat + 1: "NamedFormat", TextOrderedFormat + 1: "OrderedFormat",
	TextArgumentFormat + 1: "ArgumentFormat", TextAsNumber + 1: "AsNumber", TextAsPercent + 1: "AsPercent",
	TextAsCurrency + 1: "AsCurrency", TextAsDate + 1: "AsDate", TextAsTime + 1: "AsTime", TextAsDateTime + 1: "AsDateTime",
	TextTransform + 1: "Transform", TextStringTableEntry + 1: "StringTableEntry", TextGenerator + 1: "TextGenerator",
}

// maxTextDepth bounds FText nesting (format texts hold texts).
const maxTextDepth = 16

// text reads an FText (Text.cpp, TextHistory.cpp) into ordered fields: the
// flags, the history type and that history's data.
func (d *decoder) text(r *binread.Reader, depth int) any {
	if depth > maxTextDepth {
		r.Fail("Text", errDepth)
		return nil
	}
	if !d.ctx.ue4(verUE4FTextHistory) {
		fs := Fields{{"SourceString", d.str(r, "Text.SourceString")}}
		if d.ctx.ue4(verUE4AddedNamespaceAndKeyDataToFText) {
			fs = append(fs, Field{"Namespace", d.str(r, "Text.Namespace")}, Field{"Key", d.str(r, "Text.Key")})
		}
		return append(Fields{{"Flags", uint64(r.U32("Text.Flags"))}}, fs...)
	}
	flags := r.U32("Text.Flags")
	ht := TextHistoryType(r.I8("Text.HistoryType"))
	if r.Err() != nil {
		return nil
	}
	var name string
	if i := int(ht) + 1; i >= 0 && i < len(textHistoryNames) {
		name = textHistoryNames[i]
	}
	if name == "" {
		r.Failf("Text.HistoryType", "unknown text history type %d", ht)
		return nil
	}
	// Room for the longest history (TextAsDateTime). A value a lite
	// decode does not keep collects in a scratch list nobody reads.
	var fs Fields
	if d.bare() {
		fs = d.bareFields[:0]
	} else {
		fs = append(Fields(d.fieldSlab.alloc(7)), Field{"Flags", uint64(flags)}, Field{"History", name})
	}
	switch ht {
	case TextNone:
		if d.ctx.cvAtLeast(cvEditor, editorCultureInvariantTextSerializationKeyStb) {
			if r.U32("Text.bHasCultureInvariantString") != 0 {
				fs = append(fs, Field{"CultureInvariantString", d.str(r, "Text.CultureInvariantString")})
			}
		}
	case TextBase:
		fs = append(fs,
			Field{"Namespace", d.str(r, "Text.Namespace")},
			Field{"Key", d.str(r, "Text.Key")},
			Field{"SourceString", d.str(r, "Text.SourceString")})
		if !d.ctx.FilterEditorOnly && d.ctx.cvAtLeast(cvFortniteMain, fortniteAddDevNotesToFText) {
			if d.ctx.cvRecorded(cvFortniteMain) {
				fs = append(fs, Field{"DevNotes", d.str(r, "Text.DevNotes")})
			}
		}
	case TextNamedFormat:
		fs = append(fs, Field{"SourceFormat", d.text(r, depth+1)})
		n := r.Count("Text.Arguments", 5)
		var args []MapEntry
		if !d.bare() {
			args = make([]MapEntry, 0, n)
		}
		for range n {
			k := d.str(r, "Text.ArgumentName")
			if v := d.formatArgument(r, depth, false); !d.bare() {
				args = append(args, MapEntry{k, v})
			}
			if r.Err() != nil {
				break
			}
		}
		fs = append(fs, Field{"Arguments", args})
	case TextOrderedFormat:
		fs = append(fs, Field{"SourceFormat", d.text(r, depth+1)})
		n := r.Count("Text.Arguments", 1)
		var args []any
		if !d.bare() {
			args = make([]any, 0, n)
		}
		for range n {
			if v := d.formatArgument(r, depth, false); !d.bare() {
				args = append(args, v)
			}
			if r.Err() != nil {
				break
			}
		}
		fs = append(fs, Field{"Arguments", args})
	case TextArgumentFormat:
		fs = append(fs, Field{"SourceFormat", d.text(r, depth+1)})
		n := r.Count("Text.Arguments", 5)
		var args []MapEntry
		if !d.bare() {
			args = make([]MapEntry, 0, n)
		}
		for range n {
			var k any
			if d.ctx.ue4(verUE4K2NodeVarReferenceGuids) {
				k = d.str(r, "Text.ArgumentName")
			} else {
				k = d.text(r, depth+1)
			}
			if v := d.formatArgument(r, depth, true); !d.bare() {
				args = append(args, MapEntry{k, v})
			}
			if r.Err() != nil {
				break
			}
		}
		fs = append(fs, Field{"Arguments", args})
	case TextAsNumber, TextAsPercent, TextAsCurrency:
		if ht == TextAsCurrency && d.ctx.ue4(verUE4AddedCurrencyCodeToFText) {
			fs = append(fs, Field{"CurrencyCode", d.str(r, "Text.CurrencyCode")})
		}
		fs = append(fs, Field{"SourceValue", d.formatArgument(r, depth, false)})
		if r.U32("Text.bHasFormatOptions") != 0 {
			fs = append(fs, Field{"FormatOptions", d.numberFormattingOptions(r)})
		}
		fs = append(fs, Field{"TargetCulture", d.str(r, "Text.TargetCulture")})
	case TextAsDate:
		t := r.I64("Text.SourceDateTime")
		fs = append(fs, Field{"SourceDateTime", ticksTime(t)}, Field{"DateStyle", int64(r.I8("Text.DateStyle"))})
		if d.ctx.ue4(verUE4FTextHistoryDateTimezone) {
			fs = append(fs, Field{"TimeZone", d.str(r, "Text.TimeZone")})
		}
		fs = append(fs, Field{"TargetCulture", d.str(r, "Text.TargetCulture")})
	case TextAsTime:
		t := r.I64("Text.SourceDateTime")
		fs = append(fs, Field{"SourceDateTime", ticksTime(t)}, Field{"TimeStyle", int64(r.I8("Text.TimeStyle"))},
			Field{"TimeZone", d.str(r, "Text.TimeZone")}, Field{"TargetCulture", d.str(r, "Text.TargetCulture")})
	case TextAsDateTime:
		t := r.I64("Text.SourceDateTime")
		fs = append(fs, Field{"SourceDateTime", ticksTime(t)}, Field{"DateStyle", int64(r.I8("Text.DateStyle"))},
			Field{"TimeStyle", int64(r.I8("Text.TimeStyle"))},
			Field{"TimeZone", d.str(r, "Text.TimeZone")}, Field{"TargetCulture", d.str(r, "Text.TargetCulture")})
	case TextTransform:
		fs = append(fs, Field{"SourceText", d.text(r, depth+1)}, Field{"TransformType", uint64(r.U8("Text.TransformType"))})
	case TextStringTableEntry:
		fs = append(fs, Field{"TableId", d.name(r, "Text.TableId")}, Field{"Key", d.str(r, "Text.Key")})
	case TextGenerator:
		id := d.name(r, "Text.GeneratorTypeID")
		fs = append(fs, Field{"GeneratorTypeID", id})
		if id != "None" && r.Err() == nil {
			n := r.Count("Text.GeneratorContents", 1)
			fs = append(fs, Field{"GeneratorContentsSize", int64(n)})
			r.Skip(int64(n), "Text.GeneratorContents")
		}
	}
	if d.bare() {
		return nil
	}
	return fs
}

// formatArgument reads FFormatArgumentValue, or FFormatArgumentData's value
// (argData), whose layout differs in old versions.
func (d *decoder) formatArgument(r *binread.Reader, depth int, argData bool) any {
	if d.bare() {
		return d.skipFormatArgument(r, depth, argData)
	}
	if argData && d.ctx.cvBelow(cvEditor, editorTextFormatArgumentDataIsVariant) {
		return Fields{{"Type", "Text"}, {"Value", d.text(r, depth+1)}}
	}
	typ := r.I8("FormatArgument.Type")
	switch typ {
	case 0: // Int
		if argData && d.ctx.cvBelow(cvUE5Release, ue5ReleaseTextFormatArgumentData64bit) {
			return Fields{{"Type", "Int"}, {"Value", int64(r.I32("FormatArgument.Int"))}}
		}
		return Fields{{"Type", "Int"}, {"Value", r.I64("FormatArgument.Int")}}
	case 1: // UInt
		if argData && d.ctx.cvBelow(cvUE5Release, ue5ReleaseTextFormatArgumentData64bit) {
			return Fields{{"Type", "UInt"}, {"Value", uint64(r.U32("FormatArgument.UInt"))}}
		}
		return Fields{{"Type", "UInt"}, {"Value", r.U64("FormatArgument.UInt")}}
	case 2:
		return Fields{{"Type", "Float"}, {"Value", jsonFloat32(r.F32("FormatArgument.Float"))}}
	case 3:
		return Fields{{"Type", "Double"}, {"Value", jsonFloat(r.F64("FormatArgument.Double"))}}
	case 4:
		return Fields{{"Type", "Text"}, {"Value", d.text(r, depth+1)}}
	case 5:
		return Fields{{"Type", "Gender"}, {"Value", uint64(r.U8("FormatArgument.Gender"))}}
	}
	if r.Err() == nil {
		r.Failf("FormatArgument.Type", "unknown format argument type %d", typ)
	}
	return nil
}

// skipFormatArgument is formatArgument for a value that is not kept: the
// same reads, nothing built.
func (d *decoder) skipFormatArgument(r *binread.Reader, depth int, argData bool) any {
	if argData && d.ctx.cvBelow(cvEditor, editorTextFormatArgumentDataIsVariant) {
		d.text(r, depth+1)
		return nil
	}
	typ := r.I8("FormatArgument.Type")
	switch typ {
	case 0: // Int
		if argData && d.ctx.cvBelow(cvUE5Release, ue5ReleaseTextFormatArgumentData64bit) {
			r.I32("FormatArgument.Int")
		} else {
			r.I64("FormatArgument.Int")
		}
	case 1: // UInt
		if argData && d.ctx.cvBelow(cvUE5Release, ue5ReleaseTextFormatArgumentData64bit) {
			r.U32("FormatArgument.UInt")
		} else {
			r.U64("FormatArgument.UInt")
		}
	case 2:
		r.F32("FormatArgument.Float")
	case 3:
		r.F64("FormatArgument.Double")
	case 4:
		d.text(r, depth+1)
	case 5:
		r.U8("FormatArgument.Gender")
	default:
		if r.Err() == nil {
			r.Failf("FormatArgument.Type", "unknown format argument type %d", typ)
		}
	}
	return nil
}

// numberFormattingOptions reads FNumberFormattingOptions.
func (d *decoder) numberFormattingOptions(r *binread.Reader) Fields {
	var fs Fields
	if d.ctx.cvAtLeast(cvEditor, editorAddedAlwaysSignNumberFormattingOption) {
		fs = append(fs, Field{"AlwaysSign", r.U32("NumberFormattingOptions.AlwaysSign") != 0})
	}
	fs = append(fs,
		Field{"UseGrouping", r.U32("NumberFormattingOptions.UseGrouping") != 0},
		Field{"RoundingMode", int64(r.I8("NumberFormattingOptions.RoundingMode"))},
		Field{"MinimumIntegralDigits", int64(r.I32("NumberFormattingOptions.MinimumIntegralDigits"))},
		Field{"MaximumIntegralDigits", int64(r.I32("NumberFormattingOptions.MaximumIntegralDigits"))},
		Field{"MinimumFractionalDigits", int64(r.I32("NumberFormattingOptions.MinimumFractionalDigits"))},
		Field{"MaximumFractionalDigits", int64(r.I32("NumberFormattingOptions.MaximumFractionalDigits"))})
	return fs
}
