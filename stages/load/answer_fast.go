package load

import (
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/evalgate/evalgate/tables"
)

// The answer's fast path: a reader written for the one shape of the
// response contract that decides, in a single scan of the bytes and
// without reflection or tokens, whether an answer is one the generic
// pass (decodeDoc against the published answer schema) accepts without a
// single finding, and if so decodes it into the same Go value. It never
// reports anything: at the first byte it is not sure of (an escape it
// does not decode, a number that is not a plain line number, a member out
// of the contract, any value a rule of the schema would flag) it gives
// up, and the document is decoded by the generic pass from its first
// byte, which finds and words every problem as before. So the findings
// of every answer are the generic pass's; only a clean answer is read
// faster. FuzzAnswerFast checks the two against each other, and
// TestAnswerFastSchema that the shape written here is the published
// schema's.

// answerDecoder is one fast pass's state, reused across answers
// (answerDecoders): the scratch lists a document's arrays are read into
// before they are copied into slices of their exact length, and the
// slabs those copies are carved out of.
type answerDecoder struct {
	scanner
	buf []byte // an escaped string's unescaped bytes
	// whole is a copy of the document the texts are views of (view);
	// owned is whether the texts may be views of the document itself.
	whole string
	owned bool
	// paths are recent citation paths, by hash: the paths of a campaign's
	// answers repeat, and each is kept once (by the rows too).
	paths [64]string

	ids     []string
	claims  []tables.Claim
	actions []tables.Action
	verifs  []tables.Verification
	uncs    []tables.Uncertainty
	excls   []tables.Exclusion
	cites   []tables.Citation
	obls    []tables.Obligation
	disps   []tables.Disposition
	// lists are the slabs the copies of those lists are carved out of:
	// they outlast the pass (the decoded values keep them), the pool
	// keeps each one's current block.
	lists answerSlabs
	// ratings are adjudicationFast's lists.
	ratings adjudicationScratch
}

// answerSlabs are an answer decoder's slabs, one by element type, and
// one for the lists the rows keep (kept).
type answerSlabs struct {
	strs slab[string]
	// kept holds the citations' supports and the evidence dispositions'
	// final IDs, which the validation's rows keep after the answer is
	// gone (validate's citation and disposition rows, until their spool
	// encodes them): a block of its own holds only such lists, so a row
	// never keeps alive the other lists of its answer, nor of others.
	kept    slab[string]
	claims  slab[tables.Claim]
	actions slab[tables.Action]
	verifs  slab[tables.Verification]
	uncs    slab[tables.Uncertainty]
	excls   slab[tables.Exclusion]
	cites   slab[tables.Citation]
	obls    slab[tables.Obligation]
	disps   slab[tables.Disposition]
}

var answerDecoders = sync.Pool{New: func() any { return new(answerDecoder) }}

// answerFast decodes data into a (which it may leave partly set when it
// gives up) and reports whether data is an answer the generic pass
// accepts with no finding, decoded here to the value that pass stores.
// When owned, the decoded texts are views of data (see answerOwned).
func answerFast(data []byte, a *tables.Answer, owned bool) bool {
	d := answerDecoders.Get().(*answerDecoder)
	d.d, d.i, d.owned = data, 0, owned
	ok := d.answer(a) && d.end() // nothing but white space after the value
	d.release()
	return ok
}

// release clears what the pass read (the pool keeps no document) and
// returns the decoder to its pool.
func (d *answerDecoder) release() {
	d.reset()
	answerDecoders.Put(d)
}

// reset clears what the pass read, keeping the slabs' blocks.
func (d *answerDecoder) reset() {
	d.d, d.i, d.whole = nil, 0, ""
	clearScratch(&d.ids)
	clearScratch(&d.claims)
	clearScratch(&d.actions)
	clearScratch(&d.verifs)
	clearScratch(&d.uncs)
	clearScratch(&d.excls)
	clearScratch(&d.cites)
	clearScratch(&d.obls)
	clearScratch(&d.disps)
	if cap(d.buf) > 1<<16 {
		d.buf = nil
	}
}

