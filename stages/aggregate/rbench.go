package aggregate

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/tables"
)

// Reviewer-benchmark metrics, promotion gates and decision (rules I8, G6;
// "Metrics and promotion"). Every scheduled attempt is in every
// denominator of its stratum: a missing, failed, malformed, abstained or
// undecided review counts as neither detected nor decidable. The candidate
// advances only when it passes its contract and regression cases, blocks
// strictly fewer audited clean attempts than the baseline with no
// observed detection regression on the selection and on the final split,
// each compared within every model stratum (never on pooled strata), and
// the ledger's commitment stays within the budget. Otherwise the
// default stays: do_not_advance when the candidate is observed worse,
// inconclusive when it is not observed better (ties, no eligible attempts,
// a retired final split).

// SplitAll totals the three splits in the metrics table.
const SplitAll = "all"

// BenchmarkOut is what the stage produces for a reviewer benchmark.
type BenchmarkOut = tables.ReviewsAggregated

// Benchmark computes the metrics of every split, profile and model
// stratum, the promotion gates of the candidate against the baseline and
// the decision. commitment is the account stage's ledger commitment on the
// reference basis. A rejecting finding of any stage makes the decision
// no_verdict, by the one rule stages/run.go applies (tables.ApplyRejections).
func Benchmark(c *tables.Campaign, scored tables.ReviewsScored, commitment tables.Commitment) BenchmarkOut {
	var out BenchmarkOut
	arms := c.Manifest.Design.Arms
	models := strata(scored.Reviews)
	findingsBy := map[string][]tables.FindingRow{}
	for _, f := range scored.Findings {
		findingsBy[f.SessionID] = append(findingsBy[f.SessionID], f)
	}
	for _, split := range append(slices.Clone(tables.BenchmarkSplits), SplitAll) {
		for _, arm := range arms {
			for _, model := range models {
				rows := selectReviews(scored.Reviews, split, arm.ID, model)
				out.Metrics = append(out.Metrics, metrics(split, arm.ID, model, rows, findingsBy)...)
			}
		}
	}
	if len(arms) != 2 {
		return out // refused by load
	}
	pol, problems := resolvePolicy(&c.Manifest)
	out.Problems = append(out.Problems, problems...)
	if p, ok := rules.FindPreset(rules.PresetName(c.Manifest.GatePolicy.Preset)); ok && p.Kind != rules.KindReviewerBenchmark {
		out.Problems = append(out.Problems, rules.Finding{Code: rules.CodeGatePresetKind, Severity: rules.Reject, File: manifestFile, Pointer: "/gate_policy/preset",
			Message: fmt.Sprintf("A reviewer benchmark is judged by preset %s, not %s.", rules.PresetReviewerBenchmark, p.Name)})
		pol = nil
	}
	j := &benchJudge{c: c, rows: scored.Reviews, queue: scored.LabelQueue, base: arms[0].ID, cand: arms[1].ID, commitment: commitment}
	if pol != nil {
		out.Gates = j.gates(pol)
	}
	d := j.decide(out.Gates)
	if pol != nil && d.Decision == tables.DecisionAdvance {
		d.Reason = pol.benchReason(d.Reason)
	}
	out.Decision = []tables.Decision{d}
	labelDecisions(out.Decision, &c.Manifest)
	return out
}

// strata are the model strata in order, plus "all" when there are several.
func strata(rows []tables.ReviewRow) []string {
	var ms []string
	for _, r := range rows {
		if !slices.Contains(ms, r.Model) {
			ms = append(ms, r.Model)
		}
	}
	slices.Sort(ms)
	if len(ms) > 1 {
		ms = append(ms, SplitAll)
	}
	return ms
}

func selectReviews(rows []tables.ReviewRow, split, profile, model string) []tables.ReviewRow {
	var out []tables.ReviewRow
	for _, r := range rows {
		if (split == SplitAll || r.Split == split) && r.Profile == profile && (model == SplitAll || r.Model == model) {
			out = append(out, r)
		}
	}
	return out
}

