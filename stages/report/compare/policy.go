package compare

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/tables"
)

// ErrPolicyChange reports two outputs judged under different policies:
// their gates, decisions and pass marks do not measure the same thing.
var ErrPolicyChange = errors.New("report: judged under different policies")

// PolicyError lists the numbers of the policy that differ between two
// outputs; it wraps [ErrPolicyChange].
type PolicyError struct {
	Old, New string
	Changes  []Difference // each a PolicyChange
}

func (e *PolicyError) Error() string {
	lines := make([]string, len(e.Changes))
	for i, d := range e.Changes {
		lines[i] = "  " + d.Line()
	}
	return fmt.Sprintf("%s and %s were judged under different policies, so their gates and decisions are not comparable; %d number(s) differ:\n%s",
		e.Old, e.New, len(e.Changes), strings.Join(lines, "\n"))
}

func (e *PolicyError) Unwrap() error { return ErrPolicyChange }

// policyMember is the scorecard's member naming the policy a campaign was
// judged under: its ID (a preset's name or a custom ID), whether it is
// custom, and every number it applied. An output without it is compared
// on its gates' thresholds and its ceilings' limits alone.
const policyMember = "policy"

// policyDoc is what compare reads of the scorecard's policy: two outputs
// are under the same policy when the ID, the custom flag and every
// number's value (keyed by its manifest field) are equal.
type policyDoc struct {
	ID      *string `json:"id"`
	Custom  *bool   `json:"custom"`
	Numbers []struct {
		Field string         `json:"field"`
		Kind  string         `json:"kind"`
		Name  string         `json:"name"`
		Value jsontext.Value `json:"value"`
	} `json:"numbers"`
}

// policyNumber is one number of a policy: its display name and kind,
// and its value's text.
type policyNumber struct {
	name, kind, value string
}

// policy compares the scorecard's policy members: the ID, the custom
// flag, and every number by field. A threshold and a campaign ceiling's
// limit are compared on the gates and ceilings rows (shown there beside
// their observation and use), so they are not listed twice.
func (d *differ) policy(old, nw *output) {
	if len(old.policy) == 0 && len(nw.policy) == 0 {
		return
	}
	var o, n policyDoc
	oErr, nErr := json.Unmarshal(old.policy, &o), json.Unmarshal(nw.policy, &n)
	if len(old.policy) == 0 || len(nw.policy) == 0 || oErr != nil || nErr != nil {
		// one side names its policy and the other does not (or cannot be
		// read): nothing says they are the same
		op, np := presence(len(old.policy) > 0 && oErr == nil), presence(len(nw.policy) > 0 && nErr == nil)
		d.flag(DiffPolicy, "", "present", op, np, PolicyChange)
		return
	}
	d.exact(DiffPolicy, "", "id", o.ID, n.ID, PolicyChange)
	d.flag(DiffPolicy, "", "custom", boolPtr(o.Custom), boolPtr(n.Custom), PolicyChange)
	shown := map[string]bool{}
	for _, c := range append(append([]tables.Ceiling{}, old.ceilings...), nw.ceilings...) {
		shown[c.Pointer] = true
	}
	numbers := func(p policyDoc) (map[string]policyNumber, []string) {
		m := map[string]policyNumber{}
		var order []string
		for _, x := range p.Numbers {
			if x.Kind == "threshold" || shown[x.Field] {
				continue
			}
			if _, dup := m[x.Field]; !dup {
				order = append(order, x.Field)
			}
			m[x.Field] = policyNumber{cmp.Or(x.Name, x.Field), x.Kind, valueText(x.Value)}
		}
		return m, order
	}
	om, oOrder := numbers(o)
	nm, nOrder := numbers(n)
	for _, f := range unionKeys(oOrder, nOrder, func(s string) string { return s }) {
		a, aok := om[f]
		b, bok := nm[f]
		row := a
		if !aok {
			row = b
		}
		var av, bv *string
		if aok {
			av = &a.value
		}
		if bok {
			bv = &b.value
		}
		if x := d.exact(DiffPolicy, row.name, cmp.Or(row.kind, "number"), av, bv, PolicyChange); x != nil {
			setDelta(x)
		}
	}
}

func boolPtr(b *bool) *string {
	if b == nil {
		return nil
	}
	return boolText(*b)
}

// valueText is a JSON value's text: a string unquoted, anything else as
// written.
func valueText(v jsontext.Value) string {
	var s string
	if v.Kind() == '"' && json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}
