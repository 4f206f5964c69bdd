package load

// Hand-written matchers of the fixed grammars every document repeats
// (integers, identifiers, IDs, timestamps): each is exactly its regular
// expression in grammar_test.go, which checks them against each other,
// without a regexp machine per value.

// isDigit reports whether c is an ASCII decimal digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// allDigits reports whether every byte of s is a decimal digit.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// isIntegerLiteral is the JSON integer grammar, no fraction, no
// exponent: ^-?(?:0|[1-9][0-9]*)$.
func isIntegerLiteral(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	switch {
	case s == "":
		return false
	case s[0] == '0':
		return len(s) == 1
	}
	return allDigits(s)
}

// IsIdentifier is ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$.
func IsIdentifier(s string) bool {
	if len(s) == 0 || len(s) > 64 || !isAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isAnyID is ^[CAVUXEO][1-9][0-9]*$.
func isAnyID(s string) bool {
	if len(s) < 2 {
		return false
	}
	switch s[0] {
	case 'C', 'A', 'V', 'U', 'X', 'E', 'O':
	default:
		return false
	}
	return s[1] != '0' && allDigits(s[1:])
}

// isTimestampSyntax is
// ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?Z$.
func isTimestampSyntax(s string) bool {
	const layout = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(layout)+1 || s[len(s)-1] != 'Z' {
		return false
	}
	for i := 0; i < len(layout); i++ {
		if layout[i] == 'd' && !isDigit(s[i]) || layout[i] != 'd' && s[i] != layout[i] {
			return false
		}
	}
	frac := s[len(layout) : len(s)-1]
	if frac == "" {
		return true
	}
	return frac[0] == '.' && len(frac) >= 2 && len(frac) <= 10 && allDigits(frac[1:])
}
