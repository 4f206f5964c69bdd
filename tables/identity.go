package tables

import "strings"

// placeholders are the values that stand for an identity nobody recorded.
var placeholders = []string{"tbd", "unknown", "n/a", "-", "none", "todo"}

// PlaceholderIdentity reports whether an identity value is a placeholder
// rather than an identity: white space only, or (case-insensitive, around
// white space) one of TBD, unknown, n/a, -, none, todo. A placeholder is
// refused like a missing identity; it is never taken as one.
func PlaceholderIdentity(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "" {
		return true
	}
	for _, p := range placeholders {
		if t == p {
			return true
		}
	}
	return false
}
