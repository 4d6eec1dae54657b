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

// matchElems reports whether the path elements match the pattern's, "**"
// matching any number of elements (none too). It goes through the pattern
// once, keeping which numbers of elements the pattern so far can match:
// trying every split point at each "**" in turn took time exponential in
// their number (five "**" over a path 40 deep: 20 ms a path).
func matchElems(pat, elems []string) bool {
	reach := make([]bool, 2*(len(elems)+1))
	cur, next := reach[:len(elems)+1], reach[len(elems)+1:]
	cur[0] = true
	for _, p := range pat {
		clear(next)
		any := false
		for j := range cur {
			if p == "**" {
				any = any || cur[j]
				next[j] = any
			} else if j > 0 && cur[j-1] {
				next[j], _ = path.Match(p, elems[j-1])
			}
			any = any || next[j]
		}
		if !any {
			return false
		}
		cur, next = next, cur
	}
	return cur[len(elems)]
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
