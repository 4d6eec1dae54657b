package main

import (
	"fmt"
	"path"
	"strings"
)

// globMatch reports whether name (a slash-separated container path) matches
// pattern. Each pattern element is matched with path.Match, and "**" matches
// any number of elements (zero included). A pattern without a slash matches
// the last element of name, so "*.uasset" selects every .uasset anywhere.
// Matching ignores case, as Unreal paths do.
func globMatch(pattern, name string) (bool, error) {
	pattern, name = strings.ToLower(strings.TrimPrefix(pattern, "/")), strings.ToLower(strings.TrimPrefix(name, "/"))
	if _, err := path.Match(pattern, ""); err != nil {
		return false, err
	}
	if !strings.Contains(pattern, "/") && pattern != "**" {
		return path.Match(pattern, path.Base(name))
	}
	return matchElems(strings.Split(pattern, "/"), strings.Split(name, "/")), nil
}

func matchElems(pat, elems []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			// Collapse repeated "**" and try every split point.
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := 0; i <= len(elems); i++ {
				if matchElems(pat, elems[i:]) {
					return true
				}
			}
			return false
		}
		if len(elems) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], elems[0]); !ok {
			return false
		}
		pat, elems = pat[1:], elems[1:]
	}
	return len(elems) == 0
}

// globFilter is the --include / --exclude selection of ls and extract.
type globFilter struct {
	include, exclude []string
}

// validate checks the patterns' syntax.
func (f globFilter) validate() error {
	for _, set := range []struct {
		flag     string
		patterns []string
	}{{"--include", f.include}, {"--exclude", f.exclude}} {
		for _, p := range set.patterns {
			if _, err := globMatch(p, ""); err != nil {
				return fmt.Errorf("%s %q: %v", set.flag, p, err)
			}
		}
	}
	return nil
}

// match reports whether name is selected: it matches an include pattern (or
// there are none) and no exclude pattern.
func (f globFilter) match(name string) bool {
	ok := len(f.include) == 0
	for _, p := range f.include {
		if m, _ := globMatch(p, name); m {
			ok = true
			break
		}
	}
	if !ok {
		return false
	}
	for _, p := range f.exclude {
		if m, _ := globMatch(p, name); m {
			return false
		}
	}
	return true
}
