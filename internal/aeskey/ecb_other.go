//go:build !amd64 || purego

package aeskey

// newDecKey returns nil: blocks are decrypted through the block cipher.
func newDecKey([]byte) *[decKeyLen]byte { return nil }

func decryptECB(*[decKeyLen]byte, []byte) { panic("aeskey: no ECB kernel") }
