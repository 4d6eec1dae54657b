package zen

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/go-faster/city"
	"github.com/upkg/upkg/internal/binread"

	"github.com/upkg/upkg/ue"
)

// HashAlgorithmID is the first uint64 of a name-hash table: the engine's
// FNameHash algorithm ID for CityHash64 of the lower-cased name.
const HashAlgorithmID = 0xC1640000

// maxNameLen bounds one name of a batch: the header stores 15 bits.
const maxNameLen = 1<<15 - 1

// Name is one entry of a name batch.
type Name struct {
	Value string `json:"name"`
	// Hash is the stored CityHash64; HashOK says it matches Value.
	Hash   ue.ID `json:"hash"`
	HashOK bool  `json:"hash_ok"`
	Wide   bool  `json:"wide,omitempty"` // stored as UTF-16
}

func asciiLower(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return b
}

func utf16LE(s string) []byte {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return b
}

// NameHash is the engine's name-batch hash: CityHash64 of the lower-cased
// name, over its bytes when it is ASCII and over its UTF-16LE code units
// otherwise.
func NameHash(s string) uint64 {
	if binread.IsASCIIString(s) {
		return asciiNameHash(s)
	}
	return city.Hash64(utf16LE(strings.ToLower(s)))
}

// asciiNameHash is NameHash of an ASCII s.
func asciiNameHash(s string) uint64 {
	// Most names are short: lower them on the stack.
	var buf [128]byte
	b := buf[:0]
	if len(s) > len(buf) {
		b = make([]byte, 0, len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 32
		}
		b = append(b, c)
	}
	return city.Hash64(b)
}

// PackageID is FPackageId::FromName: CityHash64 of the lower-cased package
// name as UTF-16LE (TCHAR) code units.
func PackageID(name string) uint64 {
	if h, ok := asciiPathHash(name, false); ok {
		return h
	}
	return city.Hash64(utf16LE(lowerName(name)))
}

// asciiPathHash is CityHash64 of an ASCII s lower-cased as UTF-16LE, with
// '.' and ':' turned into '/' when slash is set, built on the stack for
// short strings; ok is false for other strings.
func asciiPathHash(s string, slash bool) (uint64, bool) {
	if !binread.IsASCIIString(s) {
		return 0, false
	}
	var buf [256]byte
	b := buf[:0]
	if 2*len(s) > len(buf) {
		b = make([]byte, 0, 2*len(s))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 32
		case slash && (c == '.' || c == ':'):
			c = '/'
		}
		b = append(b, c, 0)
	}
	return city.Hash64(b), true
}

func lowerName(s string) string {
	if binread.IsASCIIString(s) {
		return string(asciiLower(s))
	}
	return strings.ToLower(s)
}

// ScriptObjectHash is the value of FPackageObjectIndex::FromScriptPath (and
// of UE4 package-import indices): CityHash64 of the lower-cased object path
// with '.' and ':' turned into '/', as UTF-16LE, top two bits cleared.
func ScriptObjectHash(objectPath string) uint64 {
	if h, ok := asciiPathHash(objectPath, true); ok {
		return h &^ (3 << 62)
	}
	p := []rune(lowerName(objectPath))
	for i, c := range p {
		if c == '.' || c == ':' {
			p[i] = '/'
		}
	}
	return city.Hash64(utf16LE(string(p))) &^ (3 << 62)
}

// nameSize is the number of string bytes of a name of n characters (UTF-16
// ones when wide), or an error when fewer than that are left.
func nameSize(wide bool, n, left int) (int, error) {
	if !wide {
		if n > left {
			return 0, fmt.Errorf("name of %d bytes, %d left", n, left)
		}
		return n, nil
	}
	if 2*n > left {
		return 0, fmt.Errorf("UTF-16 name of %d units, %d bytes left", n, left)
	}
	return 2 * n, nil
}

// decodeName reads one name of n characters, stored as UTF-16 when wide.
func decodeName(data []byte, wide bool, n int) (string, int, error) {
	used, err := nameSize(wide, n, len(data))
	if err != nil {
		return "", 0, err
	}
	if !wide {
		return binread.Latin1(data[:n]), n, nil
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(data[2*i:])
	}
	return string(utf16.Decode(u)), used, nil
}

// batchFields are the field names a name batch's reads report, joined once
// for the batches every package has rather than on each read.
type batchFields struct{ num, strBytes, hashVersion, hashes, headers, strs string }

func newBatchFields(field string) batchFields {
	return batchFields{field + ".Num", field + ".NumStringBytes", field + ".HashVersion", field + ".Hashes", field + ".Headers", field + ".Strings"}
}