// counts are one stratum's numerators and denominators.
type counts struct {
	scheduled, attempted, completed, decidable int64
	variants, detected, provVariants, provDet  int64
	disputed, adjReviews                       int64
	clean, blocked, provisional, provBlocked   int64
	abstained, errors, schema, contract        int64
	upheld, adjudicated, unadjudicated, all    int64
	in, out                                    int64
	cost                                       *tables.Money
	durations                                  []int64
	durationUnknown                            bool
	// cleanPairs and variantPairs are the (case, run) pairs of the
	// eligible audited clean and variant attempts, as "case/rN" in row
	// order: the two profiles are compared only on the same pairs.
	cleanPairs, variantPairs []string

	held  holds    // the ledger's holds beside the known cost (rbench_cost.go)
	pairs []string // every attempt's (case, run) pair, in row order
}

func tally(rows []tables.ReviewRow, findingsBy map[string][]tables.FindingRow) counts {
	var k counts
	zero := tables.Money(0)
	k.cost = &zero
	for _, r := range rows {
		k.scheduled++
		k.pairs = append(k.pairs, attemptPair(r))
		if r.Status != tables.ReviewStatusMissing {
			k.attempted++
		}
		// One status per attempt: completed counts completed reviews only,
		// never abstentions ("126 produced a completed review"; "most
		// incomplete reviews exhausted evidence/context limits").
		switch r.Status {
		case tables.ReviewStatusCompleted:
			k.completed++
		case tables.ReviewStatusAbstained:
			k.abstained++
		case tables.ReviewStatusSchemaViolation:
			k.schema++
		case tables.ReviewStatusContractViolation:
			k.contract++
		default:
			k.errors++
		}
		if r.Decidable {
			k.decidable++
		}
		switch {
		case r.CaseKind == tables.CaseVariant && r.Label == tables.LabelAudited:
			k.variants++
			k.variantPairs = append(k.variantPairs, attemptPair(r))
			if r.Detected != nil && *r.Detected {
				k.detected++
			}
		case r.CaseKind == tables.CaseVariant:
			k.provVariants++
			if r.Detected != nil && *r.Detected {
				k.provDet++
			}
		case r.CaseKind == tables.CaseClean && r.Label == tables.LabelAudited:
			k.clean++
			k.cleanPairs = append(k.cleanPairs, attemptPair(r))
			if r.Blocked != nil && *r.Blocked {
				k.blocked++
			}
		case r.CaseKind == tables.CaseClean:
			k.provisional++
			if r.Blocked != nil && *r.Blocked {
				k.provBlocked++
			}
		}
		if r.SessionID != "" {
			blocking, settled := 0, 0
			for _, f := range findingsBy[r.SessionID] {
				k.all++
				switch f.Adjudication {
				case tables.AdjudicationUpheld:
					k.upheld++
					k.adjudicated++
				case tables.AdjudicationRejected:
					k.adjudicated++
				case tables.AdjudicationDisputed:
					k.disputed++
					k.unadjudicated++
				default:
					k.unadjudicated++
				}
				if f.Severity == tables.FindingBlocking {
					blocking++
					if f.Adjudication == tables.AdjudicationUpheld || f.Adjudication == tables.AdjudicationRejected {
						settled++
					}
				}
			}
			// An independently adjudicated review: completed, with a
			// blocking finding, every one of them upheld or rejected.
			if r.Status == tables.ReviewStatusCompleted && blocking > 0 && settled == blocking {
				k.adjReviews++
			}
		}
		k.in, k.out = k.in+r.InputTokens, k.out+r.OutputTokens
		k.held.add(r)
		if r.Status != tables.ReviewStatusMissing {
			if k.cost != nil && r.Cost != nil {
				if s, ok := stats.AddInt64(int64(*k.cost), int64(*r.Cost)); ok {
					m := tables.Money(s)
					k.cost = &m
				} else {
					k.cost = nil
				}
			} else {
				k.cost = nil
			}
			if r.DurationNS == nil {
				k.durationUnknown = true
			} else {
				k.durations = append(k.durations, *r.DurationNS)
			}
		}
	}
	return k
}

// attemptPair names an attempt's (case, run) pair as gates list it.
func attemptPair(r tables.ReviewRow) string { return fmt.Sprintf("%s/r%d", r.CaseID, r.Run) }