// unescape is b, a string's bytes with only the escapes rawString
// admits, unescaped into d.buf.
func (d *answerDecoder) unescape(b []byte) []byte {
	out := d.buf[:0]
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		switch b[i] {
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default: // " \ /
			c = b[i]
		}
		out = append(out, c)
	}
	d.buf = out
	return out
}

// text reads a string of the text rule (checkText): non-empty, trimmed,
// at most maxText Unicode scalar values.
func (d *answerDecoder) text(dst *string) bool {
	b, esc, ok := d.rawString()
	if !ok {
		return false
	}
	if esc {
		b = d.unescape(b)
	}
	var s string
	if esc {
		s = string(b)
	} else {
		s = d.view(b)
	}
	if s == "" || strings.TrimSpace(s) != s || len(s) > maxText && utf8.RuneCountInString(s) > maxText {
		return false
	}
	*dst = s
	return true
}

// view is b, bytes of the document, as a string: a part of one copy of
// the whole document, made at the first view, so that the texts of an
// answer cost one allocation. Only the texts are views: they live as long
// as the answer, while the IDs and paths that rows keep are not parts of
// it (a row must not keep a whole answer alive). When the document's
// bytes are the answer's own (answerOwned), the texts are views of them
// and cost nothing. (A task's hashes are views too: taskDecoder.hex.)
func (d *answerDecoder) view(b []byte) string {
	if d.owned && len(b) > 0 {
		return unsafe.String(&b[0], len(b))
	}
	if d.whole == "" {
		d.whole = string(d.d)
	}
	off := cap(d.d) - cap(b) // b is d.d[off:...]
	return d.whole[off : off+len(b)]
}

// path reads a string of the path rule (checkPath).
func (d *answerDecoder) path(dst *string) bool {
	b, esc, ok := d.rawString()
	if !ok {
		return false
	}
	if esc {
		b = d.unescape(b)
	}
	slot := &d.paths[fnv32(b)%uint32(len(d.paths))]
	if *slot != string(b) {
		if len(b) > maxInterned {
			s := string(b)
			if pathProblem(s) != "" {
				return false
			}
			*dst = s
			return true
		}
		*slot = string(b)
	}
	if pathProblem(*slot) != "" {
		return false
	}
	*dst = *slot
	return true
}

