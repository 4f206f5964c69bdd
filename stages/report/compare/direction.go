package compare

import (
	"math/big"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Direction says which way a difference goes for the campaign's candidate
// (the arm the decision is about). Only the rules give a difference a
// direction: a worse decision, or a candidate's gate metric moving by the
// gate's own comparison. Everything else that differs is Changed.
type Direction string

const (
	// Better: the decision moved up (no_verdict < do_not_advance and
	// stop_no_gain < advance), a gate passes that failed, or a metric a gate
	// reads for the candidate moved to its threshold's good side (the
	// gate's comparison in the gate registry).
	Better Direction = "better"
	// Worse is the reverse of each of those: a regression when beyond the
	// tolerance.
	Worse Direction = "worse"
	// Changed has no direction: the baseline's (or another arm's) own
	// figures, a split no gate judges, a metric no gate reads, a count
	// (a failing list, a denominator), a ceiling's use or outcome, a
	// rejecting finding (the decision already says what it does), the
	// decision's failing list and arm, a decision between two outcomes
	// with no order (do_not_advance, stop_no_gain), and under a policy
	// change the decision and the pass of a gate whose threshold changed.
	Changed Direction = "changed"
	// PolicyChange is a number of the policy itself: a gate's threshold, a
	// gate or ceiling present on one side only, a ceiling's limit, the
	// policy's identity. Never better or worse: listed only with
	// [Options.AllowPolicyChange].
	PolicyChange Direction = "policy_change"
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

// Senses of the candidate's headline figures, each the observation of a
// gate (or, for a task's median R, what the task floor compares): read by
// that gate's comparison, so the rule stays the registry's.
var (
	// macro-average of task-median R: g2_macro_floor
	macroRSense = gateSense(rules.GateMacroFloor)
	// a task's median R: g2_task_floor compares each task's
	taskRSense = gateSense(rules.GateTaskFloor)
	// Σ task-median cost and time over the baseline's: g5_cost_aggregate,
	// g5_time_aggregate (a system comparison's sc_baseline_* read the same
	// ratio the same way)
	costRatioSense = gateSense(rules.GateCostAggregate)
	timeRatioSense = gateSense(rules.GateTimeAggregate)
)

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

// passMove is the direction of a gate's pass flag: passing where it
// failed is better; unknown on either side has none.
func passMove(old, nw *string) Direction {
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

// decisionRank orders the decisions: advance above do_not_advance and
// stop_no_gain (which have no order between them), no_verdict below all.
func decisionRank(v tables.Verdict) int {
	switch v {
	case tables.DecisionAdvance:
		return 2
	case tables.DecisionNoVerdict:
		return 0
	}
	return 1
}

// decisionMove is the direction of a decision change.
func decisionMove(old, nw tables.Verdict) Direction {
	switch o, n := decisionRank(old), decisionRank(nw); {
	case n > o:
		return Better
	case n < o:
		return Worse
	}
	return Changed
}

// roles says whose figures a difference is about, for its direction: the
// candidate's (the decision's arm on either side, and every arm a gate
// judges) in a judged split, or anyone else's.
type roles struct {
	candidates map[string]bool
	judged     map[string]bool // splits the gates judge
	taskSplit  map[string]string
}

func rolesOf(old, nw *output) roles {
	r := roles{candidates: map[string]bool{}, judged: map[string]bool{}, taskSplit: map[string]string{}}
	for _, o := range []*output{old, nw} {
		if o.decision.Arm != "" {
			r.candidates[o.decision.Arm] = true
		}
		for _, g := range o.gates {
			if g.Arm != "" {
				r.candidates[g.Arm] = true
			}
		}
		if s := o.scorecard.CostAndTime.JudgedSplit; s != "" {
			r.judged[s] = true
		}
		for _, t := range o.scorecard.EvidenceAndPlan.Tasks {
			r.taskSplit[t.Task] = t.Split
		}
	}
	return r
}

// candidate reports whether arm's figures in split are what the gates
// judge (every split, for outputs that name no judged split).
func (r roles) candidate(arm, split string) bool {
	return r.candidates[arm] && (r.judged[split] || len(r.judged) == 0)
}

// only is s when the figure is the candidate's, else noSense.
func only(is bool, s sense) sense {
	if is {
		return s
	}
	return noSense
}
