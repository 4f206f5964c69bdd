package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Which prompt parts each role receives (rule C3; docs/prompts.md):
//
//   - the draft D and an ordinary review arm: the common instruction, their
//     own role instruction and the common final-answer schema, in that
//     order, nothing else;
//   - a reconciliation arm (B): the same plus the reconciliation schema,
//     exactly one of each;
//   - no other role ever receives a reconciliation arm's instruction (by
//     ID or by identical bytes) or a reconciliation schema;
//   - every role receives the same common instruction and final-answer
//     schema bytes;
//   - a system comparison's investigation receives its standalone
//     investigator instruction only (no common instruction, no schema),
//     and every system's review receives the same prompt bytes, so a
//     prompt advantage cannot be attributed to a system.
//
// Every prompt file a role receives must declare its kind.

// promptRole is one role of the design and the prompt IDs it renders.
type promptRole struct {
	name           string // "the draft", "arm B", ...
	pointer        string // the manifest list it comes from
	ids            []string
	reconciliation bool
	investigation  bool
}

func (v *runner) promptRoles() []promptRole {
	d := &v.c.Manifest.Design
	systems := v.c.Manifest.Kind == rules.KindSystemComparison
	draft := promptRole{name: "the draft", pointer: "/design/draft_prompts", ids: d.DraftPrompts}
	if systems {
		draft.name, draft.investigation = "the investigation", true
	}
	roles := []promptRole{draft}
	for i, a := range d.Arms {
		name := "arm " + a.ID
		if systems {
			name = "the review of system " + a.ID
		}
		roles = append(roles, promptRole{name: name, pointer: fmt.Sprintf("/design/arms/%d/prompts", i), ids: a.Prompts, reconciliation: a.Reconciliation})
		if revised := d.PromptsOf(a, tables.SplitEvaluation, 1); !slices.Equal(revised, a.Prompts) { // the development revision (development.go)
			roles = append(roles, promptRole{name: name + " from development round 2", pointer: "/design/development/revisions/0", ids: revised, reconciliation: a.Reconciliation})
		}
	}
	return roles
}

// promptParts checks the prompt parts of every role of a paired review or
// system comparison.
func (v *runner) promptParts() {
	kind := v.c.Manifest.Kind
	if kind != rules.KindPairedReview && kind != rules.KindSystemComparison {
		return
	}
	roles := v.promptRoles()
	if v.promptKindsMissing(roles) {
		return // parts cannot be told apart
	}
	bInstructions := v.reconciliationInstructions(roles)
	for _, r := range roles {
		v.roleParts(r, bInstructions)
	}
	v.sharedParts(roles)
}

// promptKindsMissing reports every prompt file a role receives without a
// kind, once per file.
func (v *runner) promptKindsMissing(roles []promptRole) bool {
	missing := false
	for i, p := range v.c.Manifest.Prompts {
		used := slices.ContainsFunc(roles, func(r promptRole) bool { return slices.Contains(r.ids, p.ID) })
		if used && p.Kind == "" {
			missing = true
			v.addManifest(rules.CodePromptKindMissing, fmt.Sprintf("/prompts/%d", i),
				fmt.Sprintf("Prompt file %q has no kind, so the parts of the rendered prompts (common instruction, role instruction, schemas) cannot be checked; declare one of %s.", p.ID, strings.Join(tables.PartKinds, ", ")))
		}
	}
	return missing
}

// reconciliationInstructions returns the sha256 → prompt ID of every role
// instruction a reconciliation arm receives.
func (v *runner) reconciliationInstructions(roles []promptRole) map[string]string {
	out := map[string]string{}
	for _, r := range roles {
		if !r.reconciliation {
			continue
		}
		for _, id := range r.ids {
			if p := v.prompts[id]; p.Kind == tables.PartRole {
				out[p.SHA256] = id
			}
		}
	}
	return out
}

// roleParts checks one role's parts: leaks first, then the exact sequence
// of the remaining parts.
func (v *runner) roleParts(r promptRole, bInstructions map[string]string) {
	var kinds []string
	for j, id := range r.ids {
		p := v.prompts[id]
		at := fmt.Sprintf("%s/%d", r.pointer, j)
		if !r.reconciliation {
			if b, leaked := bInstructions[p.SHA256]; leaked {
				v.addManifest(rules.CodePromptReconciliationInstructionLeaked, at,
					fmt.Sprintf("%s receives prompt %q, the reconciliation review's instruction %q: only the reconciliation arm may receive it.", capital(r.name), id, b))
				continue
			}
			if p.Kind == tables.PartReconciliationSchema {
				v.addManifest(rules.CodePromptReconciliationSchemaLeaked, at,
					fmt.Sprintf("%s receives prompt %q, a reconciliation schema: only the reconciliation arm may receive the reconciliation schema or its ledger rules.", capital(r.name), id))
				continue
			}
		}
		kinds = append(kinds, p.Kind)
	}
	want := expectedParts(r)
	if !slices.Equal(kinds, want) {
		v.addManifest(rules.CodePromptPartsInvalid, r.pointer,
			fmt.Sprintf("%s receives the parts [%s]; it must receive exactly [%s], in that order.", capital(r.name), strings.Join(kinds, ", "), strings.Join(want, ", ")))
	}
}

// expectedParts is the exact part sequence a role receives.
func expectedParts(r promptRole) []string {
	switch {
	case r.investigation:
		return []string{tables.PartInvestigator}
	case r.reconciliation:
		return []string{tables.PartCommon, tables.PartRole, tables.PartFinalAnswerSchema, tables.PartReconciliationSchema}
	}
	return []string{tables.PartCommon, tables.PartRole, tables.PartFinalAnswerSchema}
}

// sharedParts requires the same common instruction and final-answer schema
// bytes in every role, and, in a system comparison, the same review prompt
// bytes for every system.
func (v *runner) sharedParts(roles []promptRole) {
	for _, kind := range []string{tables.PartCommon, tables.PartFinalAnswerSchema} {
		seen := map[string]string{} // sha256 → first prompt ID
		for _, r := range roles {
			for _, id := range r.ids {
				if p := v.prompts[id]; p.Kind == kind {
					seen[p.SHA256] = id
				}
			}
		}
		if len(seen) > 1 {
			v.addManifest(rules.CodePromptPartsInvalid, "/prompts",
				fmt.Sprintf("The roles receive %d different %s files; every session must receive the same bytes.", len(seen), kind))
		}
	}
	if v.c.Manifest.Kind != rules.KindSystemComparison || len(roles) < 3 {
		return
	}
	first := v.promptHashes(roles[1].ids)
	for _, r := range roles[2:] {
		if !slices.Equal(v.promptHashes(r.ids), first) {
			v.addManifest(rules.CodePromptPartsInvalid, r.pointer,
				fmt.Sprintf("%s receives other prompt bytes than %s: every system's review applies the same protocol.", capital(r.name), roles[1].name))
		}
	}
}

func (v *runner) promptHashes(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = v.prompts[id].SHA256
	}
	return out
}

// addManifest records a rejecting finding about the manifest.
func (v *runner) addManifest(code rules.Code, pointer, msg string) {
	v.findings = append(v.findings, rules.Finding{Code: code, Severity: rules.Reject, File: "manifest.json", Pointer: pointer, Message: msg})
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
