package tables

// Codes emitted by stages/score.
const ()

var scoreCodes = []CodeDoc{}
