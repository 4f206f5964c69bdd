package compare

import (
	"math/big"

	json "github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Direction says which way a difference goes for the campaign's treatment.
type Direction string

const (
	// Better: a gate passes that failed, an observation moved toward its
	// threshold's good side (the gate's comparison in the gate registry),
	// a median R or U rose, a cost or time ratio fell, the decision became
	// advance, a rejecting finding disappeared, a ceiling now holds.
	Better Direction = "better"
	// Worse is the reverse of each of those; a gate that disappears, a
	// rejecting finding that appears and a decision that becomes
	// no_verdict are worse too: a check that no longer runs is no
	// improvement.
	Worse Direction = "worse"
	// Changed has no direction: a threshold, a failing list, a ceiling's
	// use or limit, a new gate, a decision between two non-advance
	// outcomes.
	Changed Direction = "changed"
)

// sense is how a number's move reads: up is better, down is better, or
// neither.
type sense int

const (
	noSense sense = iota
	higherIsBetter
	lowerIsBetter
)

// gateSense is the direction of a gate's observation, from its comparison
// in the gate registry: for ">=" a higher observation is better, for "<="
// a lower one.
func gateSense(g rules.GateName) sense {
	doc, ok := rules.FindGate(g)
	switch {
	case !ok:
		return noSense
	case doc.Compare == rules.AtLeast:
		return higherIsBetter
	case doc.Compare == rules.AtMost:
		return lowerIsBetter
	}
	return noSense
}

// moved is the direction of an exact move delta under s.
func moved(delta *big.Rat, s sense) Direction {
	switch {
	case s == higherIsBetter && delta.Sign() > 0, s == lowerIsBetter && delta.Sign() < 0:
		return Better
	case s == higherIsBetter && delta.Sign() < 0, s == lowerIsBetter && delta.Sign() > 0:
		return Worse
	}
	return Changed
}

// flipped is the direction of a boolean whose true is good (a gate that
// passes, a ceiling that holds); unknown on either side has none.
func flipped(old, nw *string) Direction {
	switch {
	case old == nil || nw == nil:
		return Changed
	case *old == "false" && *nw == "true":
		return Better
	case *old == "true" && *nw == "false":
		return Worse
	}
	return Changed
}

// decisionMove: advance is better than anything else, no_verdict worse
// than anything else; between the others there is no order.
func decisionMove(old, nw tables.Verdict) Direction {
	switch {
	case nw == tables.DecisionAdvance, old == tables.DecisionNoVerdict:
		return Better
	case old == tables.DecisionAdvance, nw == tables.DecisionNoVerdict:
		return Worse
	}
	return Changed
}

// Regressions returns the differences beyond the tolerance that are worse.
func (c *Comparison) Regressions() []Difference {
	var out []Difference
	for _, d := range c.Differences {
		if d.Beyond && d.Direction == Worse {
			out = append(out, d)
		}
	}
	return out
}

// DecisionChanged reports whether the decision itself differs.
func (c *Comparison) DecisionChanged() bool { return c.Old.Decision != c.New.Decision }

// MarshalJSON writes a boolean field's values (pass, held, present) as
// JSON booleans, a list field's (failing, failing_gates) as arrays of its
// items, and every other value as its exact text.
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
		return *s
	}
	return json.Marshal(struct {
		Kind      string    `json:"kind"`
		Key       string    `json:"key"`
		Field     string    `json:"field"`
		Old       any       `json:"old"`
		New       any       `json:"new"`
		Delta     *string   `json:"delta"`
		Direction Direction `json:"direction"`
		Beyond    bool      `json:"beyond_tolerance"`
	}{d.Kind, d.Key, d.Field, value(d.Old, d.oldItems), value(d.New, d.newItems), d.Delta, d.Direction, d.Beyond})
}
