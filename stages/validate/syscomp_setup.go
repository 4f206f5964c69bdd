package validate

import (
	"fmt"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// setupKey is one (system, repository).
type setupKey struct{ arm, repo string }

// setupCompleteness requires exactly one preparation receipt per (system,
// repository), naming the task and repetition of the first workflow in
// that repository: the first slot of the schedule (its execution order)
// whose task is in the repository. Every system runs in every slot, so it
// is the same slot for every system. Repositories are taken in design
// order; the schedule and the sessions are each read once.
func (v *runner) setupCompleteness() {
	d := &v.c.Manifest.Design
	var repos []string
	reposOf := map[string][]string{} // task ID → the repositories of the tasks with that ID
	for _, t := range d.Tasks {
		if !slices.Contains(repos, t.Repository) {
			repos = append(repos, t.Repository)
		}
		if !slices.Contains(reposOf[t.ID], t.Repository) {
			reposOf[t.ID] = append(reposOf[t.ID], t.Repository)
		}
	}
	first := map[string]tables.Slot{}
	for _, s := range d.Schedule {
		for _, repo := range reposOf[s.Task] {
			if _, seen := first[repo]; !seen {
				first[repo] = s
			}
		}
	}
	preparations := map[setupKey][]*sessionResult{} // in receipt order
	for sr := range v.results.all() {
		if v.roleOf(sr) == tables.RolePreparation {
			k := setupKey{v.armOf(sr), v.repositoryOf(sr)}
			preparations[k] = append(preparations[k], sr)
		}
	}
	for _, arm := range d.Arms {
		for _, repo := range repos {
			if slot, ok := first[repo]; ok {
				v.setupOf(arm.ID, repo, slot, preparations[setupKey{arm.ID, repo}])
			}
		}
	}
}

// setupOf checks the preparation receipts of one system in one
// repository, whose first workflow is first.
func (v *runner) setupOf(arm, repo string, first tables.Slot, preparations []*sessionResult) {
	var found *sessionResult
	for _, sr := range preparations {
		switch {
		case found != nil:
			v.addReceipt(sr, rules.CodeSetupDuplicate, fmt.Sprintf("System %q already has a preparation receipt for repository %q on line %d.", arm, repo, found.line))
			continue
		case v.taskOf(sr) != first.Task || sr.rep != first.Repetition:
			v.addReceipt(sr, rules.CodeSetupNotFirst, fmt.Sprintf("The cold setup of system %q in repository %q is charged to %s repetition %d, but the first workflow there is %s repetition %d.",
				arm, repo, v.taskOf(sr), sr.rep, first.Task, first.Repetition))
		}
		found = sr
		if sr.infra {
			v.addReceipt(sr, rules.CodeInfrastructureInvalid, fmt.Sprintf("The preparation failed with infrastructure error %q.", v.errorOf(sr)))
		}
	}
	if found == nil {
		v.findings = append(v.findings, rules.Finding{
			Code: rules.CodeSetupMissing, Severity: rules.Reject, File: receiptsFile,
			Message: fmt.Sprintf("System %q has no preparation (cold setup) receipt for repository %q.", arm, repo),
		})
	}
}
