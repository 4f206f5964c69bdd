package validate

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/evalgate/evalgate/rules"
	"github.com/evalgate/evalgate/tables"
)

// Earlier decisions hidden from every reviewer (rule G6: "Benchmark labels
// and previous baseline decisions are hidden from both reviewers"). A
// review's decisions are what it concluded about its case beyond what it
// was given: each finding's problem — whole and by its sentences and
// clauses, as a defect description is searched — and its location written
// path:start-end, each of at least minFragmentWords words in normal form
// (rbench_normalize.go) and not part of the review's own recorded input.
// No reviewer input may contain a decision of a review session that ended
// before that reviewer's session started. Both profiles' earlier reviews
// count: the protocol names the baseline's, and an earlier candidate
// decision shown to a reviewer breaks the same independence of the runs
// ("two independent runs per case/profile"). Criterion ratings and
// finding IDs alone are not searched: every review rates the same eight
// criteria pass, fail or unknown and numbers its findings F1…, so their
// text cannot show that a particular earlier decision reached the input.
// A decision text that is part of what the later reviewer was itself
// given — its case's task files or its profile's prompts — is no leak.
//
// Memory stays bounded by the decisions' count, not their text: each
// decision text is kept as two 64-bit hashes of its words, its word count
// and its first four words' hash. Each input is scanned once, when its
// receipt is read, against the decisions of the receipts before it, its
// word hashes rolled so that a position costs the decisions that begin
// with its four words. Receipts need not be in time order: an input is
// read and scanned again, against every decision, only when a review on
// a later line ended before its session started.

// decisionRef is the review session that first made a decision text.
type decisionRef struct {
	session, profile, caseID string
	ended                    time.Time
	line                     int64 // its receipt's line
}

// checkedInput is a recorded input scanned when its receipt was read.
type checkedInput struct {
	line    int64
	started time.Time
}

// decision is one decision text in hashed form.
type decision struct {
	h1, h2 uint64
	words  int32
	ref    int32  // index into decisions.refs: the earliest-ending review with this text
	what   string // e.g. "finding F1's problem (a sentence or clause of it)"
}

// decisions holds every earlier decision of the benchmark's reviews.
type decisions struct {
	refs   []decisionRef
	list   []decision
	byText map[[3]uint64]int32 // h1, h2, words → index into list
	anchor map[uint64][]int32  // hash of the first minFragmentWords words → indices into list
	bloom  [1 << 10]uint64     // anchor hashes present, one bit each (a quick miss)
	first  time.Time           // the earliest end of a review with a decision

	inputs []checkedInput // the inputs scanned, in receipt order

	// scratch of one scan, reused
	starts, ends []int
	p1, p2       []uint64
}

const (
	decisionBase1 = 0x100000001b3
	decisionBase2 = 0x9e3779b97f4a7c15
)

// wordHash hashes one word of a normal form (FNV-1a); never zero.
func wordHash(w []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range w {
		h = (h ^ uint64(c)) * 0x100000001b3
	}
	return h | 1
}

func (d *decisions) maybeAnchor(h uint64) bool { return d.bloom[h>>54]&(1<<(h&63)) != 0 }

// hashWords returns both hashes of a normal form's words and their count.
func hashWords(norm []byte) (h1, h2 uint64, n int32) {
	for _, w := range bytes.Fields(norm) {
		x := wordHash(w)
		h1, h2, n = h1*decisionBase1+x, h2*decisionBase2+x, n+1
	}
	return h1, h2, n
}

// anchorHash is the first hash of the first minFragmentWords words.
func anchorHash(norm []byte) uint64 {
	var h uint64
	for i, w := range bytes.Fields(norm) {
		if i == minFragmentWords {
			break
		}
		h = h*decisionBase1 + wordHash(w)
	}
	return h
}

