// Package intervals is the sixth stage: exploratory family-clustered
// bootstrap intervals (rule B1). They never change a gate or the decision:
// the aggregate stage never reads this package's output, and every row is
// labelled EXPLORATORY with gate_effect "none".
//
// Steps (statistics notes §3):
//
//  1. Reduce the runs once, exactly: per (cluster, task, arm) the task median
//     of R over scored runs, of workflow cost over runs with a cost, and of
//     workflow time over runs with a complete time (big.Rat; the median of
//     an even count is the mean of the two middle values).
//  2. Per cluster (family, or repository when manifest.intervals.cluster
//     says so) sum those medians into a fixed vector: three columns per
//     statistic (tasks, Σ treatment medians, Σ baseline medians).
//  3. Resample clusters with boot.FamilyBootstrap: one cluster multiset
//     per resample shared by every statistic and arm; nothing inside a
//     cluster is resampled.
//  4. Write one row per statistic × method, sorted by (statistic, arm,
//     contrast, method). Point estimates are the exact rationals rounded
//     once to float64, the same numbers the gates use when every run is
//     scored and every cost known. Each statistic has exactly one primary
//     row (boot.PrimaryMethod: cluster t below boot.SwitchBelowFamilies
//     families, expanded percentile from there), and every bound is
//     clipped to the statistic's range (unitRange), the row's clipped
//     column saying when one was moved.
//
// Invariants: no wall clock, no map order in output, results independent
// of the worker count; a statistic without an interval carries an explicit
// status (no_data, empty_arm, no_pairs, too_few_families,
// degenerate_zero_variance, undefined_statistic, undefined_resamples).
package intervals

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"runtime"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/stats/boot"
	"github.com/evalgate/evalgate/tables"
)

// Fixed column values of every row.
const (
	Label            = "EXPLORATORY"
	GateEffect       = "none"
	StatisticSetVer  = "evalgate.intervals/v1" // enters the derived seed
	ClusterFamily    = "family"
	ClusterRepo      = "repository"
	seedDomainPrefix = "famboot/v1"
)

// Options are knobs beyond the manifest; the zero value uses the manifest
// plan and GOMAXPROCS workers. Results never depend on Workers.
type Options struct {
	Workers   int // ≤ 0: runtime.GOMAXPROCS(0)
	Resamples int // > 0 overrides manifest.intervals.resamples
}

// Out is what the stage produces: one row per statistic × method and the
// stage's findings.
type Out struct {
	Intervals []tables.Interval
	Findings  rules.Findings
}

// Run computes the intervals of the score stage's runs.
func Run(c *tables.Campaign, runs *spool.Spool[tables.Run]) Out {
	return RunWith(c, runs, Options{})
}

// RunWith is Run with explicit options.
func RunWith(c *tables.Campaign, runs *spool.Spool[tables.Run], opt Options) Out {
	var m tables.Manifest
	if c != nil {
		m = c.Manifest
	}
	p, findings := resolvePlan(m, opt)
	if len(findings) > 0 {
		return Out{Findings: findings}
	}
	arms, grouped := armOrder(m, runs)
	red, bad := reduce(runs, p.cluster, arms, grouped)
	return Out{Intervals: red.rows(m.CampaignID, p), Findings: bad}
}

// plan is the resolved bootstrap configuration.
type plan struct {
	cluster   string
	resamples int
	seed      uint64
	workers   int
}

func resolvePlan(m tables.Manifest, opt Options) (plan, []rules.Finding) {
	p := plan{cluster: m.Intervals.Cluster, seed: m.Intervals.Seed, workers: opt.Workers}
	var out []rules.Finding
	if p.cluster == "" {
		p.cluster = ClusterFamily
	}
	if p.cluster != ClusterFamily && p.cluster != ClusterRepo {
		out = append(out, planFinding("/intervals/cluster", fmt.Sprintf("intervals.cluster %q is neither %q nor %q, so no interval is computed.", m.Intervals.Cluster, ClusterFamily, ClusterRepo)))
	}
	n := m.Intervals.Resamples
	if opt.Resamples > 0 {
		n = int64(opt.Resamples)
	}
	switch {
	case n == 0:
		p.resamples = boot.DefaultResamples
	case n < 0 || n > boot.MaxResamples:
		out = append(out, planFinding("/intervals/resamples", fmt.Sprintf("intervals.resamples %d is outside 0..%d (0 means %d), so no interval is computed.", n, boot.MaxResamples, boot.DefaultResamples)))
	default:
		p.resamples = int(n)
	}
	if p.seed == 0 {
		p.seed = DerivedSeed(m.CampaignID)
	}
	if p.workers <= 0 {
		p.workers = runtime.GOMAXPROCS(0)
	}
	return p, out
}

func planFinding(pointer, msg string) rules.Finding {
	return rules.Finding{Code: rules.CodeIntervalPlanInvalid, Severity: rules.Warn, File: "manifest.json", Pointer: pointer, Message: msg}
}

// DerivedSeed is the bootstrap seed of a campaign whose manifest leaves
// intervals.seed at 0: the first 8 bytes, big-endian, of
// SHA-256("famboot/v1" ‖ campaign_id ‖ "evalgate.intervals/v1").
func DerivedSeed(campaignID string) uint64 {
	sum := sha256.Sum256([]byte(seedDomainPrefix + campaignID + StatisticSetVer))
	return binary.BigEndian.Uint64(sum[:8])
}