// metrics are one stratum's metric rows.
func metrics(split, profile, model string, rows []tables.ReviewRow, findingsBy map[string][]tables.FindingRow) []tables.ReviewMetric {
	k := tally(rows, findingsBy)
	base := tables.ReviewMetric{Split: split, Profile: profile, Model: model}
	rate := func(metric string, num, den int64) tables.ReviewMetric {
		m := base
		m.Metric, m.Numerator, m.Denominator = metric, num, den
		if den > 0 {
			m.Exact = textPtr(fmt.Sprintf("%d/%d", num, den))
			m.Value = stats.Float(big.NewRat(num, den))
		}
		return m
	}
	sum := func(metric string, v int64) tables.ReviewMetric {
		m := base
		m.Metric, m.Numerator, m.Exact = metric, v, textPtr(fmt.Sprint(v))
		f := float64(v)
		m.Value = &f
		return m
	}
	cost := base
	cost.Metric = tables.MetricCost
	if k.cost != nil {
		cost.Exact = textPtr(k.cost.String())
		cost.Value = stats.Float(new(big.Rat).SetFrac64(int64(*k.cost), 1_000_000_000_000))
	}
	latency := base
	latency.Metric, latency.Denominator = tables.MetricLatency, int64(len(k.durations))
	if med := stats.MedianInt64(k.durations); med != nil && !k.durationUnknown {
		latency.Exact, latency.Value = exactText(med), stats.Float(med)
	}
	return []tables.ReviewMetric{
		sum(tables.MetricScheduled, k.scheduled),
		rate(tables.MetricAttempted, k.attempted, k.scheduled),
		rate(tables.MetricCompleted, k.completed, k.scheduled),
		rate(tables.MetricDecisionCoverage, k.decidable, k.scheduled),
		rate(tables.MetricDetection, k.detected, k.variants),
		rate(tables.MetricDetectionProvisional, k.provDet, k.provVariants),
		rate(tables.MetricBlockingOnClean, k.blocked, k.clean),
		rate(tables.MetricBlockingProvisional, k.provBlocked, k.provisional),
		rate(tables.MetricPrecision, k.upheld, k.adjudicated),
		rate(tables.MetricUnadjudicated, k.unadjudicated, k.all),
		rate(tables.MetricDisputed, k.disputed, k.all),
		rate(tables.MetricAdjudicatedReviews, k.adjReviews, k.scheduled),
		rate(tables.MetricAbstentions, k.abstained, k.scheduled),
		rate(tables.MetricExecutionErrors, k.errors, k.scheduled),
		rate(tables.MetricSchemaViolations, k.schema, k.scheduled),
		rate(tables.MetricContractViolations, k.contract, k.scheduled),
		sum(tables.MetricInputTokens, k.in),
		sum(tables.MetricOutputTokens, k.out),
		cost,
		latency,
		k.held.metric(base),
	}
}

// benchJudge evaluates the promotion gates of the candidate.
type benchJudge struct {
	c          *tables.Campaign
	rows       []tables.ReviewRow
	queue      []tables.LabelQueueRow
	waiting    int // label-queue entries holding the promotion
	base, cand string
	commitment tables.Commitment
	worse      []string // gates the candidate failed by being observed worse
	unpaired   []string // gates not compared: the profiles' (case, run) pairs differ in a stratum
}

func (j *benchJudge) split(split, profile string) counts {
	return tally(selectReviews(j.rows, split, profile, SplitAll), nil)
}

// gates are the promotion gates of the preset, in its order.
func (j *benchJudge) gates(pol *policy) []tables.Gate {
	retired := j.c.Manifest.Benchmark != nil && j.c.Manifest.Benchmark.FinalRetired
	checks := map[rules.GateName]func(threshold) tables.Gate{
		rules.GateRbContract:           j.contract,
		rules.GateRbRegression:         j.regression,
		rules.GateRbLabelsSettled:      j.labelsSettled,
		rules.GateRbBlockingSelection:  func(t threshold) tables.Gate { return j.blocking(t, tables.SplitSelection, false) },
		rules.GateRbDetectionSelection: func(t threshold) tables.Gate { return j.detection(t, tables.SplitSelection, false) },
		rules.GateRbBlockingFinal:      func(t threshold) tables.Gate { return j.blocking(t, tables.SplitFinal, retired) },
		rules.GateRbDetectionFinal:     func(t threshold) tables.Gate { return j.detection(t, tables.SplitFinal, retired) },
		rules.GateRbDecidability:       j.decidability,
		rules.GateRbExecutionErrors:    j.executionErrors,
		rules.GateRbBudget:             j.budget,
	}
	var gs []tables.Gate
	for _, t := range pol.thresholds {
		if check := checks[t.name]; check != nil {
			gs = append(gs, check(t))
		}
	}
	return gs
}

