package aggregate

import (
	"cmp"
	"iter"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// runSet is a set of the score stage's runs, read by iterating their
// spool: every run, or those keep admits. The stage never holds more
// than maxHeldRuns runs: each reader takes, per run, the few numbers it
// needs. Invariant: the spool is sorted by (task, repetition, arm)
// ([sortedRuns]), so the runs of one task, and of one task and
// repetition, follow each other in every set.
type runSet struct {
	spool *spool.Spool[tables.Run] // nil: no run
	// held is the spool's runs decoded once, when there are at most
	// maxHeldRuns of them (heldRuns); nil: every pass decodes the spool.
	held *[]tables.Run
	keep func(*tables.Run) bool // nil: every run of the spool
}

// maxHeldRuns is the most runs a runSet holds decoded, so that the
// stage's many passes over them decode them once: 2^17 runs of a few
// hundred bytes each (some 64 MiB at most; a campaign of 100,000
// sessions has 66,720). More runs are read from the spool by every pass,
// so memory stays bounded whatever the campaign.
const maxHeldRuns = 1 << 17

// heldRuns is the set of every run of runs, held decoded when they are
// few enough (maxHeldRuns).
func heldRuns(runs *spool.Spool[tables.Run]) runSet {
	s := runSet{spool: runs}
	if n := runs.Len(); n == 0 || n > maxHeldRuns {
		return s
	}
	held := make([]tables.Run, 0, runs.Len())
	for r := range runs.All() {
		held = append(held, r)
	}
	if runs.Err() == nil && len(held) == runs.Len() {
		s.held = &held
	}
	return s
}

// All yields each run of the set in spool order. The run pointed to is
// valid only until the next one: a reader keeps what it needs, not the
// pointer.
func (s runSet) All() iter.Seq[*tables.Run] {
	return func(yield func(*tables.Run) bool) {
		var r tables.Run // one for the whole pass: the pointer is valid until the next run
		if s.held != nil {
			for i := range *s.held {
				r = (*s.held)[i] // a copy: no reader writes into a held run
				if s.keep != nil && !s.keep(&r) {
					continue
				}
				if !yield(&r) {
					return
				}
			}
			return
		}
		for r = range s.spool.All() {
			if s.keep != nil && !s.keep(&r) {
				continue
			}
			if !yield(&r) {
				return
			}
		}
	}
}

// where is the subset of s that keep admits.
func (s runSet) where(keep func(*tables.Run) bool) runSet {
	if s.keep == nil {
		return runSet{spool: s.spool, held: s.held, keep: keep}
	}
	outer := s.keep
	return runSet{spool: s.spool, held: s.held, keep: func(r *tables.Run) bool { return outer(r) && keep(r) }}
}

// ofArm is the subset of s of one arm.
func (s runSet) ofArm(arm string) runSet {
	return s.where(func(r *tables.Run) bool { return r.Arm == arm })
}

// empty reports whether s holds no run.
func (s runSet) empty() bool {
	for range s.All() {
		return false
	}
	return true
}

// byRun is the order of the score stage's runs: task, repetition, arm.
func byRun(a, b tables.Run) int {
	return cmp.Or(cmp.Compare(a.TaskID, b.TaskID), cmp.Compare(a.Repetition, b.Repetition), cmp.Compare(a.Arm, b.Arm))
}

// sortedRuns returns runs when they are sorted by [byRun], as the score
// stage writes them, and otherwise a spool of them sorted stably, so that
// failing lists and the grouping of runs never depend on input order.
func sortedRuns(runs *spool.Spool[tables.Run]) *spool.Spool[tables.Run] {
	var prev tables.Run
	first, sorted := true, true
	for r := range runs.All() {
		if !first && byRun(prev, r) > 0 {
			sorted = false
			break
		}
		prev, first = r, false
	}
	if sorted {
		return runs
	}
	out := spool.New(byRun)
	for r := range runs.All() {
		out.Add(r)
	}
	out.Compact()
	return out
}