var (
	nameMapFields              = newBatchFields("NameMap")
	importedPackageNamesFields = newBatchFields("ImportedPackageNames")
)

func batchFieldNames(field string) *batchFields {
	switch field {
	case "NameMap":
		return &nameMapFields
	case "ImportedPackageNames":
		return &importedPackageNamesFields
	}
	f := newBatchFields(field)
	return &f
}

// readNameBatchHead reads a UE5 name batch up to its hashes: the count, the
// string bytes and the hash algorithm. ok is false for an empty batch and
// on error (then r's error is set, as reading the rest would set it).
func readNameBatchHead(r *binread.Reader, field string) (cnt int, strBytes uint32, ok bool) {
	fn := batchFieldNames(field)
	start := r.Offset()
	n := r.U32(fn.num)
	if r.Err() != nil || n == 0 {
		return 0, 0, false
	}
	// Each name costs at least 8 (hash) + 2 (header) bytes.
	cnt = r.CheckCount(start, int64(n), 10, fn.num)
	if r.Err() != nil {
		return 0, 0, false
	}
	strBytes = r.U32(fn.strBytes)
	algo := r.U64(fn.hashVersion)
	if r.Err() == nil && algo != HashAlgorithmID {
		r.Failf(fn.hashVersion, "name hash algorithm 0x%x, want 0x%x", algo, uint64(HashAlgorithmID))
		return 0, 0, false
	}
	if r.Err() != nil {
		return 0, 0, false
	}
	if int64(cnt)*10 > r.Remaining() {
		// Cut short: fail as reading them would.
		r.Bytes(int64(cnt)*8, fn.hashes)
		r.Bytes(int64(cnt)*2, fn.headers)
		return 0, 0, false
	}
	return cnt, strBytes, true
}

// lazyNames is a UE5 name batch read in place: the names are decoded (and
// their hashes checked) one by one when asked for. The UE4 split batch is
// kept decoded in eager.
type lazyNames struct {
	eager   []Name
	hashes  []byte   // little-endian uint64 each
	headers []byte   // big-endian uint16 each
	strs    []byte   // the string bytes
	off     []uint32 // off[i] is where name i starts in strs
}

// readLazyNames reads the name batch at the start of data (r reads data
// from its start) in place, checking what [ReadNameBatch] checks but the
// hashes.
func readLazyNames(r *binread.Reader, data []byte, field string) lazyNames {
	fn := batchFieldNames(field)
	cnt, strBytes, ok := readNameBatchHead(r, field)
	if !ok {
		return lazyNames{}
	}
	at := r.Offset()
	r.Skip(int64(cnt)*10, fn.headers)
	if r.Err() != nil {
		return lazyNames{}
	}
	if int64(strBytes) > r.Remaining() {
		r.Failf(fn.strBytes, "%d string bytes, %d left", strBytes, r.Remaining())
		return lazyNames{}
	}
	strAt := r.Offset()
	r.Skip(int64(strBytes), fn.strs)
	if r.Err() != nil {
		return lazyNames{}
	}
	b := lazyNames{
		hashes:  data[at : at+int64(cnt)*8],
		headers: data[at+int64(cnt)*8 : at+int64(cnt)*10],
		strs:    data[strAt : strAt+int64(strBytes)],
		off:     make([]uint32, cnt),
	}
	pos := 0
	for i := range b.off {
		h := binary.BigEndian.Uint16(b.headers[2*i:])
		used, err := nameSize(h&0x8000 != 0, int(h&0x7FFF), len(b.strs)-pos)
		if err != nil {
			r.Failf(fn.strs, "name %d: %v", i, err)
			return lazyNames{}
		}
		b.off[i] = uint32(pos)
		pos += used
	}
	if pos != len(b.strs) {
		r.Failf(fn.strs, "names use %d of %d string bytes", pos, len(b.strs))
		return lazyNames{}
	}
	return b
}

func (b *lazyNames) len() int {
	if b.eager != nil {
		return len(b.eager)
	}
	return len(b.off)
}

// value is the string of name i (< b.len()).
func (b *lazyNames) value(i int) string {
	if b.eager != nil {
		return b.eager[i].Value
	}
	h := binary.BigEndian.Uint16(b.headers[2*i:])
	s, _, _ := decodeName(b.strs[b.off[i]:], h&0x8000 != 0, int(h&0x7FFF))
	return s
}

