package tables

import "strings"

// placeholders are the values that stand for an identity nobody recorded.
var placeholders = []string{
	"tbd", "tba", "todo", "fixme", "pending", "unknown", "n/a", "na", "n.a.", "none", "null", "nil",
	"undefined", "unset", "not set", "missing", "placeholder", "changeme", "?", "-", "…",
}

// PlaceholderIdentity reports whether an identity value is a placeholder
// rather than an identity: white space only; (case-insensitive, around
// white space) one of the words nobody records as an identity (TBD,
// pending, unknown, n/a, none, todo, changeme, …, the list above); one
// character other than a digit 1–9 three times or more ("xxx", "000",
// "???", "---"), or only zeros and dots ("0", "0.0.0"); or a template left
// unfilled ("<model>", "{{cli}}", "${HOST}", "[host]"). A placeholder is
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
	if (len(t) >= 3 && repeated(t, 1) && (t[0] < '1' || t[0] > '9')) || strings.Trim(t, "0.") == "" {
		return true
	}
	for _, br := range [][2]string{{"<", ">"}, {"{{", "}}"}, {"${", "}"}, {"[", "]"}, {"%", "%"}} {
		if len(t) > len(br[0])+len(br[1]) && strings.HasPrefix(t, br[0]) && strings.HasSuffix(t, br[1]) {
			return true
		}
	}
	return false
}

// PlaceholderHash reports whether a hexadecimal digest is a placeholder
// rather than a digest: a block of at most sixteen characters repeated to
// its length (all zeros, all one digit, "abab…", "deadbeef…",
// "0123456789abcdef…"). No real SHA-256 is so periodic.
func PlaceholderHash(s string) bool {
	t := strings.ToLower(s)
	for period := 1; period <= 16; period++ {
		if repeated(t, period) {
			return true
		}
	}
	return false
}

// repeated reports whether s is its first period bytes repeated at least
// twice over its whole length.
func repeated(s string, period int) bool {
	if len(s) < 2*period || len(s)%period != 0 {
		return false
	}
	for i := period; i < len(s); i++ {
		if s[i] != s[i-period] {
			return false
		}
	}
	return true
}
