package tables

// Codes emitted by stages/account.
const ()

var accountCodes = []CodeDoc{}
