package account

import (
	"math"
	"math/bits"

	"github.com/evalgate/evalgate/tables"
)

// Exact money. A price is a decimal in currency units per million tokens
// with at most six decimal places; tables.ParseMoney turns it into
// pico-units (10^-12) per million tokens, which is therefore a multiple of
// 10^6, and dividing by 10^6 gives an exact integer price per token in
// pico-units. A bucket's cost is tokens × per-token price, summed with
// overflow checks. No float is ever involved.

const picoPerMillion = 1_000_000

// addChecked returns a+b for non-negative a and b, or false on overflow.
func addChecked(a, b int64) (int64, bool) {
	if a < 0 || b < 0 || a > math.MaxInt64-b {
		return 0, false
	}
	return a + b, true
}

// mulChecked returns a×b for non-negative a and b, or false on overflow.
func mulChecked(a, b int64) (int64, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// perTokenPrice parses a price per million tokens into an exact pico-unit
// price per token. It fails on text that is not a non-negative decimal
// with at most six decimal places.
func perTokenPrice(s string) (int64, bool) {
	m, err := tables.ParseMoney(s)
	if err != nil || m%picoPerMillion != 0 {
		return 0, false
	}
	return int64(m) / picoPerMillion, true
}

// CostOf returns the exact cost of tokens at a price given in currency
// units per million tokens (at most six decimals): tokens × price / 10^6.
// It fails on a malformed price, negative tokens or overflow.
func CostOf(tokens int64, pricePerMillion string) (tables.Money, bool) {
	p, ok := perTokenPrice(pricePerMillion)
	if !ok {
		return 0, false
	}
	c, ok := mulChecked(tokens, p)
	return tables.Money(c), ok
}

// ptrMoney returns a pointer to a copy of m.
func ptrMoney(m tables.Money) *tables.Money { return &m }
