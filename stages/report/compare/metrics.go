package compare

import (
	"math/big"
	"strings"

	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// Metric differences of [Dirs] and their helpers.

func (d *differ) macros(old, nw []scorecard.EvidencePlanArm) {
	key := func(a scorecard.EvidencePlanArm) string { return a.Arm + " " + a.Split }
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		o, n := om[k], nm[k]
		d.metric(DiffMacro, k, "macro_median_r", ratioField(o, func(a *scorecard.EvidencePlanArm) *scorecard.Ratio { return a.MacroMedianR }),
			ratioField(n, func(a *scorecard.EvidencePlanArm) *scorecard.Ratio { return a.MacroMedianR }), higherIsBetter)
		d.metric(DiffMacro, k, "macro_median_u", ratioField(o, func(a *scorecard.EvidencePlanArm) *scorecard.Ratio { return a.MacroMedianU }),
			ratioField(n, func(a *scorecard.EvidencePlanArm) *scorecard.Ratio { return a.MacroMedianU }), higherIsBetter)
	}
}

func (d *differ) ratios(old, nw []scorecard.CostTimeRatio) {
	key := func(r scorecard.CostTimeRatio) string { return r.Arm }
	om, nm := indexBy(old, key), indexBy(nw, key)
	fields := []struct {
		name string
		get  func(*scorecard.CostTimeRatio) *scorecard.Change
	}{
		{"cost", func(r *scorecard.CostTimeRatio) *scorecard.Change { return r.Cost }},
		{"review_cost", func(r *scorecard.CostTimeRatio) *scorecard.Change { return r.ReviewCost }},
		{"time", func(r *scorecard.CostTimeRatio) *scorecard.Change { return r.Time }},
		{"review_time", func(r *scorecard.CostTimeRatio) *scorecard.Change { return r.ReviewTime }},
	}
	for _, k := range unionKeys(old, nw, key) {
		for _, f := range fields {
			d.metric(DiffRatio, k, f.name, changeField(om[k], f.get), changeField(nm[k], f.get), lowerIsBetter)
		}
	}
}

func (d *differ) tasks(old, nw []tables.Task) {
	key := func(t tables.Task) string { return t.TaskID + " " + t.Arm }
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		d.metric(DiffTaskMedianR, k, "median_r", taskMedianR(om[k]), taskMedianR(nm[k]), higherIsBetter)
	}
}

// taskMedianR is a task row's exact median R; nil when the row is absent
// or the median unknown (null).
func taskMedianR(t *tables.Task) *string {
	if t == nil || t.MedianRExact == nil {
		return nil
	}
	s := *t.MedianRExact
	return &s
}

func ratioField[T any](v *T, get func(*T) *scorecard.Ratio) *string {
	if v == nil {
		return nil
	}
	r := get(v)
	if r == nil {
		return nil
	}
	s := r.Exact
	return &s
}

func changeField(v *scorecard.CostTimeRatio, get func(*scorecard.CostTimeRatio) *scorecard.Change) *string {
	if v == nil {
		return nil
	}
	c := get(v)
	if c == nil {
		return nil
	}
	s := c.Ratio.Exact
	return &s
}

// indexBy maps each row's key to the row (the first one wins).
func indexBy[T any](rows []T, key func(T) string) map[string]*T {
	m := make(map[string]*T, len(rows))
	for i := range rows {
		if _, dup := m[key(rows[i])]; !dup {
			m[key(rows[i])] = &rows[i]
		}
	}
	return m
}

// unionKeys is the keys of old in order, then the keys only in nw in
// order, each once.
func unionKeys[T any](old, nw []T, key func(T) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, rows := range [][]T{old, nw} {
		for _, r := range rows {
			if k := key(r); !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// leadingRat parses the first field of s as an exact number: "7/8",
// "0.875", "711959/610945 (≈1.165341)".
func leadingRat(s *string) (*big.Rat, bool) {
	if s == nil {
		return nil, false
	}
	fields := strings.Fields(*s)
	if len(fields) == 0 {
		return nil, false
	}
	return scorecard.ParseExact(fields[0])
}

func eqPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func boolText(b bool) *string {
	s := "false"
	if b {
		s = "true"
	}
	return &s
}

// presence is "true" or "false": whether the item is on that side.
func presence(present bool) *string { return boolText(present) }
