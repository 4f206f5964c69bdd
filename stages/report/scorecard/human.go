package scorecard

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// The one formatting layer of report.md and report.html: units and
// rounding for a reader live here and nowhere else. Every value is
// rounded from its exact text (never through a float), halves away from
// zero; the exact values stay in scorecard.json and the tables.
//
//   - A duration prints in seconds below a minute ("45.2 s"), in minutes
//     and seconds below an hour ("2 min 15.4 s"), else in hours, minutes
//     and seconds ("8 h", "1 h 0 min 51.9 s"); one decimal of a second.
//     Never a count of nanoseconds.
//   - Money prints with its currency code first and MoneyDecimals fixed
//     decimals ("USD 0.1472"); without a known currency, the amount
//     alone. An unknown amount prints "unavailable", never 0.
//   - A ratio of cost or time prints as "×1.165 (+16.5%)": three
//     decimals and the change in percent to one. [TimesExact] adds the
//     exact fraction in a parenthesis (report.md); report.html puts
//     [ExactRatio] in a hover title instead.
//   - A proportion or median prints with at most ShownDecimals decimals,
//     with its exact value beside it when that rounding is not exact
//     ("0.7688 (123/160)"). Medians follow [MedianRule].
//   - An interval bound or estimate prints with at most ShownDecimals
//     decimals.

// MoneyDecimals is how many decimals an amount of money shows.
const MoneyDecimals = 4

// ShownDecimals is how many decimals a proportion, a median or an
// interval bound shows.
const ShownDecimals = 4

// MedianRule is the rule every median in the reports follows, stated
// beside them.
const MedianRule = "A median is the middle value of an odd count and the mean of the two middle values of an even count, computed exactly."

// appendDecimal appends q·10^-digits (q the decimal digits of a
// magnitude, without leading zeros) to dst with exactly digits decimals,
// negative when neg and q is not zero: "0.0042", "-12.5000", "7".
func appendDecimal(dst []byte, neg bool, q []byte, digits int) []byte {
	if neg && string(q) != "0" {
		dst = append(dst, '-')
	}
	if digits <= 0 {
		return append(dst, q...)
	}
	if len(q) <= digits {
		dst = append(dst, '0', '.')
		for range digits - len(q) {
			dst = append(dst, '0')
		}
		return append(dst, q...)
	}
	dst = append(dst, q[:len(q)-digits]...)
	dst = append(dst, '.')
	return append(dst, q[len(q)-digits:]...)
}

// appendDecimalUint64 is appendDecimal of q's digits.
func appendDecimalUint64(dst []byte, neg bool, q uint64, digits int) []byte {
	var buf [20]byte
	return appendDecimal(dst, neg, strconv.AppendUint(buf[:0], q, 10), digits)
}

