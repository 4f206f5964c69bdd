package compare

import (
	"math/big"
	"strings"

	json "github.com/go-json-experiment/json"
)

// FailOn names what makes a comparison fail (`compare --fail-on`).
type FailOn string

const (
	// FailOnRegression: a regression (a worse decision, or a candidate's
	// gate metric beyond the tolerance the wrong way).
	FailOnRegression FailOn = "regression"
	// FailOnDecisionWorse: the decision itself is worse.
	FailOnDecisionWorse FailOn = "decision-worse"
	// FailOnAnyChange: any difference beyond the tolerance, whatever its
	// direction, policy changes included.
	FailOnAnyChange FailOn = "any-change"
)

// FailOns lists the accepted values of --fail-on.
func FailOns() []FailOn { return []FailOn{FailOnRegression, FailOnDecisionWorse, FailOnAnyChange} }

// Fails returns the differences that meet f, in order.
func (c *Comparison) Fails(f FailOn) []Difference {
	var out []Difference
	for _, d := range c.Differences {
		switch {
		case f == FailOnRegression && d.Regression(),
			f == FailOnDecisionWorse && d.Kind == DiffDecision && d.Field == "decision" && d.Direction == Worse,
			f == FailOnAnyChange && d.Beyond:
			out = append(out, d)
		}
	}
	return out
}

// MarshalJSON writes a difference with its values as JSON values: a
// boolean field's (pass, held, present) as booleans, a list field's
// (failing, failing_gates) as arrays of its items, a number as a JSON
// number (the nearest double) with its exact text beside it in
// old_exact / new_exact / delta_exact, and any other value as its text.
func (d Difference) MarshalJSON() ([]byte, error) {
	value := func(s *string, items []string) any {
		switch {
		case s == nil:
			return nil
		case d.boolean:
			return *s == "true"
		case d.list:
			return items
		}
		if _, f, ok := number(s); ok && d.Unit != "" {
			return f
		}
		return *s
	}
	exact := func(s *string) *string {
		if d.boolean || d.list || d.Unit == "" {
			return nil
		}
		if x, _, ok := number(s); ok {
			return &x
		}
		return nil
	}
	var delta any
	if _, f, ok := number(d.Delta); ok {
		delta = f
	}
	return json.Marshal(struct {
		Kind       string    `json:"kind"`
		Key        string    `json:"key"`
		Field      string    `json:"field"`
		Old        any       `json:"old"`
		New        any       `json:"new"`
		OldExact   *string   `json:"old_exact,omitempty"`
		NewExact   *string   `json:"new_exact,omitempty"`
		Delta      any       `json:"delta"`
		DeltaExact *string   `json:"delta_exact"`
		Unit       string    `json:"unit"`
		Direction  Direction `json:"direction"`
		Beyond     bool      `json:"beyond_tolerance"`
		Regression bool      `json:"regression"`
	}{d.Kind, d.Key, d.Field, value(d.Old, d.oldItems), value(d.New, d.newItems), exact(d.Old), exact(d.New),
		delta, d.Delta, d.Unit, d.Direction, d.Beyond, d.Regression()})
}

// number is the exact text of a numeric value (its leading exact part:
// "753517/643266" of "753517/643266 (≈1.171393)") and the nearest
// double; ok is false for text that is not a number.
func number(s *string) (exact string, f float64, ok bool) {
	r, ok := leadingRat(s)
	if !ok {
		return "", 0, false
	}
	f, _ = r.Float64()
	return strings.Fields(*s)[0], f, true
}

// rat is the exact value of a numeric text, nil otherwise.
func rat(s *string) *big.Rat {
	r, _ := leadingRat(s)
	return r
}
