//go:build !linux

package main

// reserveHugeHeap does nothing where transparent huge pages are not known
// (see the Linux version).
func reserveHugeHeap(n int) {}
