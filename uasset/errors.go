package uasset

import (
	"errors"
	"fmt"
)

// FormatError reports a package that is corrupt or truncated: a field that
// cannot be read or holds an impossible value. Err is usually a
// *binread.Error carrying the file offset and field name.
type FormatError struct {
	Section string // "summary", "names", "imports", …
	Err     error
}

func (e *FormatError) Error() string { return "uasset: " + e.Section + ": " + e.Err.Error() }
func (e *FormatError) Unwrap() error { return e.Err }

// UnsupportedError reports a valid package this reader does not handle.
type UnsupportedError struct{ Msg string }

func (e *UnsupportedError) Error() string { return "uasset: unsupported: " + e.Msg }

var (
	// ErrNotPackage reports a file that does not start with the package tag.
	ErrNotPackage = errors.New("uasset: not a UE4/UE5 package (no package tag 0x9E2A83C1)")
	// ErrEncrypted reports an Ace Combat 7 package (first bytes "ACE7"),
	// whose contents are XOR-encrypted.
	ErrEncrypted = errors.New("uasset: encrypted (Ace Combat 7 XOR): not decrypted")
	// ErrNeedEngine reports an unversioned package whose engine version
	// could not be inferred; give one with WithEngine.
	ErrNeedEngine = errors.New("uasset: unversioned package: engine version needed")
	// errCutShort leads the error of an unversioned package whose header
	// runs past the end of the file under the layout that got furthest.
	errCutShort = errors.New("uasset: unversioned package cut short? its header runs past the end of the file")
)

func formatErr(section string, err error) error {
	if err == nil {
		return nil
	}
	var fe *FormatError
	if errors.As(err, &fe) {
		return err
	}
	return &FormatError{Section: section, Err: err}
}

func formatErrf(section, format string, args ...any) error {
	return &FormatError{Section: section, Err: fmt.Errorf(format, args...)}
}

var errNegativeCount = errors.New("negative count")

func itoa(v int64) string { return fmt.Sprint(v) }
