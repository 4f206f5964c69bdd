package load

import (
	"regexp"
	"testing"
	"unicode/utf8"
)

// grammars are the regular expressions the hand-written matchers of
// grammar.go implement.
var grammars = []struct {
	name  string
	re    *regexp.Regexp
	match func(string) bool
}{
	{"integer", regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)$`), isIntegerLiteral},
	{"identifier", regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`), IsIdentifier},
	{"any ID", regexp.MustCompile(`^[CAVUXEO][1-9][0-9]*$`), isAnyID},
	{"timestamp", regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?Z$`), isTimestampSyntax},
}

var grammarSamples = []string{
	"", "0", "-0", "00", "-", "1", "-12", "012", "1.5", "1e3", "+1", "9223372036854775808", " 1", "1\n",
	"a", "A-b_c.9", "-a", ".a", "é", "a b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"C1", "C0", "C01", "E12", "O3", "Z1", "c1", "C", "C1a", "X9\n",
	"2026-09-05T10:00:00Z", "2026-09-05T10:00:00.1Z", "2026-09-05T10:00:00.123456789Z",
	"2026-09-05T10:00:00.1234567890Z", "2026-09-05T10:00:00.Z", "2026-09-05T10:00:00", "2026-09-05 10:00:00Z",
	"2026-09-05T10:00:00+00:00", "2026-9-05T10:00:00Z", "x2026-09-05T10:00:00Z", "2026-09-05T10:00:00ZZ",
}

// FuzzGrammars checks each matcher against its regular expression, and
// lengthWithin against counting characters.
func FuzzGrammars(f *testing.F) {
	for _, s := range grammarSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range grammars {
			if got, want := g.match(s), g.re.MatchString(s); got != want {
				t.Errorf("%s %q: matcher %v, regexp %v", g.name, s, got, want)
			}
		}
		n := utf8.RuneCountInString(s)
		for _, b := range [][2]int{{0, -1}, {1, -1}, {2, -1}, {0, 0}, {1, 1}, {0, 3}, {1, 3}, {2, 5}, {3, 64}} {
			if got, want := lengthWithin(s, b[0], b[1]), n >= b[0] && (b[1] < 0 || n <= b[1]); got != want {
				t.Errorf("lengthWithin(%q, %d, %d) = %v, want %v", s, b[0], b[1], got, want)
			}
		}
	})
}
