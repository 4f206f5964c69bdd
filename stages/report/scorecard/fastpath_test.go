package scorecard

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/tables"
)

// The direct paths of the formatting layer against the fmt, strconv and
// big.Rat code they replace: ParseExact's parseSmall against
// big.Rat.SetString, appendDecimal against the string arithmetic it
// replaced (refDecimalText), durationText,
// Fraction and MoneyAmount against their fmt.Sprintf forms.

// parseTexts are exact texts near every boundary of parseSmall.
func parseTexts() []string {
	ts := []string{"0", "-0", "00", "007", "0.0", "-0.0", "0.875", "-0.875", "1", "-1", "12", "7/8", "-7/8",
		"0/5", "-0/5", "1/0", "0/0", "010/3", "10/03", "0/1", "1/1", "6/4", "-6/4", "+1", "+1/2", "1/+2",
		"1/-2", "--1", "-", "/", "1/", "/2", ".", "1.", ".5", "-.5", "1.2.3", "1/2/3", "1.5/2", "1/2.5",
		"0b101", "0o17", "0b1/1", "1/0b1", " 1", "1 ", "1_0", "١", "12a", "a12",
		"123456789012345678", "1234567890123456789", "-123456789012345678", "-1234567890123456789",
		"12345678901234567.8", "1234567890123456.78", "1234567890123456789.0", "0.123456789012345678",
		"0.12345678901234567", "0.000000000000000001", "0.0000000000000000001",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"999999999999999999/999999999999999998", "1/999999999999999999", "1/1000000000000000000",
		"999999999999999999/1", "-999999999999999999/3"}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := "0123456789-./"
	for range 50000 {
		var b strings.Builder
		for range 1 + r.IntN(24) {
			c := alphabet[r.IntN(len(alphabet))]
			if r.IntN(4) != 0 {
				c = alphabet[r.IntN(10)]
			}
			b.WriteByte(c)
		}
		ts = append(ts, b.String())
	}
	return ts
}

func TestParseSmallMatchesSetString(t *testing.T) {
	fast := 0
	for _, s := range parseTexts() {
		want, wantOK := new(big.Rat).SetString(s)
		if strings.ContainsAny(s, "eEpPxX_") {
			want, wantOK = nil, false
		}
		got, gotOK := ParseExact(s)
		if gotOK != wantOK || (gotOK && (got.RatString() != want.RatString() || got.Num().Cmp(want.Num()) != 0 || got.Denom().Cmp(want.Denom()) != 0)) {
			t.Fatalf("ParseExact(%q) = %v, %v; want %v, %v", s, got, gotOK, want, wantOK)
		}
		if r, ok := parseSmall(s); ok {
			fast++
			if !wantOK || r.RatString() != want.RatString() {
				t.Fatalf("parseSmall(%q) = %v; SetString gives %v, %v", s, r, want, wantOK)
			}
		}
	}
	if fast < 1000 {
		t.Fatalf("only %d texts took the fast path", fast)
	}
}

// uint64Samples are magnitudes near every digit-count boundary.
func uint64Samples() []uint64 {
	qs := []uint64{0, 1, 5, 9, 10, 99, 100, 999, 1000, 9999, 10000, 12345, 99999, 100000, math.MaxUint64, math.MaxUint64 - 1}
	p := uint64(1)
	for range 19 {
		p *= 10
		qs = append(qs, p-1, p, p+1)
	}
	return qs
}

// refDecimalText is q·10^-digits (q in decimal digits, a magnitude) with
// exactly digits decimals, negative when neg and not zero, by string
// arithmetic: what the scorecard printed before appendDecimal.
func refDecimalText(neg bool, q string, digits int) string {
	s := q
	if digits > 0 {
		if len(s) <= digits {
			s = strings.Repeat("0", digits-len(s)+1) + s
		}
		s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	}
	if neg && strings.Trim(s, "0.") != "" {
		s = "-" + s
	}
	return s
}

