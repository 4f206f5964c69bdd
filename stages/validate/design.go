package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The design of the contract's first experiment (rules D8 and D9,
// contract #741 §2, §3), which the paired-review presets judge and no
// other:
//
//   - Two arms: the ordinary review A first (the baseline), the
//     reconciliation review B second (design_arms_mismatch).
//   - Eight evaluation tasks, three repetitions each (24 paired
//     outcomes); fewer than eight is the contract's stop "without an
//     evaluation claim" (evaluation_tasks_too_few), more is another
//     sample (design_task_count_mismatch).
//   - Four evaluation repositories with two tasks each, two tasks of each
//     of the four categories (design_repositories_mismatch,
//     design_categories_mismatch).
//   - Development, when the campaign has development tasks: four tasks
//     from two further repositories with two tasks each, two rounds. The
//     round-2 preset's own refusal (development_round2_incomplete) covers
//     the count and the rounds under that preset; a development flow with
//     other than two rounds is development_rounds_invalid.
//   - Counterbalanced order (D9): as many A-first as B-first evaluation
//     pairs (12 and 12 of 24, design_order_unbalanced), and every
//     evaluation task in both orders across its repetitions
//     (design_order_one_sided).
//
// Readings:
//   - "If fewer than eight eligible tasks can be produced, stop without an
//     evaluation claim": the record shows only the tasks the design froze,
//     so fewer than eight evaluation tasks is that stop. No evaluation
//     claim is the decision no_verdict (the contract's "no product
//     verdict"), with its own code so that the report names this
//     prerequisite, not a generic mismatch; it is a defect of the record,
//     not a failed gate, because no gate may be read on another sample.
//   - Every difference is a defect of the record: the campaign is not the
//     prescribed experiment, so the preset cannot judge it (no verdict).
//   - A custom policy (gate_policy.custom) may run another design — a
//     small demonstration, a pilot — and every output names it as not the
//     contract's frozen rules; none of these checks apply to it.
const (
	evaluationTasks        = 8
	evaluationRepositories = 4
	evaluationTasksPerRepo = 2
	evaluationPerCategory  = 2
	evaluationRepetitions  = 3
	developmentTasks       = 4
	developmentRepos       = 2
	developmentTasksRepo   = 2
)

// contractCategories are the four task categories of contract #741 §3.
var contractCategories = []string{tables.CategoryBehaviorExplanation, tables.CategoryChangeImpact, tables.CategoryCorrectnessBoundary, tables.CategoryExplicitUncertainty}

// Design applies the design rules to a manifest alone, as run, validate,
// preflight and admit do: a paired review's design under the contract's
// presets (rules D8 and D9), a system comparison's (rule P3) and the
// development flow's rounds and revision (rule G8).
func Design(m *tables.Manifest) rules.Findings {
	return slices.Concat(pairedDesignFindings(m), systemDesignFindings(m), DevelopmentFindings(m))
}

// pairedDesignFindings checks a paired review judged by one of the
// contract's presets against the contract's design, every difference at
// once.
func pairedDesignFindings(m *tables.Manifest) rules.Findings {
	preset := rules.PresetName(m.GatePolicy.Preset)
	if m.Kind != rules.KindPairedReview || m.GatePolicy.Custom != "" || (preset != rules.PresetEvaluation && preset != rules.PresetDevelopmentRound2) {
		return nil
	}
	d := &m.Design
	var out rules.Findings
	add := func(code rules.Code, ptr, format string, args ...any) {
		out = append(out, rules.Finding{Code: code, Severity: rules.Reject, File: manifestFile, Pointer: ptr,
			Message: fmt.Sprintf(format, args...) + fmt.Sprintf("; preset %s judges only the contract's design (to run another, declare your own policy ID at manifest.json#/gate_policy/custom; every output then says it is not the contract's rules).", preset)})
	}
	if len(d.Arms) != 2 || d.Arms[0].Reconciliation || !d.Arms[1].Reconciliation {
		add(rules.CodeDesignArmsMismatch, "/design/arms", "the design has %s, not the contract's two: the ordinary review A first and the reconciliation review B second", armsText(d.Arms))
	}
	var eval, dev []tables.TaskSpec
	for _, t := range d.Tasks {
		switch t.Split {
		case tables.SplitEvaluation:
			eval = append(eval, t)
		case tables.SplitDevelopment:
			dev = append(dev, t)
		}
	}
	switch n := len(eval); {
	case n < evaluationTasks && preset == rules.PresetEvaluation:
		add(rules.CodeEvaluationTasksTooFew, "/design/tasks", "the design has %d evaluation tasks, fewer than the contract's %d: with fewer than eight eligible tasks the campaign stops without an evaluation claim", n, evaluationTasks)
	case n > evaluationTasks || (n > 0 && n < evaluationTasks):
		add(rules.CodeDesignTaskCount, "/design/tasks", "the design has %d evaluation tasks, not the contract's %d", n, evaluationTasks)
	}
	if len(eval) > 0 {
		if r := d.RepetitionsOf(tables.SplitEvaluation); r != evaluationRepetitions {
			add(rules.CodeDesignRepetitions, "/design/repetitions", "the evaluation tasks run %d repetitions, not the contract's %d", r, evaluationRepetitions)
		}
		if why := repositoryShape(eval, evaluationRepositories, evaluationTasksPerRepo, nil); why != "" {
			add(rules.CodeDesignRepositories, "/design/tasks", "the evaluation %s", why)
		}
		if why := categoryShape(eval); why != "" {
			add(rules.CodeDesignCategories, "/design/tasks", "the evaluation tasks %s, not the contract's two of each of the four categories (%s)", why, strings.Join(contractCategories, ", "))
		}
	}
	if len(dev) > 0 {
		if preset == rules.PresetEvaluation {
			if len(dev) != developmentTasks {
				add(rules.CodeDesignTaskCount, "/design/tasks", "the design has %d development tasks, not the contract's %d", len(dev), developmentTasks)
			}
			if d.Development == nil && d.Repetitions != tables.DevelopmentRounds {
				add(rules.CodeDesignRepetitions, "/design/repetitions", "the development tasks run %d repetitions, not the contract's %d rounds (design.development)", d.Repetitions, tables.DevelopmentRounds)
			}
		}
		if why := repositoryShape(dev, developmentRepos, developmentTasksRepo, eval); why != "" {
			add(rules.CodeDesignRepositories, "/design/tasks", "the development %s", why)
		}
	}
	orderFindings(d, eval, add)
	return out
}