// fnv32 is the FNV-1a hash of b.
func fnv32(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// id reads an ID whose type letter is one of prefixes (idCheck). An
// escaped ID is left to the generic pass.
func (d *answerDecoder) id(prefixes string, dst *string) bool {
	b, esc, ok := d.rawString()
	if !ok || esc || len(b) < 2 || strings.IndexByte(prefixes, b[0]) < 0 || b[1] == '0' {
		return false
	}
	n := 0
	for _, c := range b[1:] {
		if !isDigit(c) {
			return false
		}
		n = n*10 + int(c-'0')
	}
	if len(b) <= 4 { // a number below 1000: shared
		*dst = sharedID(b[0], n)
	} else {
		*dst = string(b)
	}
	return true
}

// sharedIDs holds the strings of the IDs with numbers below its size,
// by type letter (idLetters), so that the IDs of a million answers cost
// no allocation.
var (
	sharedIDs     [len(idLetters)][1024]string
	sharedIDsOnce sync.Once
)

const idLetters = "CAVUXEO"

func sharedID(letter byte, n int) string {
	sharedIDsOnce.Do(func() {
		for k := range idLetters {
			for i := 1; i < len(sharedIDs[k]); i++ {
				sharedIDs[k][i] = string(idLetters[k]) + itoa(i)
			}
		}
	})
	return sharedIDs[strings.IndexByte(idLetters, letter)][n]
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// idList reads an array of unique IDs of prefixes, at least min of them,
// copied into into.
func (d *answerDecoder) idList(prefixes string, min int, dst *[]string, into *slab[string]) bool {
	d.ids = d.ids[:0]
	n, ok := d.elements(-1, func(int) bool {
		var id string
		if !d.id(prefixes, &id) {
			return false
		}
		for _, seen := range d.ids {
			if seen == id { // uniqueItems
				return false
			}
		}
		d.ids = append(d.ids, id)
		return true
	})
	if !ok || n < min {
		return false
	}
	*dst = into.copy(d.ids)
	return true
}

// The member names of each record of the contract, in schema order
// (TestAnswerFastSchema checks them).
var (
	answerMembers         = []string{"final", "reconciliation"}
	finalMembers          = []string{"claims", "implementation_plan", "verification_plan", "uncertainties", "exclusions", "citations"}
	claimMembers          = []string{"id", "text", "status", "evidence_ids", "uncertainty_id"}
	actionMembers         = []string{"id", "action", "rationale", "support_basis", "evidence_ids", "verification_ids", "verification_limitation"}
	verificationMembers   = []string{"id", "expected_behavior", "method", "support_basis", "evidence_ids", "uncertainty_id"}
	uncertaintyMembers    = []string{"id", "missing_information", "consequence", "verification_step"}
	exclusionMembers      = []string{"id", "scope_item", "reason", "evidence_ids"}
	citationMembers       = []string{"evidence_id", "path", "start_line", "end_line", "supports"}
	reconciliationMembers = []string{"obligations", "evidence_dispositions"}
	obligationMembers     = []string{"id", "text", "basis", "status", "evidence_ids", "final_ids"}
	dispositionMembers    = []string{"evidence_id", "status", "final_ids"}
)

// The caps of the record arrays (TestAnswerFastSchema checks them).
const (
	maxClaims, maxActions, maxVerifications, maxUncertainties = 32, 32, 32, 32
	maxExclusions, maxCitations                               = 64, 128
	minObligations, maxObligations                            = 1, 16
)

func (d *answerDecoder) answer(a *tables.Answer) bool {
	return d.object(answerMembers, func(k int) bool {
		if k == 0 {
			return d.final(&a.Final)
		}
		if d.null() {
			a.Reconciliation = nil
			return true
		}
		a.Reconciliation = new(tables.Reconciliation)
		return d.reconciliation(a.Reconciliation)
	})
}

func (d *answerDecoder) final(f *tables.Final) bool {
	return d.object(finalMembers, func(k int) bool {
		switch k {
		case 0:
			return records(&d.scanner, &d.claims, maxClaims, &f.Claims, &d.lists.claims, d.claim)
		case 1:
			return records(&d.scanner, &d.actions, maxActions, &f.ImplementationPlan, &d.lists.actions, d.action)
		case 2:
			return records(&d.scanner, &d.verifs, maxVerifications, &f.VerificationPlan, &d.lists.verifs, d.verification)
		case 3:
			return records(&d.scanner, &d.uncs, maxUncertainties, &f.Uncertainties, &d.lists.uncs, d.uncertainty)
		case 4:
			return records(&d.scanner, &d.excls, maxExclusions, &f.Exclusions, &d.lists.excls, d.exclusion)
		default:
			return records(&d.scanner, &d.cites, maxCitations, &f.Citations, &d.lists.cites, d.citation)
		}
	})
}

// nullableID reads null (leaving *dst nil) or an ID of prefixes.
func (d *answerDecoder) nullableID(prefixes string, dst **string) bool {
	if d.null() {
		*dst = nil
		return true
	}
	var s string
	if !d.id(prefixes, &s) {
		return false
	}
	*dst = d.lists.strs.one(s)
	return true
}

func (d *answerDecoder) claim(c *tables.Claim) bool {
	return d.object(claimMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("C", &c.ID)
		case 1:
			return d.text(&c.Text)
		case 2:
			return d.enum(&c.Status, tables.ClaimSourceBacked, tables.ClaimInference, tables.ClaimUnknown)
		case 3:
			return d.idList("E", 0, &c.EvidenceIDs, &d.lists.strs)
		default:
			return d.nullableID("U", &c.UncertaintyID)
		}
	})
}