// gate is one gate row; worse marks a failure that shows the candidate
// worse than the baseline (rather than not shown better).
func (j *benchJudge) gate(t threshold, observed *big.Rat, text string, worse bool, failing []string, detail string) tables.Gate {
	g := tables.Gate{Gate: t.name, Arm: j.cand, Observed: text, Threshold: t.String(), Pass: t.pass(observed),
		Failing: failing, Detail: detail}
	g.SetNumbers(observed, rules.Comparison(t.op), t.value)
	if !g.Pass && worse {
		j.worse = append(j.worse, string(t.name))
	}
	return g
}

func (j *benchJudge) contract(t threshold) tables.Gate {
	all := j.split(SplitAll, j.cand)
	return j.gate(t, big.NewRat(all.schema+all.contract, 1),
		fmt.Sprintf("%d schema violations + %d contract violations in %d attempts", all.schema, all.contract, all.scheduled), true, nil,
		"every review of the candidate is a valid review document that keeps the finding contract (one stable ID per finding, consistent ratings)")
}

// regression counts the candidate's attempts on regression cases that are
// not right: a planted defect not detected, a clean case not passed.
func (j *benchJudge) regression(t threshold) tables.Gate {
	var failing []string
	n := 0
	for _, r := range j.rows {
		if r.Profile != j.cand || !r.Regression {
			continue
		}
		n++
		ok := (r.Detected != nil && *r.Detected) || (r.CaseKind == tables.CaseClean && r.Decision != nil && *r.Decision == tables.ReviewPass)
		if !ok {
			failing = append(failing, fmt.Sprintf("%s/r%d", r.CaseID, r.Run))
		}
	}
	return j.gate(t, big.NewRat(int64(len(failing)), 1), fmt.Sprintf("%d of %d regression attempts wrong", len(failing), n), true, failing,
		"known regression cases: the planted defect detected, the clean case passed")
}

// labelsSettled counts the label-adjudication queue entries that hold the
// promotion (selection and final splits). A waiting entry is not the
// candidate observed worse: the comparison cannot be read until the label
// is settled, so the decision stays inconclusive.
func (j *benchJudge) labelsSettled(t threshold) tables.Gate {
	var failing []string
	waiting := map[string]int{}
	for _, q := range j.queue {
		if q.Holds {
			failing = append(failing, fmt.Sprintf("%s %s/%s (%s)", q.CaseID, q.SessionID, q.FindingID, q.Adjudication))
			waiting[q.Adjudication]++
		}
	}
	j.waiting = len(failing)
	text := fmt.Sprintf("%d of %d label-queue entries in selection and final (upheld %d, disputed %d, unadjudicated %d)", len(failing), len(j.queue),
		waiting[tables.AdjudicationUpheld], waiting[tables.AdjudicationDisputed], waiting[tables.AdjudicationUnadjudicated])
	return j.gate(t, big.NewRat(int64(len(failing)), 1), text, false, failing,
		"a grounded blocking finding on an audited case that is not its planted defect and that no adjudication rejected puts the label in question: genuine additional defects trigger label adjudication, and blocking a clean case is not a proven false alarm until then")
}

const retiredDetail = "the final split was consumed by tuning: retired as a holdout, so it cannot support a promotion"

// stratumCounts are the baseline's and the candidate's counts of one split
// in one model stratum.
type stratumCounts struct {
	model      string
	base, cand counts
}

// byStratum tallies a split per model stratum (the receipts' returned
// model), in stratum order. The protocol reports model strata separately and a
// candidate may not worsen either model's results, so every promotion
// comparison is made within each stratum, never on pooled strata.
func (j *benchJudge) byStratum(split string) []stratumCounts {
	var out []stratumCounts
	for _, m := range strata(j.rows) {
		if m == SplitAll {
			continue
		}
		out = append(out, stratumCounts{m, tally(selectReviews(j.rows, split, j.base, m), nil), tally(selectReviews(j.rows, split, j.cand, m), nil)})
	}
	return out
}