// armsText describes the arms for a finding.
func armsText(arms []tables.Arm) string {
	var parts []string
	for _, a := range arms {
		kind := "ordinary"
		if a.Reconciliation {
			kind = "reconciliation"
		}
		parts = append(parts, a.ID+" ("+kind+")")
	}
	return fmt.Sprintf("%d arms [%s]", len(arms), strings.Join(parts, ", "))
}

// repositoryShape says why tasks do not come from repos repositories with
// perRepo tasks each, none of them a repository of others ("" when they
// do).
func repositoryShape(tasks []tables.TaskSpec, repos, perRepo int, others []tables.TaskSpec) string {
	count := map[string]int{}
	var order []string
	for _, t := range tasks {
		if count[t.Repository] == 0 {
			order = append(order, t.Repository)
		}
		count[t.Repository]++
	}
	var uneven, shared []string
	for _, r := range order {
		if count[r] != perRepo {
			uneven = append(uneven, fmt.Sprintf("%s has %d", r, count[r]))
		}
		if slices.ContainsFunc(others, func(o tables.TaskSpec) bool { return o.Repository == r }) {
			shared = append(shared, r)
		}
	}
	var why []string
	if len(order) != repos || len(uneven) > 0 {
		msg := fmt.Sprintf("tasks come from %d repositories, not the contract's %d with %d tasks each", len(order), repos, perRepo)
		if len(uneven) > 0 {
			msg += " (" + strings.Join(uneven, ", ") + ")"
		}
		why = append(why, msg)
	}
	if len(shared) > 0 {
		why = append(why, fmt.Sprintf("repositories %s are also evaluation repositories: development uses two different repositories", strings.Join(shared, ", ")))
	}
	return strings.Join(why, "; ")
}

// categoryShape says why tasks are not two of each contract category ("" when
// they are).
func categoryShape(tasks []tables.TaskSpec) string {
	count := map[string]int{}
	for _, t := range tasks {
		count[t.Category]++
	}
	var parts []string
	bad := false
	for _, c := range contractCategories {
		parts = append(parts, fmt.Sprintf("%d %s", count[c], c))
		bad = bad || count[c] != evaluationPerCategory
	}
	var other []string
	for c, n := range count {
		if !slices.Contains(contractCategories, c) {
			other = append(other, fmt.Sprintf("%d %s", n, c))
		}
	}
	slices.Sort(other)
	if !bad && len(other) == 0 {
		return ""
	}
	return "are " + strings.Join(append(parts, other...), ", ")
}

// orderFindings checks the counterbalancing of the evaluation pairs (rule
// D9): as many slots run the baseline arm first as the treatment arm, and
// every evaluation task runs in both orders across its repetitions.
func orderFindings(d *tables.Design, eval []tables.TaskSpec, add func(code rules.Code, ptr, format string, args ...any)) {
	if len(d.Arms) != 2 || len(eval) == 0 || len(d.Schedule) == 0 {
		return
	}
	base, treat := d.Arms[0].ID, d.Arms[1].ID
	isEval := map[string]bool{}
	for _, t := range eval {
		isEval[t.ID] = true
	}
	// A v2 manifest's schedule is a file of its own: findings point at
	// the manifest member that names it.
	whole, ptr := "/design/schedule", func(i int) string { return fmt.Sprintf("/design/schedule/%d", i) }
	if d.ScheduleFile != nil {
		whole, ptr = "/design/schedule_file", func(int) string { return "/design/schedule_file" }
	}
	firsts := map[string]map[string]int{} // task → first arm → its first slot
	var baseFirst, treatFirst int
	for i, s := range d.Schedule {
		if !isEval[s.Task] || len(s.Order) == 0 {
			continue
		}
		switch s.Order[0] {
		case base:
			baseFirst++
		case treat:
			treatFirst++
		}
		if firsts[s.Task] == nil {
			firsts[s.Task] = map[string]int{}
		}
		if _, ok := firsts[s.Task][s.Order[0]]; !ok {
			firsts[s.Task][s.Order[0]] = i
		}
	}
	if baseFirst != treatFirst {
		add(rules.CodeDesignOrderUnbalanced, whole, "the schedule runs %d evaluation pairs %s-first and %d %s-first: the contract counterbalances them, half each (12 %s-first and 12 %s-first of 24)",
			baseFirst, base, treatFirst, treat, base, treat)
	}
	for _, t := range eval {
		f := firsts[t.ID]
		if len(f) != 1 {
			continue // unscheduled tasks are the loader's slot_missing
		}
		for arm, i := range f {
			add(rules.CodeDesignOrderOneSided, ptr(i), "every scheduled repetition of evaluation task %s runs %s first: the contract gives every task both orders across its repetitions", t.ID, arm)
		}
	}
}