// maxLen is at least len(b.value(i)), without decoding it: a UTF-16
// name's UTF-8 form takes up to 3 bytes a unit.
func (b *lazyNames) maxLen(i int) int {
	if b.eager != nil {
		return len(b.eager[i].Value)
	}
	h := binary.BigEndian.Uint16(b.headers[2*i:])
	if h&0x8000 != 0 {
		return 3 * int(h&0x7FFF)
	}
	return int(h & 0x7FFF)
}

// name is name i (< b.len()) with its hash checked.
func (b *lazyNames) name(i int) Name {
	if b.eager != nil {
		return b.eager[i]
	}
	n := Name{Value: b.value(i), Hash: ue.ID(binary.LittleEndian.Uint64(b.hashes[8*i:])), Wide: b.headers[2*i]&0x80 != 0}
	n.HashOK = uint64(n.Hash) == NameHash(n.Value)
	return n
}

// resolve is [MappedName.Resolve] against b.
func (b *lazyNames) resolve(m MappedName) string {
	if m.Number == 0 {
		return b.value(int(m.Index))
	}
	return b.value(int(m.Index)) + "_" + strconv.FormatUint(uint64(m.Number-1), 10)
}

// ReadNameBatch reads the UE5 name batch (FNameMap / LoadNameBatch): uint32
// count, and when non-zero uint32 string bytes, uint64 hash algorithm,
// count hashes, count big-endian headers, then the strings.
func ReadNameBatch(r *binread.Reader, field string) []Name { return readNameBatch(r, nil, field) }

// readNameBatch is [ReadNameBatch] reading the hashes, headers and string
// bytes in place from data when r reads data from its start (data nil:
// they are copied out of r).
func readNameBatch(r *binread.Reader, data []byte, field string) []Name {
	return readNameBatchInto(r, data, field, nil)
}

// readNameBatchInto is readNameBatch reusing spare's memory for the names
// when it is large enough.
func readNameBatchInto(r *binread.Reader, data []byte, field string, spare []Name) []Name {
	fn := batchFieldNames(field)
	cnt, strBytes, ok := readNameBatchHead(r, field)
	if !ok {
		return nil
	}
	// readNameBatchHead checked that the hashes and headers are there.
	var tbl []byte
	if data != nil {
		tbl = data[r.Offset() : r.Offset()+int64(cnt)*10]
		r.Skip(int64(cnt)*10, fn.headers)
	} else {
		tbl = r.Bytes(int64(cnt)*10, fn.headers)
	}
	if r.Err() != nil {
		return nil
	}
	if int64(strBytes) > r.Remaining() {
		r.Failf(fn.strBytes, "%d string bytes, %d left", strBytes, r.Remaining())
		return nil
	}
	var strs []byte
	if data != nil {
		strs = data[r.Offset() : r.Offset()+int64(strBytes)]
		r.Skip(int64(strBytes), fn.strs)
	} else {
		strs = r.Bytes(int64(strBytes), fn.strs)
	}
	if r.Err() != nil {
		return nil
	}
	hashes, headers := tbl[:cnt*8], tbl[cnt*8:]
	names := spareSlice(spare, cnt)
	// ASCII names (nearly all) are slices of one string of the batch's
	// bytes rather than a string each.
	all := string(strs)
	pos := 0
	// Names are lower-cased into buf for their hashes.
	var buf [128]byte
	for i := range names {
		h := binary.BigEndian.Uint16(headers[2*i:])
		wide := h&0x8000 != 0
		l := int(h & 0x7FFF)
		n := &names[i]
		n.Hash, n.Wide = ue.ID(binary.LittleEndian.Uint64(hashes[8*i:])), wide
		if !wide && l <= len(all)-pos {
			if lower, ascii := asciiLowerInto(buf[:0], all[pos:pos+l]); ascii {
				n.Value = all[pos : pos+l]
				n.HashOK = uint64(n.Hash) == city.Hash64(lower)
				pos += l
				continue
			}
		}
		s, used, err := decodeName(strs[pos:], wide, l)
		if err != nil {
			r.Failf(fn.strs, "name %d: %v", i, err)
			return nil
		}
		pos += used
		n.Value = s
		n.HashOK = uint64(n.Hash) == NameHash(s)
	}
	if pos != len(strs) {
		r.Failf(fn.strs, "names use %d of %d string bytes", pos, len(strs))
		return nil
	}
	return names
}

