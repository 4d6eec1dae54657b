// Package cpuid asks an x86-64 processor what it has (the CPUID and XGETBV
// instructions), for the packages that pick assembly kernels by it
// (internal/blake3 at init, internal/aeskey on the first key). It asks
// nothing itself: CPUID traps to the hypervisor in a virtual machine
// (about 6 µs a call on the project's VMs), so each caller asks only what
// it needs, once.
package cpuid