// leastChange is the smallest per-stratum change over the strata where
// either profile has eligible attempts, nil (unknown) when there is none.
// Promotion compares the two profiles on the same cases, so a stratum is
// compared only when both profiles' eligible attempts are the same
// (case, run) pairs: otherwise unpaired lists every pair one profile has
// there and the other has not, as "model: case/rN profile only", and the
// gate cannot pass (least still shows whether a compared stratum is worse).
func leastChange(ss []stratumCounts, base, cand string, pairs func(counts) []string, change func(b, c counts) int64) (least *big.Rat, unpaired []string) {
	for _, s := range ss {
		pb, pc := pairs(s.base), pairs(s.cand)
		if len(pb) == 0 && len(pc) == 0 {
			continue
		}
		if only := onlyIn(pb, pc); len(only) > 0 || len(pb) != len(pc) {
			for _, p := range only {
				unpaired = append(unpaired, fmt.Sprintf("%s: %s %s only", s.model, p, base))
			}
			for _, p := range onlyIn(pc, pb) {
				unpaired = append(unpaired, fmt.Sprintf("%s: %s %s only", s.model, p, cand))
			}
			continue
		}
		if v := big.NewRat(change(s.base, s.cand), 1); least == nil || v.Cmp(least) < 0 {
			least = v
		}
	}
	return least, unpaired
}