func (d *answerDecoder) action(x *tables.Action) bool {
	return d.object(actionMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("A", &x.ID)
		case 1:
			return d.text(&x.Action)
		case 2:
			return d.text(&x.Rationale)
		case 3:
			return d.enum(&x.SupportBasis, tables.BasisSource, tables.BasisTask)
		case 4:
			return d.idList("E", 0, &x.EvidenceIDs, &d.lists.strs)
		case 5:
			return d.idList("V", 0, &x.VerificationIDs, &d.lists.strs)
		default:
			if d.null() {
				x.VerificationLimitation = nil
				return true
			}
			var s string
			if !d.text(&s) {
				return false
			}
			x.VerificationLimitation = d.lists.strs.one(s)
			return true
		}
	})
}

func (d *answerDecoder) verification(x *tables.Verification) bool {
	return d.object(verificationMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("V", &x.ID)
		case 1:
			return d.text(&x.ExpectedBehavior)
		case 2:
			return d.text(&x.Method)
		case 3:
			return d.enum(&x.SupportBasis, tables.BasisSource, tables.BasisTask, tables.BasisMissingSource)
		case 4:
			return d.idList("E", 0, &x.EvidenceIDs, &d.lists.strs)
		default:
			return d.nullableID("U", &x.UncertaintyID)
		}
	})
}

func (d *answerDecoder) uncertainty(x *tables.Uncertainty) bool {
	return d.object(uncertaintyMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("U", &x.ID)
		case 1:
			return d.text(&x.MissingInformation)
		case 2:
			return d.text(&x.Consequence)
		default:
			return d.text(&x.VerificationStep)
		}
	})
}

func (d *answerDecoder) exclusion(x *tables.Exclusion) bool {
	return d.object(exclusionMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("X", &x.ID)
		case 1:
			return d.text(&x.ScopeItem)
		case 2:
			return d.text(&x.Reason)
		default:
			return d.idList("E", 0, &x.EvidenceIDs, &d.lists.strs)
		}
	})
}

func (d *answerDecoder) citation(x *tables.Citation) bool {
	return d.object(citationMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("E", &x.EvidenceID)
		case 1:
			return d.path(&x.Path)
		case 2:
			return d.line(&x.StartLine)
		case 3:
			return d.line(&x.EndLine)
		default:
			return d.idList("CAVX", 1, &x.Supports, &d.lists.kept)
		}
	})
}

func (d *answerDecoder) reconciliation(r *tables.Reconciliation) bool {
	return d.object(reconciliationMembers, func(k int) bool {
		if k == 0 {
			return records(&d.scanner, &d.obls, maxObligations, &r.Obligations, &d.lists.obls, d.obligation) && len(r.Obligations) >= minObligations
		}
		return records(&d.scanner, &d.disps, -1, &r.EvidenceDispositions, &d.lists.disps, d.disposition)
	})
}

func (d *answerDecoder) obligation(o *tables.Obligation) bool {
	return d.object(obligationMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("O", &o.ID)
		case 1:
			return d.text(&o.Text)
		case 2:
			return d.enum(&o.Basis, tables.BasisTask, tables.BasisSource)
		case 3:
			return d.enum(&o.Status, tables.ObligationAddressed, tables.ObligationExcluded, tables.ObligationUnresolved)
		case 4:
			return d.idList("E", 0, &o.EvidenceIDs, &d.lists.strs)
		default:
			return d.idList("CAVUX", 1, &o.FinalIDs, &d.lists.strs)
		}
	})
}

func (d *answerDecoder) disposition(x *tables.Disposition) bool {
	return d.object(dispositionMembers, func(k int) bool {
		switch k {
		case 0:
			return d.id("E", &x.EvidenceID)
		case 1:
			return d.enum(&x.Status, tables.DispositionUsed, tables.DispositionExcluded, tables.DispositionUnresolved)
		default:
			return d.idList("CAVUX", 1, &x.FinalIDs, &d.lists.kept)
		}
	})
}
