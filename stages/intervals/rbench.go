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
// detection and blocking over their shared denominator. The rows are
// exploratory like every interval: no gate reads them. The families are
// the clusters whatever manifest.intervals.cluster says (a reviewer
// benchmark has no repository level).

// Statistic names of the reviewer benchmark.
const (
	StatDetection     = "rbench.detection"
	StatBlocking      = "rbench.blocking_on_clean"
	StatCoverage      = "rbench.decision_coverage"
	StatDetectionDiff = "rbench.detection.diff"
	StatBlockingDiff  = "rbench.blocking_on_clean.diff"
)

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

// Benchmark computes the exploratory intervals of a reviewer benchmark's
// scored review attempts; arms are the profiles in design order, the
// baseline first.
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
	for _, r := range reviews {
		ai := slices.Index(arms, r.Profile)
		if ai < 0 {
			continue
		}
		row := sums[slices.Index(fams, r.Family)][ai*perProfile:]
		row[colScheduled]++
		if r.Decidable {
			row[colDecidable]++
		}
		switch {
		case r.Label != tables.LabelAudited:
		case r.CaseKind == tables.CaseVariant:
			row[colVariants]++
			if r.Detected != nil && *r.Detected {
				row[colDetected]++
			}
		case r.CaseKind == tables.CaseClean:
			row[colClean]++
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
		return Out{}
	}
	var out []tables.Interval
	for i, sp := range specs {
		a := &accum{nTasks: int64(len(fams)), nRuns: totals[sp.den]}
		rows := renderRows(c.Manifest.CampaignID, p, statSpec{name: sp.name, unit: sp.unit, contrast: sp.contrast, arm: sp.arm}, a, est[i])
		out = append(out, rows...)
	}
	slices.SortStableFunc(out, func(a, b tables.Interval) int {
		return cmp.Or(cmp.Compare(a.Statistic, b.Statistic), cmp.Compare(a.Arm, b.Arm),
			cmp.Compare(a.Contrast, b.Contrast), cmp.Compare(a.Method, b.Method))
	})
	return Out{Intervals: out}
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
