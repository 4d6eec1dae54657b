//go:build wasm

package inspect

// diskReads: in the browser every file comes from the page, which always
// gives Options a ReadFile; leaving os.ReadFile out of the modules keeps
// the os package's file types and, through their FileInfo, time
// formatting out of the uasset module.
const diskReads = false
