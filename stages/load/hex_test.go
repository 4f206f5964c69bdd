package load

import (
	"strings"
	"testing"
)

// TestIsLowerHex: every byte value, at the first, a middle and the last of
// 64 digits, is accepted exactly when it is 0-9 or a-f; the length must be
// the one asked for.
func TestIsLowerHex(t *testing.T) {
	base := strings.Repeat("0123456789abcdef", 4)
	if !isLowerHex(base, 64) || isLowerHex(base, 63) || isLowerHex(base[:63], 64) || !isLowerHex("", 0) {
		t.Fatal("wrong verdict on the plain digest or a length")
	}
	for c := range 256 {
		want := '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
		for _, at := range []int{0, 31, 63} {
			s := base[:at] + string([]byte{byte(c)}) + base[at+1:]
			if got := isLowerHex(s, 64); got != want {
				t.Errorf("byte %#x at %d: isLowerHex = %v, want %v", c, at, got, want)
			}
		}
	}
}
