// Package cpuid asks an x86-64 processor what it has (the CPUID and XGETBV
// instructions), for the packages that pick assembly kernels by it
// (internal/blake3, internal/aeskey). It has no init work: CPUID traps to
// the hypervisor in a virtual machine (about 6 µs a call on the project's
// VMs), so callers ask once, when they first need to know.
package cpuid
