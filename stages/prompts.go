package stages

import (
	"io/fs"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/validate"
	"github.com/evalgate/evalgate/tables"
)

// PromptsResult is the rendered input of one or every session of a
// campaign (rule C3), each beside what its receipt declares.
type PromptsResult struct {
	Campaign *tables.Campaign
	// Findings are the loader's; when they reject, nothing is rendered.
	Findings rules.Findings
	Loaded   bool
	Sessions []RenderedSession
	Errors   []error // sessions that could not be rendered (--all)
}

// RenderedSession is one session's rendering and its receipt's claim.
type RenderedSession struct {
	validate.SessionRendering
	DeclaredSHA256 string `json:"declared_sha256"`
	DeclaredBytes  int64  `json:"declared_bytes"`
	Matches        bool   `json:"matches"` // the receipt declares exactly this rendering
}

// RenderPrompts loads the campaign rooted at fsys and renders the input of
// the session with the given ID, or of every dispatched draft, review and
// investigation when sessionID is "". It writes nothing.
func RenderPrompts(fsys fs.FS, name, sessionID string) (*PromptsResult, error) {
	c, findings := load.Campaign(fsys, name)
	res := &PromptsResult{Campaign: c, Findings: findings}
	if c == nil || findings.Rejected() {
		return res, nil
	}
	res.Loaded = true
	var rs []validate.SessionRendering
	if sessionID != "" {
		r, err := validate.RenderSession(c, load.Answers(c), sessionID)
		if err != nil {
			return res, err
		}
		rs = append(rs, r)
	} else {
		rs, res.Errors = validate.RenderAll(c, load.Answers(c))
	}
	declared := receiptInputs(c, rs)
	for _, r := range rs {
		in := declared[r.SessionID]
		res.Sessions = append(res.Sessions, RenderedSession{
			SessionRendering: r, DeclaredSHA256: in.RenderedSHA256, DeclaredBytes: in.RenderedBytes,
			Matches: in.RenderedSHA256 == r.Rendering.SHA256 && in.RenderedBytes == r.Rendering.Bytes,
		})
	}
	return res, nil
}

// receiptInputs is the inputs the first receipt of each session of rs
// declares, in one pass over the receipts; a session without a receipt
// has none (the zero value).
func receiptInputs(c *tables.Campaign, rs []validate.SessionRendering) map[string]tables.DeliveredInputs {
	want := make(map[string]bool, len(rs))
	for _, r := range rs {
		want[r.SessionID] = true
	}
	out := make(map[string]tables.DeliveredInputs, len(rs))
	for l := range c.Receipts.All() {
		id := l.Record.SessionID
		if _, done := out[id]; want[id] && !done {
			out[id] = l.Record.Inputs
		}
	}
	return out
}
