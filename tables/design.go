package tables

// FormatDesign is the format of the small design file `evalgate init
// --design FILE` reads (docs/import.md).
const FormatDesign = "evalgate.design/v1"

// DesignFile is what `evalgate init` needs to lay out a campaign: the
// arms, tasks, prompts and repetitions. Everything else of the manifest is
// left empty (identities, rate cards, ceilings) for the user to fill.
type DesignFile struct {
	Format       string       `json:"format"` // FormatDesign
	CampaignID   string       `json:"campaign_id"`
	Repetitions  int64        `json:"repetitions"`
	Prompts      []string     `json:"prompts"`       // prompt IDs; each gets prompts/<id>.md
	DraftPrompts []string     `json:"draft_prompts"` // prompt IDs of the draft (paired review) or investigation (system comparison)
	Arms         []Arm        `json:"arms"`
	Tasks        []DesignTask `json:"tasks"`
}

// DesignTask is one task of a design file; its files go under tasks/<id>/.
type DesignTask struct {
	ID         string `json:"id"`
	Repository string `json:"repository"`
	Family     string `json:"family"`
	Split      string `json:"split"`
	Category   string `json:"category"`
}
