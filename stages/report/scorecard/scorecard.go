// Package scorecard builds scorecard.json, evalgate's stable machine
// interface, from the tables and the aggregate stage's figures: it counts
// rows and formats the figures, and computes no median, mean or ratio.
// The plain-text forms in text.go are shared by the Markdown and HTML
// renderers.
package scorecard

import (
	"math"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// File is the scorecard's file name in an output directory.
const File = "scorecard.json"

// Version is the value of scorecard.json's "scorecard_version".
// The scorecard is evalgate's stable machine interface: a field may be
// added under the same version, never renamed, retyped or removed.
const Version = "evalgate.scorecard/v1"

// Labels of the exploratory intervals; they must not change.
const (
	IntervalLabel      = "EXPLORATORY"
	IntervalGateEffect = "none"
)

// Scorecard is the content of scorecard.json. Field order is the JSON
// order. Exact numbers (money, ratios, medians) are strings; counts are
// integers; a null means "not available", never zero.
type Scorecard struct {
	ScorecardVersion string `json:"scorecard_version"`
	CampaignID       string `json:"campaign_id"`
	ManifestSHA256   string `json:"manifest_sha256"`
	Synthetic        bool   `json:"synthetic"`
	ToolVersion      string `json:"tool_version"`
	Kind             string `json:"kind"`
	// Policy is the policy that judged the campaign and every number it
	// applied (rule F1); null when the campaign could not be loaded.
	Policy            *Policy           `json:"policy"`
	Completion        Completion        `json:"completion"`
	SourceAndProtocol SourceAndProtocol `json:"source_and_protocol"`
	EvidenceAndPlan   EvidenceAndPlan   `json:"evidence_and_plan"`
	CostAndTime       CostAndTime       `json:"cost_and_time"`
	// Ceilings are the campaign ceilings, campaign wall time among them,
	// each with its use and limit, in manifest order.
	Ceilings         []CeilingResult   `json:"ceilings"`
	Gates            []GateResult      `json:"gates"`
	SystemComparison *SystemComparison `json:"system_comparison,omitempty"` // kind system-comparison only
	Decision         DecisionResult    `json:"decision"`
	Intervals        Intervals         `json:"intervals"`
	// ReviewerBenchmark is present only for kind reviewer-benchmark.
	ReviewerBenchmark *ReviewerBenchmark `json:"reviewer_benchmark,omitzero"`
	// PromptVersions are the prompt versions of a development flow (rule
	// G8); absent without one.
	PromptVersions []PromptVersion `json:"prompt_versions,omitzero"`
}

// Count is one named count; lists of counts are sorted by name unless
// documented otherwise.
type Count struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// Completion says what was run and what was rejected. Completion of a run
// is distinct from the decision (R3).
type Completion struct {
	Sessions                 int64   `json:"sessions"`
	SessionsByClassification []Count `json:"sessions_by_classification"`
	SessionsByStatus         []Count `json:"sessions_by_status"`
	Runs                     int64   `json:"runs"` // planned runs: every one stays in its denominator
	RunsScored               int64   `json:"runs_scored"`
	RunsUnscored             int64   `json:"runs_unscored"` // lacking ratings: unscored, never zero
	RunsByClassification     []Count `json:"runs_by_classification"`
	Findings                 int64   `json:"findings"`
	FindingsBySeverity       []Count `json:"findings_by_severity"` // reject, then warn
	FindingsByCode           []Count `json:"findings_by_code"`
}

// GateResult is one row of the gates table. Observed and Threshold are
// display text; the _num and _den fields state the same values exactly as
// reduced fractions (null when unknown or beyond int64).
type GateResult struct {
	Gate         string   `json:"gate"`
	Arm          string   `json:"arm"`
	Observed     string   `json:"observed"`
	Threshold    string   `json:"threshold"`
	Pass         bool     `json:"pass"`
	Failing      []string `json:"failing"`
	Detail       string   `json:"detail"`
	ObservedNum  *int64   `json:"observed_num"`
	ObservedDen  *int64   `json:"observed_den"`
	Comparison   string   `json:"comparison"` // >= or <=, inclusive
	ThresholdNum *int64   `json:"threshold_num"`
	ThresholdDen *int64   `json:"threshold_den"`
}

// DecisionResult is the campaign's decision. With no decision row, or more
// than one, it is no_verdict with a reason saying so.
type DecisionResult struct {
	Decision     tables.Verdict `json:"decision"`
	Arm          string         `json:"arm"`
	FailingGates []string       `json:"failing_gates"`
	Reason       string         `json:"reason"`
	// Policy names the policy that judged: "preset NAME — SOURCE's frozen
	// rules" or "custom policy ID — not SOURCE's frozen rules".
	Policy string `json:"policy"`
	// FailingGateDetails is each failing gate's row of gates, in the gates'
	// order: observed against threshold and what failed it, one entry per
	// gate named in failing_gates.
	FailingGateDetails []GateResult `json:"failing_gate_details"`
}

// Intervals are the exploratory bootstrap intervals, reported after the
// gates and without pass/fail marks.
type Intervals struct {
	Label      string           `json:"label"`       // always EXPLORATORY
	GateEffect string           `json:"gate_effect"` // always none
	Rows       []IntervalResult `json:"rows"`
}

// IntervalResult is one row of the intervals table.
type IntervalResult struct {
	Statistic             string   `json:"statistic"`
	Arm                   string   `json:"arm"`
	Method                string   `json:"method"`
	Status                string   `json:"status"`
	Estimate              *float64 `json:"estimate"`
	Lo                    *float64 `json:"lo"`
	Hi                    *float64 `json:"hi"`
	Level                 *float64 `json:"level"`
	NFamilies             int64    `json:"n_families"`
	Resamples             int64    `json:"resamples"`
	Seed                  string   `json:"seed"` // decimal uint64, a string so no reader rounds it
	RNG                   string   `json:"rng"`
	AlgorithmVersion      string   `json:"algorithm_version"`
	Cluster               string   `json:"cluster"`
	Contrast              string   `json:"contrast"`
	Unit                  string   `json:"unit"`
	QuantileRule          string   `json:"quantile_rule"`
	PLower                *float64 `json:"p_lower"`
	BootSE                *float64 `json:"boot_se"`
	NTasks                int64    `json:"n_tasks"`
	NRuns                 int64    `json:"n_runs"`
	NTasksDroppedUnpaired int64    `json:"n_tasks_dropped_unpaired"`
	NUndefinedResamples   int64    `json:"n_undefined_resamples"`
	SmallGFlag            string   `json:"small_g_flag"`
	Primary               bool     `json:"primary"` // the primary interval at this G (cluster t below 6 families, expanded percentile from 6)
	Clipped               bool     `json:"clipped"` // a bound was moved onto the statistic's range ([0,1] for a fraction)
	// Split and Model are a reviewer benchmark's scope of the rate (split
	// all, development, selection or final; one model stratum); absent for
	// other kinds.
	Split string `json:"split,omitzero"`
	Model string `json:"model,omitzero"`
}

// Build summarises the tables of s and formats the aggregate stage's
// figures f. c may be nil (a campaign that could not be loaded); its
// identity fields are then empty.
func Build(c *tables.Campaign, s *tables.Set, f tables.Figures, toolVersion string) Scorecard {
	sc := Scorecard{
		ScorecardVersion: Version,
		ToolVersion:      toolVersion,
		Completion:       buildCompletion(s),
		Gates:            buildGates(s.Gates),
		Decision:         BuildDecision(s.Decision),
		Intervals:        buildIntervals(s.Intervals),
		Ceilings:         buildCeilings(s),
	}
	sc.Decision.FailingGateDetails = failingGates(sc.Decision, sc.Gates)
	if c != nil {
		sc.CampaignID = c.Manifest.CampaignID
		sc.ManifestSHA256 = c.ManifestSHA256
		sc.Synthetic = c.Manifest.Synthetic
		sc.Kind = c.Manifest.Kind
		sc.Policy = buildPolicy(&c.Manifest, toolVersion)
	}
	arms := make([]string, 0, len(f.CostArms))
	for _, a := range f.CostArms {
		arms = append(arms, a.Arm)
	}
	sc.SourceAndProtocol = buildSourceAndProtocol(s, arms)
	sc.EvidenceAndPlan = buildEvidenceAndPlan(f, s.Tasks)
	sc.CostAndTime = buildCostAndTime(f)
	if c != nil && len(c.Manifest.RateCards) > 0 {
		sc.CostAndTime.Currency = c.Manifest.RateCards[0].Currency
	}
	sc.SystemComparison = buildSystemComparison(f.Systems)
	sc.ReviewerBenchmark = buildReviewerBenchmark(c, s, f.Commitment)
	sc.PromptVersions = buildPromptVersions(c, s.PromptVersions)
	return sc
}

// Marshal encodes sc as indented JSON with a trailing newline.
// Struct fields keep their declared order, so the bytes are deterministic.
func Marshal(sc Scorecard) ([]byte, error) {
	b, err := json.Marshal(sc, json.Deterministic(true), jsontext.WithIndent("  "))
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func buildCompletion(s *tables.Set) Completion {
	c := Completion{
		Sessions: int64(s.Sessions.Len()),
		Runs:     int64(s.Runs.Len()),
		Findings: int64(len(s.Rejections)),
	}
	var bySessClass, byStatus, byRunClass, byCode counter
	for ss := range s.Sessions.All() {
		bySessClass.add(string(ss.Classification))
		byStatus.add(ss.Status)
	}
	for r := range s.Runs.All() {
		byRunClass.add(string(r.Classification))
		if r.Scored {
			c.RunsScored++
		} else {
			c.RunsUnscored++
		}
	}
	var reject, warn int64
	for _, f := range s.Rejections {
		byCode.add(string(f.Code))
		switch f.Severity {
		case rules.Reject:
			reject++
		case rules.Warn:
			warn++
		}
	}
	c.SessionsByClassification = bySessClass.sorted()
	c.SessionsByStatus = byStatus.sorted()
	c.RunsByClassification = byRunClass.sorted()
	c.FindingsByCode = byCode.sorted()
	c.FindingsBySeverity = []Count{{string(rules.Reject), reject}, {string(rules.Warn), warn}}
	return c
}

func buildGates(rows []tables.Gate) []GateResult {
	out := make([]GateResult, 0, len(rows))
	for _, g := range rows {
		out = append(out, GateResult{
			Gate: string(g.Gate), Arm: g.Arm, Observed: g.Observed, Threshold: g.Threshold,
			Pass: g.Pass, Failing: list(g.Failing), Detail: g.Detail,
			ObservedNum: g.ObservedNum, ObservedDen: g.ObservedDen, Comparison: g.Comparison,
			ThresholdNum: g.ThresholdNum, ThresholdDen: g.ThresholdDen,
		})
	}
	return out
}

// BuildDecision is the scorecard's decision from the decision table's rows:
// no_verdict with a reason unless there is exactly one.
func BuildDecision(rows []tables.Decision) DecisionResult {
	if len(rows) != 1 {
		return DecisionResult{
			Decision:           tables.DecisionNoVerdict,
			FailingGates:       []string{},
			Reason:             "expected exactly one decision row, got " + strconv.Itoa(len(rows)),
			FailingGateDetails: []GateResult{},
		}
	}
	d := rows[0]
	return DecisionResult{Decision: d.Decision, Arm: d.Arm, FailingGates: list(d.FailingGates), Reason: d.Reason, Policy: d.Policy,
		FailingGateDetails: []GateResult{}}
}

func buildIntervals(rows []tables.Interval) Intervals {
	out := Intervals{Label: IntervalLabel, GateEffect: IntervalGateEffect, Rows: make([]IntervalResult, 0, len(rows))}
	for _, r := range rows {
		out.Rows = append(out.Rows, IntervalResult{
			Statistic: r.Statistic, Arm: r.Arm, Method: r.Method, Status: r.Status,
			Estimate: finite(r.Estimate), Lo: finite(r.Lo), Hi: finite(r.Hi), Level: finite(&r.Level),
			NFamilies: r.NFamilies, Resamples: r.Resamples, Seed: strconv.FormatUint(r.Seed, 10),
			RNG: r.RNG, AlgorithmVersion: r.AlgorithmVersion, Cluster: r.Cluster,
			Contrast: r.Contrast, Unit: r.Unit, QuantileRule: r.QuantileRule,
			PLower: finite(r.PLower), BootSE: finite(r.BootSE), NTasks: r.NTasks, NRuns: r.NRuns,
			NTasksDroppedUnpaired: r.NTasksDroppedUnpaired, NUndefinedResamples: r.NUndefinedResamples,
			SmallGFlag: r.SmallGFlag, Primary: r.Primary, Clipped: r.Clipped, Split: r.Split, Model: r.Model,
		})
	}
	return out
}

// finite copies *p, mapping nil, NaN and ±Inf to nil: JSON has no
// non-finite numbers.
func finite(p *float64) *float64 {
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) {
		return nil
	}
	v := *p
	return &v
}

// list is a copy of xs that is never nil: JSON writes [] for no items.
func list(xs []string) []string { return append([]string{}, xs...) }

// counter counts names; sorted returns the counts in name order.
type counter struct{ m map[string]int64 }

func (c *counter) add(name string) {
	if c.m == nil {
		c.m = map[string]int64{}
	}
	c.m[name]++
}

func (c *counter) sorted() []Count {
	out := make([]Count, 0, len(c.m))
	for _, name := range sortedKeys(c.m) {
		out = append(out, Count{name, c.m[name]})
	}
	return out
}
