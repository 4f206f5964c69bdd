package validate

import (
	"iter"

	"github.com/evalgate/evalgate/tables"
)

// sessionResult is what the checks after a session's own (the deferred
// renderings, the pair and completeness passes, finish) read and change of
// it: a few bytes per session, so that a million sessions stay small. The
// session's row itself is spooled when its receipt has been validated
// (runner.opened); finish sets the columns these later checks may change
// (classification, identity_matches, findings) from here.
type sessionResult struct {
	id      string // session ID
	draftID string // inputs.draft_session_id, when hasDraft
	line    int64  // receipts.jsonl line, 0 for a planned session without a receipt
	// rep and attempt are the row's repetition and attempt.
	rep, attempt int64
	// task, arm, role, status and errorClass are the row's columns, interned
	// (runner.names); arm and errorClass are noName when null.
	task, arm, role, status, errorClass name
	// cites is the citation count of the session's decoded answer,
	// tables.NoCitationCount without one (an answer is within the answer
	// size cap, so its count fits).
	cites    int32
	class    class
	identity bool // identity_matches
	hasDraft bool
	planned  bool // a draft or review of a known task and arm
	infra    bool // invalid for an infrastructure reason (error class)
}

// results holds every session's state in the order opened, in blocks that
// never move, so that a *sessionResult stays valid as sessions are added.
type results struct {
	blocks [][]sessionResult
	n      int
}

// resultBlock is how many sessions one block of results holds.
const resultBlock = 4096

// add appends a zero state and returns it.
func (rs *results) add() *sessionResult {
	if rs.n%resultBlock == 0 {
		rs.blocks = append(rs.blocks, make([]sessionResult, 0, resultBlock))
	}
	b := &rs.blocks[len(rs.blocks)-1]
	*b = append(*b, sessionResult{})
	rs.n++
	return &(*b)[len(*b)-1]
}

// at returns the state of the k-th session opened.
func (rs *results) at(k int) *sessionResult {
	return &rs.blocks[k/resultBlock][k%resultBlock]
}

// all yields every state in the order opened.
func (rs *results) all() iter.Seq[*sessionResult] {
	return func(yield func(*sessionResult) bool) {
		for _, b := range rs.blocks {
			for i := range b {
				if !yield(&b[i]) {
					return
				}
			}
		}
	}
}

// name is an interned string of a session column: 0 is null (noName),
// n > 0 the names table's string n-1.
type name uint32

const noName name = 0

// names interns the few distinct values of the columns a session's state
// keeps (task IDs, arms, roles, statuses, error classes); hostile receipts
// with a distinct value each only make it as long as the receipts.
type names struct {
	index map[string]name
	list  []string
}

// of returns s's name.
func (ns *names) of(s string) name {
	if n, ok := ns.index[s]; ok {
		return n
	}
	if ns.index == nil {
		ns.index = map[string]name{}
	}
	ns.list = append(ns.list, s)
	n := name(len(ns.list))
	ns.index[s] = n
	return n
}

// ofPtr returns *s's name, noName for nil.
func (ns *names) ofPtr(s *string) name {
	if s == nil {
		return noName
	}
	return ns.of(*s)
}

// str returns n's string, "" for noName.
func (ns *names) str(n name) string {
	if n == noName {
		return ""
	}
	return ns.list[n-1]
}

// class is a classification as a small number: its place in classes.
type class uint8

// classes are the values a session's classification takes: none yet, then
// every classification.
var classes = append([]tables.Classification{""}, tables.Classifications()...)

// The classifications the checks after a session's own compare and set.
var (
	classInvalid       = classOf(tables.ClassInvalid)
	classScoredFailure = classOf(tables.ClassScoredFailure)
	classNotDispatched = classOf(tables.ClassNotDispatched)
)

// classOf returns c's class; every classification the stage gives is one
// of tables.Classifications.
func classOf(c tables.Classification) class {
	for i, x := range classes {
		if x == c {
			return class(i)
		}
	}
	return 0
}

// value returns the classification c stands for.
func (c class) value() tables.Classification { return classes[c] }

// int64Arena hands out int64s for the rows' nullable times from blocks
// allocated a few hundred at a time: a spooled row keeps pointing at its
// values, so a block is never reused, only left to the collector with the
// rows that point into it.
type int64Arena struct {
	block []int64
}

// int64Block is how many values one block of an int64Arena holds.
const int64Block = 512

// new returns a pointer to a zero int64 of its own.
func (a *int64Arena) new() *int64 {
	if len(a.block) == cap(a.block) {
		a.block = make([]int64, 0, int64Block)
	}
	a.block = a.block[:len(a.block)+1]
	return &a.block[len(a.block)-1]
}

// pairSlab hands out the review lists of the repetitions, room for two
// reviews each (both arms of a pair), from arrays allocated a few hundred
// lists at a time: a third review of one repetition moves its list to an
// array of its own, as append does.
type pairSlab struct {
	slab []pairReview
}

// pairSlabLists is how many lists of two one array of a pairSlab holds.
const pairSlabLists = 256

// two returns an empty list with room for two reviews.
func (p *pairSlab) two() []pairReview {
	if len(p.slab)+2 > cap(p.slab) {
		p.slab = make([]pairReview, 0, 2*pairSlabLists)
	}
	n := len(p.slab)
	p.slab = p.slab[:n+2]
	return p.slab[n : n : n+2]
}
