package intervals

import (
	"cmp"
	"slices"

	"github.com/evalgate/evalgate/stats"
	"github.com/evalgate/evalgate/stats/boot"
	"github.com/evalgate/evalgate/tables"
)

// Reviewer-benchmark rates (rule G6: "Compute uncertainty by resampling
// task families while retaining variants and repeated runs together"):
// per family one vector of counts per profile — audited variant attempts,
// detected, audited clean attempts, blocked, scheduled, decidable — so a
// drawn family brings its clean case, its variants and every run of both
// profiles. The statistics are each profile's detection, blocking-on-clean
// and decision-coverage rates and the candidate − baseline differences of
// detection and blocking over their shared denominator, each computed over
// every scope: all splits and each split (development, selection, final),
// within each model stratum (model strata are reported separately, never
// pooled). The rows are exploratory like every interval: no gate reads
// them. The families are the clusters whatever manifest.intervals.cluster
// says (a reviewer benchmark has no repository level).
//
// One interval per statistic and scope, and only where its coverage is
// tested: the hull of the expanded percentile and the cluster t interval
// (MethodRateHull), whose coverage TestRateHullCoverage simulates at the
// family counts of the embedded example and of the protocol's pilot
// (CoverageFamilies) and requires to be at least 0.92. A rate whose family
// count is not one of them, or (for a rate, not a difference) whose
// estimate lies outside [CoverageRateLo, CoverageRateHi], gets no bounds
// and a status saying so (StatusCoverageUntestedFamilies,
// StatusCoverageUntestedExtreme): the simulation did not establish the
// method's coverage there. Neither constituent interval is printed alone:
// each under-covers somewhere in that simulation (the expanded percentile
// on a difference near zero with few events, the cluster t on a rate with
// few families).

// Statistic names of the reviewer benchmark.
const (
	StatDetection     = "rbench.detection"
	StatBlocking      = "rbench.blocking_on_clean"
	StatCoverage      = "rbench.decision_coverage"
	StatDetectionDiff = "rbench.detection.diff"
	StatBlockingDiff  = "rbench.blocking_on_clean.diff"
)

// The method, statuses and tested family counts are tables' enums
// (tables.RateIntervalMethod and the rest), so the report can explain a
// missing interval without reading this stage.
const (
	MethodRateHull                 = tables.RateIntervalMethod
	StatusCoverageUntestedFamilies = tables.RateCoverageUntestedFamilies
	StatusCoverageUntestedExtreme  = tables.RateCoverageUntestedExtreme
	CoverageRateLo                 = tables.RateCoverageLo
	CoverageRateHi                 = tables.RateCoverageHi
	ScopeAll                       = tables.RateScopeAll
)

// CoverageFamilies are the family counts at which TestRateHullCoverage
// establishes the interval's coverage (tables.RateCoverageFamilies). Near
// 0 or 1, with a handful of attempts per family, no simulated method
// reached 0.92 (a family-clustered rate of 0.89 over 9 or 19 families:
// 0.91), hence the tested estimate range.
var CoverageFamilies = tables.RateCoverageFamilies

// CoverageTested reports whether the interval of a statistic of the given
// unit, carried by g families with this estimate, has tested coverage, and
// the status to write when it has not.
func CoverageTested(unit string, g int, estimate float64) (bool, string) {
	if !slices.Contains(CoverageFamilies, g) {
		return false, StatusCoverageUntestedFamilies
	}
	if unit == "fraction" && (estimate < CoverageRateLo || estimate > CoverageRateHi) {
		return false, StatusCoverageUntestedExtreme
	}
	return true, ""
}

// Count columns per profile in a family's vector.
const (
	colVariants = iota
	colDetected
	colClean
	colBlocked
	colScheduled
	colDecidable
	perProfile
)

// rateSpec is one statistic over the count columns.
type rateSpec struct {
	name, unit, contrast, arm string
	num                       []boot.BootTerm
	den                       int
}

