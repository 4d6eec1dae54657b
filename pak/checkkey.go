package pak

// CheckKey reports whether the key given to [NewReader] decrypts the pak:
// nil when it does or when nothing is encrypted, a [*KeyError] wrapping
// [ErrWrongKey] when it does not. An encrypted index is checked when the pak
// is opened; encrypted entries under a plain index are checked here, by
// decrypting the first entries that can prove it (as reads do lazily).
func (p *Reader) CheckKey() error {
	if !p.Encrypted() {
		return nil
	}
	return p.checkKey()
}
