package tables

import (
	"math/big"

	"github.com/evalgate/evalgate/rules"
)

// SetNumbers fills g's numeric columns from the exact observed value (nil
// when unknown), the comparison and the exact threshold it was compared
// with: each reduced fraction as an int64 numerator and denominator, and
// the float64 nearest it for plotting. A fraction whose numerator or
// denominator does not fit int64 leaves its _num and _den null (the
// display text still states it exactly); the float64 columns are never
// what a gate compares.
func (g *Gate) SetNumbers(observed *big.Rat, cmp rules.Comparison, threshold *big.Rat) {
	g.Comparison = string(cmp)
	g.ObservedNum, g.ObservedDen, g.ObservedValue = ratColumns(observed)
	var v *float64
	g.ThresholdNum, g.ThresholdDen, v = ratColumns(threshold)
	g.ThresholdValue = 0
	if v != nil {
		g.ThresholdValue = *v
	}
}

// FractionColumns is r's reduced numerator and denominator, for a table's
// _num and _den columns: nil when r is nil or either does not fit int64.
func FractionColumns(r *big.Rat) (num, den *int64) {
	num, den, _ = ratColumns(r)
	return num, den
}

// ratColumns is r's reduced numerator and denominator (nil when r is nil
// or either does not fit int64) and the float64 nearest r (nil when r is).
func ratColumns(r *big.Rat) (num, den *int64, value *float64) {
	if r == nil {
		return nil, nil, nil
	}
	f, _ := r.Float64()
	if !r.Num().IsInt64() || !r.Denom().IsInt64() {
		return nil, nil, &f
	}
	n, d := r.Num().Int64(), r.Denom().Int64()
	return &n, &d, &f
}
