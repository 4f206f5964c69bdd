package validate

import (
	"fmt"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// manifestFile is the campaign file manifest findings point into.
const manifestFile = "manifest.json"

// The design of the contract's system comparison (rule P3, contract #741
// §6): three systems on six further evaluation tasks from three
// repositories, two repetitions each — 36 workflows of an investigation
// and a review, 72 planned model sessions. "Six tasks from three
// repositories" is read as two tasks per repository, the repository
// balance of the first experiment (§3). The preset system-comparison-v1
// judges only this design; another one is not the prescribed experiment,
// so the campaign cannot be judged by it (a record defect, no verdict). A
// custom policy may run another design, as for the paired review's
// (stages/validate/design.go), and every output names it as not the
// contract's rules.
const (
	systemTasks        = 6
	systemRepositories = 3
	systemTasksPerRepo = 2
	systemRepetitions  = 2
	systemSessions     = 72 // 6 tasks × 2 repetitions × 3 systems × 2 sessions
)

// systemDesignFindings checks a system comparison judged by the
// contract's preset against the contract's design, every difference at
// once.
func systemDesignFindings(m *tables.Manifest) rules.Findings {
	if m.Kind != rules.KindSystemComparison || m.GatePolicy.Preset != string(rules.PresetSystemComparison) || m.GatePolicy.Custom != "" {
		return nil
	}
	d := &m.Design
	var out rules.Findings
	add := func(ptr, format string, args ...any) {
		out = append(out, rules.Finding{Code: rules.CodeSystemDesignMismatch, Severity: rules.Reject, File: manifestFile, Pointer: ptr,
			Message: fmt.Sprintf(format, args...) + fmt.Sprintf("; preset %s judges only that design.", m.GatePolicy.Preset)})
	}
	roles := map[string]int{}
	for _, a := range d.Arms {
		roles[a.ComparatorRole]++
	}
	if len(d.Arms) != 3 || roles[tables.ComparatorBaseline] != 1 || roles[tables.ComparatorCandidate] != 1 || roles[tables.ComparatorComparator] != 1 {
		add("/design/arms", "the design has %d systems, not the contract's three (a baseline, a candidate and a comparator)", len(d.Arms))
	}
	perRepo := map[string]int{}
	var repos []string
	var notEval []string
	for _, t := range d.Tasks {
		if perRepo[t.Repository] == 0 {
			repos = append(repos, t.Repository)
		}
		perRepo[t.Repository]++
		if t.Split != "evaluation" {
			notEval = append(notEval, t.ID)
		}
	}
	if len(d.Tasks) != systemTasks {
		add("/design/tasks", "the design has %d tasks, not the contract's %d", len(d.Tasks), systemTasks)
	}
	var uneven []string
	for _, r := range repos {
		if perRepo[r] != systemTasksPerRepo {
			uneven = append(uneven, fmt.Sprintf("%s has %d", r, perRepo[r]))
		}
	}
	if len(repos) != systemRepositories || len(uneven) > 0 {
		msg := fmt.Sprintf("the tasks come from %d repositories, not %d with %d tasks each", len(repos), systemRepositories, systemTasksPerRepo)
		if len(uneven) > 0 {
			msg += " (" + strings.Join(uneven, ", ") + ")"
		}
		add("/design/tasks", "%s", msg)
	}
	if len(notEval) > 0 {
		add("/design/tasks", "tasks %s are not of split evaluation", strings.Join(notEval, ", "))
	}
	if d.Repetitions != systemRepetitions {
		add("/design/repetitions", "the design has %d repetitions, not the contract's %d", d.Repetitions, systemRepetitions)
	}
	if p := m.Ceilings.Campaign.PlannedSessions; p != systemSessions {
		add("/ceilings/campaign/planned_sessions", "the campaign plans %d sessions, not the contract's %d (36 workflows of an investigation and a review)", p, systemSessions)
	}
	return out
}
