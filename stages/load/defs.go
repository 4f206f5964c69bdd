package load

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// specialCheck enforces one of evalgate's own $defs with a precise Go
// check and a specific code. The published $defs entry states the same
// rule for other JSON Schema validators; TestSpecialDefsAgreeWithSchema
// keeps the two in step where the pattern is RE2.
type specialCheck func(w *walker, v *node, ptr string, def *rule)

// specialDefs maps a $defs name to its Go check. Every schema using one of
// these names means exactly this rule by it.
var specialDefs map[string]specialCheck

func init() {
	specialDefs = map[string]specialCheck{
		"text":           checkText,
		"claimId":        idCheck("C"),
		"actionId":       idCheck("A"),
		"verificationId": idCheck("V"),
		"uncertaintyId":  idCheck("U"),
		"exclusionId":    idCheck("X"),
		"evidenceId":     idCheck("E"),
		"obligationId":   idCheck("O"),
		"supportedId":    idCheck("CAVX"),
		"finalId":        idCheck("CAVUX"),
		"path":           checkPath,
		"line":           checkLine,
		"sha256":         hexCheck(64, false, false),
		"sha256OrEmpty":  hexCheck(64, true, false),
		"identitySha256": hexCheck(64, false, true),
		"commit":         hexCheck(40, false, false),
		"timestamp":      checkTimestamp,
		"date":           checkDate,
		"identifier":     checkIdentifier,
		"decimal":        decimalCheck(tables.MoneyScale, rules.CodeDecimalInvalid),
		"price":          decimalCheck(6, rules.CodePriceInvalid),
		"identity":       checkIdentity,
		"runtimes":       checkRuntimes,
	}
}

// str returns v's string or reports a wrong type.
func (w *walker) str(v *node, ptr, what string) (string, bool) {
	if v.kind != kindString {
		w.checkType(&rule{types: []string{"string"}}, v, ptr)
		return "", false
	}
	return v.text, true
}

// maxText is the contract's cap on text, in Unicode scalar values.
const maxText = 2048

func checkText(w *walker, v *node, ptr string, _ *rule) {
	s, ok := w.str(v, ptr, "text")
	switch {
	case !ok:
	case s == "":
		w.add(rules.CodeTextEmpty, ptr, "text is empty")
	case strings.TrimSpace(s) != s:
		w.add(rules.CodeTextUntrimmed, ptr, "text has leading or trailing white space")
	case len(s) > maxText && utf8.RuneCountInString(s) > maxText: // bytes bound characters
		w.add(rules.CodeTextTooLong, ptr, "text has %d Unicode scalar values; at most %d are allowed", utf8.RuneCountInString(s), maxText)
	}
}

func idCheck(prefixes string) specialCheck {
	return func(w *walker, v *node, ptr string, _ *rule) {
		s, ok := w.str(v, ptr, "ID")
		switch {
		case !ok:
		case !isAnyID(s): // the ID grammar with any of the contract's type letters
			w.add(rules.CodeIDInvalid, ptr, "%q is not an ID: a letter of %s then a decimal integer without leading zeros, e.g. %s1", Clip(s), prefixes, prefixes[:1])
		case !strings.ContainsRune(prefixes, rune(s[0])):
			w.add(rules.CodeIDWrongPrefix, ptr, "%q has type letter %c but this field takes %s IDs", s, s[0], strings.Join(strings.Split(prefixes, ""), "/"))
		}
	}
}

func checkPath(w *walker, v *node, ptr string, _ *rule) {
	if s, ok := w.str(v, ptr, "path"); ok {
		if why := pathProblem(s); why != "" {
			w.add(rules.CodePathInvalid, ptr, "path %q is invalid: %s", Clip(s), why)
		}
	}
}

// pathProblem returns why s is not a POSIX relative path of the campaign
// format, or "".
func pathProblem(s string) string {
	switch {
	case s == "":
		return "it is empty"
	case strings.HasPrefix(s, "/"):
		return "it is absolute"
	case strings.ContainsRune(s, '\\'):
		return "it contains a backslash"
	case strings.ContainsRune(s, 0):
		return "it contains NUL"
	}
	for seg := range strings.SplitSeq(s, "/") {
		switch seg {
		case "":
			return "it has an empty segment"
		case ".", "..":
			return "it has a " + seg + " segment"
		}
	}
	return ""
}

// maxLine is the largest line number: 2^53-1, exact in every JSON reader.
var maxLine = big.NewInt(1<<53 - 1)

