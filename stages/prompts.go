package stages

import (
	"io/fs"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/validate"
	"github.com/evalgate/evalgate/tables"
)

// PromptsResult is what RenderPrompts found of the campaign: its loader
// findings, and whether it loaded (when it did not, nothing is rendered).
type PromptsResult struct {
	Campaign *tables.Campaign
	Findings rules.Findings
	Loaded   bool
}

// RenderedSession is one session's rendering and its receipt's claim.
type RenderedSession struct {
	validate.SessionRendering
	DeclaredSHA256 string `json:"declared_sha256"`
	DeclaredBytes  int64  `json:"declared_bytes"`
	Matches        bool   `json:"matches"` // the receipt declares exactly this rendering
}

// RenderError is a session that could not be rendered, when one was asked
// for by its ID.
type RenderError struct{ Err error }

func (e *RenderError) Error() string { return e.Err.Error() }
func (e *RenderError) Unwrap() error { return e.Err }

// RenderPrompts loads the campaign rooted at fsys and renders the input of
// the session with the given ID, or of every dispatched draft, review and
// investigation when sessionID is "" (rule C3), passing each rendering,
// beside what its receipt declares, to each as soon as it is rendered:
// nothing holds more than one rendering at a time, so memory does not
// grow with the campaign's sessions. A session of --all that cannot be
// rendered is passed to failed; the one session asked for by its ID that
// cannot be rendered is a *RenderError. An error from each stops the
// pass. It writes nothing.
func RenderPrompts(fsys fs.FS, name, sessionID string, each func(RenderedSession) error, failed func(error)) (*PromptsResult, error) {
	c, findings := load.Campaign(fsys, name)
	res := &PromptsResult{Campaign: c, Findings: findings}
	if c == nil || findings.Rejected() {
		return res, nil
	}
	res.Loaded = true
	if sessionID != "" {
		r, err := validate.RenderSession(c, load.Answers(c), sessionID)
		if err != nil {
			return res, &RenderError{err}
		}
		return res, each(withClaim(r, declaredInputs(c, sessionID)[sessionID]))
	}
	declared := declaredInputs(c, "")
	return res, validate.EachRendering(c, load.Answers(c), func(r validate.SessionRendering) error {
		return each(withClaim(r, declared[r.SessionID]))
	}, failed)
}

func withClaim(r validate.SessionRendering, in declaredInput) RenderedSession {
	return RenderedSession{SessionRendering: r, DeclaredSHA256: in.sha256, DeclaredBytes: in.bytes,
		Matches: in.sha256 == r.Rendering.SHA256 && in.bytes == r.Rendering.Bytes}
}

// declaredInput is the rendered input a receipt declares.
type declaredInput struct {
	sha256 string
	bytes  int64
}

// declaredInputs is the rendered input the first receipt of each session
// declares (of the one session only, when sessionID is not ""), in one
// pass over the receipts; a session without a receipt declares none (the
// zero value). It holds a digest and a count per session, never a
// rendering.
func declaredInputs(c *tables.Campaign, sessionID string) map[string]declaredInput {
	out := map[string]declaredInput{}
	for l := range c.Receipts.All() {
		id := l.Record.SessionID
		if _, done := out[id]; (sessionID == "" || id == sessionID) && !done {
			out[id] = declaredInput{l.Record.Inputs.RenderedSHA256, l.Record.Inputs.RenderedBytes}
		}
	}
	return out
}
