package validate

import (
	"fmt"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// The sha256 of the contract's named instructions (rule D6).
var (
	draftSHA    = tables.ContractInstructionSHA256(tables.ContractDraftInstruction)
	ordinarySHA = tables.ContractInstructionSHA256(tables.ContractOrdinaryReviewInstruction)
)

// namedInstructions applies rule D6 to a paired review's design: the role
// instruction the draft receives is the contract's Draft D text and the
// one each ordinary (non-reconciliation) arm receives the Ordinary review
// A text, by sha256, so a swap of the two, or any other instruction in
// their place, is refused. Prompts without a kind are reported by
// promptParts and not judged here.
func (v *runner) namedInstructions() {
	d := &v.c.Manifest.Design
	leaked := v.reconciliationInstructions(v.promptRoles()) // reported as leaks by promptParts
	v.namedInstruction(leaked, "the draft", "/design/draft_prompts", d.DraftPrompts, draftSHA, "Draft D")
	for i, a := range d.Arms {
		if !a.Reconciliation {
			v.namedInstruction(leaked, "arm "+a.ID, fmt.Sprintf("/design/arms/%d/prompts", i), a.Prompts, ordinarySHA, "Ordinary review A")
		}
	}
}

func (v *runner) namedInstruction(leaked map[string]string, who, pointer string, ids []string, want, name string) {
	for j, id := range ids {
		p, ok := v.prompts[id]
		if _, leak := leaked[p.SHA256]; !ok || p.Kind != tables.PartRole || p.SHA256 == want || leak {
			continue
		}
		msg := fmt.Sprintf("%s receives role instruction %q (sha256 %s), not its named instruction, the contract's %s text (sha256 %s).", capital(who), id, p.SHA256, name, want)
		for _, other := range []struct{ sha, name string }{{draftSHA, "Draft D"}, {ordinarySHA, "Ordinary review A"}} {
			if p.SHA256 == other.sha {
				msg = fmt.Sprintf("%s receives role instruction %q, the contract's %s text, instead of its named instruction, the %s text: the instructions are swapped or misassigned.", capital(who), id, other.name, name)
			}
		}
		v.addManifest(rules.CodePromptNamedInstruction, fmt.Sprintf("%s/%d", pointer, j), msg)
	}
}
