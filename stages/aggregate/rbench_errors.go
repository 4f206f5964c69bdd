package aggregate

import (
	"fmt"

	"github.com/evalgate/evalgate/tables"
)

// The optimizer's rule in promotion (rule G6: "No candidate may worsen
// false blocks, detection, decidability or execution errors on either
// model"). False blocks and detection have their gates per split; the
// candidate's decidable attempts and execution errors are compared with
// the baseline's over the splits a promotion rests on (selection and
// final), within each model stratum on the same (case, run) pairs: fewer
// decidable attempts or more execution errors in any stratum is worse.

// promotionStrata tallies the selection and final splits together per
// model stratum.
func (j *benchJudge) promotionStrata() []stratumCounts {
	var rows []tables.ReviewRow
	for _, r := range j.rows {
		if r.Split == tables.SplitSelection || r.Split == tables.SplitFinal {
			rows = append(rows, r)
		}
	}
	var out []stratumCounts
	for _, m := range strata(j.rows) {
		if m == SplitAll {
			continue
		}
		out = append(out, stratumCounts{m, tally(selectReviews(rows, SplitAll, j.base, m), nil), tally(selectReviews(rows, SplitAll, j.cand, m), nil)})
	}
	return out
}

// notWorse is a gate comparing one count over the selection and final
// splits within each model stratum.
func (j *benchJudge) notWorse(t threshold, sc stratumComparison) tables.Gate {
	ss := j.promotionStrata()
	least, unpaired := leastChange(ss, j.base, j.cand, sc.pairs, sc.change)
	observed, detail := least, sc.detail
	switch {
	case len(unpaired) > 0:
		observed, detail = nil, unpairedDetail
		j.unpaired = append(j.unpaired, string(t.name))
	case least == nil:
		detail = noEligibleDetail
	}
	return j.gate(t, observed, stratumText(ss, sc.text), least != nil && least.Sign() < 0, unpaired, detail)
}

func (j *benchJudge) decidability(t threshold) tables.Gate {
	return j.notWorse(t, stratumComparison{
		text: func(b, c counts) string {
			return fmt.Sprintf("baseline %d/%d, candidate %d/%d selection and final attempts decidable", b.decidable, b.scheduled, c.decidable, c.scheduled)
		},
		pairs:  func(k counts) []string { return k.pairs },
		change: func(b, c counts) int64 { return c.decidable - b.decidable },
		detail: "decidable attempts (completed with a block or pass decision), compared within each model stratum: the candidate may not worsen decidability on either model",
	})
}

func (j *benchJudge) executionErrors(t threshold) tables.Gate {
	return j.notWorse(t, stratumComparison{
		text: func(b, c counts) string {
			return fmt.Sprintf("baseline %d/%d, candidate %d/%d selection and final attempts with an execution error", b.errors, b.scheduled, c.errors, c.scheduled)
		},
		pairs:  func(k counts) []string { return k.pairs },
		change: func(b, c counts) int64 { return b.errors - c.errors },
		detail: "errors, interruptions, sessions not dispatched and missing receipts, compared within each model stratum: the candidate may not worsen execution errors on either model",
	})
}