// noteDecisions records the decision texts of a decoded review. own is
// the normal form of the review's own recorded input, or nil when it
// could not be read.
func (b *bench) noteDecisions(a *tables.ReviewAttempt, r *tables.Receipt, rev *tables.Review, own []byte) {
	if r.EndedAt == nil || len(rev.Findings) == 0 {
		return
	}
	d := &b.decided
	if d.byText == nil {
		d.byText, d.anchor = map[[3]uint64]int32{}, map[uint64][]int32{}
	}
	ref := int32(-1)
	add := func(text, what string) {
		n := normalText(text)
		if len(strings.Fields(n)) < minFragmentWords || (own != nil && bytes.Contains(own, []byte(n))) {
			return
		}
		if ref < 0 {
			ref = int32(len(d.refs))
			d.refs = append(d.refs, decisionRef{session: r.SessionID, profile: a.Row.Profile, caseID: a.Row.CaseID, ended: *r.EndedAt, line: a.Line})
			if d.first.IsZero() || r.EndedAt.Before(d.first) {
				d.first = *r.EndedAt
			}
		}
		h1, h2, words := hashWords([]byte(n))
		key := [3]uint64{h1, h2, uint64(words)}
		if i, ok := d.byText[key]; ok {
			if r.EndedAt.Before(d.refs[d.list[i].ref].ended) {
				d.list[i].ref, d.list[i].what = ref, what
			}
			return
		}
		d.byText[key] = int32(len(d.list))
		an := anchorHash([]byte(n))
		d.anchor[an] = append(d.anchor[an], int32(len(d.list)))
		d.bloom[an>>54] |= 1 << (an & 63)
		d.list = append(d.list, decision{h1: h1, h2: h2, words: words, ref: ref, what: what})
	}
	for _, f := range rev.Findings {
		add(f.Problem, fmt.Sprintf("finding %s's problem", f.ID))
		for _, frag := range fragments(f.Problem) {
			add(frag, fmt.Sprintf("finding %s's problem (a sentence or clause of it)", f.ID))
		}
		add(fmt.Sprintf("%s:%d-%d", f.Location.Path, f.Location.StartLine, f.Location.EndLine), fmt.Sprintf("finding %s's location", f.ID))
	}
}

// priorHit is one earlier decision found in an input.
type priorHit struct {
	ref   int32
	what  string
	text  string
	count int
}

// scanDecisions checks the input of the receipt on line, in normal form,
// against the decisions known so far.
func (b *bench) scanDecisions(norm []byte, r *tables.Receipt, line int64) {
	d := &b.decided
	d.inputs = append(d.inputs, checkedInput{line: line, started: r.StartedAt})
	if len(d.list) == 0 || !r.StartedAt.After(d.first) {
		return
	}
	b.reportDecisions(norm, r, line)
}

func (b *bench) reportDecisions(norm []byte, r *tables.Receipt, line int64) {
	d := &b.decided
	for _, h := range b.priorDecisions(norm, r) {
		ref := d.refs[h.ref]
		also := ""
		if h.count > 1 {
			also = fmt.Sprintf(" (and %d more of its decision texts)", h.count-1)
		}
		b.add(rules.CodeRbenchPriorDecisionInInput, rules.Reject, receiptsFile, line, "/recorded_input", r.SessionID,
			"the reviewer's input %s contains the decision of review session %s (profile %s, case %s), which ended at %s, before this session started at %s: %s, compared ignoring case, whitespace and punctuation: %q%s; earlier decisions are hidden from every reviewer",
			r.RecordedInput.Path, ref.session, ref.profile, ref.caseID, ref.ended.UTC().Format(time.RFC3339Nano), r.StartedAt.UTC().Format(time.RFC3339Nano),
			h.what, clipLabel(h.text), also)
	}
}

// checkPriorDecisions, once every receipt is read, scans again each input
// a review on a later line may have preceded — one that ended before the
// input's session started — against every decision, its findings
// replacing those of its first scan.
func (b *bench) checkPriorDecisions() {
	d := &b.decided
	if len(d.refs) == 0 || len(d.inputs) == 0 {
		return
	}
	again := map[int64]bool{}
	k := len(d.refs) - 1
	var earliest time.Time // the earliest end of the reviews on lines after the input's
	for i := len(d.inputs) - 1; i >= 0; i-- {
		in := d.inputs[i]
		for ; k >= 0 && d.refs[k].line > in.line; k-- {
			if earliest.IsZero() || d.refs[k].ended.Before(earliest) {
				earliest = d.refs[k].ended
			}
		}
		if !earliest.IsZero() && earliest.Before(in.started) {
			again[in.line] = true
		}
	}
	if len(again) == 0 {
		return
	}
	b.out.Problems = slices.DeleteFunc(b.out.Problems, func(f rules.Finding) bool {
		return f.Code == rules.CodeRbenchPriorDecisionInInput && again[f.Line]
	})
	for line := range b.c.Receipts.All() {
		if !again[line.Line] {
			continue
		}
		delete(again, line.Line)
		r := &line.Record
		data, matches, err := b.files.Read(r.RecordedInput)
		if err != nil || !matches {
			continue
		}
		b.norm = normalized(b.norm[:0], data)
		b.reportDecisions(b.norm, r, line.Line)
		if len(again) == 0 {
			break
		}
	}
}

