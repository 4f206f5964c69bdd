package tables

import (
	"errors"
	"math"
	"strings"
)

// MoneyScale is the number of decimal places a Money value carries.
const MoneyScale = 12

// Money is an exact amount in units of 10^-12 of its currency (pico-units).
// Prices are per million tokens with at most six decimal places, so a price
// in micro-units per million tokens times a token count is an exact Money.
// In Parquet a Money column is DECIMAL(18,12) stored as INT64.
type Money int64

// ErrMoneySyntax is returned by ParseMoney for text that is not a plain
// non-negative decimal with at most MoneyScale fractional digits.
var ErrMoneySyntax = errors.New("tables: money must be a non-negative decimal like 24.00 with at most 12 decimal places")

// ErrMoneyRange is returned when an amount does not fit in a Money.
var ErrMoneyRange = errors.New("tables: money amount out of range")

// ParseMoney parses a non-negative decimal string such as "0.40" exactly.
func ParseMoney(s string) (Money, error) {
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" || len(frac) > MoneyScale || (strings.Contains(s, ".") && frac == "") {
		return 0, ErrMoneySyntax
	}
	if len(intPart) > 1 && intPart[0] == '0' {
		return 0, ErrMoneySyntax
	}
	var v int64
	for _, c := range intPart + frac + strings.Repeat("0", MoneyScale-len(frac)) {
		if c < '0' || c > '9' {
			return 0, ErrMoneySyntax
		}
		if v > (math.MaxInt64-int64(c-'0'))/10 {
			return 0, ErrMoneyRange
		}
		v = v*10 + int64(c-'0')
	}
	return Money(v), nil
}

// String formats m exactly with MoneyScale decimal places trimmed to at
// least two: 24000000000000 → "24.00", 90000000000 → "0.09".
func (m Money) String() string {
	neg := m < 0
	u := uint64(m)
	if neg {
		u = uint64(-m)
	}
	digits := []byte{}
	for i := 0; i < MoneyScale || u > 0; i++ {
		digits = append(digits, byte('0'+u%10))
		u /= 10
	}
	if len(digits) == MoneyScale {
		digits = append(digits, '0')
	}
	slices := make([]byte, 0, len(digits)+2)
	if neg {
		slices = append(slices, '-')
	}
	for i := len(digits) - 1; i >= MoneyScale; i-- {
		slices = append(slices, digits[i])
	}
	frac := make([]byte, 0, MoneyScale)
	for i := MoneyScale - 1; i >= 0; i-- {
		frac = append(frac, digits[i])
	}
	f := strings.TrimRight(string(frac), "0")
	for len(f) < 2 {
		f += "0"
	}
	return string(slices) + "." + f
}
