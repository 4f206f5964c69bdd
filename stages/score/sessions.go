package score

import (
	"cmp"
	"slices"
	"sort"

	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// session is what the score stage reads of one session row that executed
// a planned run (or a system's cold setup), with the session's cost: a few
// fields named as in [tables.Session], not the whole row. A run points to
// its draft's and review's.
type session struct {
	SessionID        string
	Attempt          int64
	Status           string
	Classification   tables.Classification
	CitationFailures int64
	DurationNS       *int64 // points to duration, nil when the row's is
	ValidationNS     int64

	duration  int64
	endedAt   int64 // the row's ended_at in UTC ns; valid when ended
	ended     bool
	citations int64         // the answer's final citations (validate's CitationCounts), tables.NoCitationCount when unknown
	cost      *tables.Money // reference cost plus tool charges from the session's last token row; nil when unknown or without one

	investigation       bool // the row's role is investigation
	finalValid          bool // the row's final_valid is true
	answerNotInvalid    bool // the row's answer_valid is true or null
	reconciliationValid bool // the row's reconciliation_valid is true
}

// sessionBlock is how many sessions a sessionSlab allocates at a time.
const sessionBlock = 1024

// sessionSlab makes sessions in blocks and remembers them, to price them.
type sessionSlab struct {
	block []session
	all   []*session
}

// add makes the session of row, whose answer has count final citations.
func (sl *sessionSlab) add(row *tables.Session, count int64) *session {
	if len(sl.block) == cap(sl.block) {
		sl.block = make([]session, 0, sessionBlock)
	}
	sl.block = append(sl.block, session{
		SessionID: row.SessionID, Attempt: row.Attempt, Status: row.Status, Classification: row.Classification,
		CitationFailures: row.CitationFailures, ValidationNS: row.ValidationNS, citations: count,
		investigation: row.Role == tables.RoleInvestigation, finalValid: isTrue(row.FinalValid),
		answerNotInvalid: row.AnswerValid == nil || *row.AnswerValid, reconciliationValid: isTrue(row.ReconciliationValid),
	})
	s := &sl.block[len(sl.block)-1]
	if row.EndedAtNS != nil {
		s.endedAt, s.ended = *row.EndedAtNS, true
	}
	if row.DurationNS != nil {
		s.duration = *row.DurationNS
		s.DurationNS = &s.duration
	}
	sl.all = append(sl.all, s)
	return s
}

// price gives every session made its cost: that of the last token row of
// its session ID in the rows' order (sorted by session, then line), as a
// map of session ID to cost would hold it.
func (sl *sessionSlab) price(tokens *spool.Spool[tables.Token]) {
	byID := sl.all
	slices.SortFunc(byID, func(a, b *session) int { return cmp.Compare(a.SessionID, b.SessionID) })
	for t := range tokens.All() {
		i := sort.Search(len(byID), func(i int) bool { return byID[i].SessionID >= t.SessionID })
		if i == len(byID) || byID[i].SessionID != t.SessionID {
			continue
		}
		cost := addMoney(t.ReferenceCost, t.ToolCharges)
		for ; i < len(byID) && byID[i].SessionID == t.SessionID; i++ {
			byID[i].cost = cost
		}
	}
	sl.all = nil
}
