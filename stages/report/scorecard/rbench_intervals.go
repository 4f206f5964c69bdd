package scorecard

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/tables"
)

// BenchmarkIntervalIntro is the text above a reviewer benchmark's
// interval table: what the interval is and where it is withheld.
func BenchmarkIntervalIntro() string {
	fams := make([]string, len(tables.RateCoverageFamilies))
	for i, g := range tables.RateCoverageFamilies {
		fams[i] = strconv.Itoa(g)
	}
	return fmt.Sprintf("One interval per rate and scope (a split, or all, within one model stratum): "+
		"the hull of the expanded percentile and the cluster t interval of the family bootstrap, clipped to the rate's range. "+
		"A simulation of the benchmark's shape establishes its coverage (at least 0.92) at %s families "+
		"and, for a rate, an estimate within [%s, %s]; elsewhere its coverage is untested and no interval is given.",
		strings.Join(fams, ", "), strconv.FormatFloat(tables.RateCoverageLo, 'g', -1, 64), strconv.FormatFloat(tables.RateCoverageHi, 'g', -1, 64))
}

// BenchmarkIntervalTable is a reviewer benchmark's interval rows: scope,
// rate, estimate, the interval or why there is none, families and
// attempts.
func BenchmarkIntervalTable(rows []IntervalResult) (header []string, out [][]string) {
	header = []string{"split", "model", "statistic", "contrast", "estimate", "interval", "families", "attempts", "note"}
	for _, r := range rows {
		interval := "none"
		if r.Status == "ok" && r.Lo != nil && r.Hi != nil {
			interval = "[" + Bound(r.Lo) + ", " + Bound(r.Hi) + "]"
		}
		out = append(out, []string{r.Split, r.Model, r.Statistic, r.Contrast, Bound(r.Estimate), interval,
			Int(r.NFamilies), Int(r.NRuns), intervalNote(r)})
	}
	return header, out
}

// intervalNote says why a row has no interval, or that a bound was
// clipped; "—" for an interval with nothing to note.
func intervalNote(r IntervalResult) string {
	switch r.Status {
	case "ok":
		if r.Clipped {
			return "a bound clipped to the range"
		}
		return "—"
	case tables.RateCoverageUntestedFamilies:
		return fmt.Sprintf("coverage untested at %d families: no interval", r.NFamilies)
	case tables.RateCoverageUntestedExtreme:
		return "coverage untested for an estimate outside [" + strconv.FormatFloat(tables.RateCoverageLo, 'g', -1, 64) + ", " +
			strconv.FormatFloat(tables.RateCoverageHi, 'g', -1, 64) + "]: no interval"
	case "no_events":
		return fmt.Sprintf("no event in %d attempts over %d families", r.NRuns, r.NFamilies)
	case "degenerate_zero_variance":
		return "every family gives the same value: no interval"
	case "too_few_families":
		return "one family: no interval"
	case "no_data", "undefined_statistic":
		return "no eligible attempt"
	}
	return strings.ReplaceAll(r.Status, "_", " ")
}

// ScopedStatistic is the row's statistic with its reviewer-benchmark
// scope, "rbench.detection (selection, MODEL)"; the statistic alone for
// other kinds.
func (r IntervalResult) ScopedStatistic() string {
	if r.Split == "" && r.Model == "" {
		return r.Statistic
	}
	return r.Statistic + " (" + r.Split + ", " + r.Model + ")"
}
