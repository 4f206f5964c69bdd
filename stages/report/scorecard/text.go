package scorecard

import (
	"fmt"
	"strconv"
)

// Plain-text forms of scorecard values, shared by the Markdown and HTML
// renderers so both print a number the same way (units and rounding:
// human.go). Callers escape the result for their format.

// MaxListedFindings bounds the findings listed one by one in report.md
// and report.html; all of them are in campaign_findings.parquet.
const MaxListedFindings = 50

// Int prints a count.
func Int(n int64) string { return strconv.FormatInt(n, 10) }

// YesNo prints a flag.
func YesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// Claims prints a claim count with its unscorable runs.
func Claims(c ClaimCount) string {
	if c.UnscorableRuns == 0 {
		return Int(c.Total)
	}
	return fmt.Sprintf("%d (+%d runs unscorable)", c.Total, c.UnscorableRuns)
}

// Fraction prints num/den, n/a when not ok.
func Fraction(ok bool, num, den int64) string {
	if !ok {
		return "n/a"
	}
	var buf [48]byte
	b := strconv.AppendInt(buf[:0], num, 10)
	b = append(b, '/')
	return string(strconv.AppendInt(b, den, 10))
}

// OrUnavailable prints s, or unavailable for none.
func OrUnavailable(s *string) string {
	if s == nil {
		return "unavailable"
	}
	return *s
}

// FloatText prints a display float; n/a for none.
func FloatText(f *float64) string {
	if f == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*f, 'g', -1, 64)
}
