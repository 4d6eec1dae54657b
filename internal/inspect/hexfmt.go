package inspect

// hexDigits appends v as n lower-case hex digits (the low 4n bits), like
// fmt's %0Nx for values that fit; name maps have thousands of hashes, and
// formatting them through fmt was a visible part of opening a package.
func hexDigits(dst []byte, v uint64, n int) []byte {
	const digits = "0123456789abcdef"
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, digits[(v>>(4*uint(i)))&0xF])
	}
	return dst
}

// nameHashes16 renders a UE4/UE5 name map entry's two 16-bit hashes as
// fmt.Sprintf("%04x%04x", nonCase, cased) does.
func nameHashes16(nonCase, cased uint16) string {
	var b [8]byte
	return string(hexDigits(hexDigits(b[:0], uint64(nonCase), 4), uint64(cased), 4))
}

// hash64 renders v as fmt.Sprintf("%016x", v) does.
func hash64(v uint64) string {
	var b [16]byte
	return string(hexDigits(b[:0], v, 16))
}
