// Package compare (rule R2) reads two output directories written by `evalgate run`
// and lists what differs: the decision, every gate's result, observed
// value, threshold and failing list, each arm's macro-average task-median
// R and U, the cost and time ratios, each task's median R per arm, and a
// reviewer benchmark's review_metrics per split, profile and model stratum.
//
// Invariants:
//   - Numbers are compared exactly (big.Rat from their exact text), never
//     through a float; a metric differs when |new − old| > tolerance.
//   - The decision and a gate's pass, threshold and failing list have no
//     tolerance: any change is a change. A value that appears or
//     disappears (null, a gate or task present on one side only) is a
//     change.
//   - A rejecting finding that appears or disappears, and a campaign
//     ceiling whose outcome (held, use, limit) changes, is a change; two
//     outputs of different campaign kinds are not comparable.
//   - Every difference has a [Direction]: a gate's observation reads by
//     the gate's comparison in the gate registry (rules.FindGate), never
//     by a rule of its own here.
//   - Differences are listed in a fixed order (decision, rejecting
//     findings, ceilings, gates, arms, ratios, tasks, review metrics; within each, OLD's order then NEW-only items), so the
//     output is deterministic.
//   - It reads only what stages/report wrote: scorecard.json and the
//     gates, decision, tasks and review_metrics tables.
package compare

