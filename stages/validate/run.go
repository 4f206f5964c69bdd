package validate

import (
	"cmp"
	"iter"
	"slices"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/spool"
	"github.com/evalgate/evalgate/tables"
)

// Out is what the stage produces (see [tables.Validated]).
type Out = tables.Validated

// receiptsFile is the campaign file receipt findings point into.
const receiptsFile = "receipts.jsonl"

// Run validates the campaign: one session row per receipt, the citation
// and disposition rows of every decoded answer, and every finding, sorted.
// It reads answers one at a time through answers.
func Run(c *tables.Campaign, answers tables.Answers) Out {
	v := newRunner(c, answers)
	v.findings = append(v.findings, Policy(c)...)
	v.promptParts()
	v.findings = append(v.findings, ProviderFindings(&c.Manifest)...)
	v.findings = append(v.findings, Design(&c.Manifest)...)
	if c.Manifest.Kind == rules.KindSystemComparison {
		v.runSystems()
		return v.finish()
	}
	if c.Manifest.Kind == rules.KindPairedReview {
		v.namedInstructions()
	}
	var later []ordered // reviews whose draft comes after them in the file
	ord := 0
	for line := range receiptsOf(c, answers) {
		l := &line
		sr := v.session(l)
		v.custodySession(&l.Record, sr)
		v.noteReceipt(&l.Record)
		v.noteRound(sr, &l.Record)
		if v.draftAfter(&l.Record) {
			later = append(later, ordered{ord: ord, r: l.Record, sr: sr}) // reading its draft now would read ahead of the answers
		} else {
			v.renderedInput(ord, &l.Record, sr) // while the session's draft output is at hand
		}
		ord++
	}
	for i := range later {
		v.renderedInput(later[i].ord, &later[i].r, later[i].sr)
	}
	v.pairsBlocks()
	v.custodyCampaign()
	v.completeness()
	v.roundFreezes()
	return v.finish()
}

// receiptSource is an answer reader that walks the receipts itself
// (load.Prefetch) and yields them, so that the one pass over them
// decodes each receipt once.
type receiptSource interface {
	Receipts() iter.Seq[tables.Line[tables.Receipt]]
}

// receiptsOf is c's receipts in order: through answers when it walks
// them anyway.
func receiptsOf(c *tables.Campaign, answers tables.Answers) iter.Seq[tables.Line[tables.Receipt]] {
	if s, ok := answers.(receiptSource); ok {
		return s.Receipts()
	}
	return c.Receipts.All()
}

// runner holds the state of one validation.
type runner struct {
	c       *tables.Campaign
	answers tables.Answers
	tasks   map[string]*tables.LoadedTask
	arms    map[string]tables.Arm
	prompts map[string]tables.PromptFile
	lines   map[string][]int           // source sha256 → line starts, computed once
	packets map[packetKey]*packetIndex // see packetOf
	scratch answerScratch              // reused by the rules of every answer
	// results is every session's state, in the order opened; opened
	// their rows, in the same order, each spooled once its receipt is
	// validated (the columns the later checks change are set by finish);
	// open is the row of the session being validated.
	results results
	opened  *spool.Spool[tables.Session]
	open    *tables.Session // &openRow while a row is open, else nil
	openRow tables.Session
	times   int64Arena                          // the rows' end times and durations
	names   names                               // the interned columns of results
	cites   *spool.Spool[tables.CitationRow]    // sorted by compareCitations
	disps   *spool.Spool[tables.DispositionRow] // sorted by compareDispositions
	// shared lists the session IDs of more than one session (a receipt
	// repeated, or a planned session without a receipt named like one):
	// every row of such an ID gets the largest citation count among them
	// (Out.CitationCounts).
	shared   map[string]struct{}
	findings rules.Findings
	// failedDraft is the failed draft of the repetition whose reviews are
	// being expected ("" none): a missing review of it was never to be
	// dispatched, and session_missing says how to record that.
	failedDraft string
	// replacements is the replacement rule's outcome (walkSchedule).
	replacements tables.Replacements
	// rounds holds the phase times of the development flow (rounds.go).
	rounds roundTimes
	// firsts holds where facts holds the facts of the first receipt of
	// each session ID the pass has met (noteReceipt), for the renderings
	// of reviews.
	firsts map[string]int
	facts  factsArena
	// digests computes the renderings renderedInput compares; pairs files
	// the reviews of each repetition (task, repetition, draft) for
	// pairsBlocks.
	digests  *renderDigests
	pairs    map[pairKey][]pairReview
	pairSlab pairSlab // the lists of pairs
	// custody is the state of the custody rules (custody.go).
	custody *custody
}

