package compression

import (
	"errors"

	"github.com/upkg/upkg/internal/oodle"
)

// Oodle blocks are decoded by the pure-Go decoder in internal/oodle (Kraken,
// Mermaid, Selkie, Leviathan); blocks of the legacy codecs (LZNA, BitKnit)
// report an *UnsupportedError naming the codec.
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
