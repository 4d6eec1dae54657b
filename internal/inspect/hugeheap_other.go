//go:build !linux

package inspect

// prepareHugeHeap asks for huge heap pages on Linux only (see
// hugeheap_linux.go).
func prepareHugeHeap() {}
