package binread

import "fmt"

// lazyError is the error of a failed check whose message is formatted only
// when asked for: readers trying a layout that may be wrong (engine
// inference) fail often and mostly drop the error. Its text and what it
// wraps are those of fmt.Errorf(wrap-verb+": "+format, wrap, args...), or of
// fmt.Errorf(format, args...) when wrap is nil.
type lazyError struct {
	wrap   error // what %w named, or nil
	format string
	args   [3]int64
	n      int // arguments used
}

// NewLazyError returns the error fmt.Errorf("%w: "+format, wrap, args...)
// gives (fmt.Errorf(format, args...) when wrap is nil), formatted only when
// its text is asked for. format takes at most three integer verbs.
func NewLazyError(wrap error, format string, args ...int64) *lazyError {
	e := &lazyError{wrap: wrap, format: format, n: len(args)}
	if len(args) > len(e.args) {
		panic("binread: NewLazyError takes at most three arguments")
	}
	copy(e.args[:], args)
	return e
}

func (e *lazyError) Error() string {
	var args [3]any
	for i := range e.n {
		args[i] = e.args[i]
	}
	s := fmt.Sprintf(e.format, args[:e.n]...)
	if e.wrap != nil {
		return e.wrap.Error() + ": " + s
	}
	return s
}

func (e *lazyError) Unwrap() error { return e.wrap }
