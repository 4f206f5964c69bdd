package compare

import (
	"cmp"
	"maps"
	"math/big"
	"slices"
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
		row := cmp.Or(o, n)
		mine := d.roles.candidate(row.Arm, row.Split)
		d.metric(DiffMacro, k, "macro_median_r", scorecard.UnitR, ratioField(o, func(a *scorecard.EvidencePlanArm) *scorecard.Ratio { return a.MacroMedianR }),
			ratioField(n, func(a *scorecard.EvidencePlanArm) *scorecard.Ratio { return a.MacroMedianR }), only(mine, macroRSense))
		// no gate reads U's macro-average: a change
		d.metric(DiffMacro, k, "macro_median_u", scorecard.UnitR, ratioField(o, func(a *scorecard.EvidencePlanArm) *scorecard.Ratio { return a.MacroMedianU }),
			ratioField(n, func(a *scorecard.EvidencePlanArm) *scorecard.Ratio { return a.MacroMedianU }), noSense)
	}
}

// splitRatio is one arm's ratios over one split's tasks.
type splitRatio struct {
	split string
	scorecard.CostTimeRatio
}

// ratiosBySplit lists the cost and time ratios of every split in arm
// order then split name, or the ratios over every task (split "") for an
// output that has none by split.
func ratiosBySplit(c scorecard.CostAndTime) []splitRatio {
	var out []splitRatio
	if len(c.RatiosBySplit) == 0 {
		for _, r := range c.Ratios {
			out = append(out, splitRatio{"", r})
		}
		return out
	}
	splits := slices.Sorted(maps.Keys(c.RatiosBySplit))
	for _, r := range c.Ratios {
		for _, s := range splits {
			for _, x := range c.RatiosBySplit[s] {
				if x.Arm == r.Arm {
					out = append(out, splitRatio{s, x})
				}
			}
		}
	}
	return out
}

// ratios compares each arm's cost and time ratios (against the baseline)
// per split: the candidate's complete-workflow ratios in the judged split
// are the aggregate cost and time gates' observations; the review-only
// ratios and other arms' are changes.
func (d *differ) ratios(old, nw []splitRatio) {
	key := func(r splitRatio) string { return strings.TrimSpace(r.Arm + " " + r.split) }
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		row := cmp.Or(om[k], nm[k])
		mine := d.roles.candidate(row.Arm, row.split) || row.split == "" && d.roles.candidates[row.Arm] // "": over every task
		fields := []struct {
			name string
			good sense
			get  func(*scorecard.CostTimeRatio) *scorecard.Change
		}{
			{"cost", only(mine, costRatioSense), func(r *scorecard.CostTimeRatio) *scorecard.Change { return r.Cost }},
			{"review_cost", noSense, func(r *scorecard.CostTimeRatio) *scorecard.Change { return r.ReviewCost }},
			{"time", only(mine, timeRatioSense), func(r *scorecard.CostTimeRatio) *scorecard.Change { return r.Time }},
			{"review_time", noSense, func(r *scorecard.CostTimeRatio) *scorecard.Change { return r.ReviewTime }},
		}
		for _, f := range fields {
			d.metric(DiffRatio, k, f.name, scorecard.UnitRatio, changeField(om[k], f.get), changeField(nm[k], f.get), f.good)
		}
	}
}

// tasks compares each task's median R per arm: the candidate's, on a task
// of the judged split, is what the task floor compares.
func (d *differ) tasks(old, nw []tables.Task) {
	key := func(t tables.Task) string { return t.TaskID + " " + t.Arm }
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		row := cmp.Or(om[k], nm[k])
		mine := d.roles.candidate(row.Arm, d.roles.taskSplit[row.TaskID])
		d.metric(DiffTaskMedianR, k, "median_r", scorecard.UnitR, taskMedianR(om[k]), taskMedianR(nm[k]), only(mine, taskRSense))
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

func changeField(v *splitRatio, get func(*scorecard.CostTimeRatio) *scorecard.Change) *string {
	if v == nil {
		return nil
	}
	c := get(&v.CostTimeRatio)
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
