//go:build wasm

package property

// flagEnumNames: the page, whose WebAssembly modules have a size budget,
// shows a flags value no single enum name gives as its number.
const flagEnumNames = false

// zeroStructFields: the page shows a zero-masked native struct without
// its fields, for the size budget.
const zeroStructFields = false

// checkHeaderSpan: the page, for the size budget, does not check that an
// unversioned header stays within the schema.
const checkHeaderSpan = false

// enumTailByte: the page leaves an unversioned UEnum's last byte as tail,
// for the size budget.
const enumTailByte = false