// trimmed is rounded with trailing zeros (and a bare point) removed.
func trimmed(r *big.Rat, digits int) string {
	s := rounded(r, digits)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Duration prints an exact number of nanoseconds ("135411000000",
// "12.5") in seconds or minutes; "unavailable" for none or a text that is
// not a number.
func Duration(ns *string) string {
	if ns == nil {
		return "unavailable"
	}
	r, ok := ParseExact(*ns)
	if !ok {
		return *ns
	}
	return DurationRat(r)
}

// DurationNS prints a whole number of nanoseconds, as [DurationRat] does,
// in integers: the tenths of a second are floor(|ns|/10^8 + 1/2).
func DurationNS(ns int64) string {
	t := (absInt64(ns) + nsPerTenth/2) / nsPerTenth
	var buf [48]byte
	return string(appendDuration(buf[:0], ns < 0 && t > 0, strconv.FormatUint(t/tenthsPerHour, 10), int64(t%tenthsPerHour)))
}

// Tenths of a second in a nanosecond count and in an hour.
const (
	nsPerTenth    = 100_000_000
	tenthsPerHour = 36_000
)

// DurationRat prints an exact number of nanoseconds, rounded to a tenth
// of a second first, so 59.99 s prints as 1 min.
func DurationRat(ns *big.Rat) string {
	tenths := new(big.Rat).Quo(new(big.Rat).Abs(ns), big.NewRat(nsPerTenth, 1))
	tenths.Add(tenths, big.NewRat(1, 2))
	t := new(big.Int).Quo(tenths.Num(), tenths.Denom())
	hours, rest := new(big.Int).QuoRem(t, big.NewInt(tenthsPerHour), new(big.Int))
	return durationText(ns.Sign() < 0 && t.Sign() > 0, hours.String(), rest.Int64())
}

// durationText prints a duration of hours (decimal digits) and rest
// tenths of a second (0 ≤ rest < 36,000), with a minus sign when neg.
func durationText(neg bool, hours string, rest int64) string {
	var buf [48]byte
	return string(appendDuration(buf[:0], neg, hours, rest))
}

// appendDuration appends durationText(neg, hours, rest) to dst: "8 h",
// "1 h 0 min 51.9 s", "2 min 15.4 s", "2 min", "45.2 s", with a minus sign
// when neg.
func appendDuration(dst []byte, neg bool, hours string, rest int64) []byte {
	if neg {
		dst = append(dst, '-')
	}
	min, tenth := rest/600, rest%600
	anyHours := hours != "0"
	if anyHours {
		dst = append(dst, hours...)
		dst = append(dst, " h"...)
		if rest == 0 {
			return dst
		}
		dst = append(dst, ' ')
	}
	if anyHours || min != 0 {
		dst = strconv.AppendInt(dst, min, 10)
		dst = append(dst, " min"...)
		if tenth == 0 {
			return dst
		}
		dst = append(dst, ' ')
	}
	dst = strconv.AppendInt(dst, tenth/10, 10) // a tenth of a second is one trimmed decimal
	if tenth%10 != 0 {
		dst = append(dst, '.')
		dst = strconv.AppendInt(dst, tenth%10, 10)
	}
	return append(dst, " s"...)
}

// absInt64 is |i| as a uint64 (exact for math.MinInt64 too).
func absInt64(i int64) uint64 {
	if i < 0 {
		return -uint64(i)
	}
	return uint64(i)
}

// Amount prints an exact decimal amount with currency and MoneyDecimals
// decimals; "unavailable" for none.
func Amount(currency string, amount *string) string {
	if amount == nil {
		return "unavailable"
	}
	r, ok := ParseExact(*amount)
	if !ok {
		return *amount
	}
	return withCurrency(currency, rounded(r, MoneyDecimals))
}

// MoneyAmount is [Amount] of a Money value, in integers: its
// MoneyDecimals-digit magnitude is floor(|m|/10^(MoneyScale-MoneyDecimals) + 1/2).
func MoneyAmount(currency string, m *tables.Money) string {
	if m == nil {
		return "unavailable"
	}
	const unit = moneyUnitsPerShownDigit
	q := (absInt64(int64(*m)) + unit/2) / unit
	var buf [64]byte
	b := buf[:0]
	if currency != "" { // withCurrency, in one string
		b = append(append(b, currency...), ' ')
	}
	return string(appendDecimalUint64(b, *m < 0, q, MoneyDecimals))
}

// moneyUnitsPerShownDigit is 10^(MoneyScale-MoneyDecimals): the Money
// units in the last decimal an amount shows.
const moneyUnitsPerShownDigit = 100_000_000

// withCurrency puts the currency code before an amount, when known.
func withCurrency(currency, amount string) string {
	if currency == "" {
		return amount
	}
	return currency + " " + amount
}

// Times prints a ratio as "×1.165 (+16.5%)": the ratio to three decimals
// and its change in percent to one; "n/a" for none.
func Times(r *Ratio) string {
	if r == nil {
		return "n/a"
	}
	x, ok := ParseExact(r.Exact)
	if !ok {
		return r.Exact
	}
	pct := new(big.Rat).Mul(new(big.Rat).Sub(x, big.NewRat(1, 1)), big.NewRat(100, 1))
	p := rounded(pct, 1)
	if !strings.HasPrefix(p, "-") {
		p = "+" + p
	}
	return fmt.Sprintf("×%s (%s%%)", rounded(x, 3), p)
}

// TimesChange is [Times] of a change; "n/a" for none.
func TimesChange(c *Change) string {
	if c == nil {
		return "n/a"
	}
	return Times(&c.Ratio)
}

// TimesExact is [Times] with the exact fraction in the parenthesis when
// the three decimals are not exact: "×1.171 (+17.1%; exactly
// 753517/643266)". report.md uses it where no hover can carry the fraction.
func TimesExact(r *Ratio) string {
	s := Times(r)
	if r == nil {
		return s
	}
	x, ok := ParseExact(r.Exact)
	if !ok {
		return s
	}
	if y, _ := ParseExact(rounded(x, 3)); y != nil && stats.Cmp(y, x) == 0 {
		return s
	}
	return strings.TrimSuffix(s, ")") + "; exactly " + x.RatString() + ")"
}

// TimesChangeExact is [TimesExact] of a change; "n/a" for none.
func TimesChangeExact(c *Change) string {
	if c == nil {
		return "n/a"
	}
	return TimesExact(&c.Ratio)
}

// ExactRatio is the exact fraction of a change ("753517/643266"), for a
// hover title beside [TimesChange]; "" for none.
func ExactRatio(c *Change) string {
	if c == nil {
		return ""
	}
	return c.Ratio.Exact
}

// Shown prints a proportion or median with at most ShownDecimals
// decimals, its exact fraction beside it when the rounding is not exact;
// "n/a" for none.
func Shown(r *Ratio) string {
	if r == nil {
		return "n/a"
	}
	x, ok := ParseExact(r.Exact)
	if !ok {
		return r.Exact
	}
	s := trimmed(x, ShownDecimals)
	if y, _ := ParseExact(s); y != nil && stats.Cmp(y, x) == 0 {
		return s
	}
	return s + " (" + r.Exact + ")"
}

// Bound prints a display float (an interval's estimate or bound) with
// ShownDecimals decimals, rounded as every exact value is: from the
// shortest decimal that reads back as the float (0.94375, not the
// 0.943749999… the float holds), halves away from zero, so that the same
// value prints the same in the gates and the intervals; "n/a" for none.
func Bound(f *float64) string {
	if f == nil {
		return "n/a"
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(*f, 'g', -1, 64))
	if !ok {
		return FloatText(f)
	}
	return trimmed(r, ShownDecimals)
}

// Units of a compared value, for [Quantity] and [QuantityDelta].
const (
	UnitCount    = "count"    // an integer count
	UnitR        = "r"        // R or U on [0, 1], or a difference of it
	UnitRatio    = "ratio"    // a cost or time ratio
	UnitMoney    = "money"    // an amount in the rate cards' currency
	UnitNS       = "ns"       // a duration in nanoseconds
	UnitTokens   = "tokens"   // a count of tokens
	UnitSessions = "sessions" // a count of sessions
	UnitFraction = "fraction" // a rate on [0, 1]
)

// Quantity prints an exact value (a decimal or fraction text, optionally
// followed by its approximation) in its unit: a duration, money with its
// currency, a ratio as "×1.171 (+17.1%)", R as "0.9438 (151/160)", a rate
// as a percentage with its fraction ("80% (4/5)"), a count with its
// thousands grouped ("299,740 tokens"); "n/a" for none, the text as it is
// when it is not a number or the unit is unknown.
func Quantity(unit string, exact *string, currency string) string {
	if exact == nil {
		return "n/a"
	}
	text, _, _ := strings.Cut(*exact, " ")
	x, ok := ParseExact(text)
	if !ok {
		return *exact
	}
	switch unit {
	case UnitNS:
		return DurationRat(x)
	case UnitMoney:
		return withCurrency(currency, rounded(x, MoneyDecimals))
	case UnitRatio:
		return Times(&Ratio{Exact: x.RatString()})
	case UnitR:
		return Shown(&Ratio{Exact: x.RatString()})
	case UnitFraction:
		s := trimmed(new(big.Rat).Mul(x, big.NewRat(100, 1)), 1) + "%"
		if !x.IsInt() {
			s += " (" + x.RatString() + ")"
		}
		return s
	case UnitCount, UnitTokens, UnitSessions:
		return counted(unit, x, false)
	}
	return *exact
}

// QuantityDelta prints an exact difference NEW − OLD in its unit, signed:
// "+1 min 2.3 s", "USD -0.5798", a ratio's or rate's move in percentage
// points ("-17.1 pp"), R to ShownDecimals decimals with its exact value
// beside it when rounded ("-0.0045 (-1/224)"), a count grouped ("-19,918
// tokens").
func QuantityDelta(unit string, delta *big.Rat, currency string) string {
	if delta == nil {
		return ""
	}
	sign := func(s string) string {
		if delta.Sign() > 0 {
			return "+" + s
		}
		return s
	}
	hundred := new(big.Rat).Mul(delta, big.NewRat(100, 1))
	switch unit {
	case UnitNS:
		return sign(DurationRat(delta))
	case UnitMoney:
		return withCurrency(currency, sign(rounded(delta, MoneyDecimals)))
	case UnitRatio, UnitFraction:
		return sign(rounded(hundred, 1)) + " pp"
	case UnitCount, UnitTokens, UnitSessions:
		return counted(unit, delta, true)
	}
	s := sign(trimmed(delta, ShownDecimals))
	if y, _ := ParseExact(trimmed(delta, ShownDecimals)); y == nil || stats.Cmp(y, delta) != 0 {
		s += " (" + delta.RatString() + ")"
	}
	return s
}

// counted prints a count with its thousands grouped, and the unit's word
// for tokens and sessions; signed adds "+" to a positive count.
func counted(unit string, x *big.Rat, signed bool) string {
	var s string
	if x.IsInt() {
		s = Grouped(x.Num().String())
	} else {
		s = trimmed(x, ShownDecimals)
	}
	if signed && x.Sign() > 0 {
		s = "+" + s
	}
	switch unit {
	case UnitTokens:
		s += " tokens"
	case UnitSessions:
		s += " sessions"
	}
	return s
}

// Grouped puts a comma between every three digits of an integer's text
// ("-1234567" → "-1,234,567").
func Grouped(digits string) string {
	sign, d := "", digits
	if strings.HasPrefix(d, "-") {
		sign, d = "-", d[1:]
	}
	var b strings.Builder
	for i, c := range d {
		if i > 0 && (len(d)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}
