package binread

import (
	"errors"
	"fmt"
	"io"
	"testing"
)

// TestLazyError checks that a lazy error reads and unwraps as the
// fmt.Errorf it stands for.
func TestLazyError(t *testing.T) {
	for _, c := range []struct {
		lazy error
		want error
	}{
		{NewLazyError(nil, "bool value %d is neither 0 nor 1", 7), fmt.Errorf("bool value %d is neither 0 nor 1", uint32(7))},
		{NewLazyError(ErrNegative, "count %d", -3), fmt.Errorf("%w: count %d", ErrNegative, -3)},
		{NewLazyError(ErrCount, "count %d of at least %d bytes each, %d bytes left", 9, 4, 2), fmt.Errorf("%w: count %d of at least %d bytes each, %d bytes left", ErrCount, 9, 4, 2)},
		{NewLazyError(ErrCount, "string of %d bytes, %d left", 1<<30, 0), fmt.Errorf("%w: string of %d bytes, %d left", ErrCount, int32(1<<30), 0)},
		{NewLazyError(nil, "string length %d", -1<<31), fmt.Errorf("string length %d", int32(-1<<31))},
		{NewLazyError(io.ErrUnexpectedEOF, "%d bytes wanted, %d left", 5, 1), fmt.Errorf("%w: %d bytes wanted, %d left", io.ErrUnexpectedEOF, 5, 1)},
	} {
		if c.lazy.Error() != c.want.Error() {
			t.Errorf("%q, want %q", c.lazy.Error(), c.want.Error())
		}
		for _, target := range []error{ErrCount, ErrNegative, io.ErrUnexpectedEOF} {
			if errors.Is(c.lazy, target) != errors.Is(c.want, target) {
				t.Errorf("%q: errors.Is(%v) differs", c.lazy.Error(), target)
			}
		}
	}
}
