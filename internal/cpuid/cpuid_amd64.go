//go:build amd64 && !purego

package cpuid

// CPUID runs the CPUID instruction for leaf eaxArg, subleaf ecxArg.
func CPUID(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// XGETBV reads the extended control register XCR0 (which register states
// the operating system saves); only when CPUID leaf 1 reports OSXSAVE.
func XGETBV() (eax, edx uint32)
