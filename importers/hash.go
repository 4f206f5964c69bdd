package importers

import (
	"crypto/sha256"
	"encoding/hex"
)

// sha256Hex is the lowercase hex sha256 of data.
func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
