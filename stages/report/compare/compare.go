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
//     disappears (null, a task present on one side only) is a change.
//   - Only the rules give a difference a direction ([Direction]): a
//     regression is a worse decision, or a metric a gate reads for the
//     candidate moving the wrong way by that gate's comparison in the gate
//     registry (rules.FindGate), never by a rule of its own here. The
//     baseline's own figures, a ceiling's use, a count, a rejecting
//     finding are changes.
//   - Two outputs judged under different policies (a gate's threshold, the
//     set of gates, a ceiling's limit or the scorecard's policy differ)
//     are not comparable ([ErrPolicyChange]) unless the caller allows it;
//     then each such number is a [PolicyChange], and the decision and the
//     pass of a gate whose threshold changed have no direction.
//   - Two outputs of different campaign kinds are not comparable.
//   - Differences are listed in a fixed order (decision, policy,
//     rejecting findings, ceilings, gates, arms, ratios, tasks, review
//     metrics; within each, OLD's order then NEW-only items), so the
//     output is deterministic.
//   - It reads only what stages/report wrote: scorecard.json and the
//     gates, decision, tasks, rejections, ceilings and review_metrics
//     tables.
package compare

import (
	"cmp"
	"fmt"

	"github.com/go-json-experiment/json"
	"math/big"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/report/scorecard"
	"github.com/evalgate/evalgate/tables"
)

// Difference kinds.
const (
	DiffDecision    = "decision"
	DiffPolicy      = "policy"
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
	// AllowPolicyChange compares outputs judged under different policies,
	// listing every differing number of the policy as a PolicyChange,
	// instead of returning [ErrPolicyChange].
	AllowPolicyChange bool
}

// Comparison is the result of [Dirs] and the JSON printed by
// `evalgate compare --json`.
type Comparison struct {
	Old              Side   `json:"old"`
	New              Side   `json:"new"`
	ScorecardVersion string `json:"scorecard_version"`
	Tolerance        string `json:"tolerance"` // exact decimal or p/q
	// Result is one word: regression (some difference beyond the
	// tolerance is worse), better (none is worse, some better), changed
	// (only changes without direction, policy changes among them) or
	// unchanged.
	Result        string `json:"result"`
	Changed       bool   `json:"changed"`        // some difference is beyond the tolerance
	Regressed     bool   `json:"regressed"`      // some difference beyond the tolerance is worse
	DecisionWorse bool   `json:"decision_worse"` // the decision itself is worse
	PolicyChanged bool   `json:"policy_changed"` // the outputs were judged under different policies (only with AllowPolicyChange)
	// Counts are the differences beyond the tolerance by direction.
	Counts      Counts       `json:"counts"`
	Differences []Difference `json:"differences"`

	old, nw *output // for the renderers
}

// Counts are differences by direction.
type Counts struct {
	Better       int `json:"better"`
	Worse        int `json:"worse"`
	Changed      int `json:"changed"`
	PolicyChange int `json:"policy_change"`
}

// Side identifies one output directory.
type Side struct {
	Dir            string         `json:"dir"`
	CampaignID     string         `json:"campaign_id"`
	ManifestSHA256 string         `json:"manifest_sha256"`
	Decision       tables.Verdict `json:"decision"`
	Arm            string         `json:"arm"` // the decision's arm: the candidate
	// Policy is the scorecard's policy label ("custom policy X — not
	// contract #741's frozen rules"); "" for an output that names none.
	Policy string `json:"policy,omitempty"`
}

// Difference is one value that is not the same in OLD and NEW.
type Difference struct {
	Kind  string  // decision, policy, rejecting_finding, ceiling, gate, macro, ratio, task_median_r, review_metric
	Key   string  // what: the gate and arm ("g2_task_floor B"), the arm and split, or the task and arm
	Field string  // which value: pass, observed, threshold, failing, present, macro_median_r, cost, …
	Old   *string // exact text; nil when absent or unavailable
	New   *string
	Delta *string // exact new − old when both are numbers
	// Unit is the values' unit (the Unit constants), "" for text.
	Unit   string
	Beyond bool // true when this difference makes the comparison changed
	// Direction is better, worse, changed or policy_change (see [Direction]).
	Direction Direction
	// boolean marks a field whose values are "true" and "false" (pass,
	// held, present): --json writes them as JSON booleans.
	boolean bool
	// list marks a list field (failing, failing_gates), Old and New its
	// items joined with commas: --json writes oldItems and newItems as
	// JSON arrays.
	list               bool
	oldItems, newItems []string
	currency           string // the rate cards' currency, for money
}

// Regression reports whether d counts as a regression: beyond the
// tolerance and worse.
func (d Difference) Regression() bool { return d.Beyond && d.Direction == Worse }

