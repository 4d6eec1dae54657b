//go:build !race

package alloctest

const race = false