func newRunner(c *tables.Campaign, answers tables.Answers) *runner {
	v := &runner{
		c:       c,
		answers: answers,
		tasks:   map[string]*tables.LoadedTask{},
		arms:    map[string]tables.Arm{},
		prompts: map[string]tables.PromptFile{},
		lines:   map[string][]int{},
		packets: map[packetKey]*packetIndex{},

		opened: spool.New[tables.Session](nil),
		cites:  spool.New(compareCitations),
		disps:  spool.New(compareDispositions),
		shared: map[string]struct{}{},
		pairs:  map[pairKey][]pairReview{},
		firsts: map[string]int{},
	}
	v.digests = newRenderDigests(v)
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
func (v *runner) addReceipt(sr *sessionResult, code rules.Code, msg string) {
	v.findings = append(v.findings, rules.Finding{
		Code: code, Severity: rules.Reject, File: receiptsFile, Line: sr.line,
		Session: sr.id, Message: msg,
	})
}

// newSession opens the row of one session (every receipt opens one, as
// does a planned session without a receipt) and its state; the row stays
// open, in v.open, until closeSession spools it.
func (v *runner) newSession(row tables.Session) *sessionResult {
	sr := v.results.add()
	*sr = sessionResult{
		id: row.SessionID, rep: row.Repetition, attempt: row.Attempt,
		task: v.names.of(row.TaskID), arm: v.names.ofPtr(row.Arm), role: v.names.of(row.Role),
		status: v.names.of(row.Status), errorClass: v.names.ofPtr(row.ErrorClass),
		class: classOf(row.Classification), identity: row.IdentityMatches, cites: tables.NoCitationCount,
	}
	v.openRow = row
	v.open = &v.openRow
	return sr
}

// closeSession spools the open row: no check changes its columns but
// those finish takes from the session's state.
func (v *runner) closeSession() {
	v.opened.Add(*v.open)
	v.open, v.openRow = nil, tables.Session{}
}

// The columns of a session's state.
func (v *runner) taskOf(sr *sessionResult) string   { return v.names.str(sr.task) }
func (v *runner) roleOf(sr *sessionResult) string   { return v.names.str(sr.role) }
func (v *runner) statusOf(sr *sessionResult) string { return v.names.str(sr.status) }
func (v *runner) armOf(sr *sessionResult) string    { return v.names.str(sr.arm) } // "" when null
func (v *runner) errorOf(sr *sessionResult) string  { return v.names.str(sr.errorClass) }

// repositoryOf is the repository column of sr's row: its task's, "" for a
// task the campaign does not hold.
func (v *runner) repositoryOf(sr *sessionResult) string {
	if t := v.tasks[v.taskOf(sr)]; t != nil {
		return t.Spec.Repository
	}
	return ""
}

// finish completes every row with what the later checks found, sorts the
// rows and findings and returns them. It ends the validation.
func (v *runner) finish() Out {
	perSession := map[string]int64{}
	for _, f := range v.findings {
		perSession[f.Session]++
	}
	sessions := spool.New(compareSessions)
	k := 0
	for row := range v.opened.All() { // the rows and states are in the same order
		sr := v.results.at(k)
		k++
		row.Classification, row.IdentityMatches = sr.class.value(), sr.identity
		row.Findings = perSession[row.SessionID]
		sessions.Add(row)
	}
	sessions.Compact()
	counts := v.citationCounts()
	v.opened, v.results = nil, results{}
	v.findings.Sort()
	var versions []tables.PromptVersion
	if v.c.Manifest.Kind == rules.KindPairedReview {
		versions = PromptVersions(v.c)
	}
	return Out{Sessions: sessions, Citations: v.cites, Dispositions: v.disps, CitationCounts: counts,
		Replacements: v.replacements, PromptVersions: versions, Findings: v.findings}
}

// citationCounts is Out.CitationCounts: each session's citation count, the
// largest of its session ID's when the ID is shared, in the order of the
// sorted rows. The states are sorted as finish's spool sorts the rows (by
// compareSessions, stably over the order opened, on the same columns), so
// the i-th state of the sort is the i-th row's.
func (v *runner) citationCounts() []int64 {
	largest := map[string]int32{} // shared ID → its largest count
	order := make([]int32, 0, v.results.n)
	for sr := range v.results.all() {
		if _, ok := v.shared[sr.id]; ok {
			if n, seen := largest[sr.id]; !seen || sr.cites > n {
				largest[sr.id] = sr.cites
			}
		}
		order = append(order, int32(len(order)))
	}
	slices.SortStableFunc(order, func(a, b int32) int { return v.compareStates(v.results.at(int(a)), v.results.at(int(b))) })
	counts := make([]int64, len(order))
	for i, k := range order {
		sr := v.results.at(int(k))
		n, ok := largest[sr.id]
		if !ok {
			n = sr.cites
		}
		counts[i] = int64(n)
	}
	return counts
}

// compareStates is compareSessions on the rows of two states.
func (v *runner) compareStates(a, b *sessionResult) int {
	if c := cmp.Compare(v.taskOf(a), v.taskOf(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.rep, b.rep); c != 0 {
		return c
	}
	if c := cmp.Compare(a.attempt, b.attempt); c != 0 {
		return c
	}
	if c := cmp.Compare(rank(v.roleOf(a)), rank(v.roleOf(b))); c != 0 {
		return c
	}
	if c := cmp.Compare(v.armOf(a), v.armOf(b)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.id, b.id); c != 0 {
		return c
	}
	return cmp.Compare(v.statusOf(a), v.statusOf(b))
}

// compareCitations orders citation rows by session and index.
func compareCitations(a, b tables.CitationRow) int {
	return cmp.Or(cmp.Compare(a.SessionID, b.SessionID), cmp.Compare(a.Index, b.Index))
}

// compareDispositions orders disposition rows by session and evidence ID.
// Like the other orders it stops at the first key that differs (cmp.Or
// would compute every key of every comparison of a sort).
func compareDispositions(a, b tables.DispositionRow) int {
	if c := cmp.Compare(a.SessionID, b.SessionID); c != 0 {
		return c
	}
	return compareIDs(a.EvidenceID, b.EvidenceID)
}

// compareSessions orders session rows by task, repetition, attempt, role
// rank, arm, session ID and status.
func compareSessions(a, b tables.Session) int {
	if c := cmp.Compare(a.TaskID, b.TaskID); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Repetition, b.Repetition); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Attempt, b.Attempt); c != 0 {
		return c
	}
	if c := cmp.Compare(rank(a.Role), rank(b.Role)); c != 0 {
		return c
	}
	if c := cmp.Compare(deref(a.Arm), deref(b.Arm)); c != 0 {
		return c
	}
	if c := cmp.Compare(a.SessionID, b.SessionID); c != 0 {
		return c
	}
	return cmp.Compare(a.Status, b.Status)
}

// rank orders roles within a repetition: the sessions that open it
// (preparation, draft, investigation), then reviews, then any other role.
// A switch, not a map: the sort of the sessions calls it on every
// comparison.
func rank(role string) int {
	switch role {
	case tables.RolePreparation, tables.RoleDraft, tables.RoleInvestigation:
		return 0
	case tables.RoleReview:
		return 1
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
