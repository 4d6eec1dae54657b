package main

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/upkg/upkg/internal/inspect"
)

// appendVerifyJSON appends r as encoding/json marshals it with HTML
// escaping off (how `upkg verify --json` printed it before), without a
// newline. verify prints one line per package; building it by hand costs a
// fraction of encoding/json's reflection. TestAppendVerifyJSON checks the
// bytes against encoding/json on every corpus result and on odd values.
func appendVerifyJSON(b []byte, r *inspect.VerifyResult) []byte {
	b = append(b, `{"path":`...)
	b = appendJSONString(b, r.Path)
	b = append(b, `,"format":`...)
	b = appendJSONString(b, r.Format)
	b = append(b, `,"ok":`...)
	b = strconv.AppendBool(b, r.OK)
	b = append(b, `,"error":`...)
	b = appendJSONString(b, r.Error)
	b = append(b, `,"engine":`...)
	b = appendJSONString(b, r.Engine)
	b = append(b, `,"engine_source":`...)
	b = appendJSONString(b, r.EngineSource)
	b = append(b, `,"names":`...)
	b = strconv.AppendInt(b, int64(r.Names), 10)
	b = append(b, `,"imports":`...)
	b = strconv.AppendInt(b, int64(r.Imports), 10)
	b = append(b, `,"exports":`...)
	b = strconv.AppendInt(b, int64(r.Exports), 10)
	b = append(b, `,"header_roundtrip":`...)
	if r.HeaderRoundtrip == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendBool(b, *r.HeaderRoundtrip)
	}
	b = appendOptInt(b, `,"exports_with_properties":`, r.ExportsWithProperties)
	b = appendOptInt(b, `,"properties_ok":`, r.PropertiesOK)
	b = appendOptInt(b, `,"properties_failed":`, r.PropertiesFailed)
	if r.BytesUnaccounted != nil {
		b = append(b, `,"bytes_unaccounted":`...)
		b = strconv.AppendInt(b, *r.BytesUnaccounted, 10)
	}
	b = appendOptInt(b, `,"package_version":`, r.PackageVersion)
	b = appendOptInt(b, `,"licensee_version":`, r.LicenseeVersion)
	b = appendOptInt(b, `,"entries":`, r.Entries)
	b = appendOptInt(b, `,"chunks_ok":`, r.ChunksOK)
	b = appendOptInt(b, `,"chunks_failed":`, r.ChunksFailed)
	if r.Note != "" {
		b = append(b, `,"note":`...)
		b = appendJSONString(b, r.Note)
	}
	return append(b, '}')
}

// appendOptInt appends key and *v when v is set (omitempty on a pointer
// omits only nil).
func appendOptInt(b []byte, key string, v *int) []byte {
	if v == nil {
		return b
	}
	b = append(b, key...)
	return strconv.AppendInt(b, int64(*v), 10)
}

// appendJSONString appends s quoted. Strings that need no escaping (the
// usual paths, formats and engine names) are copied; any other goes
// through encoding/json itself, so escaping (control characters, invalid
// UTF-8, U+2028/U+2029) stays exactly its own.
func appendJSONString(b []byte, s string) []byte {
	if !plainJSON(s) {
		return appendJSONStringSlow(b, s)
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plainJSON reports whether s has no byte that JSON escapes or that may
// start a multi-byte character (< 0x20, '"', '\\', >= 0x80). It tests
// eight bytes at a time: verify's lines are mostly long paths.
func plainJSON(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		// A byte of w is below n (n <= 0x80) where (w - n*ones) &^ w
		// has its high bit set; a byte equals c where w^(c*ones) is
		// zero, that is below 1. Borrows only cross bytes above a
		// byte that matched, so "any byte" is exact.
		q, bs := w^('"'*ones), w^('\\'*ones)
		if (w|(w-0x20*ones)&^w|(q-ones)&^q|(bs-ones)&^bs)&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func appendJSONStringSlow(b []byte, s string) []byte {
	var buf jsonBuf
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return append(b, buf[:len(buf)-1]...)
}

// jsonBuf collects an Encoder's output.
type jsonBuf []byte

func (j *jsonBuf) Write(p []byte) (int, error) {
	*j = append(*j, p...)
	return len(p), nil
}
