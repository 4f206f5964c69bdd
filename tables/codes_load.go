package tables

// Codes emitted by stages/load.
const ()

var loadCodes = []CodeDoc{}
