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

// StreamBlind is ExportBlind writing each item through write as it is
// built (score.StreamBlind), after prepare has seen every label.
func StreamBlind(res *Result, seed uint64, prepare func(labels []string) error, write func(label string, data []byte) error) (*score.BlindExport, error) {
	return score.StreamBlind(res.Campaign, res.Tables.Sessions, load.Answers(res.Campaign), seed, prepare, write)
}
