package validate

import (
	"cmp"
	"slices"

	"github.com/evalgate/evalgate/tables"
)

// Decoder strictly decodes one answer; file is used in findings. It returns
// nil when the bytes cannot be decoded into the contract's shape. The
// pipeline passes stages/load.Answer.
type Decoder func(file string, data []byte) (*tables.Answer, tables.Findings)

// MaxAnswerBytes is the answer size cap of the campaign format. Run hands
// the decoder at most one byte more, so the decoder reports the excess.
const MaxAnswerBytes = 4 << 20

// receiptsFile is the campaign file receipt findings point into.
const receiptsFile = "receipts.jsonl"

// Run validates the campaign and fills s.Sessions, s.Citations and
// s.Dispositions, and appends its findings, sorted, to s.Rejections. It
// reads answers one at a time through c.FS.
func Run(c *tables.Campaign, s *tables.Set, decode Decoder) {
	v := newRunner(c, decode)
	if c.Manifest.Kind == tables.KindSystemComparison {
		v.runSystems()
		v.finish(s)
		return
	}
	for i := range c.Receipts {
		v.session(c.Receipts[i])
	}
	v.completeness()
	v.finish(s)
}

// runner holds the state of one validation.
type runner struct {
	c        *tables.Campaign
	decode   Decoder
	tasks    map[string]*tables.LoadedTask
	arms     map[string]tables.Arm
	prompts  map[string]tables.PromptFile
	lines    map[string][]int // source sha256 → line starts, computed once
	sessions []*sessionResult
	cites    []tables.CitationRow
	disps    []tables.DispositionRow
	findings tables.Findings
}

// sessionResult is one receipt's row under construction with what the
// completeness pass needs.
type sessionResult struct {
	row     tables.Session
	line    int64 // receipts.jsonl line
	planned bool  // a draft or review of a known task and arm
	infra   bool  // invalid for an infrastructure reason (error class)
	draftID *string
}

func newRunner(c *tables.Campaign, decode Decoder) *runner {
	v := &runner{
		c:       c,
		decode:  decode,
		tasks:   map[string]*tables.LoadedTask{},
		arms:    map[string]tables.Arm{},
		prompts: map[string]tables.PromptFile{},
		lines:   map[string][]int{},
	}
	for i := range c.Tasks {
		v.tasks[c.Tasks[i].Spec.ID] = &c.Tasks[i]
	}
	for _, a := range c.Manifest.Design.Arms {
		v.arms[a.ID] = a
	}
	for _, p := range c.Manifest.Prompts {
		v.prompts[p.ID] = p
	}
	return v
}

// addReceipt records a campaign-level finding about the receipt on line.
func (v *runner) addReceipt(sr *sessionResult, code tables.Code, msg string) {
	v.findings = append(v.findings, tables.Finding{
		Code: code, Severity: tables.Reject, File: receiptsFile, Line: sr.line,
		Session: sr.row.SessionID, Message: msg,
	})
}

// finish sorts every row and finding and stores them in s.
func (v *runner) finish(s *tables.Set) {
	perSession := map[string]int64{}
	for _, f := range v.findings {
		perSession[f.Session]++
	}
	rows := make([]tables.Session, 0, len(v.sessions))
	for _, sr := range v.sessions {
		sr.row.Findings = perSession[sr.row.SessionID]
		rows = append(rows, sr.row)
	}
	slices.SortStableFunc(rows, compareSessions)
	slices.SortStableFunc(v.cites, func(a, b tables.CitationRow) int {
		return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Index, b.Index))
	})
	slices.SortStableFunc(v.disps, func(a, b tables.DispositionRow) int {
		return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), compareIDs(a.EvidenceID, b.EvidenceID))
	})
	v.findings.Sort()
	s.Sessions = append(s.Sessions, rows...)
	s.Citations = append(s.Citations, v.cites...)
	s.Dispositions = append(s.Dispositions, v.disps...)
	s.Rejections = append(s.Rejections, v.findings...)
}

var roleRank = map[string]int{tables.RolePreparation: 0, tables.RoleDraft: 0, tables.RoleInvestigation: 0, tables.RoleReview: 1}

func compareSessions(a, b tables.Session) int {
	return cmp.Or(
		cmp.Compare(a.TaskID, b.TaskID),
		cmp.Compare(a.Repetition, b.Repetition),
		cmp.Compare(a.Attempt, b.Attempt),
		cmp.Compare(rank(a.Role), rank(b.Role)),
		cmp.Compare(deref(a.Arm), deref(b.Arm)),
		cmp.Compare(a.SessionID, b.SessionID),
		cmp.Compare(a.Status, b.Status),
	)
}

func rank(role string) int {
	if r, ok := roleRank[role]; ok {
		return r
	}
	return 2
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// compareIDs orders IDs like E2 < E10: by prefix letter, then numerically,
// then as strings for anything malformed.
func compareIDs(a, b string) int {
	na, oka := idNumber(a)
	nb, okb := idNumber(b)
	if oka && okb && a[0] == b[0] {
		return cmp.Or(cmp.Compare(na, nb), cmp.Compare(a, b))
	}
	return cmp.Compare(a, b)
}

func idNumber(id string) (uint64, bool) {
	if len(id) < 2 || len(id) > 19 {
		return 0, false
	}
	var n uint64
	for _, r := range id[1:] {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + uint64(r-'0')
	}
	return n, true
}
