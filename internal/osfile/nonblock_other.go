//go:build !unix

package osfile

// openNonblock: no named pipes to open here.
const openNonblock = 0
