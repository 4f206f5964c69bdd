package validate

import (
	"slices"
	"testing"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The paired-review-green example has the contract's design (checked by
// hand from its manifest): T1–T8 of split evaluation, two each from
// tallybucket (T1 behavior_explanation, T2 explicit_uncertainty),
// layercfg (T3 change_impact, T4 correctness_boundary), stampfmt (T5
// behavior_explanation, T6 explicit_uncertainty) and requeue (T7
// correctness_boundary, T8 change_impact); three repetitions; the first
// arm of each slot by repetition:
//
//	     T1 T2 T3 T4 T5 T6 T7 T8
//	r1   A  B  A  B  B  A  A  B
//	r2   B  A  B  A  A  B  A  B
//	r3   A  A  A  B  B  B  B  A
//
// 12 A-first and 12 B-first, every task in both orders.

// setFirst makes slot (task, rep) of m's schedule run first first.
func setFirst(t *testing.T, m *tables.Manifest, task string, rep int64, first string) {
	t.Helper()
	for i := range m.Design.Schedule {
		s := &m.Design.Schedule[i]
		if s.Task == task && s.Repetition == rep {
			if s.Order[0] != first {
				s.Order[0], s.Order[1] = s.Order[1], s.Order[0]
			}
			return
		}
	}
	t.Fatalf("no slot %s repetition %d", task, rep)
}

func dropTask(m *tables.Manifest, id string) {
	m.Design.Tasks = slices.DeleteFunc(m.Design.Tasks, func(t tables.TaskSpec) bool { return t.ID == id })
	m.Design.Schedule = slices.DeleteFunc(m.Design.Schedule, func(s tables.Slot) bool { return s.Task == id })
}

// addDevelopment adds four development tasks D1–D4 from repos (two each)
// and a two-round development flow.
func addDevelopment(m *tables.Manifest, repos ...string) {
	for i, r := range repos {
		m.Design.Tasks = append(m.Design.Tasks, tables.TaskSpec{ID: "D" + string(rune('1'+i)), Repository: r, Split: tables.SplitDevelopment, Category: tables.CategoryChangeImpact})
	}
	m.Design.Development = &tables.Development{Rounds: 2, Revisions: []tables.Revision{}}
}

func TestPairedDesign(t *testing.T) {
	type tc struct {
		name    string
		example string
		edit    func(*testing.T, *tables.Manifest)
		want    []rules.Code
	}
	green, dev := "paired-review-green", "development-rounds"
	one := func(c rules.Code, n int) []rules.Code { return slices.Repeat([]rules.Code{c}, n) }
	cases := []tc{
		{"the green example: the contract's design", green, func(*testing.T, *tables.Manifest) {}, nil},
		{"the development-rounds example under the round-2 preset", dev, func(*testing.T, *tables.Manifest) {}, nil},
		// Without T8 (requeue, change_impact; B, B, A first): 7 tasks,
		// requeue has 1, change_impact 1, and 11 A-first against 10
		// B-first.
		{"seven evaluation tasks", green, func(_ *testing.T, m *tables.Manifest) { dropTask(m, "T8") },
			[]rules.Code{rules.CodeEvaluationTasksTooFew, rules.CodeDesignRepositories, rules.CodeDesignCategories, rules.CodeDesignOrderUnbalanced}},
		{"a ninth task", green, func(_ *testing.T, m *tables.Manifest) {
			m.Design.Tasks = append(m.Design.Tasks, tables.TaskSpec{ID: "T9", Repository: "requeue", Split: "evaluation", Category: tables.CategoryChangeImpact})
		}, []rules.Code{rules.CodeDesignTaskCount, rules.CodeDesignRepositories, rules.CodeDesignCategories}},
		{"T4 moved to tallybucket (3 and 1 tasks)", green, func(_ *testing.T, m *tables.Manifest) { m.Design.Tasks[3].Repository = "tallybucket" },
			[]rules.Code{rules.CodeDesignRepositories}},
		{"T2 a behaviour explanation (3 and 1)", green, func(_ *testing.T, m *tables.Manifest) {
			m.Design.Tasks[1].Category = tables.CategoryBehaviorExplanation
		},
			[]rules.Code{rules.CodeDesignCategories}},
		{"two repetitions", green, func(_ *testing.T, m *tables.Manifest) { m.Design.Repetitions = 2 },
			[]rules.Code{rules.CodeDesignRepetitions}},
		{"a third arm", green, func(_ *testing.T, m *tables.Manifest) {
			m.Design.Arms = append(m.Design.Arms, tables.Arm{ID: "C", Reconciliation: true})
		}, []rules.Code{rules.CodeDesignArmsMismatch}},
		{"the arms listed B first", green, func(_ *testing.T, m *tables.Manifest) {
			m.Design.Arms[0], m.Design.Arms[1] = m.Design.Arms[1], m.Design.Arms[0]
		}, []rules.Code{rules.CodeDesignArmsMismatch}},
		// Every slot A-first: 24 and 0, and each of the 8 tasks one-sided.
		{"every pair A-first", green, func(_ *testing.T, m *tables.Manifest) {
			for _, s := range m.Design.Schedule {
				setFirst(t, m, s.Task, s.Repetition, "A")
			}
		}, append([]rules.Code{rules.CodeDesignOrderUnbalanced}, one(rules.CodeDesignOrderOneSided, 8)...)},
		// T1 r2 B → A: 13 and 11, and T1 runs A first three times.
		{"T1 A-first in every repetition", green, func(t *testing.T, m *tables.Manifest) { setFirst(t, m, "T1", 2, "A") },
			[]rules.Code{rules.CodeDesignOrderUnbalanced, rules.CodeDesignOrderOneSided}},
		// And T7 r1 A → B keeps 12 and 12 (T7: B, A, B), T1 still one-sided.
		{"12 and 12 but T1 in one order", green, func(t *testing.T, m *tables.Manifest) {
			setFirst(t, m, "T1", 2, "A")
			setFirst(t, m, "T7", 1, "B")
		}, []rules.Code{rules.CodeDesignOrderOneSided}},
		{"a custom policy may run seven tasks", green, func(_ *testing.T, m *tables.Manifest) {
			m.GatePolicy.Custom = "seven-task-demo"
			dropTask(m, "T8")
		}, nil},
		{"another kind's preset is not this design's", green, func(_ *testing.T, m *tables.Manifest) {
			m.GatePolicy.Preset = "my-own"
			dropTask(m, "T8")
		}, nil},
		{"four development tasks from two further repositories", green, func(_ *testing.T, m *tables.Manifest) {
			addDevelopment(m, "devrepo1", "devrepo1", "devrepo2", "devrepo2")
		}, nil},
		{"development tasks from an evaluation repository", green, func(_ *testing.T, m *tables.Manifest) {
			addDevelopment(m, "devrepo1", "devrepo1", "requeue", "requeue")
		}, []rules.Code{rules.CodeDesignRepositories}},
		// Three development tasks: 3 not 4, and devrepo2 has 1.
		{"three development tasks", green, func(_ *testing.T, m *tables.Manifest) {
			addDevelopment(m, "devrepo1", "devrepo1", "devrepo2")
		}, []rules.Code{rules.CodeDesignTaskCount, rules.CodeDesignRepositories}},
		{"development tasks without the two-round flow", green, func(_ *testing.T, m *tables.Manifest) {
			addDevelopment(m, "devrepo1", "devrepo1", "devrepo2", "devrepo2")
			m.Design.Development = nil
		}, []rules.Code{rules.CodeDesignRepetitions}},
		{"round 2: a development task from a third repository", dev, func(_ *testing.T, m *tables.Manifest) { m.Design.Tasks[3].Repository = "stampfmt" },
			[]rules.Code{rules.CodeDesignRepositories}},
		// Under the round-2 preset the count is development_round2_incomplete's
		// (the aggregate stage), and evaluation tasks, when present, are
		// still the contract's eight.
		{"round 2: three development tasks", dev, func(_ *testing.T, m *tables.Manifest) { dropTask(m, "T4") },
			[]rules.Code{rules.CodeDesignRepositories}},
		{"round 2: one evaluation task", dev, func(_ *testing.T, m *tables.Manifest) {
			m.Design.Tasks = append(m.Design.Tasks, tables.TaskSpec{ID: "E1", Repository: "requeue", Split: "evaluation", Category: tables.CategoryChangeImpact})
		}, []rules.Code{rules.CodeDesignTaskCount, rules.CodeDesignRepositories, rules.CodeDesignCategories}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := exampleManifest(t, c.example)
			c.edit(t, &m)
			var got []rules.Code
			for _, f := range pairedDesignFindings(&m) {
				if f.Severity != rules.Reject {
					t.Errorf("%s: severity %s, want reject", f.Code, f.Severity)
				}
				got = append(got, f.Code)
			}
			slices.Sort(got)
			want := slices.Clone(c.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("codes %v, want %v\n%v", got, want, pairedDesignFindings(&m))
			}
		})
	}
}