import (
	"cmp"
	"fmt"
	"math/big"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// Difference kinds.
const (
	DiffDecision    = "decision"
	DiffGate        = "gate"
	DiffMacro       = "macro"
	DiffRatio       = "ratio"
	DiffTaskMedianR = "task_median_r"
	DiffRejecting   = "rejecting_finding"
	DiffCeiling     = "ceiling"
)

// Options configures [Dirs].
type Options struct {
	// Tolerance is how far a metric may move (absolute, exact) without
	// counting as a change; nil means 0. It never applies to the decision
	// or to a gate's pass, threshold or failing list.
	Tolerance *big.Rat
}

// Comparison is the result of [Dirs] and the JSON printed by
// `evalgate compare --json`.
type Comparison struct {
	Old              Side         `json:"old"`
	New              Side         `json:"new"`
	ScorecardVersion string       `json:"scorecard_version"`
	Tolerance        string       `json:"tolerance"` // exact decimal or p/q
	Changed          bool         `json:"changed"`   // some difference is beyond the tolerance
	Differences      []Difference `json:"differences"`
}

// Side identifies one output directory.
type Side struct {
	Dir            string         `json:"dir"`
	CampaignID     string         `json:"campaign_id"`
	ManifestSHA256 string         `json:"manifest_sha256"`
	Decision       tables.Verdict `json:"decision"`
}

// Difference is one value that is not the same in OLD and NEW.
type Difference struct {
	Kind   string  `json:"kind"`  // decision, rejecting_finding, ceiling, gate, macro, ratio, task_median_r, review_metric
	Key    string  `json:"key"`   // what: the gate and arm ("g2_task_floor B"), the arm, or the task and arm
	Field  string  `json:"field"` // which value: pass, observed, threshold, failing, present, macro_median_r, cost, …
	Old    *string `json:"old"`   // null when absent or unavailable
	New    *string `json:"new"`
	Delta  *string `json:"delta"`            // exact new − old when both are numbers
	Beyond bool    `json:"beyond_tolerance"` // true when this difference makes the comparison changed
	// Direction is better, worse or changed (see [Direction]).
	Direction Direction `json:"direction"`
	// boolean marks a field whose values are "true" and "false" (pass,
	// held, present): --json writes them as JSON booleans.
	boolean bool
	// list marks a list field (failing, failing_gates), Old and New its
	// items joined with commas: --json writes oldItems and newItems as
	// JSON arrays.
	list               bool
	oldItems, newItems []string
}

// Compare reads the outputs in oldDir and newDir and lists their
// differences. It returns an error wrapping [ErrNotOutput] or
// [ErrVersionMismatch] when the directories cannot be compared, and any
// other error for an I/O failure.
func Dirs(oldDir, newDir string, opts Options) (*Comparison, error) {
	tol := opts.Tolerance
	if tol == nil {
		tol = new(big.Rat)
	}
	if tol.Sign() < 0 {
		return nil, fmt.Errorf("report: tolerance %s is negative", tol.RatString())
	}
	old, err := readOutput(oldDir)
	if err != nil {
		return nil, err
	}
	nw, err := readOutput(newDir)
	if err != nil {
		return nil, err
	}
	if old.scorecard.ScorecardVersion != nw.scorecard.ScorecardVersion {
		return nil, fmt.Errorf("%w: %s has %q, %s has %q", ErrVersionMismatch,
			oldDir, old.scorecard.ScorecardVersion, newDir, nw.scorecard.ScorecardVersion)
	}
	if old.scorecard.Kind != nw.scorecard.Kind {
		return nil, fmt.Errorf("%w: %s is a %s campaign, %s a %s campaign; they are not comparable", ErrKindMismatch,
			oldDir, old.scorecard.Kind, newDir, nw.scorecard.Kind)
	}
	d := differ{tol: tol, out: []Difference{}}
	d.decision(old.decision, nw.decision)
	d.rejections(old.rejecting, nw.rejecting)
	d.ceilings(old.ceilings, nw.ceilings)
	d.gates(old.gates, nw.gates)
	d.macros(old.scorecard.EvidenceAndPlan.Arms, nw.scorecard.EvidenceAndPlan.Arms)
	d.ratios(old.scorecard.CostAndTime.Ratios, nw.scorecard.CostAndTime.Ratios)
	d.tasks(old.tasks, nw.tasks)
	d.reviewMetrics(old.reviewMetrics, nw.reviewMetrics)
	c := &Comparison{
		Old:              side(old),
		New:              side(nw),
		ScorecardVersion: old.scorecard.ScorecardVersion,
		Tolerance:        scorecard.ExactDecimal(tol, 0),
		Differences:      d.out,
	}
	for _, x := range d.out {
		c.Changed = c.Changed || x.Beyond
	}
	return c, nil
}

func side(o *output) Side {
	return Side{Dir: o.dir, CampaignID: o.scorecard.CampaignID,
		ManifestSHA256: o.scorecard.ManifestSHA256, Decision: o.decision.Decision}
}

// differ accumulates differences.
type differ struct {
	tol *big.Rat
	out []Difference
}

// exact records a difference between two values that have no tolerance.
func (d *differ) exact(kind, key, field string, old, nw *string, dir Direction) {
	if eqPtr(old, nw) {
		return
	}
	d.out = append(d.out, Difference{Kind: kind, Key: key, Field: field, Old: old, New: nw, Beyond: true, Direction: dir})
}

// flag records a difference of a boolean field (values "true", "false").
func (d *differ) flag(kind, key, field string, old, nw *string, dir Direction) {
	n := len(d.out)
	d.exact(kind, key, field, old, nw, dir)
	if len(d.out) > n {
		d.out[n].boolean = true
	}
}

// items records a difference of a list field, compared as the text of
// its items in order.
func (d *differ) items(kind, key, field string, old, nw []string) {
	of, nf := strings.Join(old, ","), strings.Join(nw, ",")
	n := len(d.out)
	d.exact(kind, key, field, &of, &nf, Changed)
	if len(d.out) > n {
		x := &d.out[n]
		x.list, x.oldItems, x.newItems = true, append([]string{}, old...), append([]string{}, nw...)
	}
}

// metric records a difference between two numeric texts: exact within the
// tolerance when both parse as numbers, else any change is beyond it.
func (d *differ) metric(kind, key, field string, old, nw *string, good sense) {
	if eqPtr(old, nw) {
		return
	}
	x := Difference{Kind: kind, Key: key, Field: field, Old: old, New: nw, Beyond: true, Direction: Changed}
	if a, ok := leadingRat(old); ok {
		if b, ok := leadingRat(nw); ok {
			delta := new(big.Rat).Sub(b, a)
			if delta.Sign() == 0 {
				return // same number, other spelling
			}
			s := scorecard.ExactDecimal(delta, 0)
			x.Delta = &s
			x.Beyond = new(big.Rat).Abs(delta).Cmp(d.tol) > 0
			x.Direction = moved(delta, good)
		}
	}
	d.out = append(d.out, x)
}

func (d *differ) decision(old, nw scorecard.DecisionResult) {
	od, nd := string(old.Decision), string(nw.Decision)
	d.exact(DiffDecision, "", "decision", &od, &nd, decisionMove(old.Decision, nw.Decision))
	d.exact(DiffDecision, "", "arm", &old.Arm, &nw.Arm, Changed)
	d.items(DiffDecision, "", "failing_gates", old.FailingGates, nw.FailingGates)
}

// rejections lists every rejecting finding present on one side only, keyed
// by its code and position (file, line, pointer, session): a defect of the
// record that appears or is fixed changes what can be judged.
func (d *differ) rejections(old, nw []rules.Finding) {
	key := func(f rules.Finding) string {
		k := string(f.Code) + " " + cmp.Or(f.File, "campaign")
		if f.Line > 0 {
			k += fmt.Sprintf(":%d", f.Line)
		}
		if f.Pointer != "" {
			k += "#" + f.Pointer
		}
		if f.Session != "" {
			k += " " + f.Session
		}
		return k
	}
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		if (om[k] == nil) != (nm[k] == nil) {
			// a defect that appears is worse, one fixed is better
			d.flag(DiffRejecting, k, "present", presence(om[k] != nil), presence(nm[k] != nil), flipped(presence(nm[k] != nil), presence(om[k] != nil)))
		}
	}
}

