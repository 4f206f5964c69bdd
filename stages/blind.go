package stages

import (
	"github.com/evalgate/evalgate/stages/load"
	"github.com/evalgate/evalgate/stages/score"
)

// ExportBlind builds the blind export of a loaded run: the score stage's
// items and key from the validate stage's sessions, with answers re-read
// through the load stage's reader.
func ExportBlind(res *Result, seed uint64) (*score.BlindExport, error) {
	return score.ExportBlind(res.Campaign, res.Tables.Sessions, load.Answers(res.Campaign), seed)
}
