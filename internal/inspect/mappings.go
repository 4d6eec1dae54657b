//go:build !upkg_only || upkg_uasset || upkg_iostore

package inspect

import (
	"fmt"
	"os"
	"sync"

	"github.com/upkg/upkg/usmap"
)

// mappingsCache keeps parsed .usmap files by path: verify opens many
// packages with the same mappings, and parsing takes tens of milliseconds.
var mappingsCache sync.Map // path -> *mappingsEntry

type mappingsEntry struct {
	once sync.Once
	f    *usmap.File
	err  error
}

// loadMappings reads opts.Mappings (nil when none is set).
func loadMappings(opts *Options) (*usmap.File, error) {
	if opts == nil || opts.Mappings == "" {
		return nil, nil
	}
	v, _ := mappingsCache.LoadOrStore(opts.Mappings, &mappingsEntry{})
	e := v.(*mappingsEntry)
	e.once.Do(func() {
		read := opts.ReadFile
		if read == nil && diskReads {
			read = os.ReadFile
		}
		if read == nil {
			e.err = fmt.Errorf("mappings: %s: no reader given for it", opts.Mappings)
			return
		}
		b, err := read(opts.Mappings)
		if err != nil {
			e.err = fmt.Errorf("mappings: %w", err)
			return
		}
		e.f, e.err = usmap.Parse(b)
		if e.err != nil {
			e.err = fmt.Errorf("mappings %s: %w", opts.Mappings, e.err)
		}
	})
	return e.f, e.err
}
