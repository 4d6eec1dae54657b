package compression

import (
	"errors"

	"github.com/upkg/upkg/internal/oodle"
)

// Oodle blocks are decoded by the pure-Go Kraken decoder in internal/oodle;
// blocks of the other Oodle codecs report an *UnsupportedError naming the
// codec.
func init() {
	Register("Oodle", func(dst, src []byte) error {
		err := oodle.Decompress(dst, src)
		var ue *oodle.UnsupportedError
		if errors.As(err, &ue) {
			return &UnsupportedError{Method: "Oodle " + ue.Codec.String()}
		}
		return err
	})
}