// Dirs reads the outputs in oldDir and newDir and lists their
// differences. It returns an error wrapping [ErrNotOutput],
// [ErrVersionMismatch], [ErrKindMismatch] or [ErrPolicyChange] (a
// *[PolicyError]) when the directories cannot be compared, and any other
// error for an I/O failure.
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
	d := differ{tol: tol, out: []Difference{}, roles: rolesOf(old, nw)}
	currency := cmp.Or(nw.scorecard.CostAndTime.Currency, old.scorecard.CostAndTime.Currency)
	d.decision(old.decision, nw.decision)
	d.policy(old, nw)
	d.rejections(old.rejecting, nw.rejecting)
	d.ceilings(old.ceilings, nw.ceilings)
	d.gates(old.gates, nw.gates)
	d.macros(old.scorecard.EvidenceAndPlan.Arms, nw.scorecard.EvidenceAndPlan.Arms)
	d.ratios(ratiosBySplit(old.scorecard.CostAndTime), ratiosBySplit(nw.scorecard.CostAndTime))
	d.tasks(old.tasks, nw.tasks)
	d.reviewMetrics(old.reviewMetrics, nw.reviewMetrics)
	for i := range d.out {
		d.out[i].currency = currency
	}
	var policy []Difference
	for _, x := range d.out {
		if x.Direction == PolicyChange {
			policy = append(policy, x)
		}
	}
	if len(policy) > 0 && !opts.AllowPolicyChange {
		return nil, &PolicyError{Old: oldDir, New: newDir, Changes: policy}
	}
	if len(policy) > 0 {
		undirectPolicyConsequences(d.out)
	}

	c := &Comparison{
		Old:              side(old),
		New:              side(nw),
		ScorecardVersion: old.scorecard.ScorecardVersion,
		Tolerance:        scorecard.ExactDecimal(tol, 0),
		PolicyChanged:    len(policy) > 0,
		Differences:      d.out,
		old:              old,
		nw:               nw,
	}
	for _, x := range d.out {
		if !x.Beyond {
			continue
		}
		c.Changed = true
		switch x.Direction {
		case Better:
			c.Counts.Better++
		case Worse:
			c.Counts.Worse++
			c.Regressed = true
			c.DecisionWorse = c.DecisionWorse || x.Kind == DiffDecision
		case PolicyChange:
			c.Counts.PolicyChange++
		default:
			c.Counts.Changed++
		}
	}
	switch {
	case c.Regressed:
		c.Result = "regression"
	case c.Counts.Better > 0:
		c.Result = "better"
	case c.Changed:
		c.Result = "changed"
	default:
		c.Result = "unchanged"
	}
	return c, nil
}

// undirectPolicyConsequences takes the direction away from what a policy
// change decides rather than measures: the decision, and the pass of
// every gate whose threshold changed (or that is new). Observations keep
// theirs: a gate measures the same way under any threshold.
func undirectPolicyConsequences(out []Difference) {
	changedGates := map[string]bool{}
	for _, x := range out {
		if x.Kind == DiffGate && x.Direction == PolicyChange {
			changedGates[x.Key] = true
		}
	}
	for i := range out {
		x := &out[i]
		if x.Kind == DiffDecision && x.Field == "decision" || x.Kind == DiffGate && x.Field == "pass" && changedGates[x.Key] {
			x.Direction = Changed
		}
	}
}

func side(o *output) Side {
	var p struct {
		Label string `json:"label"`
	}
	if len(o.policy) > 0 {
		_ = json.Unmarshal(o.policy, &p, json.RejectUnknownMembers(false))
	}
	return Side{Dir: o.dir, CampaignID: o.scorecard.CampaignID,
		ManifestSHA256: o.scorecard.ManifestSHA256, Decision: o.decision.Decision, Arm: o.decision.Arm, Policy: p.Label}
}

// differ accumulates differences.
type differ struct {
	tol   *big.Rat
	out   []Difference
	roles roles
}

// exact records a difference between two values that have no tolerance.
func (d *differ) exact(kind, key, field string, old, nw *string, dir Direction) *Difference {
	if eqPtr(old, nw) {
		return nil
	}
	d.out = append(d.out, Difference{Kind: kind, Key: key, Field: field, Old: old, New: nw, Beyond: true, Direction: dir})
	return &d.out[len(d.out)-1]
}

// flag records a difference of a boolean field (values "true", "false").
func (d *differ) flag(kind, key, field string, old, nw *string, dir Direction) {
	if x := d.exact(kind, key, field, old, nw, dir); x != nil {
		x.boolean = true
	}
}

// items records a difference of a list field, compared as the text of
// its items in order: a count, so a change without direction.
func (d *differ) items(kind, key, field string, old, nw []string) {
	of, nf := strings.Join(old, ","), strings.Join(nw, ",")
	if x := d.exact(kind, key, field, &of, &nf, Changed); x != nil {
		x.list, x.oldItems, x.newItems = true, append([]string{}, old...), append([]string{}, nw...)
	}
}