// rbScope is one split (or all) within one model stratum.
type rbScope struct{ split, model string }

// Benchmark computes the exploratory intervals of a reviewer benchmark's
// scored review attempts; arms are the profiles in design order, the
// baseline first. Rows come scope by scope (all splits, then development,
// selection and final; model strata in name order), each scope's rows
// sorted by statistic, arm and contrast.
func Benchmark(c *tables.Campaign, reviews []tables.ReviewRow, opt Options) Out {
	p, findings := resolvePlan(c.Manifest, opt)
	if len(findings) > 0 {
		return Out{Findings: findings}
	}
	p.cluster = ClusterFamily
	var arms []string
	for _, a := range c.Manifest.Design.Arms {
		arms = append(arms, a.ID)
	}
	var models []string
	for _, r := range reviews {
		if !slices.Contains(models, r.Model) {
			models = append(models, r.Model)
		}
	}
	slices.Sort(models)
	var out []tables.Interval
	for _, m := range models {
		for _, split := range append([]string{ScopeAll}, tables.BenchmarkSplits...) {
			var in []tables.ReviewRow
			for _, r := range reviews {
				if r.Model == m && (split == ScopeAll || r.Split == split) {
					in = append(in, r)
				}
			}
			if len(in) > 0 {
				out = append(out, benchmarkScope(c.Manifest.CampaignID, p, arms, rbScope{split, m}, in)...)
			}
		}
	}
	return Out{Intervals: out}
}

// benchmarkScope is the rows of one scope's attempts.
func benchmarkScope(campaignID string, p plan, arms []string, sc rbScope, reviews []tables.ReviewRow) []tables.Interval {
	var fams []string
	for _, r := range reviews {
		if !slices.Contains(fams, r.Family) {
			fams = append(fams, r.Family)
		}
	}
	slices.Sort(fams)
	k := perProfile * len(arms)
	sums := make([][]int64, len(fams))
	for i := range sums {
		sums[i] = make([]int64, k)
	}
	cases := make([][]string, k) // distinct cases per denominator column
	count := func(col int, caseID string) {
		if !slices.Contains(cases[col], caseID) {
			cases[col] = append(cases[col], caseID)
		}
	}
	for _, r := range reviews {
		ai := slices.Index(arms, r.Profile)
		if ai < 0 {
			continue
		}
		c := ai * perProfile
		row := sums[slices.Index(fams, r.Family)][c:]
		row[colScheduled]++
		count(c+colScheduled, r.CaseID)
		if r.Decidable {
			row[colDecidable]++
		}
		switch {
		case r.Label != tables.LabelAudited:
		case r.CaseKind == tables.CaseVariant:
			row[colVariants]++
			count(c+colVariants, r.CaseID)
			if r.Detected != nil && *r.Detected {
				row[colDetected]++
			}
		case r.CaseKind == tables.CaseClean:
			row[colClean]++
			count(c+colClean, r.CaseID)
			if r.Blocked != nil && *r.Blocked {
				row[colBlocked]++
			}
		}
	}
	specs := rateSpecs(arms)
	totals := make([]int64, k)
	matrix := make([][]float64, len(sums))
	for i, s := range sums {
		matrix[i] = make([]float64, k)
		for j, v := range s {
			totals[j] += v
			matrix[i][j] = float64(v)
		}
	}
	bs := make([]boot.BootStatistic, len(specs))
	for i, sp := range specs {
		bs[i] = boot.BootStatistic{Name: sp.name, Num: sp.num, Den: sp.den, Rate: sp.unit == "fraction", Point: exactPoint(sp, totals), Range: unitRange(sp.unit)}
	}
	est, err := boot.FamilyBootstrap(matrix, bs, boot.BootOptions{Resamples: p.resamples, Seed: p.seed, Workers: p.workers})
	if err != nil { // unreachable: counts are finite and columns in range
		return nil
	}
	out := make([]tables.Interval, 0, len(specs))
	for i, sp := range specs {
		out = append(out, hullRow(campaignID, p, sp, sc, est[i], int64(len(cases[sp.den])), totals[sp.den]))
	}
	slices.SortStableFunc(out, func(a, b tables.Interval) int {
		return cmp.Or(cmp.Compare(a.Statistic, b.Statistic), cmp.Compare(a.Arm, b.Arm), cmp.Compare(a.Contrast, b.Contrast))
	})
	return out
}

