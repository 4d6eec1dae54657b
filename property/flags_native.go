//go:build !wasm

package property

// flagEnumNames: a flags value no single enum name gives is named by its
// bits (flagNames).
const flagEnumNames = true

// zeroStructFields: a zero-masked native struct shows its zero fields.
const zeroStructFields = true

// checkHeaderSpan: an unversioned header that covers more properties than
// the schema has is an error (unversionedOnStack).
const checkHeaderSpan = true

// enumTailByte: an unversioned cook's UEnum takes its one byte left as
// the underlying type (enumData).
const enumTailByte = true
