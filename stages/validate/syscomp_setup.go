package validate

import (
	"fmt"
	"slices"

	"github.com/evalgate/evalgate/tables"
)

// firstWorkflow is the slot a (system, repository) cold setup is charged
// to: the first slot of the schedule (its execution order) whose task is in
// the repository. Every system runs in every slot, so it is the same slot
// for every system. ok is false when no scheduled task is in repo.
func firstWorkflow(d *tables.Design, repo string) (slot tables.Slot, ok bool) {
	for _, s := range d.Schedule {
		for _, t := range d.Tasks {
			if t.ID == s.Task && t.Repository == repo {
				return s, true
			}
		}
	}
	return tables.Slot{}, false
}

// setupCompleteness requires exactly one preparation receipt per (system,
// repository), naming the task and repetition of the first workflow in
// that repository. Repositories are taken in design order.
func (v *runner) setupCompleteness() {
	d := &v.c.Manifest.Design
	var repos []string
	for _, t := range d.Tasks {
		if !slices.Contains(repos, t.Repository) {
			repos = append(repos, t.Repository)
		}
	}
	for _, arm := range d.Arms {
		for _, repo := range repos {
			v.setupOf(arm.ID, repo)
		}
	}
}

// setupOf checks the preparation receipts of one system in one repository.
func (v *runner) setupOf(arm, repo string) {
	first, ok := firstWorkflow(&v.c.Manifest.Design, repo)
	if !ok {
		return
	}
	var found *sessionResult
	for _, sr := range v.sessions {
		if sr.row.Role != tables.RolePreparation || deref(sr.row.Arm) != arm || sr.row.Repository != repo {
			continue
		}
		switch {
		case found != nil:
			v.addReceipt(sr, tables.CodeSetupDuplicate, fmt.Sprintf("System %q already has a preparation receipt for repository %q on line %d.", arm, repo, found.line))
			continue
		case sr.row.TaskID != first.Task || sr.row.Repetition != first.Repetition:
			v.addReceipt(sr, tables.CodeSetupNotFirst, fmt.Sprintf("The cold setup of system %q in repository %q is charged to %s repetition %d, but the first workflow there is %s repetition %d.",
				arm, repo, sr.row.TaskID, sr.row.Repetition, first.Task, first.Repetition))
		}
		found = sr
		if sr.infra {
			v.addReceipt(sr, tables.CodeInfrastructureInvalid, fmt.Sprintf("The preparation failed with infrastructure error %q.", deref(sr.row.ErrorClass)))
		}
	}
	if found == nil {
		v.findings = append(v.findings, tables.Finding{
			Code: tables.CodeSetupMissing, Severity: tables.Reject, File: receiptsFile,
			Message: fmt.Sprintf("System %q has no preparation (cold setup) receipt for repository %q.", arm, repo),
		})
	}
}