func TestAppendDecimalMatchesReference(t *testing.T) {
	wide := []string{"123456789012345678901234567890", "100000000000000000000000"} // beyond a uint64: roundedBig's digits
	for _, q := range uint64Samples() {
		for digits := -1; digits <= 22; digits++ {
			for _, neg := range []bool{false, true} {
				want := refDecimalText(neg, strconv.FormatUint(q, 10), digits)
				if got := string(appendDecimalUint64([]byte("x"), neg, q, digits)); got != "x"+want {
					t.Fatalf("appendDecimalUint64(%v, %d, %d) = %q, want x%q", neg, q, digits, got, want)
				}
			}
		}
	}
	for _, q := range wide {
		for digits := -1; digits <= 40; digits++ {
			for _, neg := range []bool{false, true} {
				if got, want := string(appendDecimal(nil, neg, []byte(q), digits)), refDecimalText(neg, q, digits); got != want {
					t.Fatalf("appendDecimal(%v, %s, %d) = %q, want %q", neg, q, digits, got, want)
				}
			}
		}
	}
}

// sprintfDuration is durationText as it was written with fmt.Sprintf.
func sprintfDuration(neg bool, hours string, rest int64) string {
	sign := ""
	if neg {
		sign = "-"
	}
	min, tenth := rest/600, rest%600
	secs := strconv.FormatInt(tenth/10, 10)
	if tenth%10 != 0 {
		secs += "." + strconv.FormatInt(tenth%10, 10)
	}
	secs += " s"
	anyHours := hours != "0"
	switch {
	case anyHours && rest == 0:
		return fmt.Sprintf("%s%s h", sign, hours)
	case anyHours && tenth == 0:
		return fmt.Sprintf("%s%s h %d min", sign, hours, min)
	case anyHours:
		return fmt.Sprintf("%s%s h %d min %s", sign, hours, min, secs)
	case min == 0:
		return sign + secs
	case tenth == 0:
		return fmt.Sprintf("%s%d min", sign, min)
	}
	return fmt.Sprintf("%s%d min %s", sign, min, secs)
}

func TestDurationTextMatchesSprintf(t *testing.T) {
	hours := []string{"0", "1", "12", "512409557", "51240955760", "123456789012345678901234567890"}
	for _, h := range hours {
		for rest := int64(0); rest < tenthsPerHour; rest++ {
			for _, neg := range []bool{false, true} {
				if got, want := durationText(neg, h, rest), sprintfDuration(neg, h, rest); got != want {
					t.Fatalf("durationText(%v, %s, %d) = %q, want %q", neg, h, rest, got, want)
				}
			}
		}
	}
	for _, ns := range append(intSamples(), 0, 1, -1, 49_999_999, 50_000_000, -50_000_000, 3_599_950_000_000, math.MaxInt64, math.MinInt64, math.MinInt64+1) {
		tenths := (absInt64(ns) + nsPerTenth/2) / nsPerTenth
		want := sprintfDuration(ns < 0 && tenths > 0, strconv.FormatUint(tenths/tenthsPerHour, 10), int64(tenths%tenthsPerHour))
		if got := DurationNS(ns); got != want {
			t.Fatalf("DurationNS(%d) = %q, want %q", ns, got, want)
		}
	}
}

func TestFractionMatchesSprintf(t *testing.T) {
	vals := []int64{0, 1, -1, 7, 8, -8, 1 << 32, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for _, n := range vals {
		for _, d := range vals {
			if got, want := Fraction(true, n, d), fmt.Sprintf("%d/%d", n, d); got != want {
				t.Fatalf("Fraction(%d, %d) = %q, want %q", n, d, got, want)
			}
		}
	}
	if got := Fraction(false, 1, 2); got != "n/a" {
		t.Fatalf("Fraction(false) = %q", got)
	}
}

func TestMoneyAmountMatchesWithCurrency(t *testing.T) {
	for _, v := range append(intSamples(), 0, 1, -1, 49_999_999, 50_000_000, -50_000_000, math.MaxInt64, math.MinInt64, math.MinInt64+1) {
		m := tables.Money(v)
		q := (absInt64(v) + moneyUnitsPerShownDigit/2) / moneyUnitsPerShownDigit
		for _, cur := range []string{"", "USD"} {
			want := withCurrency(cur, refDecimalText(v < 0, strconv.FormatUint(q, 10), MoneyDecimals))
			if got := MoneyAmount(cur, &m); got != want {
				t.Fatalf("MoneyAmount(%q, %d) = %q, want %q", cur, v, got, want)
			}
		}
	}
}
