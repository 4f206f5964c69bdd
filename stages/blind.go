package stages

import (
	"errors"
	"io/fs"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/score"
	"github.com/evalgate/evalgate/stages/validate"
	"github.com/evalgate/evalgate/tables"
)

// ExportBlind builds the blind export of a loaded run: the score stage's
// items and key from the validate stage's sessions, with answers re-read
// through the load stage's reader.
func ExportBlind(res *Result, seed uint64) (*score.BlindExport, error) {
	return score.ExportBlind(res.Campaign, res.Tables.Sessions, load.Answers(res.Campaign), seed)
}

// StreamBlind is ExportBlind writing each item through write as it is
// built (score.StreamBlind), after prepare has seen every label.
func StreamBlind(res *Result, seed uint64, prepare func(labels []string) error, write func(label string, data []byte) error) (*score.BlindExport, error) {
	return score.StreamBlind(res.Campaign, res.Tables.Sessions, load.Answers(res.Campaign), seed, prepare, write)
}

// RunForBlind runs only the stages a blind export reads: load, then
// validate, whose sessions table says which reviews need ratings (a
// reviewer benchmark has none: its reviews are judged, not rated). The
// account, score, aggregate and intervals stages, whose tables the export
// never reads, are not run, so the export holds no more than validation
// does. The result is Run's with only the sessions, citations,
// dispositions and findings tables.
func RunForBlind(fsys fs.FS, name string) *Result {
	c, loaded := load.Campaign(fsys, name)
	res := &Result{Campaign: c, Tables: &tables.Set{Rejections: loaded}}
	if c == nil || loaded.Rejected() {
		if c != nil {
			res.Err = c.Err()
		}
		rules.Findings(res.Tables.Rejections).Sort()
		return res
	}
	res.Loaded = true
	if c.Manifest.Kind == rules.KindReviewerBenchmark {
		res.Err = c.Err()
		return res
	}
	answers := load.Prefetched(c, answerReaders, answerWindow)
	v := validate.Run(c, answers)
	answers.Close()
	res.Tables = &tables.Set{Sessions: v.Sessions, Citations: v.Citations, Dispositions: v.Dispositions,
		Rejections: rules.CapFindings(append(loaded, v.Findings...))}
	res.Err = errors.Join(res.Tables.Err(), c.Err())
	return res
}
