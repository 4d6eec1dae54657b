//go:build !race

package legacy

// raceEnabled: see race_on_test.go.
const raceEnabled = false
