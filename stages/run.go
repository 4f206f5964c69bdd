package stages

import (
	"io/fs"

	"github.com/evalgate/evalgate/stages/account"
	"github.com/evalgate/evalgate/stages/aggregate"
	"github.com/evalgate/evalgate/stages/intervals"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/score"
	"github.com/evalgate/evalgate/stages/validate"
	"github.com/evalgate/evalgate/tables"
)

// Options select what Run computes.
type Options struct {
	// SkipIntervals leaves the intervals table empty. Gates and the
	// decision do not depend on it.
	SkipIntervals bool
}

// Result is the outcome of running the pipeline on one campaign.
type Result struct {
	Campaign *tables.Campaign // nil when the campaign could not be loaded at all
	Tables   *tables.Set
	// Loaded is false when the load stage rejected the campaign: its
	// inputs cannot be trusted, no table but rejections is meaningful and
	// nothing should be written.
	Loaded bool
}

// Admissible reports whether no stage found a rejecting problem.
func (r *Result) Admissible() bool {
	return r.Loaded && !tables.Findings(r.Tables.Rejections).Rejected()
}

// Run runs load → validate → account → score → aggregate → intervals on
// the campaign rooted at fsys. It does not write anything (see
// stages/report). name is used in messages.
func Run(fsys fs.FS, name string, opts Options) *Result {
	c, findings := load.Campaign(fsys, name)
	s := &tables.Set{Rejections: findings}
	res := &Result{Campaign: c, Tables: s}
	if c == nil || findings.Rejected() {
		tables.Findings(s.Rejections).Sort()
		return res
	}
	res.Loaded = true
	validate.Run(c, s, load.Answer)
	account.Run(c, s)
	score.Run(c, s)
	aggregate.Run(c, s)
	if !opts.SkipIntervals {
		intervals.Run(c, s)
	}
	tables.Findings(s.Rejections).Sort()
	return res
}
