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
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			return appendJSONStringSlow(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
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