// asciiLowerInto appends s lower-cased to dst (on the heap only when dst
// has no room), eight bytes at a time; ascii is false (and lower
// incomplete) when s is not ASCII.
func asciiLowerInto(dst []byte, s string) (lower []byte, ascii bool) {
	const hi, ones = 0x8080808080808080, 0x0101010101010101
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&hi != 0 {
			return dst, false
		}
		// Bytes below 0x80 do not carry: a byte's top bit is set after
		// adding 0x3F when it is at least 'A', after adding 0x25 when it
		// is above 'Z'.
		upper := (w + 0x3F*ones) &^ (w + 0x25*ones) & hi
		dst = binary.LittleEndian.AppendUint64(dst, w|upper>>2)
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return dst, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 32
		}
		dst = append(dst, c)
	}
	return dst, true
}

// ParseNameBatchParts reads the UE4 (4.26/4.27) split name batch: names is
// a sequence of big-endian int16 headers each followed by the characters
// (UTF-16 ones aligned to 2), hashes is the algorithm ID followed by one
// CityHash64 per name (may be nil when absent).
func ParseNameBatchParts(names, hashes []byte) ([]Name, error) {
	var out []Name
	pos := 0
	for pos < len(names) {
		if len(names)-pos < 2 {
			return nil, fmt.Errorf("name %d: truncated header at byte %d", len(out), pos)
		}
		h := binary.BigEndian.Uint16(names[pos:])
		pos += 2
		wide := h&0x8000 != 0
		l := int(h & 0x7FFF)
		if wide && pos&1 != 0 {
			pos++
		}
		if pos > len(names) {
			return nil, fmt.Errorf("name %d: truncated at byte %d", len(out), pos)
		}
		s, used, err := decodeName(names[pos:], wide, l)
		if err != nil {
			return nil, fmt.Errorf("name %d at byte %d: %v", len(out), pos, err)
		}
		pos += used
		out = append(out, Name{Value: s, Wide: wide})
	}
	if hashes != nil {
		if len(hashes) < 8 || binary.LittleEndian.Uint64(hashes) != HashAlgorithmID {
			return nil, fmt.Errorf("name hashes: missing algorithm ID 0x%x", uint64(HashAlgorithmID))
		}
		if (len(hashes)-8)/8 != len(out) || len(hashes)%8 != 0 {
			return nil, fmt.Errorf("name hashes: %d bytes for %d names", len(hashes), len(out))
		}
		for i := range out {
			out[i].Hash = ue.ID(binary.LittleEndian.Uint64(hashes[8+8*i:]))
			out[i].HashOK = uint64(out[i].Hash) == NameHash(out[i].Value)
		}
	}
	return out, nil
}

// NameType is EMappedNameType (the top two bits of FMappedName's index).
type NameType uint8

const (
	NamePackage   NameType = 0
	NameContainer NameType = 1
	NameGlobal    NameType = 2
)

// MappedName is FMappedName: an index into a package, container or global
// name map (30 bits + 2-bit type) and an FName number.
type MappedName struct {
	Index  uint32   `json:"index"`
	Type   NameType `json:"type"`
	Number uint32   `json:"number"`
}

// ReadMappedName reads an FMappedName (8 bytes).
func ReadMappedName(r *binread.Reader, field string) MappedName {
	v := r.U32Sub(field, ".Index")
	n := r.U32Sub(field, ".Number")
	return MappedName{Index: v & (1<<30 - 1), Type: NameType(v >> 30), Number: n}
}

// Resolve formats m against names ("Name_3" when Number is 4); ok is false
// when the index is outside names.
func (m MappedName) Resolve(names []Name) (string, bool) {
	if int64(m.Index) >= int64(len(names)) {
		return fmt.Sprintf("<name %d>", m.Index), false
	}
	if m.Number == 0 {
		return names[m.Index].Value, true
	}
	// Joined on the stack when short: one allocation, for the string.
	v := names[m.Index].Value
	var buf [64]byte
	b := buf[:0]
	if len(v)+11 > len(buf) {
		b = make([]byte, 0, len(v)+11)
	}
	b = append(b, v...)
	b = append(b, '_')
	b = strconv.AppendUint(b, uint64(m.Number-1), 10)
	return string(b), true
}

// PublicExportHash is FPackageObjectIndex::GenerateExportHash (UE5): the
// CityHash64 of the export's path inside its package, lower-case, with '/'
// between the levels ("asset" or "asset/subobject"), as UTF-16LE.
func PublicExportHash(relativePath string) uint64 {
	if h, ok := asciiPathHash(relativePath, true); ok {
		return h
	}
	p := []rune(lowerName(relativePath))
	for i, c := range p {
		if c == '.' || c == ':' {
			p[i] = '/'
		}
	}
	return city.Hash64(utf16LE(string(p)))
}
