package aggregate

import (
	"cmp"
	"iter"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// reviewRef is a run's review session and the run's place in runs order.
type reviewRef struct {
	Session string `parquet:"session"`
	Run     int64  `parquet:"run"`
}

// reviewInput is what the token rows say of a run's review session: whether
// it was dispatched (it has a token row) and, when one of its meters decoded,
// its cumulative input tokens (the last such row's).
type reviewInput struct {
	Run        int64 `parquet:"run"`
	Dispatched bool  `parquet:"dispatched"`
	Metered    bool  `parquet:"metered"`
	Tokens     int64 `parquet:"tokens"`
}

// reviewInputs gives each run of runs, in runs order, its review's input:
// the runs' review sessions, spooled by session ID, are merged with the
// token rows (sorted by session ID, then line), so that no map of every
// dispatched session is held.
func reviewInputs(runs runSet, tokens *spool.Spool[tables.Token]) iter.Seq[reviewInput] {
	refs := spool.New(func(a, b reviewRef) int { return cmp.Or(cmp.Compare(a.Session, b.Session), cmp.Compare(a.Run, b.Run)) })
	var n int64
	for r := range runs.All() {
		refs.Add(reviewRef{Session: r.ReviewSessionID, Run: n})
		n++
	}
	refs.Compact()
	byRun := spool.New(func(a, b reviewInput) int { return cmp.Compare(a.Run, b.Run) })
	next, stop := iter.Pull(tokens.All())
	defer stop()
	t, more := next()
	var last string
	var in reviewInput // the input of session last
	known := false
	for ref := range refs.All() {
		if !known || ref.Session != last {
			for more && t.SessionID < ref.Session {
				t, more = next()
			}
			last, known, in = ref.Session, true, reviewInput{}
			for more && t.SessionID == ref.Session {
				in.Dispatched = true
				if t.CostStatus != tables.CostMissingMeter && t.CostStatus != tables.CostInvalidMeter {
					in.Metered, in.Tokens = true, t.InputTotal
				}
				t, more = next()
			}
		}
		in.Run = ref.Run
		byRun.Add(in)
	}
	byRun.Compact()
	return byRun.All()
}