// priorDecisions lists, per earlier review session, the decision texts
// of reviews that ended before r started found in norm (an input's
// normal form), leaving out texts the session was itself given.
func (b *bench) priorDecisions(norm []byte, r *tables.Receipt) []priorHit {
	d := &b.decided
	d.starts, d.ends = d.starts[:0], d.ends[:0]
	for i := 0; i < len(norm); {
		for i < len(norm) && norm[i] == ' ' {
			i++
		}
		if i == len(norm) {
			break
		}
		j := i
		for j < len(norm) && norm[j] != ' ' {
			j++
		}
		d.starts, d.ends = append(d.starts, i), append(d.ends, j)
		i = j
	}
	n := len(d.starts)
	d.p1, d.p2 = append(d.p1[:0], 0), append(d.p2[:0], 0)
	for k := 0; k < n; k++ {
		x := wordHash(norm[d.starts[k]:d.ends[k]])
		d.p1, d.p2 = append(d.p1, d.p1[k]*decisionBase1+x), append(d.p2, d.p2[k]*decisionBase2+x)
	}
	pow := func(base uint64, e int32) uint64 {
		p := uint64(1)
		for b := base; e > 0; e >>= 1 {
			if e&1 == 1 {
				p *= b
			}
			b *= b
		}
		return p
	}
	span := func(p []uint64, base uint64, i int, words int32) uint64 {
		return p[i+int(words)] - p[i]*pow(base, words)
	}
	var hits []priorHit
	at := map[int32]int{}
	seen := map[int32]bool{}
	var anchorPow = pow(decisionBase1, minFragmentWords)
	for i := 0; i+minFragmentWords <= n; i++ {
		an := d.p1[i+minFragmentWords] - d.p1[i]*anchorPow
		if !d.maybeAnchor(an) {
			continue
		}
		for _, k := range d.anchor[an] {
			dc := &d.list[k]
			if seen[k] || i+int(dc.words) > n || span(d.p1, decisionBase1, i, dc.words) != dc.h1 || span(d.p2, decisionBase2, i, dc.words) != dc.h2 {
				continue
			}
			if !d.refs[dc.ref].ended.Before(r.StartedAt) {
				continue
			}
			seen[k] = true
			text := string(norm[d.starts[i]:d.ends[i+int(dc.words)-1]])
			if b.givenText(r, " "+text+" ") {
				continue
			}
			if j, ok := at[dc.ref]; ok {
				hits[j].count++
				continue
			}
			at[dc.ref] = len(hits)
			hits = append(hits, priorHit{ref: dc.ref, what: dc.what, text: text, count: 1})
		}
	}
	slices.SortStableFunc(hits, func(x, y priorHit) int { return d.refs[x.ref].ended.Compare(d.refs[y.ref].ended) })
	return hits
}

// givenText reports whether text (a normal form, padded) is part of what
// the session was itself given: its case's task files or its profile's
// prompts.
func (b *bench) givenText(r *tables.Receipt, text string) bool {
	for _, f := range b.b.Files[r.TaskID] {
		if strings.Contains(string(normalized(nil, b.c.Sources[f.SHA256])), text) {
			return true
		}
	}
	for _, arm := range b.c.Manifest.Design.Arms {
		if arm.ID != deref(r.Arm) {
			continue
		}
		for _, id := range arm.Prompts {
			if strings.Contains(string(normalized(nil, b.c.Prompts[id])), text) {
				return true
			}
		}
	}
	return false
}
