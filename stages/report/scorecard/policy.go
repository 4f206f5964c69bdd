package scorecard

import "github.com/evalgate/evalgate/tables"

// Policy is the policy that judged a campaign (rule F1): a preset, whose
// numbers are frozen, or a custom policy, which every output names as not
// the frozen rules. Two outputs are judged under the same policy when ID,
// Custom and every number's value (by field) are equal.
type Policy struct {
	ID      string `json:"id"`       // the preset's name, or the custom policy's ID
	Custom  bool   `json:"custom"`   // a custom policy
	BasedOn string `json:"based_on"` // gate_policy.preset: the preset whose gates and judged runs it uses
	Source  string `json:"source"`   // whose frozen rules a preset states ("contract #741", "the reviewer-benchmark pilot plan"); "" when custom or unknown
	Label   string `json:"label"`    // as every output shows it
	// Numbers is every number applied: the thresholds in gate order, then
	// the preset's ceilings and pins, each with the (base) preset's value.
	Numbers   []tables.PolicyNumber `json:"numbers"`
	Evaluator Evaluator             `json:"evaluator"`
}

// Evaluator is the evaluator that ran and the one the manifest pins.
type Evaluator struct {
	Version       string  `json:"version"`
	PinnedVersion *string `json:"pinned_version"`
	PinnedCommit  *string `json:"pinned_commit"`
}

func buildPolicy(m *tables.Manifest, toolVersion string) *Policy {
	a := tables.ResolvePolicy(m)
	p := &Policy{ID: a.ID, Custom: a.Custom, BasedOn: string(a.BasedOn), Label: a.Label(), Numbers: a.Numbers, Evaluator: Evaluator{Version: toolVersion}}
	if p.Numbers == nil {
		p.Numbers = []tables.PolicyNumber{}
	}
	if a.Preset != nil && !a.Custom {
		p.Source = a.Preset.Source
	}
	if e := m.Evaluator; e != nil {
		v := e.Version
		p.Evaluator.PinnedVersion = &v
		if e.Commit != "" {
			c := e.Commit
			p.Evaluator.PinnedCommit = &c
		}
	}
	return p
}
