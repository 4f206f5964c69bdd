// Package load is the first stage: it decodes every input file of a
// campaign strictly (rules L1–L3) into a [tables.Campaign], reporting every
// problem as a positioned [rules.Finding].
//
// Invariants:
//   - Nothing panics and nothing reads past a documented size cap, whatever
//     the bytes (every decoder is fuzzed).
//   - The published JSON Schemas in tables/schemas are the single source of
//     truth: a document is parsed into an ordered tree, the tree is walked
//     against its schema collecting every violation with its JSON pointer,
//     and only a tree of intact shape is unmarshalled (with unknown members
//     rejected once more).
//   - Findings are reported all at once and sorted; a value is never filled
//     in or repaired.
//   - Answers are not read by Campaign: later stages stream them through
//     Answer, one at a time.
//   - A decoded value keeps little alive besides its own values: the fast
//     paths' small lists share blocks of at most a few KiB (slab), the
//     lists validation's rows keep past their answer have blocks of their
//     own, and a receipt's own strings and nullable values are each one
//     allocation of that receipt's (receiptBox, setOwn).
package load

import (
	"io/fs"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Campaign reads and strictly decodes the campaign rooted at fsys. It never
// panics and never reads more than the documented size caps. Findings with
// severity Reject make the campaign inadmissible; the returned campaign holds
// whatever could be decoded. Answers are not read here (see Answer).
func Campaign(fsys fs.FS, name string) (*tables.Campaign, rules.Findings) {
	l := &loader{fsys: fsys, c: &tables.Campaign{
		FS: fsys, Name: name, Sources: map[string][]byte{}, Prompts: map[string][]byte{},
	}}
	if l.loadManifest() {
		l.loadPrompts()
		l.loadTasks()
		l.loadBenchmark()
	}
	l.checkSources()
	l.loadUnblinding()
	observed := false // some receipt names an observation log
	l.c.Receipts = spoolJSONL(l, "receipts.jsonl", "receipt", func(r *tables.Receipt) string { return r.SessionID },
		func(r *tables.Line[tables.Receipt]) { observed = observed || r.Record.Observations != nil })
	var raters rules.Findings
	l.c.Adjudications = spoolJSONL(l, "adjudications.jsonl", "adjudication", func(a *tables.Adjudication) string { return a.SessionID },
		func(a *tables.Line[tables.Adjudication]) {
			raters = append(raters, checkRater(a, "adjudications.jsonl")...)
		})
	l.add(raters...)
	l.loadObservations(observed)
	return l.c, l.findings()
}

// loader carries one Campaign call's state.
type loader struct {
	fsys fs.FS
	c    *tables.Campaign
	// out holds the findings under the caps of rules.FindingCap, so that
	// memory follows what is reported: a million malformed lines keep a
	// hundred findings per code and a count, not millions of findings.
	out rules.FindingCap
	// linesLost counts the lines of the JSONL file last decoded that gave
	// no record.
	linesLost int
	// intern shares the repeated values of the records of the campaign's
	// JSONL files (internFor); the records keep what they share, the
	// table goes with the loader.
	intern *interner
}

func (l *loader) add(fs ...rules.Finding) { l.out.Add(fs...) }

// findings returns every finding added, capped and sorted.
func (l *loader) findings() rules.Findings {
	out := l.out.Findings()
	out.Sort()
	return out
}
