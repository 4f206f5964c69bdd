package tables

// Codes emitted by stages/validate.
const ()

var validateCodes = []CodeDoc{}
