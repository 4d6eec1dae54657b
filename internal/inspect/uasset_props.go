//go:build !upkg_only || upkg_uasset

package inspect

// This file plugs the property decoder (packages property and assetprops)
// into the UE4/UE5 package opener: Package.Props decodes an export on
// demand, Package.Properties carries the verify statistics, and engine
// inference drops candidate engines under which property streams fail.

import (
	"fmt"
	"sync"

	"github.com/upkg/upkg/assetprops"
	"github.com/upkg/upkg/uasset"
)

func init() {
	uassetHooks = append(uassetHooks, propsHook)
	uassetOptions = append(uassetOptions, propsOptions)
}

// propsOptions adds the property check to engine inference: a candidate
// engine under which the first exports' property streams do not decode is
// dropped. With --engine there is nothing to infer.
func propsOptions(in *Input, opts *Options) []uasset.Option {
	if opts.Engine != "" {
		return nil
	}
	m, _ := loadMappings(opts)
	loader := func(f *uasset.File) assetprops.Loader {
		if _, _, ok := SplitContainerPath(in.Name); ok {
			return nil
		}
		return assetprops.FileLoader(in.Name, f.PackagePath, opts.ReadFile, uasset.WithEngine(f.Engine.Version))
	}
	c := assetprops.NewCandidateChecker(m, loader)
	checkers.put(opts, c)
	return []uasset.Option{uasset.WithCandidateCheck(c.Check)}
}

// checkers hands the candidate checker of a package being opened to
// propsHook, which runs in the same open (with the same *Options), so that
// the verify pass reuses what the check of the chosen layout decoded.
// Entries of opens that failed before the hook are dropped when the table
// grows; a lost entry only costs decoding again.
var checkers = checkerTable{m: map[*Options]*assetprops.CandidateChecker{}}

type checkerTable struct {
	mu sync.Mutex
	m  map[*Options]*assetprops.CandidateChecker
}

func (t *checkerTable) put(o *Options, c *assetprops.CandidateChecker) {
	t.mu.Lock()
	if len(t.m) >= 64 {
		clear(t.m)
	}
	t.m[o] = c
	t.mu.Unlock()
}

func (t *checkerTable) take(o *Options) *assetprops.CandidateChecker {
	t.mu.Lock()
	c := t.m[o]
	delete(t.m, o)
	t.mu.Unlock()
	return c
}

func propsHook(f *uasset.File, p *Package, opts *Options) error {
	checker := checkers.take(opts)
	m, merr := loadMappings(opts)
	ctx := assetprops.ContextWith(f, m, packageLoader(f, p, opts))
	var mu sync.Mutex // the context's schema cache is not safe for concurrent use
	_, uexpSize := f.Uexp()
	budget := newExportBudget(len(f.Exports), f.Size()+uexpSize)
	p.Props = func(i int) (any, error) {
		mu.Lock()
		defer mu.Unlock()
		if merr != nil {
			return nil, merr
		}
		if i >= 0 && i < len(f.Exports) && !f.MissingUexp() && !budget.allow(i, f.Exports[i].SerialSize) {
			return nil, fmt.Errorf("export %d: %w", i, errSharedData)
		}
		o, err := assetprops.Decode(f, ctx, i)
		if err != nil {
			return nil, err
		}
		return o, nil
	}
	if !opts.Verify && !opts.Properties {
		return merr
	}
	if f.MissingUexp() {
		// The export data lies in the .uexp, which is missing: there is
		// nothing to decode, and verify notes it (missingUexpNote)
		// rather than failing every export.
		return nil
	}
	if merr == nil && ctx.Unversioned && m == nil {
		// Nothing can be checked without the schema: say so, but do not
		// fail the file for it.
		if len(f.Exports) > 0 {
			p.addNote(noMappingsNote)
		}
		return fmt.Errorf("properties not checked: %w", assetprops.ErrNeedMappings)
	}
	st := &Stats{}
	p.Properties = st
	if merr != nil {
		st.Failed = len(f.Exports)
		st.Failures = []string{merr.Error()}
		return merr
	}
	mu.Lock()
	var prior *assetprops.Prior
	if checker != nil {
		prior = checker.Prior(f)
	}
	s, err := assetprops.DecodeStatsWith(f, ctx, prior)
	if opts.resultOnly {
		// The line takes the counts below; the contexts serve the next
		// package.
		assetprops.ReleaseContext(ctx)
		if checker != nil {
			checker.Release()
		}
	}
	mu.Unlock()
	if err != nil {
		st.ExportsWithProperties = len(f.Exports)
		st.Failed = len(f.Exports)
		st.Failures = []string{err.Error()}
		for i := range f.Exports {
			st.BytesUnaccounted += f.Exports[i].SerialSize
		}
		return nil
	}
	st.ExportsWithProperties = s.Exports
	st.OK = s.Complete
	st.Failed = s.Failed + s.NoData
	st.BytesUnaccounted = s.BytesUnaccounted
	st.Failures = s.Failures
	return nil
}

// packageLoader finds the packages a package imports its Blueprint classes
// and user-defined structs from, beside it on disk, for their schemas.
// Packages inside containers get none.
func packageLoader(f *uasset.File, p *Package, opts *Options) assetprops.Loader {
	if _, _, ok := SplitContainerPath(p.Path); ok || f.Summary.PackageFlags&uasset.PKG_UnversionedProperties == 0 {
		return nil
	}
	var uopts []uasset.Option
	if f.Engine.Source != "header" && f.Engine.Version != "" {
		if _, ok := uasset.LookupEngine(f.Engine.Version); ok {
			uopts = append(uopts, uasset.WithEngine(f.Engine.Version))
		}
	}
	return assetprops.FileLoader(p.Path, f.PackagePath, opts.ReadFile, uopts...)
}
