package inspect

import (
	"errors"
	"strings"

	"github.com/upkg/upkg/iostore"
	"github.com/upkg/upkg/legacy"
	"github.com/upkg/upkg/pak"
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

// isWrongKey reports whether err says an AES key did not decrypt the data,
// so the next key is worth trying.
func isWrongKey(err error) bool {
	return errors.Is(err, pak.ErrWrongKey) || errors.Is(err, iostore.ErrWrongKey) || errors.Is(err, legacy.ErrWrongKey)
}

// eachKey calls open with each key of keys in turn and returns the first
// success. A wrong-key failure moves on to the next key; any other error is
// returned at once. With no key, open is called once with "".
func eachKey[T any](keys string, open func(key string) (T, error)) (T, error) {
	list := splitKeys(keys)
	if len(list) <= 1 {
		return open(strings.TrimSpace(keys))
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

// openPakKeys opens a pak with the first of the given keys that decrypts it.
// For a pak whose index is plain but whose entries are encrypted, the key
// is checked against the entries before it is taken.
func openPakKeys(keys string, open func(opt pak.Option) (*pak.Reader, error)) (*pak.Reader, error) {
	multi := len(splitKeys(keys)) > 1
	return eachKey(keys, func(k string) (*pak.Reader, error) {
		r, err := open(pak.WithKeyString(k))
		if err != nil || !multi {
			return r, err
		}
		if err := r.CheckKey(); err != nil {
			r.Close()
			return nil, err
		}
		return r, nil
	})
}
