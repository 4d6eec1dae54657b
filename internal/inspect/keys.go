package inspect

import (
	"errors"
	"strings"
)

// splitKeys splits the --aes-key value. Several keys may be given, separated
// by commas, for a game whose containers use different keys (hex and base64
// never contain a comma).
func splitKeys(s string) []string {
	var keys []string
	for _, k := range strings.Split(s, ",") {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// wrongKeyErrs are the formats' "wrong AES key" sentinels; each format
// family adds its own from its init (so a build with only some families
// links only their readers).
var wrongKeyErrs []error

// isWrongKey reports whether err says an AES key did not decrypt the data,
// so the next key is worth trying.
func isWrongKey(err error) bool {
	for _, w := range wrongKeyErrs {
		if errors.Is(err, w) {
			return true
		}
	}
	return false
}

// eachKey calls open with each key of keys in turn and returns the first
// success. A wrong-key failure moves on to the next key; any other error is
// returned at once. With no key, open is called once with "".
func eachKey[T any](keys string, open func(key string) (T, error)) (T, error) {
	list := splitKeys(keys)
	if len(list) <= 1 {
		k := "" // no key; a stray comma ("KEY,") names no second one
		if len(list) == 1 {
			k = list[0]
		}
		return open(k)
	}
	var zero T
	var err error
	for _, k := range list {
		var v T
		if v, err = open(k); err == nil {
			return v, nil
		}
		if !isWrongKey(err) {
			return zero, err
		}
	}
	return zero, err
}