// ceilings compares each campaign ceiling's outcome: whether it held, its
// use and its limit. Any change is a change.
func (d *differ) ceilings(old, nw []tables.Ceiling) {
	key := func(c tables.Ceiling) string { return c.Ceiling }
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		o, n := om[k], nm[k]
		if o == nil || n == nil {
			d.flag(DiffCeiling, k, "present", presence(o != nil), presence(n != nil), Changed)
			continue
		}
		d.flag(DiffCeiling, k, "held", heldText(o.Held), heldText(n.Held), flipped(heldText(o.Held), heldText(n.Held)))
		d.exact(DiffCeiling, k, "use", ceilingUse(o), ceilingUse(n), Changed)
		d.exact(DiffCeiling, k, "limit", ceilingLimit(o), ceilingLimit(n), Changed)
	}
}

func heldText(b *bool) *string {
	if b == nil {
		return nil
	}
	return boolText(*b)
}

func ceilingUse(c *tables.Ceiling) *string   { return amountText(c.Use, c.UseCost) }
func ceilingLimit(c *tables.Ceiling) *string { return amountText(c.Limit, c.LimitCost) }

// amountText is a count or an exact money amount, nil when unknown.
func amountText(n *int64, m *tables.Money) *string {
	switch {
	case n != nil:
		s := fmt.Sprint(*n)
		return &s
	case m != nil:
		s := m.String()
		return &s
	}
	return nil
}

func (d *differ) gates(old, nw []tables.Gate) {
	key := func(g tables.Gate) string { return string(g.Gate) + " " + g.Arm }
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		o, n := om[k], nm[k]
		if o == nil || n == nil {
			// a gate that no longer runs is worse; a new one has no direction
			dir := Changed
			if n == nil {
				dir = Worse
			}
			d.flag(DiffGate, k, "present", presence(o != nil), presence(n != nil), dir)
			continue
		}
		d.flag(DiffGate, k, "pass", boolText(o.Pass), boolText(n.Pass), flipped(boolText(o.Pass), boolText(n.Pass)))
		d.metric(DiffGate, k, "observed", &o.Observed, &n.Observed, gateSense(o.Gate))
		d.exact(DiffGate, k, "threshold", &o.Threshold, &n.Threshold, Changed)
		d.items(DiffGate, k, "failing", o.Failing, n.Failing)
	}
}