// hullRow is a statistic's one row: the hull of its expanded percentile
// and cluster t bounds when its status is ok and its coverage tested.
func hullRow(campaignID string, p plan, sp rateSpec, sc rbScope, e boot.BootEstimate, nCases, nAttempts int64) tables.Interval {
	exp, t := e.Bounds[0], e.Bounds[1] // boot.BootMethods order
	row := tables.Interval{
		Statistic: sp.name, Arm: sp.arm, Method: MethodRateHull, Status: string(e.Status),
		Estimate: finite(e.Point), Level: boot.BootLevel,
		NFamilies: int64(e.Families), Resamples: int64(p.resamples), Seed: p.seed,
		RNG: boot.RNGName, AlgorithmVersion: boot.BootAlgorithmVersion, Cluster: p.cluster,
		Label: Label, GateEffect: GateEffect,
		CampaignID: campaignID, Contrast: sp.contrast, Unit: sp.unit, QuantileRule: boot.QuantileRule,
		PLower: finite(exp.P), BootSE: finite(e.BootSE),
		NTasks: nCases, NRuns: nAttempts,
		NUndefinedResamples: int64(e.Undefined), SmallGFlag: e.SmallG,
		Primary: true, Split: sc.split, Model: sc.model,
	}
	if e.Status == boot.StatusNoData {
		row.Estimate = nil
	}
	if e.Status != boot.StatusOK {
		return row
	}
	if ok, status := CoverageTested(sp.unit, e.Families, e.Point); !ok {
		row.Status = status
		return row
	}
	row.Lo, row.Hi = finite(min(exp.Lo, t.Lo)), finite(max(exp.Hi, t.Hi))
	row.Clipped = exp.Clipped || t.Clipped
	return row
}

// rateSpecs lists every profile's three rates, then for each profile
// judged against the baseline the two differences (its denominator
// column; both profiles schedule the same attempts).
func rateSpecs(arms []string) []rateSpec {
	var out []rateSpec
	for i, a := range arms {
		c := i * perProfile
		out = append(out,
			rateSpec{StatDetection, "fraction", a, a, []boot.BootTerm{{Column: c + colDetected}}, c + colVariants},
			rateSpec{StatBlocking, "fraction", a, a, []boot.BootTerm{{Column: c + colBlocked}}, c + colClean},
			rateSpec{StatCoverage, "fraction", a, a, []boot.BootTerm{{Column: c + colDecidable}}, c + colScheduled})
	}
	for i := 1; i < len(arms); i++ {
		c, b := i*perProfile, 0
		out = append(out,
			rateSpec{StatDetectionDiff, "difference", arms[i] + "-" + arms[0], arms[i],
				[]boot.BootTerm{{Column: c + colDetected}, {Column: b + colDetected, Negate: true}}, c + colVariants},
			rateSpec{StatBlockingDiff, "difference", arms[i] + "-" + arms[0], arms[i],
				[]boot.BootTerm{{Column: c + colBlocked}, {Column: b + colBlocked, Negate: true}}, c + colClean})
	}
	return out
}

// exactPoint is the exact rate rounded once: the same fraction the
// review_metrics table reports.
func exactPoint(sp rateSpec, totals []int64) *float64 {
	num := int64(0)
	for _, t := range sp.num {
		if t.Negate {
			num -= totals[t.Column]
		} else {
			num += totals[t.Column]
		}
	}
	return stats.Float(stats.Fraction(num, totals[sp.den]))
}
