//go:build !race

package inspect

// raceEnabled: see race_on_test.go.
const raceEnabled = false