func checkLine(w *walker, v *node, ptr string, _ *rule) {
	if v.kind != kindNumber {
		w.checkType(&rule{types: []string{"integer"}}, v, ptr)
		return
	}
	if isIntegerLiteral(v.text) { // compared without a big number when it fits
		if n, err := strconv.ParseInt(v.text, 10, 64); err == nil {
			if n <= 0 || n > maxLine.Int64() {
				w.add(rules.CodeLineInvalid, ptr, "line %s is not a positive integer at most 2^53-1", Clip(v.text))
			}
			return
		}
	}
	n, ok := new(big.Int).SetString(v.text, 10)
	if !isIntegerLiteral(v.text) || !ok || n.Sign() <= 0 || n.Cmp(maxLine) > 0 {
		w.add(rules.CodeLineInvalid, ptr, "line %s is not a positive integer at most 2^53-1", Clip(v.text))
	}
}

func hexCheck(digits int, emptyOK, identity bool) specialCheck {
	return func(w *walker, v *node, ptr string, _ *rule) {
		s, ok := w.str(v, ptr, "hash")
		switch {
		case !ok, s == "" && emptyOK:
		case s == "" && identity:
			w.add(rules.CodeIdentityMissing, ptr, "identity %s is missing", lastToken(ptr))
		case identity && tables.PlaceholderIdentity(s):
			w.add(rules.CodeIdentityMissing, ptr, "identity %s is the placeholder %q, which is refused like a missing one", lastToken(ptr), Clip(s))
		case !isLowerHex(s, digits):
			w.add(rules.CodeHashInvalid, ptr, "%q is not %d lowercase hexadecimal digits", Clip(s), digits)
		case identity && tables.PlaceholderHash(s):
			w.add(rules.CodeIdentityMissing, ptr, "identity %s is the placeholder hash %q (a short block repeated), which is refused like a missing one", lastToken(ptr), Clip(s))
		}
	}
}

func isLowerHex(s string, digits int) bool {
	if len(s) != digits {
		return false
	}
	// every byte looked up, none branched on: a digest's digits and
	// letters come in no order a branch predictor could learn
	var bad byte
	for i := 0; i < len(s); i++ {
		bad |= notLowerHex[s[i]]
	}
	return bad == 0
}

// notLowerHex is 1 at every byte that is not 0-9 or a-f.
var notLowerHex = func() (t [256]byte) {
	for c := range t {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			t[c] = 1
		}
	}
	return t
}()

func checkTimestamp(w *walker, v *node, ptr string, _ *rule) {
	if s, ok := w.str(v, ptr, "timestamp"); ok {
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil || !isTimestampSyntax(s) {
			w.add(rules.CodeTimestampInvalid, ptr, "%q is not an RFC 3339 UTC time ending in Z, e.g. 2026-09-05T10:00:00Z", Clip(s))
		}
	}
}

var dateSyntax = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

func checkDate(w *walker, v *node, ptr string, _ *rule) {
	if s, ok := w.str(v, ptr, "date"); ok {
		if _, err := time.Parse(time.DateOnly, s); err != nil || !dateSyntax.MatchString(s) {
			w.add(rules.CodeDateInvalid, ptr, "%q is not a calendar date YYYY-MM-DD", Clip(s))
		}
	}
}

func checkIdentifier(w *walker, v *node, ptr string, _ *rule) {
	if s, ok := w.str(v, ptr, "identifier"); ok && !IsIdentifier(s) {
		w.add(rules.CodeIdentifierInvalid, ptr, "%q is not an identifier: 1-64 of A-Z a-z 0-9 . _ - starting with a letter or digit", Clip(s))
	}
}

func decimalCheck(scale int, code rules.Code) specialCheck {
	return func(w *walker, v *node, ptr string, _ *rule) {
		s, ok := w.str(v, ptr, "decimal")
		if !ok {
			return
		}
		_, frac, _ := strings.Cut(s, ".")
		if _, err := tables.ParseMoney(s); err != nil || len(frac) > scale {
			w.add(code, ptr, "%q is not a non-negative decimal with at most %d fractional digits in range", Clip(s), scale)
		}
	}
}

func checkIdentity(w *walker, v *node, ptr string, def *rule) {
	if s, ok := w.str(v, ptr, "identity"); ok {
		if s == "" {
			w.add(rules.CodeIdentityMissing, ptr, "identity %s is missing", lastToken(ptr))
			return
		}
		if tables.PlaceholderIdentity(s) {
			w.add(rules.CodeIdentityMissing, ptr, "identity %s is the placeholder %q, which is refused like a missing one", lastToken(ptr), Clip(s))
			return
		}
		w.checkString(def, v, ptr)
	}
}

func checkRuntimes(w *walker, v *node, ptr string, def *rule) {
	if v.kind == kindArray && len(v.elems) == 0 {
		w.add(rules.CodeIdentityMissing, ptr, "identity runtimes is missing: no runtime is pinned")
		return
	}
	w.walk(def, v, ptr)
}
