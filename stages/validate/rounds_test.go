package validate

import (
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/tables"
)

// devExample is a copy of the development-rounds example (round 1, B's
// one revision to v1.1, round 2).
func devExample(t *testing.T) fstest.MapFS {
	t.Helper()
	return exampleMapFS(t, "development-rounds")
}

func devCodes(t *testing.T, f fstest.MapFS) []rules.Code {
	t.Helper()
	c, found := load.Campaign(f, "example")
	if found.Rejected() {
		t.Fatalf("load rejected: %v", found)
	}
	var got []rules.Code
	for _, x := range Run(c, load.Answers(c)).Findings {
		if !slices.Contains(got, x.Code) {
			got = append(got, x.Code)
		}
	}
	slices.Sort(got)
	return got
}

// TestDevelopmentRounds: the example is clean — round-2 B receives v1.1
// and round-1 B v1.0 without an identity mismatch — and each edit gives
// its own code (by hand: the example's round 1 ends at 08:30:37.347 and
// round 2 starts at 08:30:41.087 on 2026-10-01, T4-r1-D starting at
// 08:26:45.842).
func TestDevelopmentRounds(t *testing.T) {
	if got := devCodes(t, devExample(t)); len(got) != 0 {
		t.Fatalf("the example: codes %v, want none", got)
	}
	for _, tc := range []struct {
		name string
		edit func(*tables.Manifest)
		want rules.Code
	}{
		{"frozen before round 1 ended", func(m *tables.Manifest) {
			m.Design.Development.Revisions[0].FrozenAt = time.Date(2026, 10, 1, 8, 30, 37, 0, time.UTC)
		}, rules.CodeDevelopmentRevisionOrder},
		{"frozen at round 2's first start", func(m *tables.Manifest) {
			m.Design.Development.Revisions[0].FrozenAt = time.Date(2026, 10, 1, 8, 30, 41, 87_000_000, time.UTC)
		}, rules.CodeDevelopmentRevisionOrder},
		{"an evaluation task and no evaluation freeze", func(m *tables.Manifest) {
			m.Design.Repetitions = 2
			m.Design.Tasks[3].Split = tables.SplitEvaluation
		}, rules.CodeEvaluationBeforeFreeze},
		{"an evaluation task run before the freeze", func(m *tables.Manifest) {
			m.Design.Repetitions = 2
			m.Design.Tasks[3].Split = tables.SplitEvaluation
			at := time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC) // after every session: T4-r1-D started before it
			m.Design.Development.EvaluationFrozenAt = &at
		}, rules.CodeEvaluationBeforeFreeze},
		{"a third round", func(m *tables.Manifest) { m.Design.Development.Rounds = 3 }, rules.CodeDevelopmentRoundsInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := devExample(t)
			sysManifest(t, f, tc.edit)
			m := mustManifest(t, f)
			var got []rules.Code
			if tc.want == rules.CodeDevelopmentRoundsInvalid { // the loader refuses the unscheduled third round first
				for _, x := range DevelopmentFindings(&m) {
					got = append(got, x.Code)
				}
			} else {
				got = devCodes(t, f)
			}
			if !slices.Contains(got, tc.want) {
				t.Fatalf("codes %v, want %s among them", got, tc.want)
			}
		})
	}
}

// TestDevelopmentRevisionScope: only one revision, of the reconciliation
// arm's role instruction, to a new role-instruction file.
func TestDevelopmentRevisionScope(t *testing.T) {
	base := func() *tables.Manifest {
		m := &tables.Manifest{Kind: rules.KindPairedReview}
		m.Prompts = []tables.PromptFile{{ID: "common", Kind: tables.PartCommon}, {ID: "review-a", Kind: tables.PartRole}, {ID: "review-b", Kind: tables.PartRole}, {ID: "review-b-2", Kind: tables.PartRole}}
		m.Design.Arms = []tables.Arm{{ID: "A", Prompts: []string{"common", "review-a"}}, {ID: "B", Prompts: []string{"common", "review-b"}, Reconciliation: true}}
		m.Design.Development = &tables.Development{Rounds: 2, Revisions: []tables.Revision{{Arm: "B", Prompt: "review-b", Revised: "review-b-2"}}}
		return m
	}
	if got := DevelopmentFindings(base()); len(got) != 0 {
		t.Fatalf("B's one revision: %v", got)
	}
	for _, tc := range []struct {
		name string
		edit func(*tables.Manifest)
		want []rules.Code
	}{
		{"a second revision", func(m *tables.Manifest) {
			m.Design.Development.Revisions = append(m.Design.Development.Revisions, m.Design.Development.Revisions[0])
		}, []rules.Code{rules.CodeDevelopmentRevisionRepeated}},
		{"A revised", func(m *tables.Manifest) {
			m.Design.Development.Revisions[0] = tables.Revision{Arm: "A", Prompt: "review-a", Revised: "review-b-2"}
		}, []rules.Code{rules.CodeDevelopmentRevisionScope}},
		{"the common instruction revised", func(m *tables.Manifest) { m.Design.Development.Revisions[0].Prompt = "common" },
			[]rules.Code{rules.CodeDevelopmentRevisionScope}}, // B receives it, but it is no role instruction
		{"revised to a prompt round 1 receives", func(m *tables.Manifest) { m.Design.Development.Revisions[0].Revised = "review-a" },
			[]rules.Code{rules.CodeDevelopmentRevisionScope}},
		{"a system comparison", func(m *tables.Manifest) { m.Kind = rules.KindSystemComparison }, []rules.Code{rules.CodeDevelopmentRevisionScope}},
	} {
		m := base()
		tc.edit(m)
		var got []rules.Code
		for _, f := range DevelopmentFindings(m) {
			got = append(got, f.Code)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: codes %v, want %v", tc.name, got, tc.want)
		}
	}
}

func mustManifest(t *testing.T, f fstest.MapFS) tables.Manifest {
	t.Helper()
	c, _ := load.Campaign(f, "example")
	if c == nil {
		t.Fatal("no campaign")
	}
	return c.Manifest
}
