package inspect

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// innerNames are the files of a container as resolveInner matches a user's
// inner path against them: file i is stored as names()[i] ("" for a file
// to leave out), and lookup finds an exact stored path.
type innerNames struct {
	names  func() []string // made only when no exact lookup finds p
	lookup func(p string) (int, bool)
	what   string // "the pak", "the container"
}

// innerExts are the extensions a package path may leave out.
var innerExts = []string{"", ".uasset", ".umap"}

// resolveInner finds the file inner names, the same way in every kind of
// container: backslashes or slashes, a leading slash or not; the stored
// path with or without a package extension; an object path ("/Game/A/B.B"
// names the package /Game/A/B); a package path (/Game/X is the project's
// Content/X, /Engine/X Engine/Content/X, /Plugin/X a plugin's Content/X);
// or a unique path suffix; all ignoring case, as the engine does. Any
// other extension is part of the name: "X.Wrong" is not X.uasset.
func resolveInner(c innerNames, inner string) (int, error) {
	p := strings.TrimPrefix(strings.ReplaceAll(inner, "\\", "/"), "/")
	if p == "" {
		return 0, fmt.Errorf("no path given (list the files with `upkg ls`)")
	}
	if dot := strings.LastIndexByte(p, '.'); dot > strings.LastIndexByte(p, '/') {
		if base := p[strings.LastIndexByte(p, '/')+1 : dot]; strings.EqualFold(base, p[dot+1:]) {
			p = p[:dot]
		}
	}
	for _, ext := range innerExts {
		if i, ok := c.lookup(p + ext); ok {
			return i, nil
		}
	}
	all := c.names()
	var matches []int
	if innerByName {
		matches = matchInner(all, p)
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return 0, fmt.Errorf("%w: %q is not in %s (%d files; list them with `upkg ls`)", fs.ErrNotExist, inner, c.what, len(all))
	}
	var names []string
	for _, i := range matches[:min(5, len(matches))] {
		names = append(names, all[i])
	}
	return 0, fmt.Errorf("%q is ambiguous in %s: %s", inner, c.what, strings.Join(names, ", "))
}

// matchInner returns the indices of the names (stored paths) that p, a
// path a user gave (slashes, no leading one), names otherwise than
// exactly.
func matchInner(names []string, p string) []int {
	lower := strings.ToLower(p)
	root, rest, _ := strings.Cut(lower, "/")
	var matches []int
	for i, name := range names {
		if name == "" {
			continue
		}
		name = strings.ToLower(name)
		// A package is matched with its extension and without.
		base := name
		if ext := path.Ext(name); ext == ".uasset" || ext == ".umap" {
			base = name[:len(name)-len(ext)]
		}
		if innerMatch(name, lower, root, rest) || base != name && innerMatch(base, lower, root, rest) {
			matches = append(matches, i)
		}
	}
	return matches
}

// innerMatch reports whether the stored name (lower case) is the path want
// (lower case; root and rest are its first element and the rest): the
// same, a suffix of it, or a package path whose root is a mount point.
func innerMatch(name, want, root, rest string) bool {
	if name == want || strings.HasSuffix(name, "/"+want) {
		return true
	}
	if rest == "" {
		return false
	}
	prefix, ok := strings.CutSuffix(name, "/content/"+rest)
	return ok && (root == "game" && !strings.Contains(prefix, "/plugins/") && prefix != "engine" || path.Base(prefix) == root)
}