// metric records a difference between two numeric texts in unit: exact
// within the tolerance when both parse as numbers, else any change is
// beyond it; its direction is good's when it has one.
func (d *differ) metric(kind, key, field, unit string, old, nw *string, good sense) {
	if eqPtr(old, nw) {
		return
	}
	x := Difference{Kind: kind, Key: key, Field: field, Old: old, New: nw, Unit: unit, Beyond: true, Direction: Changed}
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
// record that appears or is fixed changes what can be judged, and the
// decision (no_verdict or not) says which way.
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
			d.flag(DiffRejecting, k, "present", presence(om[k] != nil), presence(nm[k] != nil), Changed)
		}
	}
}

// ceilings compares each campaign ceiling's outcome: whether it held and
// its use (changes: an exceeded ceiling rejects the campaign, and the
// decision says so), and its limit (the policy's).
func (d *differ) ceilings(old, nw []tables.Ceiling) {
	key := func(c tables.Ceiling) string { return c.Ceiling }
	om, nm := indexBy(old, key), indexBy(nw, key)
	for _, k := range unionKeys(old, nw, key) {
		o, n := om[k], nm[k]
		if o == nil || n == nil {
			d.flag(DiffCeiling, k, "present", presence(o != nil), presence(n != nil), PolicyChange)
			continue
		}
		unit := ceilingUnit(n.Unit)
		d.flag(DiffCeiling, k, "held", heldText(o.Held), heldText(n.Held), Changed)
		d.metric(DiffCeiling, k, "use", unit, ceilingUse(o), ceilingUse(n), noSense)
		if x := d.exact(DiffCeiling, k, "limit", ceilingLimit(o), ceilingLimit(n), PolicyChange); x != nil {
			x.Unit = unit
			setDelta(x)
		}
	}
}

// ceilingUnit is a ceiling's unit as a difference's.
func ceilingUnit(u string) string {
	switch u {
	case "ns":
		return scorecard.UnitNS
	case "tokens":
		return scorecard.UnitTokens
	case "sessions":
		return scorecard.UnitSessions
	case "money":
		return scorecard.UnitMoney
	}
	return ""
}

// setDelta sets x's exact delta when both its values are numbers.
func setDelta(x *Difference) {
	if a, ok := leadingRat(x.Old); ok {
		if b, ok := leadingRat(x.New); ok {
			s := scorecard.ExactDecimal(new(big.Rat).Sub(b, a), 0)
			x.Delta = &s
		}
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

// gateUnit is a gate's unit as a difference's.
func gateUnit(g rules.GateName) string {
	switch g.Unit() {
	case rules.GateUnitCount:
		return scorecard.UnitCount
	case rules.GateUnitR:
		return scorecard.UnitR
	case rules.GateUnitRatio:
		return scorecard.UnitRatio
	case rules.GateUnitMoney:
		return scorecard.UnitMoney
	}
	return ""
}

// gateKey is a gate row's difference key: the gate and its arm.
func gateKey(g tables.Gate) string { return string(g.Gate) + " " + g.Arm }

func (d *differ) gates(old, nw []tables.Gate) {
	om, nm := indexBy(old, gateKey), indexBy(nw, gateKey)
	for _, k := range unionKeys(old, nw, gateKey) {
		o, n := om[k], nm[k]
		if o == nil || n == nil {
			// the gates are the policy's: a gate on one side only is a
			// policy change
			d.flag(DiffGate, k, "present", presence(o != nil), presence(n != nil), PolicyChange)
			continue
		}
		d.flag(DiffGate, k, "pass", boolText(o.Pass), boolText(n.Pass), passMove(boolText(o.Pass), boolText(n.Pass)))
		d.metric(DiffGate, k, "observed", gateUnit(n.Gate), &o.Observed, &n.Observed, gateSense(o.Gate))
		if !sameThreshold(o.Threshold, n.Threshold) {
			x := d.exact(DiffGate, k, "threshold", &o.Threshold, &n.Threshold, PolicyChange)
			x.Delta = thresholdDelta(o.Threshold, n.Threshold)
		}
		d.items(DiffGate, k, "failing", o.Failing, n.Failing)
	}
}

// thresholdDelta is the exact move of a threshold's number when both
// texts have one.
func thresholdDelta(a, b string) *string {
	_, an, _ := strings.Cut(a, " ")
	_, bn, _ := strings.Cut(b, " ")
	x, ok1 := scorecard.ParseExact(an)
	y, ok2 := scorecard.ParseExact(bn)
	if !ok1 || !ok2 {
		return nil
	}
	s := scorecard.ExactDecimal(new(big.Rat).Sub(y, x), 0)
	return &s
}

// sameThreshold reports whether two threshold texts (">= 0.80") state
// the same comparison and the same number (">= 0.8").
func sameThreshold(a, b string) bool {
	if a == b {
		return true
	}
	ac, an, _ := strings.Cut(a, " ")
	bc, bn, _ := strings.Cut(b, " ")
	x, ok1 := scorecard.ParseExact(an)
	y, ok2 := scorecard.ParseExact(bn)
	return ac == bc && ok1 && ok2 && x.Cmp(y) == 0
}
