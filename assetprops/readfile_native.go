//go:build !wasm

package assetprops

import "os"

// readFile is how FileLoader reads when its caller gives no reader.
var readFile = os.ReadFile