// onlyIn lists the pairs of a that b does not hold as often, each once.
func onlyIn(a, b []string) []string {
	left := map[string]int{}
	for _, p := range b {
		left[p]++
	}
	var out []string
	for _, p := range a {
		if left[p] > 0 {
			left[p]--
		} else if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// noEligibleDetail says why a split's comparison compared nothing: no
// model stratum holds an eligible attempt of either profile there (a
// pilot that ran no selection or final case), so the gate cannot pass.
const noEligibleDetail = "not compared: neither profile has an eligible attempt here in any model stratum, so there is nothing to compare and the gate cannot pass"

// unpairedDetail says why a stratum was not compared.
const unpairedDetail = "not compared: within a model stratum the two profiles were not run on the same (case, run) pairs (failing lists the unpaired ones), so the comparison is not on the same cases"

// stratumText lists every stratum's counts, prefixed by its model when
// there are several.
func stratumText(ss []stratumCounts, one func(b, c counts) string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = one(s.base, s.cand)
		if len(ss) > 1 {
			parts[i] = "model " + s.model + ": " + parts[i]
		}
	}
	return strings.Join(parts, "; ")
}

// blocking compares blocked audited clean attempts within each model
// stratum: the baseline's minus the candidate's, the least over the
// strata. Blocking more in any stratum is worse; blocking as many in one
// is not shown better there.
func (j *benchJudge) blocking(t threshold, split string, retired bool) tables.Gate {
	return j.withinStrata(t, split, retired, stratumComparison{
		text: func(b, c counts) string {
			return fmt.Sprintf("baseline %d/%d, candidate %d/%d audited clean attempts blocked", b.blocked, b.clean, c.blocked, c.clean)
		},
		pairs:  func(k counts) []string { return k.cleanPairs },
		change: func(b, c counts) int64 { return b.blocked - c.blocked },
		worse:  func(least *big.Rat) bool { return least.Sign() < 0 },
		detail: "blocking findings on audited clean cases, compared within each model stratum; every eligible attempt stays in the denominator",
	})
}

// detection compares detected planted defects within each model stratum:
// the candidate's minus the baseline's, the least over the strata; fewer
// in any stratum is a regression.
func (j *benchJudge) detection(t threshold, split string, retired bool) tables.Gate {
	return j.withinStrata(t, split, retired, stratumComparison{
		text: func(b, c counts) string {
			return fmt.Sprintf("baseline %d/%d, candidate %d/%d planted defects detected", b.detected, b.variants, c.detected, c.variants)
		},
		pairs:  func(k counts) []string { return k.variantPairs },
		change: func(b, c counts) int64 { return c.detected - b.detected },
		worse:  func(least *big.Rat) bool { return !t.pass(least) },
		detail: "the planted category and location, compared within each model stratum; a wrong location is a miss",
	})
}

// stratumComparison is what a promotion gate compares within each model
// stratum: the counts it shows, the eligible (case, run) pairs, the
// change in the candidate's favour and when the least change shows the
// candidate worse.
type stratumComparison struct {
	text   func(b, c counts) string
	pairs  func(counts) []string
	change func(b, c counts) int64
	worse  func(least *big.Rat) bool
	detail string
}

// withinStrata is the gate of one split's comparison: the least change
// over the strata, unknown on a retired split or when a stratum's pairs
// differ (the gate then lists them and the decision names it).
func (j *benchJudge) withinStrata(t threshold, split string, retired bool, sc stratumComparison) tables.Gate {
	ss := j.byStratum(split)
	var least, observed *big.Rat
	var unpaired []string
	if !retired {
		least, unpaired = leastChange(ss, j.base, j.cand, sc.pairs, sc.change)
	}
	if len(unpaired) == 0 {
		observed = least
	}
	detail := sc.detail
	switch {
	case retired:
		detail = retiredDetail
	case len(unpaired) > 0:
		detail = unpairedDetail
		j.unpaired = append(j.unpaired, string(t.name))
	case least == nil:
		detail = noEligibleDetail
	}
	return j.gate(t, observed, stratumText(ss, sc.text), least != nil && sc.worse(least), unpaired, detail)
}

// budget is the ledger's remaining allowance (reference basis): the cap
// minus accounted, held and reserved charges; unknown when any is.
func (j *benchJudge) budget(t threshold) tables.Gate {
	cm := j.commitment
	show := func(m *tables.Money) string {
		if m == nil {
			return "unknown"
		}
		return m.String()
	}
	var observed *big.Rat
	if cm.Remaining != nil {
		observed = new(big.Rat).SetFrac64(int64(*cm.Remaining), 1_000_000_000_000)
	}
	text := fmt.Sprintf("cap %s − (accounted %s + held %s + reserved %s = committed %s) = remaining %s",
		show(cm.Cap), show(cm.Accounted), show(cm.Held), show(cm.Reserved), show(cm.Committed), show(cm.Remaining))
	return j.gate(t, observed, text, true, nil, "the ledger as rule A7 keeps it: held charges are never assumed free")
}

// decide is the one decision row.
func (j *benchJudge) decide(gates []tables.Gate) tables.Decision {
	d := tables.Decision{Arm: j.cand}
	var failing []string
	for _, g := range gates {
		if !g.Pass {
			failing = append(failing, string(g.Gate))
		}
	}
	d.FailingGates = failing
	worse := j.worse
	if j.waiting > 0 {
		// A clean case whose label is in question may be a defective
		// task: blocking it is no proven false alarm, so a blocking
		// comparison shows neither profile worse until it is settled.
		worse = slices.DeleteFunc(slices.Clone(worse), func(g string) bool {
			return g == string(rules.GateRbBlockingSelection) || g == string(rules.GateRbBlockingFinal)
		})
	}
	switch {
	case len(failing) == 0:
		d.Decision, d.Reason = tables.DecisionAdvance, "the candidate passes its contract and regression cases, blocks fewer clean cases with no detection regression on selection and final, within budget"
	case len(worse) > 0:
		d.Decision, d.Reason = tables.DecisionDoNotAdvance, "the candidate is observed worse on "+strings.Join(worse, ",")+"; the default reviewer stays"
	case j.waiting > 0:
		d.Decision, d.Reason = tables.DecisionInconclusive, fmt.Sprintf("%d finding(s) on audited selection or final cases await label adjudication (%s), so no blocking comparison is a proven false-alarm comparison yet; the candidate stays opt-in and the default reviewer stays",
			j.waiting, strings.Join(failing, ","))
	case len(j.unpaired) > 0:
		d.Decision, d.Reason = tables.DecisionInconclusive, "the candidate and the baseline were not run on the same (case, run) pairs within each model stratum, so "+
			strings.Join(j.unpaired, ",")+" compared nothing; the candidate stays opt-in and the default reviewer stays"
	default:
		d.Decision, d.Reason = tables.DecisionInconclusive, "no regression, but no demonstrated improvement on "+strings.Join(failing, ",")+"; the candidate stays opt-in and the default reviewer stays"
	}
	return d
}
