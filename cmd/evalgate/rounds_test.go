package main

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/evalgate/evalgate/fixtures/controls"
	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages"
	"github.com/evalgate/evalgate/tables"
)

// TestEvaluationAfterRound2: one campaign holding the development flow
// (T1–T4, round 1, B v1.1, round 2) and the evaluation (T5–T8). By hand
// from paired-review-green: T4-r2-B's ratings mark O3 missed, so B's
// round-2 R on T4 is 3/4 < 0.80 and round 2 fails g2_task_floor: the
// evaluation sessions should never have run (evaluation_after_failed_round2).
// With O3 addressed (the development example's edit) round 2 passes and
// that finding is gone. Either way the green schedule ran evaluation
// sessions before round 2 ended (evaluation_before_freeze).
func TestEvaluationAfterRound2(t *testing.T) {
	frozen := time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)
	for _, round2Passes := range []bool{false, true} {
		c, err := controls.LoadExample(controls.GreenExample)
		if err != nil {
			t.Fatal(err)
		}
		if err := controls.DevelopmentWithEvaluation(c, frozen); err != nil {
			t.Fatal(err)
		}
		if !round2Passes {
			if err := c.EditRatings("T4-r2-B", func(as []*tables.Adjudication) {
				for _, a := range as {
					for i := range a.Obligations {
						if a.Obligations[i].ObligationID == "O3" {
							a.Obligations[i].Outcome = tables.OutcomeMissed
						}
					}
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		dir := t.TempDir()
		if err := c.WriteDir(dir); err != nil {
			t.Fatal(err)
		}
		res := stages.Run(os.DirFS(dir), "dev-eval", stages.Options{SkipIntervals: true})
		var codes []rules.Code
		for _, f := range res.Tables.Rejections {
			codes = append(codes, f.Code)
		}
		if got := slices.Contains(codes, rules.CodeEvaluationAfterFailedRound2); got == round2Passes {
			t.Errorf("round 2 passes %t: evaluation_after_failed_round2 found %t, want %t (codes %v)", round2Passes, got, !round2Passes, codes)
		}
		if !slices.Contains(codes, rules.CodeEvaluationBeforeFreeze) {
			t.Errorf("round 2 passes %t: no evaluation_before_freeze in %v", round2Passes, codes)
		}
		if d := res.Tables.Decision; len(d) != 1 || d[0].Decision != tables.DecisionNoVerdict {
			t.Errorf("decision %+v, want no_verdict", d)
		}
	}
}
